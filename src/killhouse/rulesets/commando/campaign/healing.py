"""Healing and practice between missions (digest 14 step 8; rulings C-55, C-60, C-135).

Weeks are exact fractions (the chart has halves, and healing weeks keep them, C-2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from killhouse.rulesets.commando.campaign.tables import campaign_tables

#: the worst wound state of a mission -> the Wound Recovery Chart's row (ruling C-60)
WOUND_TYPE = {
    "wounded": "minor",
    "seriously wounded": "serious",
    "incapacitated": "incapacitated",
}
TYPES = ("minor", "serious", "incapacitated")


def endurance_modifier(wound_type: str, endurance: int) -> Fraction:
    """Endurance Modifiers: the row of his Endurance (below 4 uses the 4-8 row)."""
    rows = campaign_tables().endurance_mod
    chosen = rows[0]
    for row in rows:
        if endurance >= row[0]:
            chosen = row
    _, minor, serious, incapacitated = chosen
    return {"minor": minor, "serious": serious, "incapacitated": incapacitated}[wound_type]


def heal_weeks(wound_type: str | None, points: int, endurance: int) -> Fraction:
    """Weeks to heal: Wound Recovery value + Endurance Modifier, never below 0 (14 step 8)."""
    if wound_type is None:
        return Fraction(0)
    base, per = campaign_tables().recovery[wound_type]
    weeks = base + per * points + endurance_modifier(wound_type, endurance)
    return weeks if weeks > 0 else Fraction(0)


@dataclass(frozen=True)
class Practice:
    """One characteristic's practice this period: the chance of +1 and the months it leaves
    banked (Marksmanship and Dexterity carry unused months over, C-55)."""

    key: str
    months: int
    pct: int
    banked: int
    problem: str = ""


def practice(key: str, months: int, banked: int, value: int, wounded: bool) -> Practice:
    """The chance of +1 for ``months`` of practice now plus ``banked`` months from before.

    Strength needs a block of 5 or more months in this period (5 % a month, 2 % at St 24+);
    Marksmanship 1 % per 2 months, Dexterity 4 % per 3 months, the rest banked; Endurance 5 % a
    month, only after a mission in which he was wounded.
    """
    rule = campaign_tables().practice[key]
    if key == "st":
        if months < int(rule["block"]):
            return Practice(key, months, 0, 0, f"Strength needs a block of {rule['block']} "
                            f"months or more in one period, not {months}")
        per = int(rule["pct_high"]) if value >= int(rule["high_from"]) else int(rule["pct"])
        return Practice(key, months, per * months, 0)
    if key == "end":
        if not wounded:
            return Practice(key, months, 0, 0, "Endurance is practised only after a mission in "
                            "which he was wounded")
        return Practice(key, months, int(rule["pct"]) * months, 0)
    total = months + banked
    units = total // int(rule["unit"])
    return Practice(key, months, units * int(rule["pct"]), total - units * int(rule["unit"]))


def months_left(weeks: Fraction, healing: Fraction) -> int:
    """Whole months after healing in the time until the next mission (a month is 4 weeks)."""
    spare = max(Fraction(0), weeks - healing)
    return int(spare // campaign_tables().weeks_per_month)


def check_plan(plan: Mapping[str, int], available: int) -> str:
    """What is wrong with a practice plan for ``available`` months, or ``""``."""
    unknown = [k for k in plan if k not in campaign_tables().practice]
    if unknown:
        return f"no practice for {', '.join(unknown)} (st, mk, dex or end)"
    if any(v < 1 for v in plan.values()):
        return "practice months are whole numbers 1 or more"
    total = sum(plan.values())
    if total > available:
        return f"plans {total} months of practice, but only {available} are left after healing"
    return ""
