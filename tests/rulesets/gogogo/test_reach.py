"""The compiled bounded move field (``reach.bounded_field``) is ``core.paths.field_on``'s field:
the same raw totals on every square, at the bound, one past it, and with squeeze rules."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from killhouse.core.cells import Cell
from killhouse.core.paths import UNREACHABLE, field_on
from killhouse.core.steps import Steps
from killhouse.engine.game import Game
from killhouse.rulesets.gogogo import orders
from killhouse.rulesets.gogogo.movement import RULES, enter_costs, squeeze_masks
from killhouse.rulesets.gogogo.reach import bounded_field, padded_squeeze
from killhouse.scenario.loader import load_scenario

from .helpers import fig, open_rows, scenario

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "gogogo"


def _same(steps: Steps, board: object, start: Cell, max_cost: int) -> None:
    expected = field_on(board, steps, [start], max_cost=max_cost)  # type: ignore[arg-type]
    got = bounded_field(board, steps, padded_squeeze(steps), start, max_cost)  # type: ignore[arg-type]
    assert len(got.raw) == len(expected.raw)
    for mine, theirs in zip(got.raw, expected.raw, strict=True):
        assert mine.dtype == theirs.dtype == np.int64
        assert np.array_equal(mine, theirs)


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
