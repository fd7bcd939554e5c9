"""The compiled bounded move field (``bounded.bounded_field``) is ``core.paths.field_on``'s field:
the same raw totals on every square, at the bound, one past it, and with squeeze rules."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from killhouse.core.board import Board
from killhouse.core.bounded import bounded_field, cost_at, padded_squeeze, route
from killhouse.core.cells import Cell
from killhouse.core.paths import UNREACHABLE, field_on
from killhouse.core.steps import Steps
from killhouse.engine.game import Game
from killhouse.rulesets.gogogo import orders
from killhouse.rulesets.gogogo.movement import RULES, enter_costs, squeeze_masks
from killhouse.scenario.loader import load_scenario

from .helpers import fig, open_rows, scenario

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "gogogo"


def _same(steps: Steps, board: Board, start: Cell, max_cost: int) -> None:
    """The field, every square's cost and every reachable square's route agree with
    ``field_on``'s field, its ``cost`` and its ``path_tuples``."""
    padded = padded_squeeze(steps)
    expected = field_on(board, steps, [start], max_cost=max_cost)
    got = bounded_field(board, steps, padded, start, max_cost)
    assert len(got.raw) == len(expected.raw)
    for mine, theirs in zip(got.raw, expected.raw, strict=True):
        assert mine.dtype == theirs.dtype == np.int64
        assert np.array_equal(mine, theirs)
    height, width = steps.shapes[start.level]
    cells = [Cell(start.level, x, y) for y in range(height) for x in range(width)]
    assert [cost_at(got, c) for c in cells] == [expected.cost(c) for c in cells]
    reached = [c for c in cells if expected.cost(c) is not None]
    paths = expected.path_tuples(reached)
    for cell in reached:
        assert [(c.level, c.x, c.y) for c in route(got, steps, padded, cell)] == list(paths[cell])


@pytest.mark.parametrize("name", ["hostage.yaml", "destruction.yaml", "assassination.yaml"])
def test_every_standable_start_of_a_shipped_map_gives_field_ons_field(name: str) -> None:
    state = Game(load_scenario(SCENARIOS / name), 1).state
    board = state.board
    steps = Steps(board, enter_costs(board), RULES, squeeze_masks(board, frozenset()))
    enter = steps.enter[0]
    ys, xs = np.nonzero(enter > 0)
    for y, x in list(zip(ys.tolist(), xs.tolist(), strict=True))[::7]:
        _same(steps, board, Cell(0, x, y), orders.longest_move())


def test_random_costs_and_squeezes_at_every_bound() -> None:
    """Enter costs 0-3 and squeeze cells at random; bounds 0 to well past the allowance."""
    rows = open_rows(20, 15)
    sc = scenario(rows, [fig("c1", "ct", 2, 2), fig("t1", "t", 17, 12)])
    board = Game(sc, 1).state.board
    rng = np.random.default_rng(7)
    for _ in range(12):
        enter = [rng.integers(0, 4, size=lv.terrain.shape).astype(np.int32) for lv in board.levels]
        squeeze = [rng.random(lv.terrain.shape) < 0.25 for lv in board.levels]
        steps = Steps(board, enter, RULES, squeeze)
        for start in (Cell(0, 0, 0), Cell(0, 19, 14), Cell(0, 9, 7), Cell(0, 3, 11)):
            for max_cost in (0, 1, 2, 5, 6, 7, 12, 30):
                _same(steps, board, start, max_cost)


def test_a_square_at_the_allowance_is_in_and_one_past_it_is_out() -> None:
    """Along an open row (a straight step costs 1): the square 6 away is within a bound of 6,
    the one 7 away is not; a diagonal costs 1.5 and the total floors (G-3)."""
    sc = scenario(open_rows(20, 5), [fig("c1", "ct", 1, 2), fig("t1", "t", 18, 1)])
    board = Game(sc, 1).state.board
    steps = Steps(board, enter_costs(board), RULES, squeeze_masks(board, frozenset()))
    field = bounded_field(board, steps, padded_squeeze(steps), Cell(0, 1, 2), 6)
    assert field.cost(Cell(0, 7, 2)) == 6
    assert field.cost(Cell(0, 8, 2)) is None
    assert field.raw[0][2, 8] == UNREACHABLE
    # a row up: one diagonal (raw 3) and five straight (raw 10) is 13 raw, 6 after flooring;
    # one square further is 15 raw, 7, past the bound
    assert field.cost(Cell(0, 7, 1)) == 6
    assert field.cost(Cell(0, 8, 1)) is None


def test_a_start_off_the_map_is_refused() -> None:
    sc = scenario(open_rows(8, 5), [fig("c1", "ct", 1, 2), fig("t1", "t", 6, 1)])
    board = Game(sc, 1).state.board
    steps = Steps(board, enter_costs(board), RULES, squeeze_masks(board, frozenset()))
    with pytest.raises(ValueError, match="off the board"):
        bounded_field(board, steps, padded_squeeze(steps), Cell(0, 9, 9), 6)


def test_a_route_to_a_square_out_of_reach_is_refused() -> None:
    sc = scenario(open_rows(20, 5), [fig("c1", "ct", 1, 2), fig("t1", "t", 18, 1)])
    board = Game(sc, 1).state.board
    steps = Steps(board, enter_costs(board), RULES, squeeze_masks(board, frozenset()))
    padded = padded_squeeze(steps)
    field = bounded_field(board, steps, padded, Cell(0, 1, 2), 6)
    assert route(field, steps, padded, Cell(0, 7, 2)) == [Cell(0, x, 2) for x in range(2, 8)]
    with pytest.raises(ValueError, match="cannot be reached"):
        route(field, steps, padded, Cell(0, 8, 2))
