"""CQB's resolution as pure functions over ``Chance``: tests, the to-hit number, shots, hit
location and results, hostages in the line of fire, stun, CS, other actions and grenade throws.

Play calls these, and the odds (``rolls.py``) run the very same functions under
``enumerate_outcomes``, so printed odds cannot drift from the game.

Ruling Q-46 (ours): the core's "certain rolls use no die" (K-5) does not apply in CQB: a joker
always has its event (section 13), so every test turns a card even when its value cannot pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from killhouse.core.chance import Chance
from killhouse.core.deck import Card, Deck
from killhouse.core.events import Audience
from killhouse.rulesets.cqb.cards import card_label, card_value, draw, is_red
from killhouse.rulesets.cqb.tables import Weapon, tables

# -- tests (section 3, 12.1) --------------------------------------------------------------


@dataclass(frozen=True)
class Test:
    """One card against a TN: passed when the value is ≥ TN; a joker always fails (Q-2)."""

    tn: int
    card: str
    value: int | None
    passed: bool

    @property
    def joker(self) -> bool:
        return self.value is None

    @property
    def margin(self) -> int:
        """How far it failed (TN − card); 0 on a pass, and for a joker."""
        if self.passed or self.value is None:
            return 0
        return self.tn - self.value

    def to_json(self) -> dict[str, object]:
        return {"tn": self.tn, "card": self.card, "value": self.value, "passed": self.passed}


#: what an event of a test or shot tells only the acting figure's side (ruling W-12)
ACTOR_ONLY = ("tn",)


def actor_copies(
    data: Mapping[str, object], actor_side: str, audience: frozenset[str]
) -> dict[str, dict[str, object]]:
    """The copies of a test's or shot's event for the other sides in ``audience``: without
    its target number, which is computed from the actor's wounds, aim, gas, movement and
    cover, some of which the other side may not know (ruling W-12). They see the card, its
    value and what came of it."""
    return {
        side: {k: v for k, v in data.items() if k not in ACTOR_ONLY}
        for side in sorted(audience) if side != actor_side
    }


def judge(card: Card, tn: int) -> Test:
    value = card_value(card)
    return Test(tn, card_label(card), value, value is not None and value >= tn)


def test(
    chance: Chance, deck: Deck, tn: int, purpose: str, audience: Audience = None,
    replace: bool = False,
) -> Test:
    """Draw one card from ``deck`` against ``tn``."""
    return judge(draw(chance, deck, purpose, audience, replace), tn)


Outcome = Literal["pass", "no-progress", "setback", "joker"]


def margin_outcome(result: Test) -> Outcome:
    """Ruling Q-25: margin 1-2 no progress, 3 or more a setback, a joker its event."""
    if result.passed:
        return "pass"
    if result.joker:
        return "joker"
    return "setback" if result.margin >= tables().tests["setback_margin"] else "no-progress"


def difficulty_tn(difficulty: str) -> int:
    """Easy 4, Moderate 6, Difficult 8, Very difficult 10 (section 12.1)."""
    return int(tables().tests["difficulty"][difficulty])


def action_tn(difficulty: str, wounds: int = 0, weak_hand: bool = False, cs: int = 0) -> int:
    """An other action's TN: difficulty plus wounds, weak hand and CS (ruling Q-17)."""
    other = tables().other
    return (
        difficulty_tn(difficulty)
        + other["per_wound"] * wounds
        + (other["weak_hand"] if weak_hand else 0)
        + other["per_cs_failure"] * cs
    )


# -- the to-hit number (section 8.2, 8.3) -----------------------------------------------


def range_modifier(r: float) -> int:
    """Section 8.3.4 with ruling Q-13: the first limit ≥ r; beyond 96", +1 per doubling."""
    rows = tables().range_rows
    for limit, mod in rows:
        if r <= limit:
            return mod
    limit, mod = rows[-1]
    while r > limit:
        limit *= 2
        mod += 1
    return mod


def recoil_modifier(n: int, heavy: bool, automatic: bool) -> int:
    """Section 8.3.5: the 20-row table for burst and auto fire (beyond 20 its last row, Q-14);
    single shots of a heavy-recoil weapon +1 from the second shot of the turn."""
    t = tables()
    if automatic:
        light, heavy_mod = t.recoil[min(max(n, 1), 20)]
        return heavy_mod if heavy else light
    return t.recoil_single_heavy if heavy and n >= 2 else 0


def movement_modifier(firer_moved: float, target_moved: float) -> int:
    """Section 8.3.1: firer moved up to 6" last turn +2; target up to 6" +1, over 6" +2 (Q-9)."""
    m = tables().movement
    mod = m["firer_moved"] if firer_moved > 0 else 0
    if target_moved > m["threshold"]:
        mod += m["target_over_6"]
    elif target_moved > 0:
        mod += m["target_up_to_6"]
    return mod


@dataclass(frozen=True)
class ShotFactors:
    """Everything the TN of one shot depends on (section 8.2)."""

    range: float
    firer_moved: float = 0.0
    target_moved: float = 0.0
    aim: int | None = None  # the weapon category's aim modifier when the shot is aimed
    scope: bool = False  # a telescopic sight, aimed, first shot of the action
    called: str | None = None
    shot: int = 1  # this figure's shot number this turn (ruling Q-14)
    heavy: bool = False
    automatic: bool = False
    wounds: int = 0
    weak_hand: bool = False
    one_handed_long: bool = False  # ruling Q-22: a rifle or shotgun fired one-handed
    change: int = 0  # full inches between the old and the new target (ruling Q-16)
    cs: int = 0
    cover: int = 0


def shot_tn(f: ShotFactors) -> int:
    """TN = 8 + movement + aim + scope + called + range + recoil + other (no limits)."""
    t = tables()
    other = t.other
    tn = t.base_tn + movement_modifier(f.firer_moved, f.target_moved)
    if f.aim is not None:
        tn += f.aim
        if f.scope:
            tn += t.scope_first_shot
    if f.called is not None:
        tn += t.called[f.called]
    tn += range_modifier(f.range)
    tn += recoil_modifier(f.shot, f.heavy, f.automatic)
    tn += other["per_wound"] * f.wounds
    tn += other["weak_hand"] if f.weak_hand else 0
    tn += other["one_handed_long_arm"] if f.one_handed_long else 0
    tn += other["per_inch_changing"] * f.change
    tn += other["per_cs_failure"] * f.cs
    tn += f.cover
    return tn


def recoil_of(weapon: Weapon, one_handed: bool) -> bool:
    """Heavy recoil? Ruling Q-22: a two-handed weapon fired one-handed is heavy recoil."""
    return weapon.recoil == "heavy" or (one_handed and weapon.hands == 2)


# -- a shot (section 8.1, 8.4) ----------------------------------------------------------

ShotOutcome = Literal["hit", "graze", "miss", "joker"]


@dataclass(frozen=True)
class Shot:
    """One shot's card: ``hit``, ``graze`` (a called torso missed by exactly 1: it hits a random
    location, 8.4), ``miss`` (a complete miss) or ``joker`` (a miss with its event)."""

    tn: int
    card: str
    outcome: ShotOutcome
    #: the card's value (``None`` for a joker, which has none)
    value: int | None = None

    def to_json(self) -> dict[str, object]:
        return {"tn": self.tn, "card": self.card, "value": self.value, "outcome": self.outcome}


def resolve_shot(
    chance: Chance, deck: Deck, tn: int, called: str | None, purpose: str = "shot",
    audience: Audience = None, replace: bool = False,
) -> Shot:
    card = draw(chance, deck, purpose, audience, replace)
    value = card_value(card)
    if value is None:
        return Shot(tn, "joker", "joker")
    if value >= tn:
        return Shot(tn, card_label(card), "hit", value)
    if called == "torso" and value == tn - 1:
        return Shot(tn, card_label(card), "graze", value)
    return Shot(tn, card_label(card), "miss", value)


# -- hit location and results (section 9) -----------------------------------------------


@dataclass(frozen=True)
class Protection:
    soft: bool = False
    plates: bool = False
    helmet: bool = False


HitEffect = Literal["dead", "equipment", "stopped", "flesh", "ooa"]


@dataclass(frozen=True)
class Hit:
    """A resolved hit: where, and what it did (section 9.6)."""

    location: str | None
    effect: HitEffect
    knocked_down: bool
    card: str | None = None
    helmet_card: str | None = None
    armour: str | None = None  # what stopped or softened it: plates, soft, helmet
    extra: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"location": self.location, "effect": self.effect,
                                  "knocked_down": self.knocked_down}
        if self.card is not None:
            out["card"] = self.card
        if self.helmet_card is not None:
            out["helmet_card"] = self.helmet_card
        if self.armour is not None:
            out["armour"] = self.armour
        return out


def location_of(value: int) -> tuple[str, bool]:
    """Section 9.1: the location a card value gives, and whether hard plates cover it."""
    return tables().location[value]


def _unarmoured(rnd: str, red: bool, loc: str, card: str, helmet: str | None,
                armour: str | None = None) -> Hit:
    effect = tables().effects[rnd]["red" if red else "black"]
    if effect == "flesh":
        return Hit(loc, "flesh", False, card, helmet, armour)
    return Hit(loc, "ooa", True, card, helmet, armour)


def _soft(rnd: str, red: bool, loc: str, card: str, helmet: str | None, armour: str,
          knockdown: bool) -> Hit:
    # ruling Q-18: soft armour stops pistol, magnum and shotgun; a rifle acts as a pistol round
    if tables().soft_armour.get(rnd) == "as-pistol":
        return _unarmoured("pistol", red, loc, card, helmet, armour)
    return Hit(loc, "stopped", red and knockdown, card, helmet, armour)


def resolve_hit(
    chance: Chance, deck: Deck, rnd: str, called: str | None, target: Protection,
    knockdown: bool = True, purpose: str = "hit location", audience: Audience = None,
    redraw_jokers: bool = False, replace: bool = False,
) -> Hit:
    """Section 9.6. ``deck`` is the firer's (Q-5), or the hostage deck for a hostage (Q-6),
    where a joker location card is discarded and drawn again (``redraw_jokers``)."""
    if called == "brain-stem":
        return Hit("brain-stem", "dead", True)
    card = draw(chance, deck, purpose, audience, replace)
    while card.is_joker and redraw_jokers:
        card = draw(chance, deck, purpose, audience, replace)
    value = card_value(card)
    if value is None:  # section 13: equipment strike
        return Hit(None, "equipment", False, "joker")
    label = card_label(card)
    if called is not None:
        loc, plated = called, called == "torso"
    else:
        loc, plated = location_of(value)
    red = is_red(card)
    t = tables()
    if rnd not in t.ignores_armour:
        if loc == "head" and target.helmet:
            h = draw(chance, deck, "helmet", audience, replace)
            h_label = card_label(h)
            if h.is_joker or not is_red(h):  # black or joker (glancing blow): it gets in the way
                return _soft(rnd, red, loc, label, h_label, "helmet", knockdown)
            return _unarmoured(rnd, red, loc, label, h_label)
        if loc == "torso":
            if plated and target.plates:
                return Hit(loc, "stopped", red and knockdown, label, None, "plates")
            if target.soft:
                return _soft(rnd, red, loc, label, None, "soft", knockdown)
    return _unarmoured(rnd, red, loc, label, None)


# -- hostages in the line of fire (section 8.5) -----------------------------------------


@dataclass(frozen=True)
class Stray:
    """A complete miss checked against the hostages in the line of fire, nearest first."""

    hit: int | None  # index of the hostage hit, if any
    panicked: tuple[int, ...]
    cards: tuple[str, ...]


def resolve_stray(
    chance: Chance, hostage_deck: Deck, count: int, audience: Audience = None,
    replace: bool = False,
) -> Stray:
    """For each hostage in turn a hostage-deck card: red hits (and stops), a joker panics."""
    panicked: list[int] = []
    cards: list[str] = []
    for i in range(count):
        card = draw(chance, hostage_deck, "was the hostage hit?", audience, replace)
        cards.append(card_label(card))
        if card.is_joker:
            panicked.append(i)
        elif is_red(card):
            return Stray(i, tuple(panicked), tuple(cards))
    return Stray(None, tuple(panicked), tuple(cards))


# -- stun and CS (sections 10, 11) ------------------------------------------------------


def stun_tn(turns_since: int) -> int:
    """TN 8 in the detonation turn, then 1 less each later turn (section 10)."""
    s = tables().tests["stun"]
    return int(s["first_tn"]) + int(s["step"]) * turns_since


def cs_tn(turns_since: int) -> int:
    """TN 6 in the deployment turn, then 1 more each later turn (section 11)."""
    s = tables().tests["cs"]
    return int(s["first_tn"]) + int(s["step"]) * turns_since


def cs_failures(result: Test) -> int:
    """Failures a CS test adds: 0 on a pass, 1 on a failure, 2 for a joker (section 13)."""
    if result.passed:
        return 0
    return int(tables().tests["cs"]["joker_failures"]) if result.joker else 1


# -- grenade throws (section 12.2, rulings) ----------------------------------


def throw_difficulty(distance: float, closed_window: bool) -> str | None:
    """Easy within 6", Moderate 6"-12" through an opening; Difficult through a closed window;
    ``None`` beyond 12" (no throw)."""
    g = tables().tests["grenade"]
    if distance > g["far"]:
        return None
    if closed_window:
        return str(g["closed_window"])
    return str(g["near_open"] if distance <= g["near"] else g["far_open"])


Landing = Literal["target", "doorway", "own-room", "lost"]


def throw_landing(result: Test) -> Landing:
    """Success: the target room; fail by 1-2: the doorway (Q-38); 3+: the thrower's own room;
    a joker: a complication, the grenade is lost (ruling Q-47)."""
    outcome = margin_outcome(result)
    return {"pass": "target", "no-progress": "doorway", "setback": "own-room",
            "joker": "lost"}[outcome]  # type: ignore[return-value]


# -- fire actions (section 4.2) ---------------------------------------------------------


def rounds_in_burst(chance: Chance, weapon: Weapon, fixed_auto: bool, audience: Audience = None
                    ) -> int:
    """Burst fire: the weapon's 2 or 3 rounds; full auto: 1dA rounds per burst (the seed's main
    rule, ruling Q-34 as amended by Q-40), or always 3 with ``fixed_auto_burst``."""
    if weapon.firing == "burst":
        return weapon.burst_rounds
    if fixed_auto:
        return tables().fixed_auto_burst_rounds
    return chance.average_die("rounds in the burst", audience)


def rate_of_fire(weapon: Weapon) -> int:
    """Shots (single, semi-auto) or bursts (burst, full auto) per Fire action (section 4.2)."""
    rate = tables().rates[weapon.firing]
    return int(rate.get("shots", rate.get("bursts", 1)))
