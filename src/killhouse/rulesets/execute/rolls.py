"""The core roll "level times two minus skill" and every named resolution built on it.

These functions are the single place where Execute's dice are rolled: play calls them, and
the odds calculator (``rolls()`` of the ruleset) runs the very same functions under
``enumerate_outcomes``, so the printed odds cannot drift from the game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.execute.tables import tables


def target_number(rating: int, skill: int) -> int:
    """``TN = 2 × rating − skill`` (digest section 4)."""
    return 2 * rating - skill


def effective(base: int, damage: int) -> int:
    """A skill after wounds: ``max(0, base − 2 × damage)`` (ruling E-14)."""
    return max(0, base - 2 * damage)


def success_chance(die: int, tn: int) -> Fraction:
    """P(natural dN ≥ TN) with the automatic edges of ruling E-13 (section 9's table)."""
    if tn <= 1:
        return Fraction(1)
    if tn > die:
        return Fraction(0)
    return Fraction(die - tn + 1, die)


@dataclass(frozen=True)
class Check:
    """One resolved core roll: its TN, the die, the natural roll (``None`` if automatic)."""

    die: int
    tn: int
    roll: int | None
    success: bool

    @property
    def automatic(self) -> bool:
        return self.roll is None

    def to_json(self) -> dict[str, Any]:
        return {"die": f"d{self.die}", "tn": self.tn, "roll": self.roll, "success": self.success}


def core_check(chance: Chance, die: int, tn: int, purpose: str, audience: Audience = None) -> Check:
    """Roll dN against TN. Ruling E-13: TN ≤ 1 succeeds and TN > N fails with no die used."""
    if tn <= 1:
        return Check(die, tn, None, True)
    if tn > die:
        return Check(die, tn, None, False)
    roll = chance.roll(die, purpose, audience)
    return Check(die, tn, roll, roll >= tn)


# -- shots (5.4) -------------------------------------------------------------------------


def shot_tn(evasion: int, firearms: int, damage: int = 0) -> int:
    """``2 × target EV − effective Firearms`` (5.4, E-14)."""
    return target_number(evasion, effective(firearms, damage))


def resolve_shot(
    chance: Chance,
    weapon: str,
    firearms: int,
    evasion: int,
    damage: int = 0,
    audience: Audience = None,
) -> Check:
    """A shot with ``weapon`` by a firer of base ``firearms`` who has taken ``damage`` VD."""
    die = tables().weapons[weapon].die
    return core_check(chance, die, shot_tn(evasion, firearms, damage), "shot", audience)


# -- devices and bombs (5.7, 5.8) --------------------------------------------------------


def device_tn(level: int, electronics: int, damage: int = 0) -> int:
    return target_number(level, effective(electronics, damage))


def resolve_device(
    chance: Chance,
    level: int,
    electronics: int,
    damage: int = 0,
    audience: Audience = None,
    purpose: str = "device",
) -> Check:
    """A lock, security, camera or power task on d12 (5.7, E-18)."""
    return core_check(
        chance, tables().device["die"], device_tn(level, electronics, damage), purpose, audience
    )


def resolve_disarm(
    chance: Chance, level: int, electronics: int, damage: int = 0, audience: Audience = None
) -> Check:
    """A bomb disarm on d6; a failure, automatic or rolled, means the bomb explodes (E-21)."""
    return core_check(
        chance, tables().bomb["die"], device_tn(level, electronics, damage), "bomb-disarm", audience
    )


# -- grenades (5.9) -----------------------------------------------------------------------


def grenade_rating(distance: int) -> int:
    """The grenade's rating at ``distance``: 5 + complete blocks of 5 spaces (ruling E-24)."""
    g = tables().grenade
    return g["base_rating"] + distance // g["step_spaces"]


def grenade_tn(distance: int, grenades: int, damage: int = 0) -> int:
    """``2 × (5 + floor(d/5)) − effective Grenades`` (ruling E-24; E-TV8 corrects the source)."""
    return target_number(grenade_rating(distance), effective(grenades, damage))


@dataclass(frozen=True)
class Throw:
    """A grenade throw: its check, and the overshoot ``m`` in squares (0 when on target)."""

    check: Check
    overshoot: int

    def to_json(self) -> dict[str, Any]:
        return {**self.check.to_json(), "overshoot": self.overshoot}


def resolve_grenade(
    chance: Chance, distance: int, grenades: int, damage: int = 0, audience: Audience = None
) -> Throw:
    """Roll d8 against the grenade TN; a miss overshoots by ``TN − roll`` squares (5.9, E-26).

    Ruling E-42: when TN is above 8 the throw cannot land on target (E-13), but the d8 is still
    rolled to find how far it overshoots, as section 9's "in blast" odds require.
    """
    die = tables().grenade["die"]
    tn = grenade_tn(distance, grenades, damage)
    if tn <= 1:
        return Throw(Check(die, tn, None, True), 0)
    roll = chance.roll(die, "grenade", audience)
    if roll >= tn:
        return Throw(Check(die, tn, roll, True), 0)
    return Throw(Check(die, tn, roll, False), tn - roll)


# -- surveillance (5.10) -------------------------------------------------------------------


def _count(spec: int | str, total: int) -> int:
    if spec == "all":
        return total
    if spec == "most":
        return math.ceil(3 * total / 4)  # ruling E-29
    return min(int(spec), total)


def surveillance_counts(roll: int, terrorists: int, hostages: int) -> tuple[int, int]:
    """How many terrorists and hostages a surveillance roll reveals (5.10, E-29)."""
    for band in tables().surveillance:
        if band.low <= roll <= band.high:
            return _count(band.terrorists, terrorists), _count(band.hostages, hostages)
    raise ValueError(f"surveillance roll {roll} is not on the table")


def surveillance_outcome(roll: int, terrorists: int, hostages: int) -> str:
    """``nothing``, ``2-terrorists``, ``5-terrorists+6-hostages`` or ``everyone``."""
    if roll >= tables().surveillance[-1].low:
        return "everyone"
    t, h = surveillance_counts(roll, terrorists, hostages)
    if t == 0 and h == 0:
        return "nothing"
    parts = [f"{t}-terrorists"] if t else []
    if h:
        parts.append(f"{h}-hostages")
    return "+".join(parts)


def roll_surveillance(chance: Chance, audience: Audience = None) -> int:
    """The FBI's surveillance d12 (pre-game step 3)."""
    return chance.roll(tables().surveillance_die, "surveillance", audience)


# -- initiative (5.1) ----------------------------------------------------------------------


def initiative_round(chance: Chance, audience: Audience = None) -> tuple[bool, int, int] | None:
    """One round of initiative: each side rolls 1d6, FBI first (ruling E-8).

    Returns (True if the FBI won, the FBI die, the terrorists' die), or ``None`` on a tie.
    """
    die = tables().initiative_die
    fbi = chance.roll(die, "initiative-fbi", audience)
    terr = chance.roll(die, "initiative-terrorists", audience)
    return None if fbi == terr else (fbi > terr, fbi, terr)


def roll_initiative(chance: Chance, audience: Audience = None) -> tuple[bool, int, int]:
    """Initiative rounds until the dice differ (E-8): the deciding round."""
    return chance.repeat_until(lambda c: initiative_round(c, audience))


# -- the odds calculator's named rolls ------------------------------------------------------


def odds_shot(chance: Chance, params: Mapping[str, Any]) -> str:
    check = resolve_shot(
        chance,
        str(params["weapon"]),
        int(params["firearms"]),
        int(params["evasion"]),
        int(params.get("damage") or 0),
    )
    return "hit" if check.success else "miss"


def odds_device(chance: Chance, params: Mapping[str, Any]) -> str:
    check = resolve_device(
        chance, int(params["level"]), int(params["electronics"]), int(params.get("damage") or 0)
    )
    return "success" if check.success else "failure"


def odds_disarm(chance: Chance, params: Mapping[str, Any]) -> str:
    check = resolve_disarm(
        chance, int(params["level"]), int(params["electronics"]), int(params.get("damage") or 0)
    )
    return "disarmed" if check.success else "exploded"


def odds_grenade(chance: Chance, params: Mapping[str, Any]) -> str:
    throw = resolve_grenade(
        chance, int(params["distance"]), int(params["grenades"]), int(params.get("damage") or 0)
    )
    return "on-target" if throw.overshoot == 0 else f"overshoot-{throw.overshoot}"


def odds_surveillance(chance: Chance, params: Mapping[str, Any]) -> str:
    roll = roll_surveillance(chance)
    return surveillance_outcome(roll, int(params["terrorists"]), int(params["hostages"]))


def odds_initiative(chance: Chance, params: Mapping[str, Any]) -> str:
    fbi_won, _, _ = roll_initiative(chance)
    return "fbi" if fbi_won else "terrorists"
