"""The exact line-of-sight rule (E-6, G-8, K-1) compiled with numba: one pass per pair over
the cells its segment may cross, stopping at the first blocking cell.

It decides exactly what ``geometry._los_block`` decides (a test compares them on random
grids); the numpy version stays as the reference. For a segment with ``|dx| = a`` and
``|dy| = b``, the cell ``(u, v)`` of its bounding box has its interior crossed iff
``(2u-1)b < (2v+1)a`` and ``(2v-1)a < (2u+1)b``; a cell meeting both with equality in one
only touches a corner, and a corner blocks only if every touching cell is opaque.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from killhouse.core.kernels import register

BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]


@njit(cache=True, nogil=True)
def _pair_clear(
    opaque: BoolArray,
    veil: BoolArray,
    has_veil: bool,
    supercover: bool,
    ax: int,
    ay: int,
    bx: int,
    by: int,
    scratch: IntArray,
    pair: int,
) -> bool:
    # ``scratch`` (4 rows, at least |dx| + |dy| + 1 long, shared by the pairs of one batch):
    # per anti-diagonal u + v, the pair that last counted there (row 0), its touched cells
    # (row 1) and how many of them are opaque (row 2); row 3 lists the anti-diagonals this
    # pair counted on. A count is started afresh where row 0 names another pair, so no row
    # is cleared per pair (``pair`` numbers the pairs of a batch from 1)
    dx, dy = bx - ax, by - ay
    sx = 1 if dx > 0 else (-1 if dx < 0 else 0)
    sy = 1 if dy > 0 else (-1 if dy < 0 else 0)
    adx, ady = abs(dx), abs(dy)
    if adx == 0 and ady == 0:
        return not (has_veil and veil[ay, ax])
    # walk the major axis (p = 0 .. big) with the minor offset q (0 .. small): cell (p, q)'s
    # interior is crossed iff (2p-1) small < (2q+1) big and (2q-1) big < (2p+1) small, so in
    # column p the crossed q run over (n1 / d, n2 / d) with n1 = (2p-1) small - big,
    # n2 = (2p+1) small + big, d = 2 big; a q at either end exactly is touched at a corner.
    # Both bounds grow by 2 small a column: kept as quotient and remainder, no division.
    x_major = adx >= ady
    big = adx if x_major else ady
    small = ady if x_major else adx
    d = 2 * big
    q1, r1 = divmod(-small - big, d)  # floor(n1 / d)
    q2, r2 = divmod(small + big - 1, d)  # floor((n2 - 1) / d)
    corners = 0
    for p in range(big + 1):
        if p:
            r1 += 2 * small
            if r1 >= d:
                r1 -= d
                q1 += 1
            r2 += 2 * small
            if r2 >= d:
                r2 -= d
                q2 += 1
        for q in range(max(q1 + 1, 0), min(q2, small) + 1):
            if x_major:
                x, y = ax + sx * p, ay + sy * q
            else:
                x, y = ax + sx * q, ay + sy * p
            if has_veil and veil[y, x]:
                return False  # smoke blocks even at the ends
            end = (p == 0 and q == 0) or (p == big and q == small)
            if not end and opaque[y, x]:
                return False
        for k in range(2):
            # the cell touched at a corner by the lower bound (k = 0) or the upper (k = 1)
            if k == 0:
                if r1 != 0:
                    continue
                q = q1
                if (2 * q - 1) * big > (2 * p + 1) * small:
                    continue
            else:
                if r2 != d - 1:
                    continue
                q = q2 + 1
                if (2 * p - 1) * small > (2 * q + 1) * big:
                    continue
            if q < 0 or q > small:
                continue
            if x_major:
                x, y = ax + sx * p, ay + sy * q
            else:
                x, y = ax + sx * q, ay + sy * p
            if supercover:
                # ruling F-24: every cell the segment touches, corners included, blocks
                end = (p == 0 and q == 0) or (p == big and q == small)
                if (has_veil and veil[y, x]) or (not end and opaque[y, x]):
                    return False
                continue
            s = p + q
            if scratch[0, s] != pair:
                scratch[0, s] = pair
                scratch[1, s] = 0
                scratch[2, s] = 0
                scratch[3, corners] = s
                corners += 1
            scratch[1, s] += 1
            if opaque[y, x]:
                scratch[2, s] += 1
    for k in range(corners):
        s = scratch[3, k]
        if scratch[2, s] == scratch[1, s]:
            return False  # ruling E-6/G-8: a corner blocks only if both its cells are opaque
    return True


@njit(cache=True, nogil=True)
def _pairs(
    opaque: BoolArray,
    veil: BoolArray,
    has_veil: bool,
    supercover: bool,
    a: IntArray,
    b: IntArray,
    out: BoolArray,
) -> None:
    longest = 1
    for k in range(a.shape[0]):
        longest = max(longest, abs(b[k, 0] - a[k, 0]) + abs(b[k, 1] - a[k, 1]) + 1)
    scratch = np.zeros((4, longest), dtype=np.int64)
    for k in range(a.shape[0]):
        out[k] = _pair_clear(
            opaque, veil, has_veil, supercover, a[k, 0], a[k, 1], b[k, 0], b[k, 1], scratch, k + 1
        )


@njit(cache=True, nogil=True)
def _from(
    opaque: BoolArray,
    veil: BoolArray,
    has_veil: bool,
    supercover: bool,
    ox: int,
    oy: int,
    mask: BoolArray,
    out: BoolArray,
) -> None:
    # every cell of the level where ``mask`` holds, from one origin: no pair arrays to build
    height, width = opaque.shape
    scratch = np.zeros((4, height + width + 1), dtype=np.int64)
    pair = 0
    for y in range(height):
        for x in range(width):
            if mask[y, x]:
                pair += 1
                out[y, x] = _pair_clear(
                    opaque, veil, has_veil, supercover, ox, oy, x, y, scratch, pair
                )


_NO_VEIL = np.zeros((1, 1), dtype=np.bool_)


def los_pairs_compiled(
    opaque: BoolArray,
    a: IntArray,
    b: IntArray,
    veil: BoolArray | None,
    supercover: bool = False,
) -> BoolArray:
    """Line of sight for ``(n, 2)`` origin and target arrays of ``(x, y)`` on one level; with
    ``supercover`` every touched cell between the ends blocks (F-24) instead of K-1's corners."""
    out = np.empty(a.shape[0], dtype=np.bool_)
    op = np.ascontiguousarray(opaque, dtype=np.bool_)
    if veil is None:
        _pairs(op, _NO_VEIL, False, supercover, a, b, out)
    else:
        _pairs(op, np.ascontiguousarray(veil, dtype=np.bool_), True, supercover, a, b, out)
    return out


def los_from_compiled(
    opaque: BoolArray,
    origin: tuple[int, int],
    mask: BoolArray,
    veil: BoolArray | None,
    supercover: bool = False,
) -> BoolArray:
    """Line of sight from ``origin`` ``(x, y)`` to every cell of the level where ``mask`` is
    true (false elsewhere): ``los_pairs_compiled`` to those cells, in one pass over the
    level."""
    out = np.zeros(opaque.shape, dtype=np.bool_)
    op = np.ascontiguousarray(opaque, dtype=np.bool_)
    wanted = np.ascontiguousarray(mask, dtype=np.bool_)
    ox, oy = int(origin[0]), int(origin[1])
    if veil is None:
        _from(op, _NO_VEIL, False, supercover, ox, oy, wanted, out)
    else:
        _from(op, np.ascontiguousarray(veil, dtype=np.bool_), True, supercover, ox, oy, wanted,
              out)
    return out


@register
def warm() -> None:
    """Run the kernel once, with and without a veil, on a 3x3 level (``core.kernels``)."""
    opaque = np.zeros((3, 3), dtype=np.bool_)
    a = np.zeros((1, 2), dtype=np.int64)
    b = np.full((1, 2), 2, dtype=np.int64)
    los_pairs_compiled(opaque, a, b, None)
    los_pairs_compiled(opaque, a, b, opaque)
    los_from_compiled(opaque, (0, 0), ~opaque, None)
