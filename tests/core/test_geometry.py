"""Exact line of sight, segments, distances and facing arcs (rulings E-6, G-2, G-3, G-7, G-8)."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from killhouse.core.cells import COMPASS, COMPASS_ORDER, Cell, sector_of
from killhouse.core.geometry import (
    arc_mask,
    arc_test,
    cells_on_segment,
    chebyshev,
    euclidean,
    euclidean_sq,
    line_of_sight,
    los_from,
    los_pairs,
    los_pairs_numpy,
    octile,
)

from .maps import draw

XY = tuple[int, int]

# -- a slow, independent reference: exact rational stepping along the segment --------


def _cell_at(px: Fraction, py: Fraction) -> XY:
    return (math.floor(px + Fraction(1, 2)), math.floor(py + Fraction(1, 2)))


def reference_trace(a: XY, b: XY) -> tuple[list[XY], list[tuple[XY, XY]]]:
    """Cells whose interior the segment crosses (in order) and the side cells of each corner.

    Breakpoints are the exact parameters where the segment crosses a grid line; the cell
    between two breakpoints is the one holding their midpoint, and a breakpoint on both an x
    and a y grid line is a corner, whose side cells are the two it does not enter.
    """
    (ax, ay), (bx, by) = a, b
    if a == b:
        return [a], []
    dx, dy = bx - ax, by - ay
    ts = {Fraction(0), Fraction(1)}
    if dx:
        for k in range(min(ax, bx), max(ax, bx)):
            ts.add(Fraction(2 * k + 1 - 2 * ax, 2 * dx))
    if dy:
        for k in range(min(ay, by), max(ay, by)):
            ts.add(Fraction(2 * k + 1 - 2 * ay, 2 * dy))
    order = sorted(ts)
    cells = [
        _cell_at(ax + (t0 + t1) / 2 * dx, ay + (t0 + t1) / 2 * dy) for t0, t1 in pairwise(order)
    ]
    corners: list[tuple[XY, XY]] = []
    for k, t in enumerate(order[1:-1], start=1):
        px, py = ax + t * dx, ay + t * dy
        if px.denominator == 2 and py.denominator == 2:
            before, after = cells[k - 1], cells[k]
            corners.append(((before[0], after[1]), (after[0], before[1])))
    return cells, corners


def reference_los(opaque: np.ndarray, a: XY, b: XY, veil: np.ndarray | None = None) -> bool:
    cells, corners = reference_trace(a, b)
    for x, y in cells:
        if (x, y) not in (a, b) and opaque[y, x]:
            return False
        if veil is not None and veil[y, x]:
            return False
    return not any(opaque[p[1], p[0]] and opaque[q[1], q[0]] for p, q in corners)


@st.composite
def grids_and_pairs(
    draw_: st.DrawFn, max_side: int = 9, max_pairs: int = 12
) -> tuple[np.ndarray, np.ndarray, list[XY], list[XY]]:
    w = draw_(st.integers(1, max_side))
    h = draw_(st.integers(1, max_side))
    opaque = draw_(arrays(bool, (h, w), elements=st.booleans()))
    veil = draw_(arrays(bool, (h, w), elements=st.sampled_from([False, False, False, True])))
    point = st.tuples(st.integers(0, w - 1), st.integers(0, h - 1))
    pairs = draw_(st.lists(st.tuples(point, point), min_size=1, max_size=max_pairs))
    return opaque, veil, [p for p, _ in pairs], [q for _, q in pairs]


# -- hand-drawn cases -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("door", "expected"),
    [(".", True), ("'", True), ("=", True), ("+", False), ("L", False), ("#", False)],
)
def test_los_through_doorway(door: str, expected: bool) -> None:
    # ruling E-6 / G-8: closed and locked doors are opaque, open doors and windows are not
    m = draw(f"#########\n#a..{door}..b#\n#########")
    opaque = m.board.opaque(0)
    a, b = m["a"], m["b"]
    assert line_of_sight(opaque, (a.x, a.y), (b.x, b.y)) is expected
    assert line_of_sight(opaque, (b.x, b.y), (a.x, a.y)) is expected


def test_los_opaque_endpoints_do_not_block() -> None:
    # a figure beside a closed door sees the door itself; the ends of a segment never block
    m = draw("a.+.b")
    opaque = m.board.opaque(0)
    assert line_of_sight(opaque, (0, 0), (2, 0))
    assert line_of_sight(opaque, (2, 0), (4, 0))
    assert not line_of_sight(opaque, (0, 0), (4, 0))


def test_smoke_blocks_in_the_middle_and_at_either_end() -> None:
    # ruling G-8: smoke blocks when the segment enters any smoke square, ends included
    m = draw("a.*.b")
    opaque, smoke = m.board.opaque(0), m.board.smoke(0)
    assert not line_of_sight(opaque, (0, 0), (4, 0), smoke)
    assert line_of_sight(opaque, (0, 0), (4, 0))  # no veil: the rulesets without smoke
    assert line_of_sight(opaque, (0, 0), (1, 0), smoke)
    assert not line_of_sight(opaque, (0, 0), (2, 0), smoke)  # into the smoke
    assert not line_of_sight(opaque, (2, 0), (4, 0), smoke)  # out of the smoke
    assert not line_of_sight(opaque, (2, 0), (2, 0), smoke)  # a figure in smoke sees nobody
    assert line_of_sight(opaque, (0, 0), (0, 0), smoke)


def test_smoke_touched_only_at_a_corner_does_not_block() -> None:
    m = draw(
        """
        a*.
        *..
        ..b
        """
    )
    opaque, smoke = m.board.opaque(0), m.board.smoke(0)
    assert line_of_sight(opaque, (0, 0), (2, 2), smoke)
    assert not line_of_sight(opaque, (0, 0), (2, 1), smoke)


@pytest.mark.parametrize(
    ("picture", "expected"),
    [
        ("a#.\n#..\n..b", False),  # both corner cells opaque: the squeeze is shut
        ("a#.\n...\n..b", True),  # one of them open: sight passes the corner
        ("a..\n#..\n..b", True),
        ("a+.\n#..\n..b", False),  # a closed door counts as opaque too
        ("a'.\n#..\n..b", True),
        ("a..\n...\n.#b", True),  # corner cells by the far end: only one opaque
        ("a..\n..#\n.#b", False),
    ],
)
def test_corner_squeeze(picture: str, expected: bool) -> None:
    m = draw(picture)
    opaque = m.board.opaque(0)
    assert line_of_sight(opaque, (0, 0), (2, 2)) is expected
    assert line_of_sight(opaque, (2, 2), (0, 0)) is expected


def test_adjacent_cells() -> None:
    m = draw("a#\n#b")
    opaque = m.board.opaque(0)
    assert not line_of_sight(opaque, (0, 0), (1, 1))
    m = draw("a#\n.b")
    assert line_of_sight(m.board.opaque(0), (0, 0), (1, 1))
    # orthogonal neighbours always see each other, whatever surrounds them
    m = draw("###\n#a#\n###")
    assert line_of_sight(m.board.opaque(0), (1, 1), (1, 0))


def test_wall_clips_a_shallow_line() -> None:
    # (0,0)->(4,1) crosses the interiors of (0,0) (1,0) (2,0) (2,1) (3,1) (4,1)
    m = draw("a....\n.....")
    opaque = m.board.opaque(0).copy()
    opaque[1, 2] = True
    assert not line_of_sight(opaque, (0, 0), (4, 1))
    opaque[1, 2] = False
    opaque[1, 1] = True  # below the line: untouched
    assert line_of_sight(opaque, (0, 0), (4, 1))
    opaque[1, 1] = False
    opaque[0, 3] = True  # above the line at x=3: untouched
    assert line_of_sight(opaque, (0, 0), (4, 1))


def test_los_pairs_empty_and_batched() -> None:
    opaque = np.zeros((3, 3), dtype=bool)
    assert los_pairs(opaque, [], []).shape == (0,)
    opaque[1, 1] = True
    got = los_pairs(opaque, [(0, 0), (0, 0), (0, 1), (2, 2)], [(2, 2), (2, 0), (2, 1), (2, 2)])
    assert got.tolist() == [False, True, False, True]


def test_los_from_matches_pairs() -> None:
    m = draw(
        """
        ##########
        #a...#...#
        #....+...#
        #..#.....#
        ##########
        """
    )
    opaque = m.board.opaque(0)
    mask = np.ones(opaque.shape, dtype=bool)
    mask[0, :] = False
    a = m["a"]
    seen = los_from(opaque, (a.x, a.y), mask)
    ys, xs = np.nonzero(mask)
    pairs = los_pairs(opaque, [(a.x, a.y)] * xs.size, np.stack([xs, ys], axis=1))
    assert (seen[ys, xs] == pairs).all()
    assert not seen[0].any()
    assert seen[1, 1] and seen[1, 5] and not seen[1, 7] and not seen[3, 4]


# -- properties ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(grids_and_pairs())
def test_los_is_symmetric(case: tuple[np.ndarray, np.ndarray, list[XY], list[XY]]) -> None:
    opaque, veil, a, b = case
    assert (los_pairs(opaque, a, b, veil) == los_pairs(opaque, b, a, veil)).all()
    assert (los_pairs(opaque, a, b) == los_pairs(opaque, b, a)).all()


@settings(max_examples=400, deadline=None)
@given(grids_and_pairs(max_side=12, max_pairs=20))
def test_los_pairs_matches_reference(
    case: tuple[np.ndarray, np.ndarray, list[XY], list[XY]],
) -> None:
    opaque, veil, a, b = case
    got = los_pairs(opaque, a, b, veil).tolist()
    assert got == [reference_los(opaque, p, q, veil) for p, q in zip(a, b, strict=True)]
    got = los_pairs(opaque, a, b).tolist()
    assert got == [reference_los(opaque, p, q) for p, q in zip(a, b, strict=True)]


@settings(max_examples=100, deadline=None)
@given(grids_and_pairs(max_side=12, max_pairs=20))
def test_batched_equals_single(case: tuple[np.ndarray, np.ndarray, list[XY], list[XY]]) -> None:
    opaque, veil, a, b = case
    batched = los_pairs(opaque, a, b, veil).tolist()
    assert batched == [line_of_sight(opaque, p, q, veil) for p, q in zip(a, b, strict=True)]


def test_los_pairs_reference_on_a_dense_random_grid() -> None:
    # every pair on one 9x7 grid at once: long and short segments in one batch
    gen = np.random.default_rng(7)
    opaque = gen.random((7, 9)) < 0.3
    ys, xs = np.indices(opaque.shape)
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1)
    a = np.repeat(pts, len(pts), axis=0)
    b = np.tile(pts, (len(pts), 1))
    got = los_pairs(opaque, a, b)
    expected = [
        reference_los(opaque, (p[0], p[1]), (q[0], q[1]))
        for p, q in zip(a.tolist(), b.tolist(), strict=True)
    ]
    assert got.tolist() == expected


def test_large_batches_are_split_by_length_and_agree_with_single_pairs() -> None:
    # enough long segments that the numpy reference batches them by length
    gen = np.random.default_rng(11)
    opaque = gen.random((41, 47)) < 0.08
    veil = gen.random((41, 47)) < 0.01
    a = np.stack([gen.integers(0, 47, 600), gen.integers(0, 41, 600)], axis=1)
    b = np.stack([gen.integers(0, 47, 600), gen.integers(0, 41, 600)], axis=1)
    got = los_pairs_numpy(opaque, a, b, veil)
    singles = [bool(los_pairs(opaque, a[i : i + 1], b[i : i + 1], veil)[0]) for i in range(600)]
    assert got.tolist() == singles
    for i in range(0, 600, 20):
        p, q = a[i].tolist(), b[i].tolist()
        assert got[i] == reference_los(opaque, (p[0], p[1]), (q[0], q[1]), veil)
    assert 0 < got.sum() < 600
    with pytest.raises(ValueError, match="targets"):
        los_pairs(opaque, a, b[:5])


def test_compiled_kernel_equals_the_numpy_rule_on_60000_random_pairs() -> None:
    gen = np.random.default_rng(2026)
    for density in (0.05, 0.15, 0.3, 0.5):
        for h, w in ((23, 31), (50, 40)):
            opaque = gen.random((h, w)) < density
            veil = gen.random((h, w)) < 0.03
            a = np.stack([gen.integers(0, w, 3750), gen.integers(0, h, 3750)], axis=1)
            b = np.stack([gen.integers(0, w, 3750), gen.integers(0, h, 3750)], axis=1)
            b[::50] = a[::50]  # zero-length segments too
            for v in (None, veil):
                for mode in ("exact", "supercover"):
                    got = los_pairs(opaque, a, b, v, mode)
                    assert (got == los_pairs_numpy(opaque, a, b, v, mode)).all()



def test_the_one_origin_kernel_equals_the_numpy_rule_from_every_origin() -> None:
    """``los_from`` (one compiled pass over the level) answers exactly what the numpy rule
    answers pair by pair, from each origin of random grids, with and without smoke, in both
    modes, for the masked cells only."""
    gen = np.random.default_rng(2027)
    for density in (0.1, 0.3):
        opaque = gen.random((13, 17)) < density
        veil = gen.random((13, 17)) < 0.05
        mask = gen.random((13, 17)) < 0.8
        ys, xs = np.nonzero(mask)
        targets = np.stack([xs, ys], axis=1)
        for oy in range(13):
            for ox in range(17):
                origins = np.broadcast_to(np.array([ox, oy]), targets.shape)
                for v in (None, veil):
                    for mode in ("exact", "supercover"):
                        seen = los_from(opaque, (ox, oy), mask, v, mode)
                        assert not seen[~mask].any()
                        expected = los_pairs_numpy(opaque, origins, targets, v, mode)
                        assert (seen[ys, xs] == expected).all(), (ox, oy, mode)

# -- cells on a segment -------------------------------------------------------------------


def test_cells_on_segment_order() -> None:
    assert cells_on_segment((0, 0), (0, 0)) == [(0, 0)]
    assert cells_on_segment((2, 1), (5, 1)) == [(2, 1), (3, 1), (4, 1), (5, 1)]
    assert cells_on_segment((5, 1), (2, 1)) == [(5, 1), (4, 1), (3, 1), (2, 1)]
    assert cells_on_segment((0, 3), (0, 0)) == [(0, 3), (0, 2), (0, 1), (0, 0)]
    assert cells_on_segment((0, 0), (3, 3)) == [(0, 0), (1, 1), (2, 2), (3, 3)]
    assert cells_on_segment((0, 0), (4, 1)) == [(0, 0), (1, 0), (2, 0), (2, 1), (3, 1), (4, 1)]
    assert cells_on_segment((0, 0), (-4, -1)) == [
        (0, 0),
        (-1, 0),
        (-2, 0),
        (-2, -1),
        (-3, -1),
        (-4, -1),
    ]
    assert cells_on_segment((1, 1), (3, -4)) == [
        (1, 1),
        (1, 0),
        (2, 0),
        (2, -1),
        (2, -2),
        (2, -3),
        (3, -3),
        (3, -4),
    ]


@settings(max_examples=300, deadline=None)
@given(
    st.tuples(st.integers(-9, 9), st.integers(-9, 9)),
    st.tuples(st.integers(-9, 9), st.integers(-9, 9)),
)
def test_cells_on_segment_matches_reference(a: XY, b: XY) -> None:
    cells = cells_on_segment(a, b)
    assert cells == reference_trace(a, b)[0]
    assert cells[0] == a and cells[-1] == b
    # consecutive cells are king neighbours, and the reversed segment gives the reversed list
    for p, q in pairwise(cells):
        assert max(abs(p[0] - q[0]), abs(p[1] - q[1])) == 1
    assert cells_on_segment(b, a) == cells[::-1]


# -- distances ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("target", "squared", "short"),
    [((5, 0), 25, True), ((4, 3), 25, True), ((5, 1), 26, False), ((6, 0), 36, False)],
)
def test_g_tv1_range_bands(target: XY, squared: int, short: bool) -> None:
    # ruling G-2: "up to 5" is dx²+dy² ≤ 25, every threshold on squared integers
    assert euclidean_sq((0, 0), target) == squared
    assert (euclidean_sq((0, 0), target) <= 25) is short


def test_g2_thresholds_and_metrics() -> None:
    # grenade radius 4: ≤ 16; hearing and max throw 10: ≤ 100
    assert euclidean_sq(Cell(0, 3, 3), Cell(0, 0, 0)) == 18 > 16
    assert euclidean_sq((0, 0), (6, 8)) == 100
    assert euclidean_sq((0, 0), (7, 8)) == 113
    assert euclidean((0, 0), (3, 4)) == 5.0
    assert chebyshev(Cell(0, 1, 1), Cell(2, 4, -6)) == 7
    assert chebyshev((0, 0), (-3, 2)) == 3


@pytest.mark.parametrize(
    ("steps", "cost"),
    [
        (["e", "e", "ne", "ne", "ne"], 6),  # G-TV4: o=2, d=3 -> 2 + 3 + 1
        (["ne"] * 4, 6),  # G-TV5
        (["ne"] * 5, 7),
        (["ne", "n"], 2),
        (["ne"] * 2, 3),
        (["se", "se", "s"], 4),  # G-TV6: 3 + 1
    ],
)
def test_octile_test_vectors(steps: list[str], cost: int) -> None:
    # ruling G-3: o + d + floor(d/2); the vectors use y north, the map y south (same cost)
    dx = sum(COMPASS[s][0] for s in steps)
    dy = sum(COMPASS[s][1] for s in steps)
    assert octile((0, 0), (dx, dy)) == cost
    assert octile(Cell(0, dx, dy), Cell(0, 0, 0)) == cost


# -- facing arcs --------------------------------------------------------------------------


def _north_up(dx: int, dy_north: int) -> tuple[int, int]:
    """The test vectors use y north; the map's y grows south."""
    return dx, -dy_north


def _classify(facing: str, v: tuple[int, int]) -> str:
    f = COMPASS[facing]
    if bool(arc_test(f, v[0], v[1], 22.5)):
        return "auto"
    if bool(arc_test(f, v[0], v[1], 90.0)):
        return "peripheral"
    return "unseen"


@pytest.mark.parametrize(
    ("facing", "target", "expected"),
    [
        ("e", (5, 2), "auto"),  # G-TV2: 21.8°
        ("e", (5, 3), "peripheral"),  # 31.0°
        ("e", (0, 4), "peripheral"),  # exactly 90°
        ("e", (-1, 4), "unseen"),  # 104°
        ("ne", (5, 3), "auto"),  # G-TV3: 14.0°
        ("ne", (5, 0), "peripheral"),  # 45°
        ("ne", (-3, 3), "peripheral"),  # 90°
        ("ne", (-3, 2), "unseen"),  # 101.3°
    ],
)
def test_g7_arc_vectors(facing: str, target: tuple[int, int], expected: str) -> None:
    assert _classify(facing, _north_up(*target)) == expected


def test_g_tv3_really_points_north_east_on_the_map() -> None:
    # with y south, NE is (1, -1): the G-TV3 auto target (5,3) north-up is (5,-3) on the map
    assert COMPASS["ne"] == (1, -1)
    assert _classify("ne", (5, 3)) == "peripheral"  # reading the vector y-south would be wrong
    assert _classify("ne", (5, -3)) == "auto"


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(COMPASS_ORDER), st.integers(-30, 30), st.integers(-30, 30))
def test_auto_cone_is_one_compass_sector(facing: str, dx: int, dy: int) -> None:
    # ruling G-6/G-7: the ±22.5° cone of an 8-way facing is exactly one compass sector
    inside = bool(arc_test(COMPASS[facing], dx, dy, 22.5))
    if dx == dy == 0:
        assert inside
    else:
        assert inside == (sector_of(dx, dy) == facing)
        angle = _angle(COMPASS[facing], (dx, dy))
        assert inside == (angle <= 22.5)
        assert bool(arc_test(COMPASS[facing], dx, dy, 90.0)) == (angle <= 90.0 + 1e-9)


def _angle(f: tuple[int, int], v: tuple[int, int]) -> float:
    dot = f[0] * v[0] + f[1] * v[1]
    cross = f[0] * v[1] - f[1] * v[0]
    return math.degrees(math.atan2(abs(cross), dot))


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(COMPASS_ORDER),
    st.integers(-20, 20),
    st.integers(-20, 20),
    st.sampled_from([10.0, 30.0, 45.0, 60.0, 120.0, 135.0, 179.0]),
)
def test_other_angles_follow_the_true_angle(facing: str, dx: int, dy: int, half: float) -> None:
    angle = _angle(COMPASS[facing], (dx, dy)) if (dx, dy) != (0, 0) else 0.0
    got = bool(arc_test(COMPASS[facing], dx, dy, half))
    if abs(angle - half) > 1e-6:
        assert got == (angle < half)
    else:
        assert got  # on the edge: inside


def test_arc_edges_and_all_round() -> None:
    e = COMPASS["e"]
    assert bool(arc_test(e, 1, 1, 45.0))  # exactly on the 45° edge
    assert not bool(arc_test(e, 1, 2, 45.0))
    assert bool(arc_test(e, 0, 0, 1.0))  # own cell is always inside
    assert bool(arc_test(e, -5, 0, 180.0))
    assert not bool(arc_test(e, -5, 0, 179.0))
    vectors = arc_test(e, np.array([1, 0, -1]), np.array([0, 1, 0]), 90.0)
    assert vectors.tolist() == [True, True, False]


def test_arc_mask_is_level_shaped_around_the_origin() -> None:
    mask = arc_mask((5, 7), (3, 2), COMPASS["s"], 22.5)
    assert mask.shape == (5, 7)
    ys, xs = np.nonzero(mask)
    assert mask[2, 3]
    # (±1, 2) is 26.6° off the facing: outside the cone
    assert set(zip(xs.tolist(), ys.tolist(), strict=True)) == {(3, 2), (3, 3), (3, 4)}
    wide = arc_mask((5, 7), (3, 2), COMPASS["s"], 90.0)
    assert wide[2:].all() and not wide[:2].any()


def test_chebyshev_takes_cells_and_pairs_alike() -> None:
    gen = np.random.default_rng(3)
    for _ in range(200):
        ax, ay, bx, by = (int(v) for v in gen.integers(-9, 10, 4))
        want = max(abs(ax - bx), abs(ay - by))  # the definition, as a reference
        level = int(gen.integers(0, 3))
        assert chebyshev(Cell(level, ax, ay), Cell(0, bx, by)) == want
        assert chebyshev((ax, ay), Cell(level, bx, by)) == want
        assert chebyshev((ax, ay), (bx, by)) == want


def test_board_passable_cell_by_cell_equals_the_level_mask() -> None:
    m = draw(
        """
        #.+'L=><~,
        """
    )
    mask = m.board.passable_mask(0)
    for x in range(mask.shape[1]):
        assert m.board.passable(Cell(0, x, 0)) == bool(mask[0, x])
    assert mask.tolist() == [[False, True, True, True, False, False, True, True, True, True]]
    for outside in (Cell(0, -1, 0), Cell(0, 10, 0), Cell(0, 0, 1), Cell(1, 0, 0)):
        assert not m.board.passable(outside)
