"""One round of hand-to-hand combat from both sides' secret declarations (digest 10.2).

Rulings C-38 … C-44 and ours C-70, C-71: Personal Combat rolls first, then the grapple, evasion
and draw step, then every strike; damage is applied only after the last strike is rolled, so
the strikes are simultaneous. Rolls go in ascending man-id order so a game replays exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando import melee
from killhouse.rulesets.commando.characters import skill_check
from killhouse.rulesets.commando.men import ManState
from killhouse.rulesets.commando.notes import note_hit
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.commando.wounds import Wound

Choice = Literal["strike", "grapple", "evade", "draw"]

#: ruling C-71: the H2H row a carried item strikes with (firearms by the digest's three rows;
#: the shotgun and flamethrower as long arms); an empty hand fights with fists
_FIREARM_ROWS = {
    "pistol": "pistol", "carbine": "rifle", "rifle": "rifle", "shotgun": "rifle",
    "flamethrower": "rifle", "ak47": "automatic", "m16": "automatic", "auto_rifle": "automatic",
    "smg": "automatic", "lmg": "automatic", "mg": "automatic",
}


def strike_row(item: str | None) -> str:
    """The Hand-to-Hand Combat Table row for what he holds (C-43, C-71)."""
    if item is None:
        return "fists"
    if item in tables().melee:
        return item
    if item in _FIREARM_ROWS:
        return _FIREARM_ROWS[item]
    raise KeyError(f"{item!r} is neither a firearm nor a hand-to-hand weapon")


@dataclass(frozen=True)
class Declaration:
    """One engaged man's secret choice for the round (digest 10.2 step 1)."""

    man: str
    choice: Choice
    target: str | None = None   # strike, grapple
    weapon: str | None = None   # draw: the weapon to bring to hand


@dataclass
class RoundResult:
    """What happened in a round; ``blows`` are (striker, target, blow) in roll order."""

    personal_combat: dict[str, bool] = field(default_factory=dict)
    grapples: list[tuple[str, str, bool]] = field(default_factory=list)
    breaks: list[tuple[str, bool]] = field(default_factory=list)
    draws: dict[str, bool] = field(default_factory=dict)
    blows: list[tuple[str, str, melee.Blow]] = field(default_factory=list)


def _grappled(a: ManState, b: ManState) -> bool:
    return a.grappled_with == b.id and b.grappled_with == a.id


def melee_round(
    chance: Chance,
    men: Mapping[str, ManState],
    declarations: Mapping[str, Declaration],
    audience: Audience = None,
) -> RoundResult:
    """Resolve one round among ``men`` (all engaged in one square) and apply its results."""
    out = RoundResult()
    order = sorted(declarations)
    evading = {m for m in order if declarations[m].choice == "evade"}
    # Personal Combat: rolled at the start of each round (12.1)
    for m in order:
        man = men[m]
        skill = man.ratings.skills.get("personal_combat")
        if skill is not None and man.active():
            out.personal_combat[m] = skill_check(
                chance, "personal_combat", skill.rating, man.ratings.hero_skill(),
                audience=audience, who=m,
            )
    # grapple, evasion and draw step (C-40, C-41)
    for m in order:
        d, man = declarations[m], men[m]
        if not man.active():
            continue
        if d.choice == "grapple" and d.target is not None:
            opp = men[d.target]
            if _grappled(man, opp) or not opp.active():
                continue
            ok = melee.grapple(chance, man.ratings.st, opp.ratings.st, d.target in evading,
                               audience)
            out.grapples.append((m, d.target, ok))
            if ok:
                man.grappled_with, opp.grappled_with = opp.id, man.id
        elif d.choice == "evade" and man.grappled_with is not None:
            opp = men[man.grappled_with]
            # rulings C-40, C-72: breaking free is the grapple roll without the evasion penalty
            ok = melee.grapple(chance, man.ratings.st, opp.ratings.st, False, audience)
            out.breaks.append((m, ok))
            if ok:
                man.grappled_with = opp.grappled_with = None
        elif d.choice == "draw" and d.weapon is not None:
            armed = man.in_hand is not None
            ok = melee.draw(chance, armed, man.grappled_with is not None, audience)
            out.draws[m] = ok
    # strike step: roll every strike, then apply (C-38, ruling C-70)
    for m in order:
        d, man = declarations[m], men[m]
        if d.choice != "strike" or d.target is None or not man.active():
            continue
        target = men[d.target]
        if target.wound() is Wound.DEAD:
            continue
        row = strike_row(man.in_hand)
        strike = melee.Strike(
            row, st=man.ratings.st, hero_combat=man.ratings.hero_combat(),
            wp=man.ratings.wp(man.in_hand or "fists"),
            target_evading=d.target in evading,
            personal_combat=out.personal_combat.get(m, False),
            severely_wounded=man.severely_wounded(),
            grappled=_grappled(man, target),
        )
        out.blows.append((m, d.target, melee.strike(chance, strike, audience)))
        if out.blows[-1][2].result != melee.MISS:
            note_hit(m, man.in_hand or "fists")  # for the campaign (digest 14 step 4)
    for m, ok in out.draws.items():
        if ok:
            men[m].in_hand = declarations[m].weapon  # in hand from the next round (10.2)
    for _, victim, blow in out.blows:
        if blow.result == melee.KILL:
            men[victim].kill()
        elif blow.result == melee.WOUND:
            men[victim].take_damage(blow.damage)
    for man in men.values():
        if man.grappled_with is not None and not man.active():
            other = men.get(man.grappled_with)
            if other is not None:
                other.grappled_with = None
            man.grappled_with = None
    return out


def engagement_over(men: Mapping[str, ManState]) -> bool:
    """Ruling C-37: the engagement ends when only one side has active men in the square."""
    return len({m.side for m in men.values() if m.active()}) < 2


def may_enter(square: Sequence[ManState], side: str) -> bool:
    """Ruling C-37: a square holds at most 2 men of each side (out-of-action men don't count)."""
    return sum(1 for m in square if m.side == side and m.active()) < tables().max_per_side


def engage(square: Sequence[ManState]) -> None:
    """Moving into an enemy's square engages every man of both sides there (C-37); the mover's
    activation ends (the turn's business)."""
    sides = {m.side for m in square if m.active()}
    if len(sides) > 1:
        for m in square:
            if m.active():
                m.engaged = True


def disengagement(
    chance: Chance, square: Sequence[ManState], withdrawing: Sequence[str],
    audience: Audience = None,
) -> str:
    """Phase 4 step 1 for one square's side of withdrawers (C-42): each pays 20 TP whatever
    happens; 2d6 on the Disengagement Table against the enemies staying. On ``all`` every
    withdrawer gets away; on ``one`` the withdrawing side names who (``release``)."""
    cost = tables().cost["disengage"]
    leaving = [m for m in square if m.id in withdrawing and m.active()]
    if not leaving:
        return melee.NONE
    side = leaving[0].side
    staying = [m for m in square if m.side != side and m.active()]
    for m in leaving:
        m.tp = max(0, m.tp - cost)
    result = melee.disengage(chance, len(leaving), max(1, len(staying)), audience)
    if result == melee.ALL:
        for m in leaving:
            release(m)
    elif result == melee.ONE and len(leaving) == 1:
        release(leaving[0])
    return result


def release(man: ManState) -> None:
    """He got away: no longer engaged or grappled; his first task must leave the square (C-42)."""
    man.engaged = False
    man.grappled_with = None
    man.must_leave = True
