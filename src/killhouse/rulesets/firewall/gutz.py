"""The Gutz score and the 2d6 roll-under Gutz roll (digest §2, §16.1), as pure functions.

Every action in Firewall is one Gutz roll: criticals are decided on natural doubles before
and without modifiers (rulings F-2 … F-4), then modifiers apply to the target number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.firewall.tables import tables

Result = Literal["CS", "S", "F", "CF"]
#: Result categories best first (contests, §16.1).
RESULTS: tuple[Result, ...] = ("CS", "S", "F", "CF")
SUCCESSES: frozenset[str] = frozenset({"CS", "S"})
#: Skill levels of §16.1; level 2 is the plain Gutz roll.
SkillLevel = Literal[0, 1, 2, 3]


def starting_gutz(kind: str, experience: str = "normal", leader: bool = False) -> int:
    """Base Gutz by type + experience (+1 for a Fire Team Leader), clamped to 2..11 (§2.1)."""
    t = tables()
    if kind not in t.gutz_base:
        raise ValueError(f"unknown figure type {kind!r} (known: {', '.join(t.gutz_base)})")
    if experience not in t.experience:
        raise ValueError(f"unknown experience {experience!r} (known: {', '.join(t.experience)})")
    raw = t.gutz_base[kind] + t.experience[experience] + (t.leader_bonus if leader else 0)
    return max(t.min_gutz, min(t.max_gutz, raw))


def classify(
    gutz: int,
    modifier: int,
    a: int,
    b: int,
    *,
    skill_level: SkillLevel = 2,
    in_combat: bool = False,
    start_gutz: int | None = None,
) -> Result:
    """The result category of dice (a, b) for a roller of current Gutz ``gutz`` (§2.2, §16.1).

    Ruling F-2: modifiers add to the target; F-3: the target is never clamped; F-4: criticals
    compare the unmodified total with the real Gutz (or the skill level's variant value).
    """
    total = a + b
    double = a == b
    if skill_level == 0:
        # §16.1 level 0: S only on 1-1 (never CS), any other double CF, everything else F
        if double:
            return "S" if a == 1 else "CF"
        return "F"
    if skill_level == 1:
        # ruling F-42: floor(Gutz / 2) for both success and criticals
        value = gutz // 2
    elif skill_level == 3 and in_combat:
        # ruling F-42: max(current, starting Gutz); CF only on 6-6, other high doubles are F
        value = max(gutz, gutz if start_gutz is None else start_gutz)
        if double:
            if total <= value:
                return "CS"
            return "CF" if a == 6 else "F"
        return "S" if total <= value + modifier else "F"
    elif skill_level == 3:
        # §16.1 level 3 outside combat: automatic success (callers do not roll)
        return "S"
    else:
        value = gutz
    if double:
        return "CS" if total <= value else "CF"
    return "S" if total <= value + modifier else "F"


@dataclass(frozen=True)
class Roll:
    """One Gutz roll: the dice, the target it was judged against and the category."""

    dice: tuple[int, int]
    gutz: int
    modifier: int
    result: Result

    @property
    def success(self) -> bool:
        return self.result in SUCCESSES


def gutz_roll(
    chance: Chance,
    gutz: int,
    modifier: int,
    purpose: str,
    audience: Audience = None,
    *,
    skill_level: SkillLevel = 2,
    in_combat: bool = False,
    start_gutz: int | None = None,
) -> Roll:
    """Roll 2d6 through ``chance`` and classify them (§2.2)."""
    if skill_level == 3 and not in_combat:
        # §16.1: level 3 outside combat succeeds without a roll
        return Roll((0, 0), gutz, modifier, "S")
    a, b = chance.dice(2, 6, purpose, audience)
    result = classify(
        gutz, modifier, a, b, skill_level=skill_level, in_combat=in_combat, start_gutz=start_gutz
    )
    return Roll((a, b), gutz, modifier, result)


def roller_change(result: Result) -> int:
    """The roller's own Gutz change for a plain action result: CS +1, CF −1 (§2.3, §21.3)."""
    return {"CS": 1, "CF": -1}.get(result, 0)


@dataclass(frozen=True)
class GutzChange:
    """A Gutz score after a change, and what it did to the figure (§2.3)."""

    gutz: int
    gained: int
    status: Literal["active", "routed", "incapacitated"]


def change_gutz(
    gutz: int, delta: int, *, nonlethal: bool = False, floor: int | None = None
) -> GutzChange:
    """Apply a permanent change: gains stop at 11 (excess lost); below 2 the figure routs,
    or is Incapacitated when the loss came from a non-lethal attack (ruling F-33).

    ``floor`` keeps a loss from going below a value (skill level 3's CF, ruling F-42).
    """
    t = tables()
    new = gutz + delta
    if delta > 0:
        new = min(t.max_gutz, new)
    if floor is not None and delta < 0:
        new = max(new, min(gutz, floor))
    if new < t.min_gutz:
        return GutzChange(new, new - gutz, "incapacitated" if nonlethal else "routed")
    return GutzChange(new, new - gutz, "active")


def contest_winner(
    first: tuple[Result, int, str], second: tuple[Result, int, str], chance: Chance, purpose: str,
    audience: Audience = None,
) -> int:
    """Which of two contestants wins (§16.1): result, then skill level, then experience, then d6.

    Each contestant is (result, skill level, experience); returns 0 or 1. The tie-break dice
    go to ``audience`` (a hider's side only, when the contest is secret).
    """
    order = list(tables().skills["experience_order"])
    keys = [
        (-RESULTS.index(c[0]), c[1], order.index(c[2])) for c in (first, second)
    ]
    if keys[0] != keys[1]:
        return 0 if keys[0] > keys[1] else 1

    def attempt(ch: Chance) -> int | None:
        x, y = ch.roll(6, purpose, audience), ch.roll(6, purpose, audience)
        return None if x == y else (0 if x > y else 1)

    return chance.repeat_until(attempt)
