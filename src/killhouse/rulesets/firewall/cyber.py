"""Cyber points and cyber failure (digest §14; rulings F-39, F-40)."""

from __future__ import annotations

import math

from killhouse.rulesets.firewall.gutz import Result
from killhouse.rulesets.firewall.tables import tables


def eye_cp(functions: int) -> int:
    """A Cyber Eye costs 1 CP per two functions, rounded up (ruling F-39)."""
    return math.ceil(functions / 2)


def skill_chip_cp(levels: int) -> int:
    """A Skill Chip costs the sum of its skill levels / 2, rounded up (§14.1)."""
    return math.ceil(levels / 2)


def cyber_failure_due(result: Result, dice_total: int, cp: int) -> bool:
    """A CF on an action roll whose dice total is strictly below the figure's CP (F-40)."""
    return result == "CF" and dice_total < cp


def cyber_failure_effect(die: int) -> str:
    """The §14.2 row for a d6."""
    return str(tables().cyber_failure[die]["effect"])
