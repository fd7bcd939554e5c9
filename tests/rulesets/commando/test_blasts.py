"""Scatter paths and blast areas on a board (rulings C-28, C-29, C-78, C-79)."""

from __future__ import annotations

import pytest

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.geometry import octile
from killhouse.rulesets.commando.blasts import blast_cells, scatter_landing
from killhouse.rulesets.commando.dice import distance
from tests.core.maps import draw

ROOM = """
.........
.#####...
.#...#...
.#...'...
.#...=...
.#####...
.........
"""


def board() -> Board:
    return draw(ROOM).board


@pytest.mark.parametrize(
    ("start", "direction", "dist", "end"),
    [((3, 3), "E", 3, (6, 3)),      # out through the open door, then on
     ((3, 3), "E", 2, (5, 3)),      # into the open door cell
     ((3, 4), "E", 3, (4, 4)),      # the window stops it
     ((3, 3), "N", 3, (3, 2)),      # the wall stops it in the last open square
     ((0, 0), "NW", 2, (0, 0)),     # the map's edge
     ((7, 3), "SE", 6, (8, 4))],
)
def test_scatter_is_stopped(start: tuple[int, int], direction: str, dist: int,
                            end: tuple[int, int]) -> None:
    landing = scatter_landing(board(), Cell(0, *start), direction, dist)
    assert (landing.x, landing.y) == end


def test_open_blast_is_a_3x3_block_for_a_grenade_and_5x5_for_a_satchel() -> None:
    area = blast_cells(board(), Cell(0, 7, 3), "frag", "open")
    assert area.sum() == 9
    assert area[2:5, 6:9].all()
    satchel = blast_cells(board(), Cell(0, 7, 1), "satchel", "open")
    assert satchel[0:4, 6:9].all()
    assert satchel[3, 5] and not satchel[2, 5]  # two king steps reach the door, never the wall


def test_room_blast_stays_in_the_room() -> None:
    area = blast_cells(board(), Cell(0, 4, 3), "frag", "vented")
    assert area[2:5, 3:5].all()
    assert not area[3, 5] and not area[:, 6:].any()
    open_area = blast_cells(board(), Cell(0, 4, 3), "frag", "open")
    assert open_area[3, 5]  # an Open blast passes the open door


@pytest.mark.parametrize(("dx", "dy"), [(3, 4), (2, 2), (10, 10), (7, 3), (0, 5), (9, 1)])
def test_c1_range_equals_the_core_octile(dx: int, dy: int) -> None:
    assert distance(dx, dy) == octile((0, 0), (dx, dy))
