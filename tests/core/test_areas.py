"""Radii, blasts, sound floods and the all-levels bomb radius (rulings E-22, E-27, G-20, G-33)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from killhouse.core.areas import all_levels_within, blast_area, flood_area, radius_mask
from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell
from killhouse.core.geometry import line_of_sight
from killhouse.core.terrain import Terrain

from .maps import draw, open_floor


def test_radius_masks() -> None:
    board = open_floor(11, 9)
    center = Cell(0, 5, 4)
    square = radius_mask(board, center, 3, "chebyshev")
    assert square.shape == (9, 11)
    assert square.sum() == 49 and square[1, 2] and square[7, 8] and not square[0, 5]
    disc = radius_mask(board, center, 4, "euclidean")
    ys, xs = np.nonzero(disc)
    assert ((xs - 5) ** 2 + (ys - 4) ** 2 <= 16).all()
    assert disc.sum() == 49  # lattice points with dx²+dy² ≤ 16
    with pytest.raises(ValueError, match="metric"):
        radius_mask(board, center, 3, "manhattan")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("offset", "inside"),
    [((4, 0), True), ((2, 3), True), ((3, 3), False), ((0, -4), True), ((-3, 2), True)],
)
def test_g_tv22_radius_vectors(offset: tuple[int, int], inside: bool) -> None:
    # G-TV22: burst (0,0); (4,0) is 16 in, (2,3) is 13 in, (3,3) is 18 out
    board = open_floor(13, 13)
    center = Cell(0, 6, 6)
    mask = radius_mask(board, center, 4, "euclidean")
    assert bool(mask[6 + offset[1], 6 + offset[0]]) is inside
    blast = blast_area(board, center, 4, "euclidean", board.solid(0))
    assert bool(blast[6 + offset[1], 6 + offset[0]]) is inside


def test_blast_stopped_by_a_wall_but_not_by_smoke_or_window() -> None:
    m = draw(
        """
        .........
        ..#......
        .a#..b=.c
        ..#......
        .*.......
        """
    )
    board = m.board
    blockers = board.solid(0)  # ruling G-20: walls and closed doors; smoke and windows do not
    blast = blast_area(board, m["a"], 4, "euclidean", blockers)
    assert blast[m["a"].y, m["a"].x]
    assert not blast[2, 3] and not blast[2, 4]  # in the wall's shadow
    assert blast[4, 1]  # in smoke
    blast_b = blast_area(board, m["b"], 4, "euclidean", blockers)
    assert blast_b[2, 8]  # through the window
    assert blast_b[2, 2]  # the wall's face is within the line
    assert not blast_b[2, 1]


def test_e27_chebyshev_three_with_los_through_closed_doors() -> None:
    m = draw(
        """
        #########
        #a..+...#
        #...#...#
        #########
        """
    )
    board = m.board
    blast = blast_area(board, m["a"], 3, "chebyshev", board.solid(0))
    assert blast[1, 1:5].all()  # up to the closed door, which is the end of the line
    assert not blast[1, 5:].any() and not blast[2, 5:].any()
    board.set_terrain(Cell(0, 4, 1), Terrain.DOOR_OPEN)
    opened = blast_area(board, m["a"], 3, "chebyshev", board.solid(0))
    assert opened[1, 4] and not opened[1, 5]  # open now, but (5,1) is 4 away
    b = Cell(0, 3, 1)
    assert blast_area(board, b, 3, "chebyshev", board.solid(0))[1, 5:7].all()


@settings(max_examples=150, deadline=None)
@given(
    arrays(bool, (9, 9), elements=st.sampled_from([False, False, True])),
    st.integers(0, 8),
    st.integers(0, 8),
    st.integers(0, 5),
    st.sampled_from(["chebyshev", "euclidean"]),
)
def test_blast_is_radius_and_line_of_sight(
    walls: np.ndarray, x: int, y: int, radius: int, metric: str
) -> None:
    level = Level.blank("l", 9, 9)
    level.terrain[walls] = Terrain.WALL
    board = Board([level])
    center = Cell(0, x, y)
    blast = blast_area(board, center, radius, metric, walls)  # type: ignore[arg-type]
    inside = radius_mask(board, center, radius, metric)  # type: ignore[arg-type]
    for ty in range(9):
        for tx in range(9):
            expected = bool(inside[ty, tx]) and line_of_sight(walls, (x, y), (tx, ty))
            assert bool(blast[ty, tx]) is expected


SOUND = """
    ###########
    #a..#.....#
    #...+..b..#
    #...#.....#
    ###########
    """


def test_sound_stopped_by_a_closed_door_but_not_an_open_one() -> None:
    m = draw(SOUND)
    board = m.board
    heard = flood_area(board, m["a"], 10, board.solid(0))
    assert not heard[m["b"].y, m["b"].x]
    assert heard[1:4, 1:4].all() and not heard[:, 4:].any()
    board.set_terrain(Cell(0, 4, 2), Terrain.DOOR_OPEN)
    heard = flood_area(board, m["a"], 10, board.solid(0))
    assert heard[m["b"].y, m["b"].x]
    assert heard[2, 4]
    assert not heard[0].any() and not heard[1, 4]


def test_flood_counts_king_steps_round_corners() -> None:
    m = draw(
        """
        .......
        .#####.
        .#a..#.
        .###.#.
        .....#b
        """
    )
    board = m.board
    # (4,3)->(3,4) passes one wall cell only, so the diagonal is open
    steps = {1: (3, 2), 2: (4, 3), 3: (3, 4), 4: (2, 4)}
    for n, (x, y) in steps.items():
        assert flood_area(board, m["a"], n, board.solid(0))[y, x]
        assert not flood_area(board, m["a"], n - 1, board.solid(0))[y, x]
    # the only way to b is round the outside: a long walk, never through the wall
    assert not flood_area(board, m["a"], 10, board.solid(0))[m["b"].y, m["b"].x]
    full = flood_area(board, m["a"], 100, board.solid(0))
    assert full[m["b"].y, m["b"].x]
    assert flood_area(board, m["a"], 0, board.solid(0)).sum() == 1


def test_flood_slips_past_one_corner_but_not_a_diagonal_wall() -> None:
    m = draw(
        """
        a#.
        #.#
        .#b
        """
    )
    board = m.board
    # the only moves are diagonal between two walls: sealed, like sight (E-6/G-8)
    assert flood_area(board, m["a"], 5, board.solid(0)).sum() == 1
    m = draw(
        """
        a#.
        ..#
        ..b
        """
    )
    assert flood_area(m.board, m["a"], 2, m.board.solid(0))[2, 2]  # past one corner each time
    assert not flood_area(m.board, m["a"], 1, m.board.solid(0))[2, 2]


@settings(max_examples=100, deadline=None)
@given(
    arrays(bool, (8, 8), elements=st.sampled_from([False, False, True])),
    st.integers(0, 7),
    st.integers(0, 7),
    st.integers(0, 12),
)
def test_flood_matches_breadth_first_search(walls: np.ndarray, x: int, y: int, steps: int) -> None:
    level = Level.blank("l", 8, 8)
    board = Board([level])
    got = flood_area(board, Cell(0, x, y), steps, walls)
    seen = {(x, y)}
    frontier = [(x, y)]
    for _ in range(steps):
        nxt = []
        for cx, cy in frontier:
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    nx, ny = cx + dx, cy + dy
                    if not (0 <= nx < 8 and 0 <= ny < 8) or walls[ny, nx] or (nx, ny) in seen:
                        continue
                    if dx and dy and walls[cy, nx] and walls[ny, cx]:
                        continue
                    seen.add((nx, ny))
                    nxt.append((nx, ny))
        frontier = nxt
    expected = np.zeros((8, 8), dtype=bool)
    for cx, cy in seen:
        expected[cy, cx] = True
    assert (got == expected).all()


def test_e22_bomb_reaches_every_level_unshielded() -> None:
    m = draw(
        """
        ##########
        #a.#.....#
        ##########
        """,
        """
        #####
        #...#
        #####
        """,
    )
    masks = all_levels_within(m.board, m["a"], 3)
    assert len(masks) == 2
    assert masks[0].shape == (3, 10) and masks[1].shape == (3, 5)
    assert masks[0][1, 4]  # through the wall: no shielding
    assert not masks[0][1, 5]
    assert masks[1][:, :5].all()  # everything within 3 of (1,1) on the small level
    far = all_levels_within(m.board, Cell(1, 1, 1), 50)
    assert all(mask.all() for mask in far)


def test_blocker_masks_must_fit_the_level() -> None:
    board = open_floor(4, 4)
    with pytest.raises(ValueError, match="shape"):
        flood_area(board, Cell(0, 0, 0), 3, np.zeros((3, 3), dtype=bool))
    with pytest.raises(ValueError, match="shape"):
        blast_area(board, Cell(0, 0, 0), 3, "chebyshev", np.zeros((3, 3), dtype=bool))
