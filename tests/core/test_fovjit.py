"""The compiled shadowcast of ``core.fovjit`` lights exactly what libtcod's symmetric
shadowcast lights, and ``core.fov`` built on it cuts arcs and smoke as it did on libtcod.

The reference is python-tcod itself (``tcod.map.compute_fov`` with the same algorithm,
``light_walls=True``, no radius) followed by the cut ``core.fov`` made on libtcod's field:
inside the facing arc (``geometry.arc_mask``, the origin always), out of smoke, and only its
own cell for a figure in smoke (ruling G-8).
"""

from __future__ import annotations

import threading

import numpy as np
import tcod.map
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from numpy.typing import NDArray

from killhouse.core.board import Board, Level
from killhouse.core.cells import COMPASS, COMPASS_ORDER, Cell
from killhouse.core.fov import ALGORITHM, field_of_view, fields_of_view, transparency
from killhouse.core.fovjit import shadowcast, shadowcast_many
from killhouse.core.geometry import arc_mask
from killhouse.core.terrain import Terrain

BoolArray = NDArray[np.bool_]
NO_ARCS = np.zeros((1, 1, 1), dtype=bool)
NO_MASK = np.zeros((1, 1), dtype=bool)
HALF_ANGLES = (22.5, 45.0, 90.0, 135.0, 180.0)


def libtcod(clear: BoolArray, x: int, y: int) -> BoolArray:
    """libtcod's own field: the reference the kernel must equal."""
    seen: BoolArray = tcod.map.compute_fov(
        clear, (y, x), radius=0, light_walls=True, algorithm=ALGORITHM
    )
    return seen


def reference(
    board: Board, cell: Cell, facing: str | None, half_angle: float, veil: bool = True
) -> BoolArray:
    """``field_of_view`` as it was computed on libtcod: its field, then the arc and smoke cut."""
    clear = transparency(board, cell.level, veil)
    smoke = board.smoke(cell.level) if veil else np.zeros_like(clear)
    h, w = clear.shape
    if smoke[cell.y, cell.x]:
        own = np.zeros((h, w), dtype=bool)
        own[cell.y, cell.x] = True  # ruling G-8: a figure in smoke sees only its own cell
        return own
    wanted = ~smoke
    if facing is not None and half_angle < 180.0:
        origin = np.zeros((h, w), dtype=bool)
        origin[cell.y, cell.x] = True
        wanted &= arc_mask((h, w), (cell.x, cell.y), COMPASS[facing], half_angle) | origin
    return libtcod(clear, cell.x, cell.y) & wanted


def random_board(gen: np.random.Generator, h: int, w: int) -> Board:
    """Walls, closed and open doors, windows and smoke at random densities."""
    level = Level.blank("ground", w, h)
    walls, doors, smoke = gen.random(3) * np.array([0.6, 0.2, 0.3])
    roll = gen.random((h, w))
    level.terrain[roll < walls] = Terrain.WALL
    door = (roll >= walls) & (roll < walls + doors)
    kinds = np.array([Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN, Terrain.WINDOW])
    level.terrain[door] = kinds[gen.integers(0, 3, (h, w))][door]
    level.smoke[...] = (gen.random((h, w)) < smoke) & (level.terrain == Terrain.FLOOR)
    return Board([level])


def observer_cells(gen: np.random.Generator, h: int, w: int) -> list[tuple[int, int]]:
    """The four corners, a cell of each edge, and random cells (every cell of a small map)."""
    if h * w <= 64:
        return [(x, y) for y in range(h) for x in range(w)]
    picks = {(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)}
    picks |= {(int(gen.integers(0, w)), 0), (int(gen.integers(0, w)), h - 1)}
    picks |= {(0, int(gen.integers(0, h))), (w - 1, int(gen.integers(0, h)))}
    picks |= {(int(x), int(y)) for x, y in gen.integers((0, 0), (w, h), (16, 2))}
    return sorted(picks)


def test_random_maps_give_libtcods_field_and_the_same_cut() -> None:
    gen = np.random.default_rng(20261128)
    compared = 0
    for trial in range(260):
        if trial < 12:
            h, w = [
                (1, 1),
                (1, 2),
                (2, 1),
                (1, 7),
                (7, 1),
                (2, 2),
                (3, 3),
                (1, 60),
                (60, 1),
                (60, 60),
                (2, 60),
                (60, 3),
            ][trial]
        else:
            h, w = (int(v) for v in gen.integers(1, 61, 2))
        board = random_board(gen, h, w)
        cells = observer_cells(gen, h, w)
        clear = transparency(board, 0)
        observers: list[tuple[Cell, str | None, float]] = []
        for k, (x, y) in enumerate(cells):
            # the bare kernel is libtcod, smoke or not
            bare = np.zeros((h, w), dtype=bool)
            shadowcast(clear, x, y, NO_ARCS, -1, NO_MASK, False, bare)
            assert (bare == libtcod(clear, x, y)).all(), (h, w, x, y)
            facing = None if k % 9 == 8 else COMPASS_ORDER[k % 8]
            observers.append((Cell(0, x, y), facing, HALF_ANGLES[k % len(HALF_ANGLES)]))
        for veil in (True, False):
            batch = fields_of_view(board, observers, veil=veil)
            for (cell, facing, half), got in zip(observers, batch, strict=True):
                want = reference(board, cell, facing, half, veil)
                assert (got == want).all(), (h, w, cell, facing, half, veil)
                compared += 1
        cell, facing, half = observers[trial % len(observers)]
        alone = field_of_view(board, cell, facing, half)
        assert (alone == reference(board, cell, facing, half)).all()
    assert compared > 5000


@st.composite
def cases(draw: st.DrawFn) -> tuple[BoolArray, BoolArray, int, int]:
    w = draw(st.integers(1, 24))
    h = draw(st.integers(1, 24))
    opaque = draw(arrays(bool, (h, w), elements=st.sampled_from([False, False, False, True])))
    smoke = draw(arrays(bool, (h, w), elements=st.sampled_from([False] * 7 + [True])))
    return opaque, smoke & ~opaque, draw(st.integers(0, w - 1)), draw(st.integers(0, h - 1))


@settings(max_examples=300, deadline=None)
@given(cases(), st.sampled_from([None, *COMPASS_ORDER]), st.sampled_from(HALF_ANGLES))
def test_any_map_any_observer_any_arc_is_libtcod_then_the_cut(
    case: tuple[BoolArray, BoolArray, int, int], facing: str | None, half_angle: float
) -> None:
    opaque, smoke, x, y = case
    level = Level.blank("l", opaque.shape[1], opaque.shape[0])
    level.terrain[opaque] = Terrain.WALL
    level.smoke[...] = smoke
    board = Board([level])
    want = reference(board, Cell(0, x, y), facing, half_angle)
    assert (field_of_view(board, Cell(0, x, y), facing, half_angle) == want).all()
    batch = fields_of_view(board, [(Cell(0, x, y), facing, half_angle)] * 2)
    assert all((got == want).all() for got in batch)


def test_a_wide_field_outgrows_the_row_stack() -> None:
    # a row of pillars at depth 140 splits one row into ~140 rows waiting at once: more than
    # the stack holds at first, so it grows (and the field is still libtcod's)
    clear = np.ones((300, 300), dtype=bool)
    clear[150, ::2] = False
    for x, y in ((150, 10), (0, 0), (299, 299), (150, 149)):
        got = np.zeros(clear.shape, dtype=bool)
        shadowcast(clear, x, y, NO_ARCS, -1, NO_MASK, False, got)
        assert (got == libtcod(clear, x, y)).all()


def test_one_call_for_many_observers_keeps_each_its_own_arc_and_the_smoke() -> None:
    gen = np.random.default_rng(3)
    clear = gen.random((30, 40)) > 0.2
    smoke = (gen.random((30, 40)) < 0.1) & clear
    arcs = np.stack([arc_mask((59, 79), (39, 29), COMPASS[f], 90.0) for f in ("n", "se")])
    xs = np.array([0, 39, 20, 5], dtype=np.int64)
    ys = np.array([0, 29, 15, 25], dtype=np.int64)
    ids = np.array([-1, 0, 1, 0], dtype=np.int64)
    outs = np.zeros((4, 30, 40), dtype=bool)
    shadowcast_many(clear & ~smoke, xs, ys, ids, arcs, smoke, True, outs)
    for i in range(4):
        x, y = int(xs[i]), int(ys[i])
        if smoke[y, x]:
            assert outs[i].sum() == 1 and outs[i, y, x]
            continue
        want = libtcod(clear & ~smoke, x, y) & ~smoke
        if ids[i] >= 0:
            arc = arcs[ids[i], 29 - y : 59 - y, 39 - x : 79 - x]
            want &= arc
        assert (outs[i] == want).all()


def test_a_batch_of_more_arcs_than_a_book_keeps_is_still_right() -> None:
    # 40 distinct half-angles in one call (the book of a level shape keeps 32), then a
    # second call with others: each field has its own arc
    board = Board([Level.blank("ground", 21, 17)])
    angles = [10.0 + 4.0 * k for k in range(40)]
    for shift in (0, 40):
        observers = [
            (Cell(0, 10, 8), COMPASS_ORDER[(k + shift) % 8], angle)
            for k, angle in enumerate(angles)
        ]
        for (cell, facing, half), got in zip(
            observers, fields_of_view(board, observers), strict=True
        ):
            assert (got == reference(board, cell, facing, half)).all()


def test_observers_cast_from_several_threads_each_get_their_own_arcs() -> None:
    # the server casts for several rooms at once: arcs made at the same time on one level
    # shape never share a slot of its book
    board = Board([Level.blank("ground", 23, 19)])
    cell = Cell(0, 11, 9)
    wanted = {
        (facing, half): reference(board, cell, facing, half)
        for facing in COMPASS_ORDER
        for half in (12.0, 33.0, 61.0, 99.0)
    }
    keys = list(wanted)
    failures: list[tuple[str | None, float]] = []

    def cast(shift: int) -> None:
        for round_ in range(6):
            picks = keys[(shift * 5 + round_ * 3) % len(keys) :] + keys[: 7 * round_ % 9]
            observers = [(cell, facing, half) for facing, half in picks]
            for (_, facing, half), got in zip(
                observers, fields_of_view(board, observers), strict=True
            ):
                if not (got == wanted[facing, half]).all():
                    failures.append((facing, half))

    threads = [threading.Thread(target=cast, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
