"""Field of view: shadowcasting on transparency, cut by facing arcs, smoke and radius."""

from __future__ import annotations

import numpy as np
import pytest
import tcod.map
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from killhouse.core.board import Board, Level
from killhouse.core.cells import COMPASS, COMPASS_ORDER, Cell, sector_of
from killhouse.core.fov import ALGORITHM, field_of_view, fields_of_view, transparency
from killhouse.core.geometry import arc_mask, los_from
from killhouse.core.terrain import Terrain

from .maps import draw, open_floor

ROOMS = """
    ###########
    #a...#....#
    #....+..b.#
    #....#....#
    ###########
    """


def _board_from_opaque(opaque: np.ndarray) -> Board:
    level = Level.blank("l", opaque.shape[1], opaque.shape[0])
    level.terrain[opaque] = Terrain.WALL
    return Board([level])


def test_closed_door_hides_the_next_room_and_opening_it_shows_it() -> None:
    m = draw(ROOMS)
    b = m["b"]
    before = field_of_view(m.board, m["a"])
    assert before[1:4, 1:5].all()  # the whole first room
    assert before[2, 5]  # the door's face is seen
    assert not before[b.y, b.x] and not before[1:4, 6:10].any()
    m.board.set_terrain(Cell(0, 5, 2), Terrain.DOOR_OPEN)
    after = field_of_view(m.board, m["a"])
    assert after[b.y, b.x]
    assert (after & ~before).any() and not (before & ~after).any()


def test_smoke_hides_what_is_behind_and_in_it() -> None:
    m = draw(
        """
        a.........
        ..........
        """
    )
    clear = field_of_view(m.board, m["a"])
    assert clear.all()
    m.board.levels[0].smoke[0:2, 4] = True  # a smoke screen across the room
    veiled = field_of_view(m.board, m["a"])
    assert veiled[:, :4].all()
    assert not veiled[:, 4:].any()  # the smoke itself and everything behind it
    assert field_of_view(m.board, m["a"], veil=False).all()


def test_a_figure_in_smoke_sees_only_its_own_cell() -> None:
    m = draw("..*..")
    seen = field_of_view(m.board, Cell(0, 2, 0))
    assert seen.tolist() == [[False, False, True, False, False]]
    assert field_of_view(m.board, Cell(0, 2, 0), veil=False).all()


@pytest.mark.parametrize("facing", COMPASS_ORDER)
@pytest.mark.parametrize("half_angle", [22.5, 90.0, 45.0])
def test_arcs_on_open_ground_at_every_facing(facing: str, half_angle: float) -> None:
    board = open_floor(15, 13)
    origin = Cell(0, 7, 6)
    seen = field_of_view(board, origin, facing, half_angle)
    expected = arc_mask((13, 15), (7, 6), COMPASS[facing], half_angle)
    assert (seen == expected).all()
    # the facing ray is seen, the opposite one is not
    fx, fy = COMPASS[facing]
    assert seen[6 + 3 * fy, 7 + 3 * fx]
    assert not seen[6 - 3 * fy, 7 - 3 * fx]
    assert seen[6, 7]


@pytest.mark.parametrize("facing", COMPASS_ORDER)
def test_auto_cone_at_every_facing_is_its_compass_sector(facing: str) -> None:
    # ruling G-6: the ±22.5° cone of an 8-way facing is exactly one compass sector
    board = open_floor(9, 9)
    seen = field_of_view(board, Cell(0, 4, 4), facing, 22.5)
    ys, xs = np.nonzero(seen)
    cells = {(x - 4, y - 4) for x, y in zip(xs.tolist(), ys.tolist(), strict=True)}
    sector = {
        (dx, dy)
        for dx in range(-4, 5)
        for dy in range(-4, 5)
        if (dx, dy) != (0, 0) and sector_of(dx, dy) == facing
    }
    assert cells == sector | {(0, 0)}


def test_all_round_and_front_half_with_walls() -> None:
    m = draw(ROOMS)
    a = m["a"]
    full = field_of_view(m.board, a)
    assert (field_of_view(m.board, a, "s", 180.0) == full).all()
    assert (field_of_view(m.board, a, None, 22.5) == full).all()  # no facing: all round
    front = field_of_view(m.board, a, "e", 90.0)
    assert (front == full & arc_mask(full.shape, (a.x, a.y), COMPASS["e"], 90.0)).all()
    assert full[a.y, 0] and not front[a.y, 0]  # the wall behind: outside the arc
    assert front[a.y, 4]


def test_radius_is_euclidean() -> None:
    board = open_floor(11, 11)
    seen = field_of_view(board, Cell(0, 5, 5), radius=3)
    ys, xs = np.indices((11, 11))
    assert (seen == ((xs - 5) ** 2 + (ys - 5) ** 2 <= 9)).all()


def test_rejects_bad_input() -> None:
    board = open_floor(3, 3)
    with pytest.raises(ValueError, match="off its level"):
        field_of_view(board, Cell(0, 3, 0))
    with pytest.raises(ValueError, match="unknown facing"):
        field_of_view(board, Cell(0, 1, 1), "north-ish", 90.0)


def test_fields_of_view_match_single_calls() -> None:
    m = draw(ROOMS, ROOMS.replace("a", ".").replace("b", "."))
    m.board.levels[0].smoke[3, 2] = True
    observers = [
        (m["a"], None, 180.0),
        (m["b"], "w", 90.0),
        (Cell(1, 2, 2), "e", 22.5),
        (Cell(0, 2, 3), "n", 90.0),  # in smoke
        (Cell(1, 7, 1), "sw", 45.0),
    ]
    many = fields_of_view(m.board, observers)
    assert len(many) == len(observers)
    for got, (cell, facing, half) in zip(many, observers, strict=True):
        assert (got == field_of_view(m.board, cell, facing, half)).all()
    with_radius = fields_of_view(m.board, observers, radius=2, veil=False)
    for got, (cell, facing, half) in zip(with_radius, observers, strict=True):
        assert (got == field_of_view(m.board, cell, facing, half, 2, False)).all()


def test_transparency() -> None:
    m = draw("#.+'L=*")
    assert transparency(m.board, 0).tolist() == [[False, True, False, True, False, True, False]]
    assert transparency(m.board, 0, veil=False)[0, 6]


@st.composite
def grids(draw_: st.DrawFn) -> tuple[np.ndarray, tuple[int, int]]:
    w = draw_(st.integers(1, 14))
    h = draw_(st.integers(1, 14))
    opaque = draw_(arrays(bool, (h, w), elements=st.sampled_from([False, False, True])))
    return opaque, (draw_(st.integers(0, w - 1)), draw_(st.integers(0, h - 1)))


@settings(max_examples=200, deadline=None)
@given(grids(), st.integers(1, 6))
def test_radius_window_equals_full_shadowcast(
    case: tuple[np.ndarray, tuple[int, int]], radius: int
) -> None:
    opaque, (x, y) = case
    board = _board_from_opaque(opaque)
    full = tcod.map.compute_fov(~opaque, (y, x), algorithm=ALGORITHM)
    ys, xs = np.indices(opaque.shape)
    expected = full & ((xs - x) ** 2 + (ys - y) ** 2 <= radius * radius)
    assert (field_of_view(board, Cell(0, x, y), radius=radius) == expected).all()


@settings(max_examples=200, deadline=None)
@given(grids())
def test_all_round_fov_is_symmetric_between_open_cells(
    case: tuple[np.ndarray, tuple[int, int]],
) -> None:
    opaque, (x, y) = case
    if opaque[y, x]:
        return
    board = _board_from_opaque(opaque)
    seen = field_of_view(board, Cell(0, x, y))
    assert (seen == tcod.map.compute_fov(~opaque, (y, x), algorithm=ALGORITHM)).all()
    ys, xs = np.nonzero(seen & ~opaque)
    for tx, ty in zip(xs.tolist(), ys.tolist(), strict=True):
        assert field_of_view(board, Cell(0, tx, ty))[y, x]


@st.composite
def smoky_grids(draw_: st.DrawFn) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    opaque, origin = draw_(grids())
    smoke = draw_(
        arrays(bool, opaque.shape, elements=st.sampled_from([False, False, False, False, True]))
    )
    return opaque, smoke & ~opaque, origin


@settings(max_examples=300, deadline=None)
@given(grids())
def test_shadowcast_sees_everything_the_exact_rule_sees(
    case: tuple[np.ndarray, tuple[int, int]],
) -> None:
    opaque, (x, y) = case
    if opaque[y, x]:
        return
    board = _board_from_opaque(opaque)
    exact = los_from(opaque, (x, y), np.ones(opaque.shape, dtype=bool))
    seen = field_of_view(board, Cell(0, x, y))
    assert not (exact & ~seen).any()


@settings(max_examples=300, deadline=None)
@given(
    smoky_grids(),
    st.sampled_from([None, *COMPASS_ORDER]),
    st.sampled_from([22.5, 90.0, 180.0]),
    st.integers(0, 5),
)
def test_exact_field_is_the_exact_rule_in_the_arc(
    case: tuple[np.ndarray, np.ndarray, tuple[int, int]],
    facing: str | None,
    half_angle: float,
    radius: int,
) -> None:
    opaque, smoke, (x, y) = case
    if opaque[y, x]:
        return
    board = _board_from_opaque(opaque)
    board.levels[0].smoke[...] = smoke
    ys, xs = np.indices(opaque.shape)
    wanted = np.ones(opaque.shape, dtype=bool)
    if facing is not None:
        wanted &= arc_mask(opaque.shape, (x, y), COMPASS[facing], half_angle)
    if radius:
        wanted &= (xs - x) ** 2 + (ys - y) ** 2 <= radius * radius
    expected = los_from(opaque, (x, y), wanted, smoke)
    if smoke[y, x]:
        expected[y, x] = True  # a figure in smoke still knows its own cell
    got = field_of_view(board, Cell(0, x, y), facing, half_angle, radius, exact=True)
    assert (got == expected).all()
    loose = field_of_view(board, Cell(0, x, y), facing, half_angle, radius)
    assert not (got & ~loose).any()
    many = fields_of_view(board, [(Cell(0, x, y), facing, half_angle)], radius=radius, exact=True)
    assert (many[0] == got).all()


def test_exact_field_drops_the_doorway_overreach() -> None:
    # looking through a doorway five rows away, shadowcasting reaches one column wider than
    # the exact segment rule: the segment to (14, 5) clips the wall beside the door
    m = draw("\n".join(["." * 20] * 10 + ["#" * 15 + "'" + "#" * 4] + ["." * 20] * 5))
    origin = Cell(0, 15, 15)
    loose = field_of_view(m.board, origin)
    exact = field_of_view(m.board, origin, exact=True)
    assert loose[5, 14] and not exact[5, 14]
    assert exact[5, 15] and exact[0, 15]
    opaque = m.board.opaque(0)
    assert not los_from(opaque, (15, 15), np.ones(opaque.shape, dtype=bool))[5, 14]


@settings(max_examples=150, deadline=None)
@given(
    smoky_grids(),
    st.lists(
        st.tuples(
            st.integers(0, 13),
            st.integers(0, 13),
            st.sampled_from([None, *COMPASS_ORDER]),
            st.sampled_from([22.5, 45.0, 90.0, 180.0]),
        ),
        min_size=2,
        max_size=5,
    ),
    st.integers(0, 4),
    st.booleans(),
)
def test_batched_fields_equal_the_whole_level_reference(
    case: tuple[np.ndarray, np.ndarray, tuple[int, int]],
    picks: list[tuple[int, int, str | None, float]],
    radius: int,
    exact: bool,
) -> None:
    """Many observers in one call, cut as they are cast, against whole-level array passes."""
    opaque, smoke, _ = case
    h, w = opaque.shape
    board = _board_from_opaque(opaque)
    board.levels[0].smoke[...] = smoke
    observers = [(Cell(0, x % w, y % h), facing, half) for x, y, facing, half in picks]
    got = fields_of_view(board, observers, radius=radius, exact=exact)
    ys, xs = np.indices(opaque.shape)
    for field, (cell, facing, half) in zip(got, observers, strict=True):
        x, y = cell.x, cell.y
        wanted = ~smoke.copy()
        if facing is not None:
            wanted &= arc_mask(opaque.shape, (x, y), COMPASS[facing], half)
        if radius:
            wanted &= (xs - x) ** 2 + (ys - y) ** 2 <= radius * radius
        if smoke[y, x]:
            expected = np.zeros(opaque.shape, dtype=bool)
            expected[y, x] = True  # ruling G-8: a figure in smoke sees only its own cell
        elif exact:
            expected = los_from(opaque, (x, y), wanted, smoke) if not opaque[y, x] else None
        else:
            clear = ~opaque & ~smoke
            whole = tcod.map.compute_fov(clear, (y, x), light_walls=True, algorithm=ALGORITHM)
            expected = whole & (wanted | ((xs == x) & (ys == y)))
        if expected is not None:
            assert (field == expected).all()
        assert field.shape == opaque.shape and field.dtype == bool


def test_a_batch_gives_each_observer_its_own_field_exactly_as_one_call_does() -> None:
    # rooms, doors, smoke, observers in and out of the smoke, every arc the rules use
    gen = np.random.default_rng(7)
    level = Level.blank("ground", 23, 17)
    level.terrain[gen.random((17, 23)) < 0.18] = Terrain.WALL
    level.terrain[8, :] = Terrain.WALL
    level.terrain[8, 5] = Terrain.DOOR_OPEN
    level.terrain[8, 15] = Terrain.DOOR_CLOSED
    level.smoke[3:6, 10:14] = True
    board = Board([level, Level.blank("upper", 9, 5)])
    cells = [Cell(0, int(x), int(y)) for x, y in gen.integers((0, 0), (23, 17), (40, 2))]
    cells += [Cell(0, 11, 4), Cell(1, 0, 0), Cell(1, 8, 4)]
    for half_angle in (180.0, 90.0, 45.0, 22.5):
        observers = [
            (c, None if half_angle == 180.0 and i % 2 else COMPASS_ORDER[i % 8], half_angle)
            for i, c in enumerate(cells)
        ]
        for veil in (True, False):
            batch = fields_of_view(board, observers, veil=veil)
            for (cell, facing, half), mask in zip(observers, batch, strict=True):
                alone = field_of_view(board, cell, facing, half, veil=veil)
                assert mask.shape == alone.shape
                assert (mask == alone).all(), (cell, facing, half, veil)
    # each mask is its own: changing one leaves the others alone
    first, second = fields_of_view(board, [(Cell(0, 1, 1), None, 180.0)] * 2)
    first[:] = False
    assert second.any()


def test_batches_on_thin_levels_and_on_split_ones() -> None:
    # every observer of a one-row, a one-column and a two-row level sees all of open ground
    for width, height in ((3, 1), (1, 8), (9, 2)):
        level = Level.blank("ground", width, height)
        board = Board([level])
        observers = [(Cell(0, x, y), None, 180.0) for y in range(height) for x in range(width)]
        for (cell, _, _), mask in zip(observers, fields_of_view(board, observers), strict=True):
            assert mask.all(), (width, height, cell)  # open ground: every square in sight
    # a wall splits the level: each observer of one call has a field of its own
    level = Level.blank("ground", 30, 9)
    level.terrain[:, 15] = Terrain.WALL
    board = Board([level])
    left, right = fields_of_view(board, [(Cell(0, 2, 4), None, 180.0), (Cell(0, 27, 4), None,
                                                                        180.0)])
    assert left[4, 0] and not left[4, 29] and right[4, 29] and not right[4, 0]
