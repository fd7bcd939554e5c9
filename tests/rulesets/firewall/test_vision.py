"""Sight (supercover, F-24) and awareness (F-16)."""

from __future__ import annotations

from killhouse.core.board import Board, Level
from killhouse.core.terrain import Terrain
from killhouse.rulesets.firewall.teams import Status, Team, new_figure
from killhouse.rulesets.firewall.vision import seen_by_side, sees, update_awareness


def test_supercover_sight_blocked_by_a_corner_touch() -> None:
    board = Board([Level.blank("b", 10, 10)])
    a = new_figure("a", "x", "t", (0, 0), gutz=7)
    b = new_figure("b", "y", "u", (2, 2), gutz=7)
    assert sees(board, a, b)
    board.levels[0].terrain[1, 1] = Terrain.WALL  # the diagonal passes through its centre
    assert not sees(board, a, b)
    board.levels[0].terrain[1, 1] = Terrain.FLOOR
    c = new_figure("c", "y", "u", (2, 1), gutz=7)
    board.levels[0].terrain[0, 1] = Terrain.WALL  # the line (0,0)-(2,1) touches (1,0)
    assert not sees(board, a, c)


def test_awareness_is_per_team_and_only_active_figures_look() -> None:
    board = Board([Level.blank("b", 10, 10)])
    figures = {
        "a": new_figure("a", "x", "t", (0, 0), gutz=7),
        "b": new_figure("b", "y", "u", (5, 5), gutz=7),
    }
    teams = {"t": Team("t", "x", ("a",), "a"), "u": Team("u", "y", ("b",), "b")}
    figures["a"].status = Status.INCAPACITATED
    assert update_awareness(board, figures, teams) == []  # b sees only a helpless figure
    assert seen_by_side(board, figures, "y") == {"a"}
    figures["a"].status = Status.ACTIVE
    assert sorted(update_awareness(board, figures, teams)) == ["t", "u"]
    assert update_awareness(board, figures, teams) == []  # permanent, reported once
