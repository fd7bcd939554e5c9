"""Percentile rolls and the arithmetic of building a final percentage (ruling C-2).

Every roll goes through the ``Chance`` interface, so play logs it and the odds calculator
enumerates the very same code.
"""

from __future__ import annotations

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando.tables import Dice


def d100(chance: Chance, purpose: str, audience: Audience = None) -> int:
    """One percentile roll, 1..100."""
    return chance.roll(100, purpose, audience)


def passes(roll: int, pct: int) -> bool:
    """Ruling C-2: a roll succeeds when roll <= chance (0 or less never, 100 or more always)."""
    return roll <= pct


def percent_check(chance: Chance, pct: int, purpose: str, audience: Audience = None,
                  rolled: list[int] | None = None) -> bool:
    """Roll d100 against ``pct`` (C-2). A chance of 0 or less cannot succeed and one of 100 or
    more cannot fail: such a check rolls no die (core ruling K-5, ours C-189).

    The roll is wrapped in ``repeat_until`` on an attempt that always resolves: play rolls the one
    d100 as usual, and exact enumeration sees a single two-way branch instead of 100 leaves.
    ``rolled`` collects the d100 for narration; it means something in play only (enumeration
    runs the attempt once per face).
    """

    if pct <= 0 or pct >= 100:
        return pct >= 100  # ruling K-5: a certain outcome consumes no die

    def attempt(c: Chance) -> bool:
        r = d100(c, purpose, audience)
        if rolled is not None:
            rolled.append(r)
        return passes(r, pct)

    return chance.repeat_until(attempt)


def halve(value: int, times: int) -> int:
    """Ruling C-2: multiply by 0.5 once per "x.5" condition, compounding, then round down."""
    return value // (2**times) if times > 0 else value


def clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def roll_dice(chance: Chance, dice: Dice, purpose: str, audience: Audience = None) -> int:
    """The total of a chart's dice expression (``1d10-2``), uncapped; callers apply minimums."""
    return sum(chance.dice(dice.count, dice.sides, purpose, audience)) + dice.plus


def weapon_damage(chance: Chance, dice: Dice, purpose: str, audience: Audience = None) -> int:
    """Ruling C-2: a weapon hit always does at least 1 damage point."""
    return max(1, roll_dice(chance, dice, purpose, audience))


def blast_damage(chance: Chance, dice: Dice, purpose: str, audience: Audience = None) -> int:
    """Ruling C-2 / C-30: blast damage is never below 0 but may be 0."""
    return max(0, roll_dice(chance, dice, purpose, audience))


def distance(dx: int, dy: int, dlevel: int = 0) -> int:
    """Ruling C-1: range = max + floor(min/2), plus |level difference| between map levels."""
    ax, ay = abs(dx), abs(dy)
    return max(ax, ay) + min(ax, ay) // 2 + abs(dlevel)


def initiative(chance: Chance, audience: Audience = None) -> int:
    """Ruling C-16: each side rolls 1d10, ties re-rolled; 0 if the first side wins, else 1."""

    def attempt(c: Chance) -> int | None:
        first = c.roll(10, "initiative", audience)
        second = c.roll(10, "initiative", audience)
        if first == second:
            return None
        return 0 if first > second else 1

    return chance.repeat_until(attempt)
