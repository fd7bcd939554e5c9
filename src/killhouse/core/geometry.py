"""Line of sight, distances and facing arcs on the grid, computed on numpy arrays.

Line of sight is the exact rule the digests share (rulings E-6 and G-8): the
segment between two cell centres is blocked by the interior of any opaque cell
other than its two ends; where it passes exactly through a grid corner it is
blocked only if both cells touching that corner are opaque. A *veil* (smoke)
blocks a segment that enters any veiled cell, its own ends included.

Every pair is tested in one vectorized pass: for a segment with ``|dx| = a`` and
``|dy| = b``, the cell ``(u, v)`` of its bounding box has its interior crossed iff
``(2u-1)b < (2v+1)a`` and ``(2v-1)a < (2u+1)b``; equality in either test (and
not the other strictly failing) means the segment only touches a corner of it.

A ruleset picks its sight rule with a ``mode`` (``SIGHT_MODES``): ``"exact"`` is the corner
rule above (ruling K-1); ``"supercover"`` blocks on every cell the closed segment touches,
corner-touched cells included, ends excepted (firewall's F-24).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray

from killhouse.core.cells import Cell
from killhouse.core.losjit import los_from_compiled, los_pairs_compiled

BoolArray = NDArray[np.bool_]
IntArray = NDArray[np.int64]

#: The sight rules a ruleset may name in its metadata (``sight``), passed as ``mode``.
SIGHT_MODES: tuple[str, ...] = ("exact", "supercover")

_CANDIDATES = np.array([-1, 0, 1], dtype=np.int64)
_BUDGET = 4096  # pairs x segment length per vectorized batch in los_pairs


def los_pairs(
    opaque: BoolArray,
    origins: Sequence[tuple[int, int]] | IntArray,
    targets: Sequence[tuple[int, int]] | IntArray,
    veil: BoolArray | None = None,
    mode: str = "exact",
    elevation: NDArray[np.integer] | None = None,
) -> BoolArray:
    """Line of sight for many ``(x, y)`` pairs on one level; returns one bool per pair.

    With ``elevation`` (an integer per cell, ruling K-7 and commando's C-10), a cell between
    the ends blocks only if it is opaque and at least as high as the lower end, or higher
    than both ends: a man on a ridge sees over a wall lower than both ends.

    ``opaque`` is indexed ``[y, x]``; ``veil`` (smoke) blocks even at the ends. ``mode`` is
    one of ``SIGHT_MODES``: ``"exact"`` (K-1 corner rule) or ``"supercover"`` (every touched
    cell between the ends blocks, ruling F-24).
    """
    if mode not in SIGHT_MODES:
        raise ValueError(f"unknown sight mode {mode!r}; expected one of {', '.join(SIGHT_MODES)}")
    a = np.ascontiguousarray(np.asarray(origins, dtype=np.int64).reshape(-1, 2))
    b = np.ascontiguousarray(np.asarray(targets, dtype=np.int64).reshape(-1, 2))
    if a.shape != b.shape:
        raise ValueError(f"{a.shape[0]} origins but {b.shape[0]} targets")
    if elevation is not None:  # sight over ground that rises and falls: numpy only, for now
        return los_pairs_numpy(opaque, a, b, veil, mode, elevation)
    return los_pairs_compiled(opaque, a, b, veil, supercover=mode == "supercover")


def los_pairs_numpy(
    opaque: BoolArray,
    a: IntArray,
    b: IntArray,
    veil: BoolArray | None = None,
    mode: str = "exact",
    elevation: NDArray[np.integer] | None = None,
) -> BoolArray:
    """The same rule vectorized on numpy: the reference the compiled kernel is tested against,
    and the one that reads an elevation layer (K-7).

    Pairs are padded to the longest segment in a batch: batch them by length, so that
    little is padded and each batch's arrays stay small.
    """
    length = np.abs(b - a).max(axis=1) + 1
    n = a.shape[0]
    if n * int(length.max(initial=0)) <= _BUDGET:
        return _los_block(opaque, a, b, veil, mode, elevation)
    order = np.argsort(length, kind="stable")
    length = length[order]
    out = np.empty(n, dtype=bool)
    start = 0
    while start < n:
        cells = np.arange(1, n - start + 1) * length[start:]
        stop = start + max(1, int(np.searchsorted(cells, _BUDGET, side="right")))
        part = order[start:stop]
        out[part] = _los_block(opaque, a[part], b[part], veil, mode, elevation)
        start = stop
    return out


def _los_block(
    opaque: BoolArray,
    a: IntArray,
    b: IntArray,
    veil: BoolArray | None,
    mode: str = "exact",
    elevation: NDArray[np.integer] | None = None,
) -> BoolArray:
    """``los_pairs`` on one batch of ``(n, 2)`` origin and target arrays."""
    n = a.shape[0]
    if n == 0:
        return np.zeros(0, dtype=bool)
    ax, ay = a[:, 0], a[:, 1]
    dx, dy = b[:, 0] - ax, b[:, 1] - ay
    sx, sy = np.sign(dx), np.sign(dy)
    adx, ady = np.abs(dx), np.abs(dy)
    major = np.maximum(adx, ady)
    length = int(major.max()) + 1

    i = np.arange(length, dtype=np.int64)[None, :, None]
    c = _CANDIDATES[None, None, :]
    adx3, ady3 = adx[:, None, None], ady[:, None, None]
    x_major = adx3 >= ady3
    # the minor coordinate nearest the segment in each major step, and its neighbours
    minor_x = (2 * i * ady3 + adx3) // np.maximum(2 * adx3, 1)
    minor_y = (2 * i * adx3 + ady3) // np.maximum(2 * ady3, 1)
    u = np.where(x_major, i, minor_y + c)
    v = np.where(x_major, minor_x + c, i)
    u, v = np.broadcast_arrays(u, v)
    valid = (i <= major[:, None, None]) & (u >= 0) & (v >= 0) & (u <= adx3) & (v <= ady3)

    lhs1, rhs1 = (2 * u - 1) * ady3, (2 * v + 1) * adx3
    lhs2, rhs2 = (2 * v - 1) * adx3, (2 * u + 1) * ady3
    same = (adx3 == 0) & (ady3 == 0)
    interior = valid & ((lhs1 < rhs1) & (lhs2 < rhs2) | same)
    # a zero-length segment satisfies both tests with equality: it is no corner touch
    touch = valid & ~interior & (lhs1 <= rhs1) & (lhs2 <= rhs2)

    xs = np.where(valid, ax[:, None, None] + sx[:, None, None] * u, 0)
    ys = np.where(valid, ay[:, None, None] + sy[:, None, None] * v, 0)
    op = opaque[ys, xs]
    if elevation is not None:
        # ruling K-7 / C-10: blocking depends on the cell's height against the two ends
        height = elevation[ys, xs]
        ea, eb = elevation[ay, ax], elevation[b[:, 1], b[:, 0]]
        low = np.minimum(ea, eb)[:, None, None]
        high = np.maximum(ea, eb)[:, None, None]
        op = (op & (height >= low)) | (height > high)
    ends = ((u == 0) & (v == 0)) | ((u == adx3) & (v == ady3))
    blocked: BoolArray = np.any(interior & ~ends & op, axis=(1, 2))

    if mode == "supercover":
        # ruling F-24: the supercover line is every cell the segment touches, corners included
        blocked |= np.any(touch & ~ends & op, axis=(1, 2))
        if veil is not None:
            blocked |= np.any((interior | touch) & veil[ys, xs], axis=(1, 2))
        return ~blocked

    if np.any(touch):
        # ruling E-6/G-8: a corner blocks only if both cells touching it are opaque
        s = (u + v).reshape(n, -1)
        t = touch.reshape(n, -1)
        o = (touch & op).reshape(n, -1)
        width = int(s.max()) + 1
        rows = np.broadcast_to(np.arange(n)[:, None], s.shape)
        total = np.zeros((n, width), dtype=np.int64)
        shut = np.zeros((n, width), dtype=np.int64)
        np.add.at(total, (rows[t], s[t]), 1)
        np.add.at(shut, (rows[o], s[o]), 1)
        blocked |= np.any((total > 0) & (shut == total), axis=1)

    if veil is not None:
        blocked |= np.any(interior & veil[ys, xs], axis=(1, 2))
    return ~blocked


def line_of_sight(
    opaque: BoolArray,
    a: tuple[int, int],
    b: tuple[int, int],
    veil: BoolArray | None = None,
    mode: str = "exact",
    elevation: NDArray[np.integer] | None = None,
) -> bool:
    """Line of sight between two ``(x, y)`` cells of one level (rulings E-6, G-8; F-24; K-7)."""
    return bool(los_pairs(opaque, [a], [b], veil, mode, elevation)[0])


def los_from(
    opaque: BoolArray,
    origin: tuple[int, int],
    mask: BoolArray,
    veil: BoolArray | None = None,
    mode: str = "exact",
    elevation: NDArray[np.integer] | None = None,
) -> BoolArray:
    """Line of sight from ``origin`` to every cell where ``mask`` is true (a level array)."""
    if elevation is None:  # the compiled rule, one pass over the level
        if mode not in SIGHT_MODES:
            raise ValueError(
                f"unknown sight mode {mode!r}; expected one of {', '.join(SIGHT_MODES)}"
            )
        return los_from_compiled(opaque, origin, mask, veil, supercover=mode == "supercover")
    ys, xs = np.nonzero(mask)
    out = np.zeros(opaque.shape, dtype=bool)
    if xs.size:
        targets = np.stack([xs, ys], axis=1)
        origins = np.broadcast_to(np.asarray(origin, dtype=np.int64), targets.shape)
        out[ys, xs] = los_pairs(opaque, origins, targets, veil, mode, elevation)
    return out


def cells_on_segment(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The cells whose interior the centre-to-centre segment crosses, in order from ``a``.

    Used to trace throws and scatter (a grenade stops in the last clear cell).
    """
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    adx, ady = abs(dx), abs(dy)
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    if adx == 0 and ady == 0:
        return [a]
    v, u = np.indices((ady + 1, adx + 1)).reshape(2, -1)
    crossed = ((2 * u - 1) * ady < (2 * v + 1) * adx) & ((2 * v - 1) * adx < (2 * u + 1) * ady)
    u, v = u[crossed], v[crossed]
    # order by the parameter of the cell's entry point along the segment (ties only on an axis)
    entry = np.maximum((2 * u - 1) * ady, (2 * v - 1) * adx)
    order = np.lexsort((u + v, entry))
    xs = (ax + sx * u[order]).tolist()
    ys = (ay + sy * v[order]).tolist()
    return list(zip(xs, ys, strict=True))


# -- distances ---------------------------------------------------------------------


def chebyshev(a: Cell | tuple[int, int], b: Cell | tuple[int, int]) -> int:
    """``max(|dx|, |dy|)`` between two cells (levels ignored; compare levels yourself)."""
    # x and y are the last two items of a Cell (level, x, y) and of an (x, y) pair alike
    dx, dy = a[-2] - b[-2], a[-1] - b[-1]
    return max(dx if dx >= 0 else -dx, dy if dy >= 0 else -dy)


def euclidean_sq(a: Cell | tuple[int, int], b: Cell | tuple[int, int]) -> int:
    """Squared Euclidean distance between cell centres; thresholds compare squares (G-2)."""
    ax, ay = (a.x, a.y) if isinstance(a, Cell) else a
    bx, by = (b.x, b.y) if isinstance(b, Cell) else b
    return (ax - bx) ** 2 + (ay - by) ** 2


def euclidean(a: Cell | tuple[int, int], b: Cell | tuple[int, int]) -> float:
    return math.sqrt(euclidean_sq(a, b))


def octile(a: Cell | tuple[int, int], b: Cell | tuple[int, int]) -> int:
    """Open-ground king-step cost with diagonals alternating 1, 2: ``o + d + floor(d/2)`` (G-3)."""
    ax, ay = (a.x, a.y) if isinstance(a, Cell) else a
    bx, by = (b.x, b.y) if isinstance(b, Cell) else b
    adx, ady = abs(ax - bx), abs(ay - by)
    d = min(adx, ady)
    o = max(adx, ady) - d
    return o + d + d // 2


# -- facing arcs -------------------------------------------------------------------


def arc_test(
    facing: tuple[int, int], dx: IntArray | int, dy: IntArray | int, half_angle: float
) -> BoolArray:
    """Whether map vectors ``(dx, dy)`` lie within ``half_angle`` degrees of ``facing``.

    For an 8-way facing, 22.5° and 90° use the exact integer test of ruling G-7:
    auto cone iff ``dot > 0`` and ``(|cross| + dot)² ≤ 2·dot²``; 90° iff ``dot ≥ 0``.
    The zero vector (the observer's own cell) is always inside. 180° or more is all round.
    """
    fx, fy = facing
    dxa = np.asarray(dx, dtype=np.int64)
    dya = np.asarray(dy, dtype=np.int64)
    zero: BoolArray = (dxa == 0) & (dya == 0)
    if half_angle >= 180.0:
        return np.ones(np.broadcast(dxa, dya).shape, dtype=bool)
    dot = fx * dxa + fy * dya
    cross = fx * dya - fy * dxa
    if half_angle == 90.0:
        inside: BoolArray = zero | (dot >= 0)
        return inside
    if half_angle == 22.5 and fx in (-1, 0, 1) and fy in (-1, 0, 1):
        inside = zero | ((dot > 0) & ((np.abs(cross) + dot) ** 2 <= 2 * dot * dot))
        return inside
    norm = math.hypot(fx, fy)
    length = np.hypot(dxa, dya)
    with np.errstate(invalid="ignore", divide="ignore"):
        cosine = dot / (norm * np.where(length == 0, 1, length))
    inside = zero | (cosine >= math.cos(math.radians(half_angle)) - 1e-12)
    return inside


def arc_mask(
    shape: tuple[int, int], origin: tuple[int, int], facing: tuple[int, int], half_angle: float
) -> BoolArray:
    """A level-sized mask of the cells in the arc of a figure at ``origin`` facing ``facing``."""
    ys, xs = np.indices(shape)
    return arc_test(facing, xs - origin[0], ys - origin[1], half_angle)


def cells_on_extended_segment(
    a: tuple[int, int], b: tuple[int, int], beyond: Fraction | int
) -> list[tuple[int, int]]:
    """The cells crossed by the segment from ``a``'s centre through ``b``'s and ``beyond`` past it.

    ``beyond`` is a length in cell units (cqb's line of fire runs 6" past the target). A cell
    counts when the segment enters its interior before the far end: an end lying exactly on a
    cell's edge does not enter the cell beyond. Cells come in order from ``a`` and are not
    clipped to any board. Exact: lengths are compared as squares of rationals.
    """
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    big_a, big_b = abs(dx), abs(dy)
    if big_a == 0 and big_b == 0:
        raise ValueError("a segment from a cell to itself has no direction to extend")
    beta = Fraction(beyond)
    if beta < 0:
        raise ValueError(f"cannot extend a segment by a negative length {beyond}")
    sx = (dx > 0) - (dx < 0)
    sy = (dy > 0) - (dy < 0)
    length_sq = big_a * big_a + big_b * big_b
    reach = 1.0 + float(beta) / math.sqrt(length_sq)  # t at the far end, for the box only
    v, u = np.indices((math.ceil(big_b * reach) + 2, math.ceil(big_a * reach) + 2))
    u, v = u.ravel().astype(np.int64), v.ravel().astype(np.int64)
    ma, mb = max(big_a, 1), max(big_b, 1)
    den = 2 * ma * mb  # t = numerator / den
    huge = np.int64(1) << 40
    if big_a:
        xl, xu = (2 * u - 1) * mb, (2 * u + 1) * mb
    else:  # a vertical segment never leaves column 0
        xl = np.where(u == 0, -huge, huge)
        xu = np.where(u == 0, huge, -huge)
    if big_b:
        yl, yu = (2 * v - 1) * ma, (2 * v + 1) * ma
    else:
        yl = np.where(v == 0, -huge, huge)
        yu = np.where(v == 0, huge, -huge)
    entry = np.maximum(xl, yl)
    exit_ = np.minimum(xu, yu)
    past = entry - den  # entry beyond b: compare (past/den)² · L² < β²
    p, q = beta.numerator, beta.denominator
    before_end = (past < 0) | (past * past * length_sq * q * q < p * p * den * den)
    crossed = (entry < exit_) & (exit_ > 0) & before_end
    u, v, entry = u[crossed], v[crossed], entry[crossed]
    order = np.lexsort((u + v, entry))
    xs = (ax + sx * u[order]).tolist()
    ys = (ay + sy * v[order]).tolist()
    return list(zip(xs, ys, strict=True))
