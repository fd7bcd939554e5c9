"""Compiled field of view: libtcod's symmetric shadowcasting, cut to an arc and smoke as it goes.

``shadowcast`` computes exactly the field that ``tcod.map.compute_fov`` gives with
``FOV_SYMMETRIC_SHADOWCAST``, ``light_walls=True`` and no radius (Albert Ford's "Symmetric
Shadowcasting" as libtcod writes it: four quadrants of rows; a row's columns run from its
low slope times its depth rounded half up to its high slope times its depth rounded half
down; a floor cell is lit when its centre lies between the slopes, a wall whenever it is
scanned; the origin always). It keeps libtcod's single-precision slopes and its rounding
nudged by one float epsilon, so the masks are the same bit for bit (a test compares them
on thousands of random maps). Unlike libtcod, which clears and scans the whole map at every
call, it visits only the rows it reaches and writes each lit cell, cut to the facing arc
and clear of smoke, straight into the caller's zeroed mask.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import NDArray

BoolArray = NDArray[np.bool_]

#: libtcod's quadrants as (xx, xy, yx, yy): a row at ``depth`` and ``column`` is the cell
#: ``(ox + depth * xx + column * xy, oy + depth * yx + column * yy)``
QUADRANTS = np.array([[1, 0, 0, 1], [0, 1, 1, 0], [0, -1, -1, 0], [-1, 0, 0, -1]], dtype=np.int64)

_STACK = 64  # rows waiting at first; the stack doubles when a field needs more


@njit(cache=True, nogil=True)
def _round_half_away(value: float) -> int:
    """C's ``roundf``: to the nearest integer, halves away from zero (exact: a float32 plus
    one half fits a float64)."""
    wide = np.float64(value)
    if wide >= 0.0:
        return math.floor(wide + 0.5)
    return -math.floor(-wide + 0.5)


@njit(cache=True, nogil=True)
def _slope(depth: int, column: int) -> np.float32:
    """libtcod's ``slope``: ``(2 column - 1) / (2 depth)`` in single precision, the line
    through the row's centre and the left edge of ``column``."""
    return np.float32(2 * column - 1) / np.float32(2 * depth)


@njit(cache=True, nogil=True)
def _cast(
    clear: BoolArray,
    ox: int,
    oy: int,
    arcs: BoolArray,
    arc: int,
    smoke: BoolArray,
    has_smoke: bool,
    out: BoolArray,
    depths: NDArray[np.int64],
    lows: NDArray[np.float32],
    highs: NDArray[np.float32],
) -> tuple[NDArray[np.int64], NDArray[np.float32], NDArray[np.float32]]:
    """``shadowcast`` for one observer, with its row stack given and given back (grown
    when a field needed more), so that a batch allocates it once."""
    height, width = clear.shape
    up = np.float32(1.0 + 2.0**-23)  # libtcod's 1 + FLT_EPSILON
    down = np.float32(1.0 - 2.0**-23)  # and 1 - FLT_EPSILON
    ax = width - 1 - ox  # cell (x, y) reads arcs[arc, y + ay, x + ax]
    ay = height - 1 - oy
    if (arc < 0 or arcs[arc, oy + ay, ox + ax]) and not (has_smoke and smoke[oy, ox]):
        out[oy, ox] = True  # libtcod lights the origin first
    for q in range(4):
        xx, xy, yx, yy = QUADRANTS[q, 0], QUADRANTS[q, 1], QUADRANTS[q, 2], QUADRANTS[q, 3]
        depths[0] = 1
        lows[0] = np.float32(-1.0)
        highs[0] = np.float32(1.0)
        top = 1
        while top > 0:
            top -= 1
            depth = depths[top]
            low = lows[top]
            high = highs[top]
            rx = ox + depth * xx
            ry = oy + depth * yx
            if not (0 <= rx < width and 0 <= ry < height):
                continue  # the row's depth is past the map's edge
            fdepth = np.float32(depth)
            first = _round_half_away((fdepth * low) * up)
            last = _round_half_away((fdepth * high) * down)
            prev_wall = False
            for column in range(first, last + 1):
                x = rx + column * xy
                y = ry + column * yy
                if not (0 <= x < width and 0 <= y < height):
                    continue  # off the map: libtcod skips it and keeps ``prev_wall``
                wall = not clear[y, x]
                fcolumn = np.float32(column)
                if (
                    (wall or (fcolumn >= fdepth * low and fcolumn <= fdepth * high))
                    and (arc < 0 or arcs[arc, y + ay, x + ax])
                    and not (has_smoke and smoke[y, x])  # ruling G-8: smoke is never seen
                ):
                    out[y, x] = True
                if prev_wall and not wall:
                    low = _slope(depth, column)  # past a wall: the view narrows
                if column != first and not prev_wall and wall:
                    # floor then wall: the rows beyond the floor run, up to this wall's edge
                    if top == depths.shape[0]:
                        depths, lows, highs = _grow(depths, lows, highs)
                    depths[top] = depth + 1
                    lows[top] = low
                    highs[top] = _slope(depth, column)
                    top += 1
                prev_wall = wall
            if not prev_wall:
                if top == depths.shape[0]:
                    depths, lows, highs = _grow(depths, lows, highs)
                depths[top] = depth + 1
                lows[top] = low
                highs[top] = high
                top += 1
    return depths, lows, highs


@njit(cache=True, nogil=True)
def shadowcast(
    clear: BoolArray,
    ox: int,
    oy: int,
    arcs: BoolArray,
    arc: int,
    smoke: BoolArray,
    has_smoke: bool,
    out: BoolArray,
) -> None:
    """Mark in ``out`` (all False on entry, shaped as ``clear``) the cells that libtcod's
    symmetric shadowcast from ``(ox, oy)`` over ``clear`` lights, keeping only those inside
    arc ``arcs[arc]`` (none to keep when ``arc`` < 0: all round) and, when ``has_smoke``,
    not in ``smoke``.

    Each arc is an origin-centred mask of shape ``(2h - 1, 2w - 1)`` for a level of
    ``(h, w)``: cell ``(x, y)`` reads ``arcs[arc, y - oy + h - 1, x - ox + w - 1]``.
    libtcod's recursion becomes a stack of rows (depth, low slope, high slope); a row's
    cells depend only on its own slopes and ``clear``, so the order rows are scanned in
    changes nothing.
    """
    depths, lows, highs = _stack()
    _cast(clear, ox, oy, arcs, arc, smoke, has_smoke, out, depths, lows, highs)


@njit(cache=True, nogil=True)
def shadowcast_many(
    clear: BoolArray,
    xs: NDArray[np.int64],
    ys: NDArray[np.int64],
    arc_ids: NDArray[np.int64],
    arcs: BoolArray,
    smoke: BoolArray,
    has_smoke: bool,
    outs: BoolArray,
) -> None:
    """``shadowcast`` for observer ``i`` at ``(xs[i], ys[i])`` with arc ``arc_ids[i]`` into
    ``outs[i]``, for all of them in one call; an observer standing in smoke sees only its
    own cell (ruling G-8)."""
    depths, lows, highs = _stack()
    for i in range(xs.shape[0]):
        if has_smoke and smoke[ys[i], xs[i]]:
            outs[i, ys[i], xs[i]] = True
            continue
        depths, lows, highs = _cast(
            clear, xs[i], ys[i], arcs, arc_ids[i], smoke, has_smoke, outs[i], depths, lows, highs
        )


@njit(cache=True, nogil=True)
def _stack() -> tuple[NDArray[np.int64], NDArray[np.float32], NDArray[np.float32]]:
    """An empty row stack: depths, low slopes, high slopes."""
    return (
        np.empty(_STACK, dtype=np.int64),
        np.empty(_STACK, dtype=np.float32),
        np.empty(_STACK, dtype=np.float32),
    )


@njit(cache=True, nogil=True)
def _grow(
    depths: NDArray[np.int64], lows: NDArray[np.float32], highs: NDArray[np.float32]
) -> tuple[NDArray[np.int64], NDArray[np.float32], NDArray[np.float32]]:
    """The row stack at twice its size, its rows kept."""
    size = depths.shape[0]
    new_depths = np.empty(2 * size, dtype=np.int64)
    new_lows = np.empty(2 * size, dtype=np.float32)
    new_highs = np.empty(2 * size, dtype=np.float32)
    new_depths[:size] = depths
    new_lows[:size] = lows
    new_highs[:size] = highs
    return new_depths, new_lows, new_highs
