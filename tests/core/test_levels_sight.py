"""Sight over elevation (C-10) and between levels (ruling K-7)."""

from __future__ import annotations

import numpy as np

from killhouse.core.cells import Cell
from killhouse.core.geometry import line_of_sight, los_pairs
from killhouse.core.levels import sees_across_levels, sight_links

from .maps import draw, link


def test_a_man_on_a_ridge_sees_over_a_wall_lower_than_both_ends() -> None:
    m = draw("a.#.b")
    opaque = m.board.opaque(0)
    flat = np.zeros((1, 5), dtype=np.int64)
    assert not line_of_sight(opaque, (0, 0), (4, 0))
    assert not line_of_sight(opaque, (0, 0), (4, 0), elevation=flat)
    # ridge 2, target 1, wall 0: the wall is below the lower end and does not block
    ridge = np.array([[2, 2, 0, 1, 1]])
    assert line_of_sight(opaque, (0, 0), (4, 0), elevation=ridge)
    assert line_of_sight(opaque, (4, 0), (0, 0), elevation=ridge)
    # the edge: a wall as high as the lower end blocks (C-10 "at least the lower end")
    level = np.array([[2, 2, 1, 1, 1]])
    assert not line_of_sight(opaque, (0, 0), (4, 0), elevation=level)


def test_a_hill_higher_than_both_ends_blocks_even_when_clear() -> None:
    m = draw("a...b")
    opaque = m.board.opaque(0)
    hill = np.array([[1, 0, 2, 0, 1]])
    assert not line_of_sight(opaque, (0, 0), (4, 0), elevation=hill)
    # as high as the higher end: not higher than both, clear ground does not block
    crest = np.array([[1, 0, 1, 0, 0]])
    assert line_of_sight(opaque, (0, 0), (4, 0), elevation=crest)
    both = los_pairs(opaque, [(0, 0), (0, 0)], [(4, 0), (2, 0)], elevation=hill)
    assert both.tolist() == [False, True]  # the hill top itself is an end: seen


def test_elevation_works_with_supercover_too() -> None:
    m = draw("a#.\n...\n..b")
    opaque = m.board.opaque(0)
    low_wall = np.array([[1, 0, 1], [1, 1, 1], [1, 1, 1]])
    assert not line_of_sight(opaque, (0, 0), (2, 2), mode="supercover")
    assert line_of_sight(opaque, (0, 0), (2, 2), mode="supercover", elevation=low_wall)


def stairwell() -> tuple[object, dict[str, Cell]]:
    m = draw(
        """
        a.>..
        #####
        """,
        """
        .<..b
        .....
        """,
    )
    link(m.board, Cell(0, 2, 0), Cell(1, 1, 0))
    return m, {"a": m["a"], "b": m["b"]}


def test_k7_figures_on_different_levels_see_only_along_a_link() -> None:
    m, _ = stairwell()
    board = m.board  # type: ignore[attr-defined]

    def sees(p: Cell, q: Cell) -> bool:
        return line_of_sight(board.opaque(p.level), (p.x, p.y), (q.x, q.y))

    top = Cell(0, 2, 0)
    bottom = Cell(1, 1, 0)
    assert sight_links(board, top) == [bottom]
    # a figure on the stair sees the other end and what it sees on its level
    assert sees_across_levels(board, top, bottom, sees)
    assert sees_across_levels(board, top, Cell(1, 4, 0), sees)
    assert sees_across_levels(board, Cell(1, 4, 0), top, sees)  # symmetric
    # a figure at the foot of the stair looks up it and sees the one beside the top
    assert sees_across_levels(board, Cell(0, 1, 0), bottom, sees)
    # neither on a link end: no sight between levels
    assert not sees_across_levels(board, Cell(0, 1, 0), Cell(1, 4, 0), sees)
    assert not sees_across_levels(board, Cell(0, 0, 0), Cell(1, 4, 0), sees)
    # same level: plain sight
    assert sees_across_levels(board, Cell(0, 0, 0), top, sees)


def test_k7_a_wall_on_the_far_level_still_blocks() -> None:
    m = draw("a>", ".<#.")
    link(m.board, Cell(0, 1, 0), Cell(1, 1, 0))
    board = m.board

    def sees(p: Cell, q: Cell) -> bool:
        return line_of_sight(board.opaque(p.level), (p.x, p.y), (q.x, q.y))

    assert not sees_across_levels(board, Cell(0, 1, 0), Cell(1, 3, 0), sees)
    assert sees_across_levels(board, Cell(0, 1, 0), Cell(1, 0, 0), sees)
