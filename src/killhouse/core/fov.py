"""Field of view: which cells of its level a figure sees, by python-tcod shadowcasting.

Two questions are kept apart on purpose. *Which cells does a figure see* (what a side's
view shows, what it remembers, what bots reason about) is answered here with libtcod's
symmetric shadowcasting over the level's transparency, cut to the figure's facing arc.
*Does figure A see figure B* is a rules question and is answered with the exact pairwise
segment test of ``core.geometry`` (rulings E-6, G-8). Shadowcasting sees every cell the
exact rule sees and, near doorways and pillars, a few more; so rulesets never decide sight
from a field of view, and a view that must match the rules asks for ``exact=True``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np
import tcod.constants
import tcod.map
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.cells import COMPASS, Cell
from killhouse.core.fovjit import FOV_MASKS, cut_field, cut_field_words
from killhouse.core.geometry import arc_test, los_from

BoolArray = NDArray[np.bool_]

#: Symmetric: if a floor cell B is in A's field of view, A is in B's.
ALGORITHM: int = tcod.constants.FOV_SYMMETRIC_SHADOWCAST

#: One observer for ``fields_of_view``: its cell, facing (None = all round), half-angle.
Observer = tuple[Cell, str | None, float]


def transparency(board: Board, level: int, veil: bool = True) -> BoolArray:
    """Cells sight passes through: not walls or closed doors, and (with ``veil``) not smoke."""
    return _clear(board.opaque(level), _smoke(board, level, veil))


def _clear(opaque: BoolArray, smoke: BoolArray | None) -> BoolArray:
    clear: BoolArray = ~opaque
    if smoke is not None:
        clear &= ~smoke  # ruling G-8: smoke blocks sight
    return clear


def _smoke(board: Board, level: int, veil: bool) -> BoolArray | None:
    """The level's smoke when it veils sight and there is any (None saves the array passes)."""
    smoke = board.smoke(level)
    return smoke if veil and smoke.any() else None


def field_of_view(
    board: Board,
    origin: Cell,
    facing: str | None = None,
    half_angle: float = 180.0,
    radius: int = 0,
    veil: bool = True,
    exact: bool = False,
) -> BoolArray:
    """The cells of ``origin``'s level that a figure there sees, as a level-shaped mask.

    ``facing`` is a compass name (``"n"`` … ``"nw"``) or None for all round; ``half_angle``
    is measured either side of it (180 = all round, 90 = the front half, 22.5 = one compass
    sector; any other angle works too). ``radius`` > 0 limits sight to ``dx²+dy² ≤ radius²``.
    Walls and closed doors bordering the seen area count as seen (their faces are). With
    ``veil``, smoke stops sight and smoky cells are never seen into; a figure in smoke sees
    only its own cell (ruling G-8).

    Shadowcasting is a little more generous than the exact segment rule near doorways and
    pillars (it tests walls only along each row's centre line), and never less: every cell
    the exact rule sees is in the field (a property test checks this). ``exact=True`` keeps
    only the cells the exact rule (``geometry.los_from``) also sees, so that a view never
    shows a cell as seen where the rules would not see a figure.
    """
    opaque = board.opaque(origin.level)
    smoke = _smoke(board, origin.level, veil)
    view = _View(_clear(opaque, smoke), opaque if exact else None, smoke)
    return view.field(origin, facing, half_angle, radius)


def fields_of_view(
    board: Board,
    observers: Sequence[Observer],
    *,
    radius: int = 0,
    veil: bool = True,
    exact: bool = False,
) -> list[BoolArray]:
    """``field_of_view`` for many observers, building each level's transparency only once.

    The masks are views into one zeroed block per level and call (no array is allocated per
    observer); each observer's mask is its own and stays valid.
    """
    views: dict[int, _View] = {}
    counts: dict[int, int] = {}
    for origin, _, _ in observers:
        counts[origin.level] = counts.get(origin.level, 0) + 1
    blocks: dict[int, NDArray[np.bool_]] = {}
    used: dict[int, int] = {}
    out: list[BoolArray] = []
    for origin, facing, half_angle in observers:
        level = origin.level
        if level not in views:
            opaque = board.opaque(level)
            smoke = _smoke(board, level, veil)
            views[level] = _View(
                _clear(opaque, smoke), opaque if exact else None, smoke, reuse=len(observers) > 1
            )
            blocks[level] = np.zeros((counts[level], *opaque.shape), dtype=bool)
            used[level] = 0
        view = views[level]
        target = blocks[level][used[level]]
        used[level] += 1
        if radius > 0 or exact or not view.reuse:
            target[...] = view.field(origin, facing, half_angle, radius)
        else:
            view.fill(origin, facing, half_angle, target)
        out.append(target)
    return out


#: origin-centred arc masks by (facing, half-angle, level shape): see ``fovjit.cut_field``
_ARCS: dict[tuple[str, float, int, int], BoolArray] = {}
_NO_MASK = np.zeros((1, 1), dtype=bool)
_NO_BUFFER = np.zeros((1, 1, 1), dtype=bool)
_NO_WORDS = np.zeros(0, dtype=np.uint64)


def _arc(facing: str, half_angle: float, height: int, width: int) -> BoolArray:
    key = (facing, half_angle, height, width)
    found = _ARCS.get(key)
    if found is None:
        if len(_ARCS) > 64:
            _ARCS.clear()
        ys, xs = np.indices((2 * height - 1, 2 * width - 1))
        found = np.ascontiguousarray(
            arc_test(COMPASS[facing], xs - (width - 1), ys - (height - 1), half_angle)
        )
        _ARCS[key] = found
    return found


class _View:
    """One level's sight arrays, reused for every observer on it."""

    def __init__(
        self,
        clear: BoolArray,
        opaque: BoolArray | None,
        smoke: BoolArray | None,
        reuse: bool = False,
    ):
        self.clear = clear
        self.opaque = opaque  # set when the exact rule must confirm every cell
        self.smoke = smoke
        self.reuse = reuse  # many observers: keep one libtcod map for the level
        self._map: tcod.map.Map | None = None
        self._cells: BoolArray | None = None  # the reused map's buffer (see ``_buffer``)
        self._word_view: NDArray[np.uint64] | None = None  # the buffer as words (``_words``)

    def _whole_level(self, x: int, y: int) -> BoolArray:
        """Shadowcast over the whole level on one reused libtcod map.

        ``tcod.map.compute_fov`` builds and fills a fresh map buffer at every call; keeping
        one per level and copying only the result costs less than a bare call (measured in
        ``benchmarks/bench_fov.py``). tcod marks ``Map`` as no longer needed, not as wrong.
        With reuse the answer is a strided view that the next observer overwrites.
        """
        if not self.reuse:
            whole: BoolArray = tcod.map.compute_fov(
                self.clear, (y, x), radius=0, light_walls=True, algorithm=ALGORITHM
            )
            return whole
        if self._map is None:
            height, width = self.clear.shape
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                self._map = tcod.map.Map(width, height)
            self._map.transparent[:] = self.clear
        self._map.compute_fov(x, y, 0, True, ALGORITHM)
        return self._map.fov  # a view of the map's buffer: callers copy what they keep

    def _buffer(self, seen: BoolArray) -> tuple[BoolArray, int]:
        """The shadowcast as (array, channel) for ``cut_field``: the reused map's interleaved
        buffer itself when ``seen`` is its fov channel (checked once per map), else a copy."""
        if self._cells is None and self._map is not None:
            base = seen.base
            height, width = self.clear.shape
            if (
                isinstance(base, np.ndarray)
                and base.shape == (height, width, 3)
                and base.dtype == np.bool_
                and base.flags.c_contiguous
                and seen.strides == (3 * width, 3)
                and seen.ctypes.data - base.ctypes.data == 2
            ):
                self._cells = base
            else:
                self._cells = _NO_BUFFER
        if self._cells is not None and self._cells is not _NO_BUFFER:
            return self._cells, 2
        return np.ascontiguousarray(seen)[:, :, None], 0

    def _words(self, cells: BoolArray) -> NDArray[np.uint64] | None:
        """The reused map's buffer as 64-bit words, three per eight cells (its whole groups of
        24 bytes), for ``cut_field_words``; None when it cannot be viewed so."""
        if self._word_view is None:
            if not cells.flags.c_contiguous:  # a reshaped copy would not follow the map
                self._word_view = _NO_WORDS
                return None
            flat = cells.reshape(-1)
            whole = flat[: flat.size // 24 * 24]
            view = whole.view(np.uint64) if whole.size else None
            self._word_view = view if view is not None and view.flags.aligned else _NO_WORDS
        return None if self._word_view is _NO_WORDS else self._word_view

    def fill(self, origin: Cell, facing: str | None, half_angle: float, out: BoolArray) -> None:
        """Mark ``field(origin, facing, half_angle, 0)`` in ``out``, which comes in all False
        (reused map, no exact rule): one shadowcast and one compiled pass, no temporaries."""
        height, width = self.clear.shape
        x, y = origin.x, origin.y
        if not (0 <= x < width and 0 <= y < height):
            raise ValueError(f"{origin} is off its level ({width}x{height})")
        if facing is not None and facing not in COMPASS:
            raise ValueError(f"unknown facing {facing!r}; expected one of {', '.join(COMPASS)}")
        smoke = self.smoke
        if smoke is not None and smoke[y, x]:
            out[y, x] = True  # ruling G-8: a figure in smoke can see nobody
            return
        seen = self._whole_level(x, y)
        arc = facing is not None and half_angle < 180.0
        cells, channel = self._buffer(seen)
        arc_mask = (
            _arc(facing, half_angle, height, width) if arc and facing is not None else _NO_MASK
        )
        smoke_mask = smoke if smoke is not None else _NO_MASK
        words = self._words(cells) if channel == 2 else None
        if words is not None:
            cut_field_words(
                cells, words, FOV_MASKS, arc_mask, arc, x, y, smoke_mask, smoke is not None, out
            )
        else:
            cut_field(cells, channel, arc_mask, arc, x, y, smoke_mask, smoke is not None, out)

    def field(self, origin: Cell, facing: str | None, half_angle: float, radius: int) -> BoolArray:
        height, width = self.clear.shape
        x, y = origin.x, origin.y
        if not (0 <= x < width and 0 <= y < height):
            raise ValueError(f"{origin} is off its level ({width}x{height})")
        if facing is not None and facing not in COMPASS:
            raise ValueError(f"unknown facing {facing!r}; expected one of {', '.join(COMPASS)}")
        if self.smoke is not None and self.smoke[y, x]:
            out = np.zeros((height, width), dtype=bool)
            out[y, x] = True  # ruling G-8: a figure in smoke can see nobody
            return out
        # Sight within a radius depends only on cells inside the radius's bounding box, so the
        # shadowcast runs on that window alone (tcod's own radius uses a different shape).
        if radius > 0:
            x0, x1 = max(0, x - radius), min(width, x + radius + 1)
            y0, y1 = max(0, y - radius), min(height, y + radius + 1)
        else:
            x0, x1, y0, y1 = 0, width, 0, height
        if radius > 0:
            window = self.clear[y0:y1, x0:x1]
            seen: BoolArray = np.ascontiguousarray(
                tcod.map.compute_fov(
                    window, (y - y0, x - x0), radius=0, light_walls=True, algorithm=ALGORITHM
                )
            )
        else:
            seen = self._whole_level(x, y)
        arc = facing is not None and half_angle < 180.0
        if not (arc or radius > 0 or self.smoke is not None or self.opaque is not None):
            # all round over the whole level: the shadowcast is the answer (a copy when it
            # is the reused map's buffer, which the next observer overwrites)
            whole: BoolArray = np.ascontiguousarray(seen)
            return whole
        # Fields of view are mostly small next to the level: cut them cell by cell on the
        # seen cells alone, never with whole-level array passes.
        # (2-D np.nonzero is many times slower than a copy and a 1-D flatnonzero)
        ys, xs = np.divmod(np.flatnonzero(np.ascontiguousarray(seen)), seen.shape[1])
        out = np.zeros((height, width), dtype=bool)
        if not ys.size:
            return out
        dy = ys + (y0 - y)
        dx = xs + (x0 - x)
        keep = np.ones(ys.size, dtype=bool)
        if radius > 0:
            keep &= dx * dx + dy * dy <= radius * radius
        if arc:
            assert facing is not None
            keep &= arc_test(COMPASS[facing], dx, dy, half_angle)
        if self.smoke is not None:
            keep &= ~self.smoke[ys + y0, xs + x0]
        if self.opaque is not None:
            # rulings E-6, G-8: the exact segment rule confirms each shadowcast cell, on the
            # bounding box of the shadowcast, which holds the origin and so every segment
            # from it to a seen cell
            r0, r1 = int(ys[0]), int(ys[-1]) + 1  # nonzero gives rows in order
            c0, c1 = int(xs.min()), int(xs.max()) + 1
            box = np.zeros((r1 - r0, c1 - c0), dtype=bool)
            box[ys[keep] - r0, xs[keep] - c0] = True
            inner = (slice(y0 + r0, y0 + r1), slice(x0 + c0, x0 + c1))
            smoke = None if self.smoke is None else self.smoke[inner]
            here = (x - x0 - c0, y - y0 - r0)
            keep &= los_from(self.opaque[inner], here, box, smoke)[ys - r0, xs - c0]
        out[ys[keep] + y0, xs[keep] + x0] = True
        return out
