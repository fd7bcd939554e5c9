"""Fire: who may shoot at whom (ruling G-12, G-23, G-24), the declaration and the three tiers.

Declarations are secret and simultaneous (step 5): each side names one target per figure,
or holds (G-12). Both sides are always asked, even one with nobody able to shoot (ruling
G-49): whether a side is asked must not betray whether its figures see anyone.
Resolution goes tier by tier (G-14): stationary, then stealthy, then normal movers; within
a tier each shot rolls its hit die then its effect die (G-42), with the firers' penalties as
the tier began, and all results apply at the end of the tier, followed by the end check.
"""

from __future__ import annotations

from typing import Any

from killhouse.core.cells import cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import Audience, EventLog
from killhouse.core.geometry import euclidean_sq
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.gogogo import dice
from killhouse.rulesets.gogogo.geom import AUTO, arc_zone
from killhouse.rulesets.gogogo.harm import take_out, wound
from killhouse.rulesets.gogogo.news import UMPIRE, tell
from killhouse.rulesets.gogogo.orders import commit_action, own_fighter
from killhouse.rulesets.gogogo.state import (
    AIM,
    CT,
    HOSTAGE,
    MOVE,
    MOVING,
    STEALTH,
    VIP,
    Figure,
    GoState,
    id_key,
)
from killhouse.rulesets.gogogo.tables import tables
from killhouse.rulesets.gogogo.victory import end_check
from killhouse.rulesets.gogogo.vision import leader_team, target_hiding, target_moving

NO_FIRE_TASKS = frozenset({"throw", "plant", "defuse"})


def may_fire(state: GoState, fig: Figure) -> bool:
    """Whether a figure may shoot this turn at all (G-12; a sniper also needs G-23)."""
    if not (fig.active and fig.fighter) or fig.weapon not in ("auto", "sniper"):
        return False
    order = state.orders.get(fig.id)
    if order is not None and order.task in NO_FIRE_TASKS:
        return False
    if fig.weapon == "sniper":
        # G-23: AIM this turn, loaded, and at least one complete aiming turn behind it
        return fig.posture == AIM and fig.loaded and fig.aim_turns >= 1
    return True


def fire_targets(state: GoState, fig: Figure) -> list[Figure]:
    """The figures ``fig`` may shoot at now: ones it sees itself (G-9, G-12)."""
    if not may_fire(state, fig) or fig.side is None:
        return []
    sees = state.know[fig.side].sees.get(fig.id, set())
    out: list[Figure] = []
    for target in state.ordered():
        if target.id not in sees or not target.active:
            continue
        if target.kind == HOSTAGE:
            if leader_team(state, target) == fig.team:
                continue
        elif target.team == fig.team:
            continue  # no friendly fire
        elif target.kind == VIP and fig.team == CT:
            continue
        if fig.weapon == "sniper":
            assert fig.pos is not None and target.pos is not None
            zone = arc_zone(fig.facing, target.pos.x - fig.pos.x, target.pos.y - fig.pos.y)
            if zone != AUTO:
                continue  # G-23: a sniper's target is in its auto cone
        out.append(target)
    return out


def tier_of(fig: Figure) -> int:
    """G-14: 1 stationary (HOLD, HIDE, AIM), 2 STEALTH, 3 MOVE."""
    if fig.posture == STEALTH:
        return 2
    if fig.posture == MOVE:
        return 3
    return 1


def firer_row(fig: Figure) -> str:
    if fig.weapon == "sniper":
        return "sniper"
    return "moving" if fig.posture in MOVING else "stationary"


def hit_need(firer: Figure, target: Figure, assume_still: bool = False) -> int:
    """The natural d6 a shot needs (table 3.2 with its modifiers).

    ``assume_still`` ignores the target's movement and hiding: the firer's side never learns
    them (G-36), so hints for bots use it.
    """
    assert firer.pos is not None and target.pos is not None
    span = euclidean_sq(firer.pos, target.pos)
    short = span <= tables().short_range_sq
    moving = False if assume_still else target_moving(target)
    hiding = False if assume_still else (target_hiding(target) and not target.fired)
    aim = firer.aim_turns if firer.weapon == "sniper" else 0
    return dice.fire_need(firer_row(firer), short, moving, hiding, firer.wounds, firer.stunned, aim)


def resolve_fire(state: GoState, chance: Chance, log: EventLog, declared: dict[str, str]) -> None:
    """Step 6: the three tiers; ends early if an end check ends the game.

    Each shot is one event. The umpire's copy holds the need and why; the firer's side
    reads only the result (its hit die is the umpire's: die and result together would tell
    the need, and so the target's hidden movement and hiding, ruling G-67); the target's
    side reads the result and the shooter only if it sees it, never the tier (G-68).
    """
    for fid in declared:
        state.fig(fid).fired = True  # G-10: a hider that fires loses its −1 from now on
    for tier in (1, 2, 3):
        shots: list[tuple[Figure, Figure, dict[str, object], str]] = []
        firers = [state.fig(fid) for fid in sorted(declared, key=id_key)]
        for firer in firers:
            if not firer.active or tier_of(firer) != tier:
                continue
            target = state.fig(declared[firer.id])
            if not target.active:
                tell(
                    state,
                    log,
                    "shot-lost",
                    {"firer": firer.id, "target": target.id},
                    [firer.side],
                    [firer.id],
                )
                continue
            need = hit_need(firer, target)
            owner_side = _owner_side(state, firer, target)
            effect_aud = _explicit(state, [firer.side, owner_side], [firer.id, target.id])
            # the hit die is the umpire's (G-67); the effect die, unmodified, is both sides'
            result = dice.MISS
            if dice.need_roll(
                chance, need, f"fire {firer.id} at {target.id}: needs {need}", UMPIRE
            ):
                result = (
                    tables().sniper_hit
                    if firer.weapon == "sniper"
                    else dice.hit_effect(
                        chance, f"fire {firer.id} at {target.id}: effect", effect_aud
                    )
                )
            assert firer.pos is not None and target.pos is not None
            umpire: dict[str, object] = {
                "firer": firer.id,
                "target": target.id,
                "tier": tier,
                "posture": firer.posture,
                "range": "short"
                if euclidean_sq(firer.pos, target.pos) <= tables().short_range_sq
                else "long",
                "target_moving": target_moving(target),
                "target_hiding": target_hiding(target) and not target.fired,
                "need": need,
                "result": result,
            }
            shots.append((firer, target, umpire, result))
        for firer, target, umpire, result in shots:
            copies: dict[str, dict[str, object]] = {
                str(firer.side): {
                    "firer": firer.id,
                    "target": target.id,
                    "tier": tier,
                    "result": result,
                }
            }
            owner_side = _owner_side(state, firer, target)
            seats = [firer.id]
            if owner_side is not None:
                by = firer.id if firer.id in state.know[owner_side].seen else None
                copies[owner_side] = {"target": target.id, "result": result, "by": by}
                seats.append(target.id)
                if state.per_player and target.id in state.seat_know:
                    # G-35: the target's player names the shooter only if its figure sees it
                    mine = firer.id if firer.id in state.seat_know[target.id].seen else None
                    copies[target.id] = {"target": target.id, "result": result, "by": mine}
            sides = [s for s in copies if s in state.sides]
            tell(state, log, "shot", umpire, sides, seats, copies)
            if target.kind == HOSTAGE and target.leader is None:
                target.in_danger = True  # G-26: a hostage shot at takes cover
        for _firer, target, _umpire, result in shots:
            if result == dice.WOUNDED and target.active:
                wound(target)
        for firer, target, _umpire, result in shots:
            if result == dice.OOA and target.active:
                take_out(state, log, target, firer.team)
        if end_check(state, log, f"fire tier {tier}"):
            return


def _owner_side(state: GoState, firer: Figure, target: Figure) -> str | None:
    """The side that owns the target (a hostage's: the side leading it), if not the firer's."""
    owner = leader_team(state, target) if target.kind == HOSTAGE else target.team
    if owner is None or owner == firer.team:
        return None
    return state.side_of[owner]


def _explicit(state: GoState, sides: list[str | None], seats: list[str]) -> Audience:
    """An audience named in full, never "everyone": a spectator reads none of it."""
    chosen = {s for s in sides if s is not None}
    if state.per_player:
        chosen |= set(seats)
    return frozenset(chosen)


# -- step 5: the declaration -------------------------------------------------------------------


def fire_actions(state: GoState, side: str) -> list[Action]:
    """Every action of the fire decision for ``side``."""
    draft = state.drafts[side]
    if draft.committed:
        return []
    out: list[Action] = []
    for ident, listed in _fire_parts(state, side):
        if ident not in draft.fire:
            out.extend(listed)
    out.append(commit_action(side))
    return out


def _fire_parts(state: GoState, side: str) -> tuple[tuple[str, tuple[Action, ...]], ...]:
    """Each of the side's active fighters with its fire actions (its shots, then its hold;
    none without a target), kept for the step: who sees whom and where everyone stands change
    only when a step resolves, while the list is asked again after every declaration."""
    key = ("fire-parts", side)
    found: tuple[tuple[str, tuple[Action, ...]], ...] | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = tuple(
            (fig.id, _figure_fire(state, side, fig)) for fig in state.active_fighters(side)
        )
    return found


def _figure_fire(state: GoState, side: str, fig: Figure) -> tuple[Action, ...]:
    """One fighter's shots at every target it may fire at, then its hold."""
    targets = fire_targets(state, fig)
    if not targets:
        return ()
    out: list[Action] = []
    for target in targets:
        p = dice.chance_of(hit_need(fig, target, assume_still=True))
        hint: dict[str, Any] = {"role": "attack", "p": p, "target": cell_json(target.pos)}
        if target.kind == HOSTAGE:
            hint.update(role="other", confirm="the target is a hostage")
            out.append(
                Action.make(side, "fire", hint=hint, figure=fig.id, target=target.id, confirm=True)
            )
        else:
            out.append(Action.make(side, "fire", hint=hint, figure=fig.id, target=target.id))
    out.append(Action.make(side, "hold", hint={"role": "pass"}, figure=fig.id))
    return tuple(out)


def check_fire(state: GoState, side: str, action: Action) -> tuple[Figure, Figure]:
    fig = own_fighter(state, side, action)
    if fig.id in state.drafts[side].fire:
        raise IllegalActionError(f"{fig.id} has already declared its fire this turn")
    ident = action.get("target")
    targets = {t.id: t for t in fire_targets(state, fig)}
    if not isinstance(ident, str) or ident not in targets:
        raise IllegalActionError(
            f"{fig.id} cannot fire at {ident!r}: it must be an enemy or hostage {fig.id} sees "
            "(and a sniper needs AIM, a loaded rifle and a full turn of aim)"
        )
    target = targets[ident]
    if target.kind == HOSTAGE and action.get("confirm") is not True:
        raise IllegalActionError(f"{ident} is a hostage: fire at it only with confirm=true (G-12)")
    return fig, target


def check_hold(state: GoState, side: str, action: Action) -> Figure:
    fig = own_fighter(state, side, action)
    if fig.id in state.drafts[side].fire:
        raise IllegalActionError(f"{fig.id} has already declared its fire this turn")
    return fig
