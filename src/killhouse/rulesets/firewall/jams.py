"""Weapon malfunctions and un-jamming (digest §11; rulings F-28, F-29, F-30, F-66, F-67)."""

from __future__ import annotations

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.firewall.gutz import Result
from killhouse.rulesets.firewall.tables import tables


def malfunction_total(
    die: int, malf: int, fire_type: str, experience: str = "normal"
) -> int:
    """1d6 + Malf (+1 MG firing, F-29) (+1 Green / −1 Veteran); below 1 counts as 1 (F-67)."""
    t = tables().malfunction
    total = die + malf + int(t["modifiers"]["experience"][experience])
    if fire_type in t["machinegun_fire_types"]:
        total += int(t["modifiers"]["machinegun"])
    return max(1, total)


def malfunction_effect(total: int, grenade: bool = False) -> str:
    """The §11.1 row for a total (6+ is the last row); the grenade variant for throwables."""
    column = tables().malfunction["grenade" if grenade else "weapon"]
    return str(column[min(6, max(1, total))])


def malfunction_roll(
    chance: Chance, malf: int | None, fire_type: str, experience: str = "normal",
    grenade: bool = False, purpose: str = "malfunction", audience: Audience = None,
) -> str | None:
    """Roll the malfunction d6 after a ranged CF, or ``None`` when Malf is n/a (F-29, F-66)."""
    if malf is None:
        return None
    die = chance.roll(6, purpose, audience)
    return malfunction_effect(malfunction_total(die, malf, fire_type, experience), grenade)


def unjam_effect(result: Result) -> tuple[str, int]:
    """Un-jamming (§11.2): (weapon state, roller's Gutz change)."""
    return {
        "CS": ("ready", 1),
        "S": ("ready", 0),
        "F": ("jammed", 0),
        "CF": ("useless", -1),
    }[result]
