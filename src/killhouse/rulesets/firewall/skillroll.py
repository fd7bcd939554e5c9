"""The acting figure's own rolls with their results applied: the skill roll of §16.1 and the
plain task roll of §6.7 (a Gutz roll with the leader's bonus and movement drugs, no clutter,
ruling F-30). Applying a result means the roller's CS +1 / CF −1 (a level-3 skill's CF never
below the start), a rout or incapacitation it causes, and the Turn ended by F or CF (§21.3)."""

from __future__ import annotations

from killhouse.core.chance import Chance
from killhouse.rulesets.firewall.drugs import drug_bonus
from killhouse.rulesets.firewall.gutz import (
    Roll,
    SkillLevel,
    change_gutz,
    gutz_roll,
    roller_change,
)
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Figure, Status, bonus_for


def skill_level(f: Figure, skill: str) -> SkillLevel:
    """The figure's level in a skill, 0..3; unlisted skills are level 0 (§16.1)."""
    return max(0, min(3, int(f.skills.get(skill, 0))))  # type: ignore[arg-type]


def in_combat(state: FirewallState, f: Figure) -> bool:
    """Ruling F-42: "in combat" = the figure's team is aware of the enemy."""
    return state.teams[f.team].aware


def task_modifier(state: FirewallState, f: Figure) -> int:
    """A roll that does not move: the leader's bonus and movement drugs (F-30)."""
    return bonus_for(f, state.teams[f.team], state.figures) + drug_bonus(f.drug_effects,
                                                                        "movement")


def apply_result(f: Figure, roll: Roll, floor: int | None = None) -> None:
    """The roller's own result: its Gutz change (never below ``floor``), the status that
    change brings, and a failed figure's Turn ended."""
    change = change_gutz(f.gutz, roller_change(roll.result), floor=floor)
    f.gutz = change.gutz
    if change.status != "active":
        f.status = Status(change.status)
    if roll.result in ("F", "CF"):
        f.failed_this_turn = True


def skill_use(state: FirewallState, f: Figure, skill: str, modifier: int, chance: Chance,
              purpose: str, audience: frozenset[str]) -> Roll:
    """One skill roll of §16.1 for the acting figure, with its own result applied."""
    level = skill_level(f, skill)
    roll = gutz_roll(chance, f.gutz, modifier, purpose, audience, skill_level=level,
                     in_combat=in_combat(state, f), start_gutz=f.start_gutz)
    apply_result(f, roll, f.start_gutz if level == 3 else None)  # §16.1: level 3's CF
    return roll


def task_roll(state: FirewallState, f: Figure, chance: Chance, purpose: str,
              audience: frozenset[str]) -> Roll:
    """A task's Gutz roll (§6.7, F-30) for the acting figure, with its own result applied."""
    roll = gutz_roll(chance, f.gutz, task_modifier(state, f), purpose, audience)
    apply_result(f, roll)
    return roll
