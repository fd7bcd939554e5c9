"""Drugs (digest §15; ruling F-41)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from killhouse.rulesets.firewall.gutz import Result
from killhouse.rulesets.firewall.tables import tables


@dataclass(frozen=True)
class DrugTaken:
    """A drug roll's outcome: the effect now active ("good", "critical" or none), Gutz after,
    what a Gutz drug actually added, and whether the figure is dead (Ground Zero's CF)."""

    effect: str | None
    gutz: int
    gained: int
    dead: bool = False


def take_drug(drug: str, result: Result, gutz: int) -> DrugTaken:
    """Apply a dose (§15): S or CS take effect with no CS gain (F-41); F nothing; CF the
    drug's critical effect instead of the usual −1. Gutz gains stop at 11."""
    row = tables().drugs[drug]
    if result in ("CS", "S"):
        if row["kind"] == "gutz":
            new = min(tables().max_gutz, gutz + int(row["bonus"]))
            return DrugTaken("good", new, new - gutz)
        return DrugTaken("good", gutz, 0)
    if result == "F":
        return DrugTaken(None, gutz, 0)
    critical = row["critical"]
    if "gutz" in critical:
        return DrugTaken("critical", gutz + int(critical["gutz"]), 0)
    return DrugTaken("critical", gutz, 0, dead=critical.get("effect") == "death")


def end_gutz_drug(gutz: int, gained: int) -> int:
    """When a T80 / Ground Zero effect ends, subtract the Gutz it actually added (§15)."""
    return gutz - gained


def drug_bonus(effects: Mapping[str, str], kind: str) -> int:
    """The sum of active drug modifiers on rolls of ``kind`` (shooting, melee, movement): a
    good effect's bonus, a critical one's penalty (§15)."""
    total = 0
    for drug, effect in effects.items():
        row = tables().drugs[drug]
        if effect == "good" and row["kind"] == kind:
            total += int(row["bonus"])
        elif effect == "critical" and row["critical"].get("kind") == kind:
            total += int(row["critical"]["bonus"])
    return total


def no_movement(effects: Mapping[str, str]) -> bool:
    """'lectron's critical failure: the figure may not change position (§15)."""
    return effects.get("lectron") == "critical"
