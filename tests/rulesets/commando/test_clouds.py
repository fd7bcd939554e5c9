"""Smoke and illumination lifetimes and areas (ruling C-35)."""

from __future__ import annotations

import pytest

from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell
from killhouse.rulesets.commando.clouds import (
    ILLUMINATION,
    SMOKE,
    active,
    burst,
    illuminated,
    lay_smoke,
)


def test_clouds_last_to_the_end_of_the_third_turn_after() -> None:
    cloud = burst(SMOKE, Cell(0, 5, 5), 2)
    assert cloud.until == 5
    assert active([cloud], 5) == [cloud] and active([cloud], 6) == []


def test_smoke_is_a_clipped_3x3_block_while_it_lasts() -> None:
    board = Board([Level.blank("ground", 10, 10)])
    clouds = [burst(SMOKE, Cell(0, 0, 0), 1), burst(SMOKE, Cell(0, 5, 5), 1)]
    lay_smoke(board, clouds, 4)
    assert int(board.smoke(0).sum()) == 4 + 9
    assert board.smoky(Cell(0, 6, 6)) and not board.smoky(Cell(0, 7, 7))
    lay_smoke(board, clouds, 5)
    assert not board.smoke(0).any()


@pytest.mark.parametrize(("x", "y", "lit"), [(10, 5, True), (11, 5, False), (9, 7, True),
                                             (9, 8, True), (9, 9, False)])
def test_illumination_reaches_five_squares(x: int, y: int, lit: bool) -> None:
    cloud = burst(ILLUMINATION, Cell(0, 5, 5), 1)
    assert illuminated(Cell(0, x, y), [cloud], 2) is lit
    assert not illuminated(Cell(0, x, y), [cloud], 5)


def test_only_smoke_and_illumination_make_clouds() -> None:
    with pytest.raises(ValueError):
        burst("frag", Cell(0, 0, 0), 1)
