"""Fire Team leaders and the 1/3 rule (digest §4, §5; rulings F-5 … F-7, F-43)."""

from __future__ import annotations

from dataclasses import dataclass

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.firewall.grid import Cell, within
from killhouse.rulesets.firewall.gutz import Result, change_gutz, gutz_roll
from killhouse.rulesets.firewall.tables import tables


def leader_bonus(member: Cell, leader: Cell | None, *, is_leader: bool, leadership: int = 1) -> int:
    """The leader's bonus on Movement and Combat rolls: +1 (or the Leadership level, F-43) for a
    member other than the leader within 8 cm of its active leader, else 0 (§4)."""
    if is_leader or leader is None:
        return 0
    if not within(member, leader, tables().leader_radius_cm):
        return 0
    return max(1, leadership)


def failure_limit(active_members: int) -> int:
    """Failures that stop a team: ``max(1, floor(N / 3))`` (ruling F-7)."""
    return max(1, active_members // 3)


def team_stopped(active_members: int, failed_members: int) -> bool:
    """Whether the team has reached its failure limit this Turn (§5 item 5)."""
    return failed_members >= failure_limit(active_members)


@dataclass(frozen=True)
class LeaderLoss:
    """One member's leader-loss roll and its effect (§4, ruling F-5)."""

    dice: tuple[int, int]
    result: Result
    gutz: int
    status: str  # active | routed
    suppressed: bool
    failed: bool


def leader_loss_effect(gutz: int, result: Result, suppressed: bool) -> LeaderLoss:
    """Apply a leader-loss result to a member of Gutz ``gutz`` (never removes suppression)."""
    row = tables().leader_loss[result]
    if row["rout"]:
        return LeaderLoss((0, 0), result, gutz, "routed", suppressed, False)
    change = change_gutz(gutz, int(row["gutz"]))
    return LeaderLoss(
        (0, 0),
        result,
        change.gutz,
        change.status,
        suppressed or bool(row["suppressed"]),
        bool(row["failed"]),
    )


def leader_loss_roll(
    chance: Chance, gutz: int, suppressed: bool, purpose: str = "leader loss",
    audience: Audience = None,
) -> LeaderLoss:
    """The unmodified leader-loss Gutz roll (no leader bonus, no clutter) and its effect."""
    roll = gutz_roll(chance, gutz, 0, purpose, audience)
    effect = leader_loss_effect(gutz, roll.result, suppressed)
    return LeaderLoss(
        roll.dice, effect.result, effect.gutz, effect.status, effect.suppressed, effect.failed
    )
