"""The C-6 step cost on the core's path functions agrees with the per-step chart function."""

from __future__ import annotations

from itertools import pairwise

import numpy as np
import pytest

from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell
from killhouse.core.paths import distance_field, path_cost
from killhouse.rulesets.commando.movement import step_cost, step_model

GRID = [
    ["clear", "road", "road", "road", "forest"],
    ["clear", "woods", "rubble", "trail", "trail"],
    ["door", "window", "fence", "dune", "water"],
    ["clear", "wall", "clear", "clear", "barbed_wire"],
]


def board() -> Board:
    return Board([Level.blank("ground", 5, 4)])


def chart_cost(path: list[tuple[int, int]], elevation: np.ndarray, **kw: bool) -> int:
    total = 0
    for (ax, ay), (bx, by) in pairwise(path):
        rise = int(elevation[by, bx] - elevation[ay, ax])
        cost = step_cost(GRID[by][bx], source=GRID[ay][ax], diagonal=ax != bx and ay != by,
                         levels_up=max(0, rise), levels_down=max(0, -rise), **kw)
        assert cost is not None
        total += cost
    return total


PATHS = [
    [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)],
    [(0, 0), (1, 1), (2, 1), (3, 1), (4, 1)],
    [(0, 2), (1, 2), (2, 2), (3, 2), (4, 2)],
    [(0, 0), (0, 1), (0, 2), (0, 3)],
    [(2, 3), (3, 3), (4, 3), (4, 2)],
]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("prone", [False, True])
@pytest.mark.parametrize("carrying", [False, True])
def test_core_path_cost_equals_the_chart(
    path: list[tuple[int, int]], prone: bool, carrying: bool
) -> None:
    elevation = np.array([[0, 0, 1, 1, 2], [0, 1, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 1, 1]])
    model = step_model([GRID], [elevation], prone=prone, carrying_man=carrying)
    cells = [Cell(0, x, y) for x, y in path]
    got = path_cost(board(), cells, model.enter, model.rules, costs=model.costs)
    assert got == chart_cost(path, elevation, prone=prone, carrying_man=carrying)


def test_walls_cannot_be_entered_and_the_field_goes_around() -> None:
    model = step_model([GRID])
    assert path_cost(board(), [Cell(0, 0, 3), Cell(0, 1, 3)], model.enter, model.rules,
                     costs=model.costs) is None
    field = distance_field(board(), [Cell(0, 0, 0)], model.enter, model.rules,
                           costs=model.costs)
    # road to road runs at 3 a step: clear -> road 5, then 3 + 3
    assert field.cost(Cell(0, 3, 0)) == 11
