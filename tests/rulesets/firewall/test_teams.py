"""Figures and Fire Teams: starting Gutz, leader bonus at its edge, leader loss, 1/3 stop."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.firewall.teams import (
    Figure,
    Status,
    Team,
    bonus_for,
    new_figure,
    resolve_leader_loss,
    start_turn,
    team_stopped,
)


class Dice(Chance):
    """A chance that gives the listed die faces in order (1-based)."""

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        return self.faces.pop(0) - 1


def _team(n: int, leader_cell: tuple[int, int] = (0, 0)) -> tuple[Team, dict[str, Figure]]:
    figures = {"L": new_figure("L", "a", "t", leader_cell, kind="police_swat", is_leader=True)}
    for i in range(n - 1):
        figures[f"m{i}"] = new_figure(f"m{i}", "a", "t", (i + 1, 5), gutz=7)
    return Team("t", "a", tuple(figures), "L"), figures


def test_starting_gutz() -> None:
    assert new_figure("x", "a", "t", (0, 0), kind="police_swat", is_leader=True).gutz == 9
    assert new_figure("x", "a", "t", (0, 0), kind="elite_mercenary",
                      experience="veteran", is_leader=True).gutz == 11  # 12 clamped
    assert new_figure("x", "a", "t", (0, 0), kind="child", experience="green").gutz == 2
    assert new_figure("x", "a", "t", (0, 0), gutz=10).experience == "normal"  # F-52
    with pytest.raises(ValueError, match="outside"):
        new_figure("x", "a", "t", (0, 0), gutz=12)


def test_leader_bonus_edge_of_8_cm() -> None:
    team, figures = _team(3)
    figures["m0"].cell = (4, 1)  # dx²+dy² = 17: exactly within 8 cm
    figures["m1"].cell = (3, 3)  # 18: one step past
    assert bonus_for(figures["m0"], team, figures) == 1
    assert bonus_for(figures["m1"], team, figures) == 0
    assert bonus_for(figures["L"], team, figures) == 0  # not the leader himself
    figures["L"].suppressed = True
    assert bonus_for(figures["m0"], team, figures) == 1  # a suppressed leader still leads
    figures["L"].skills = {"leadership": 2}
    assert bonus_for(figures["m0"], team, figures) == 2  # F-43: the level, not +1 more
    figures["L"].status = Status.KILLED
    assert bonus_for(figures["m0"], team, figures) == 0


def test_one_third_rule_with_figures() -> None:
    team, figures = _team(7)
    figures["m0"].failed_this_turn = True
    assert not team_stopped(team, figures)
    figures["m1"].failed_this_turn = True
    assert team_stopped(team, figures)
    figures["m5"].status = Status.KILLED  # N = 6 still gives 2
    assert team_stopped(team, figures)
    start_turn(figures, {"t": team})
    assert not team_stopped(team, figures)


def test_leader_loss_t3_for_every_member() -> None:
    team, figures = _team(6)
    figures["m3"].status = Status.INCAPACITATED  # helpless members do not roll (F-6)
    figures["m4"].rolls_leader_loss = False  # scenario exemption (London Militia)
    assert resolve_leader_loss(team, figures, Dice([])) == {}  # leader still up
    figures["L"].status = Status.INCAPACITATED  # F-6: incapacitation triggers it
    results = resolve_leader_loss(team, figures, Dice([2, 2, 1, 5, 3, 5]))
    assert set(results) == {"m0", "m1", "m2"}
    assert (figures["m0"].gutz, figures["m0"].suppressed) == (8, False)
    assert (figures["m1"].gutz, figures["m1"].suppressed, figures["m1"].failed_this_turn) == (
        6, True, False)
    assert (figures["m2"].gutz, figures["m2"].failed_this_turn) == (6, True)
    assert figures["m4"].gutz == 7 and team.leader_lost
    assert resolve_leader_loss(team, figures, Dice([])) == {}  # never again (F-6)
    assert bonus_for(figures["m0"], team, figures) == 0


def test_leader_loss_critical_failure_routs() -> None:
    team, figures = _team(2)
    figures["L"].status = Status.KILLED
    resolve_leader_loss(team, figures, Dice([4, 4]))
    assert figures["m0"].status is Status.ROUTED
