"""Field of view: which cells of its level a figure sees, by libtcod's symmetric shadowcasting.

Two questions are kept apart on purpose. *Which cells does a figure see* (what a side's
view shows, what it remembers, what bots reason about) is answered here with libtcod's
symmetric shadowcasting over the level's transparency, cut to the figure's facing arc (a
compiled copy of libtcod's algorithm, ``core.fovjit``, that visits only the cells it reaches).
*Does figure A see figure B* is a rules question and is answered with the exact pairwise
segment test of ``core.geometry`` (rulings E-6, G-8). Shadowcasting sees every cell the
exact rule sees and, near doorways and pillars, a few more; so rulesets never decide sight
from a field of view, and a view that must match the rules asks for ``exact=True``.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np
import tcod.constants
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.cells import COMPASS, Cell
from killhouse.core.fovjit import shadowcast, shadowcast_many
from killhouse.core.geometry import arc_test, los_from
from killhouse.core.kernels import register

BoolArray = NDArray[np.bool_]

#: The libtcod algorithm ``fovjit.shadowcast`` reproduces (with ``light_walls=True``, no
#: radius); tests and the benchmark compare against it. Symmetric: if a floor cell B is in
#: A's field of view, A is in B's.
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
    groups: dict[int, list[int]] = {}
    for i, (origin, _, _) in enumerate(observers):
        groups.setdefault(origin.level, []).append(i)
    out: list[BoolArray] = []
    slots: dict[int, tuple[int, int]] = {}  # observer -> (level, place in its level's block)
    blocks: dict[int, BoolArray] = {}
    for level, members in groups.items():
        opaque = board.opaque(level)
        smoke = _smoke(board, level, veil)
        view = _View(_clear(opaque, smoke), opaque if exact else None, smoke)
        block = np.zeros((len(members), *opaque.shape), dtype=bool)
        group = [observers[i] for i in members]
        if radius > 0 or exact:
            for place, (origin, facing, half_angle) in enumerate(group):
                block[place] = view.field(origin, facing, half_angle, radius)
        else:
            view.fill_many(group, block)
        blocks[level] = block
        for place, i in enumerate(members):
            slots[i] = (level, place)
    for i in range(len(observers)):
        level, place = slots[i]
        out.append(blocks[level][place])
    return out


class _ArcBook:
    """The arc masks of one level shape, stacked for ``fovjit.shadowcast_many``: a mask of
    shape ``(2h - 1, 2w - 1)`` per (facing, half-angle), centred on the observer, made once
    (with ``geometry.arc_test``) and kept."""

    LIMIT = 32  # arcs kept per shape; a batch that would pass it starts a new book

    def __init__(self, height: int, width: int):
        self.height = height
        self.width = width
        self.masks: BoolArray = np.zeros((4, 2 * height - 1, 2 * width - 1), dtype=bool)
        self.slots: dict[tuple[str, float], int] = {}

    def slot(self, facing: str, half_angle: float) -> int:
        """The index in ``masks`` of this arc, made on first use (under ``_BOOKS_LOCK``): a
        slot once given keeps its mask, and a grown stack copies the masks before it."""
        key = (facing, half_angle)
        found = self.slots.get(key)
        if found is not None:
            return found
        found = len(self.slots)
        if found == self.masks.shape[0]:
            grown = np.zeros((2 * found, *self.masks.shape[1:]), dtype=bool)
            grown[:found] = self.masks
            self.masks = grown
        ys, xs = np.indices((2 * self.height - 1, 2 * self.width - 1))
        self.masks[found] = arc_test(
            COMPASS[facing], xs - (self.width - 1), ys - (self.height - 1), half_angle
        )
        self.slots[key] = found
        return found


_BOOKS: dict[tuple[int, int], _ArcBook] = {}
_BOOKS_LOCK = threading.Lock()
_NO_MASK = np.zeros((1, 1), dtype=bool)
_NO_ARCS = np.zeros((1, 1, 1), dtype=bool)


def _book(height: int, width: int, fresh: int) -> _ArcBook:
    """The arc book of a level shape, started anew when ``fresh`` more arcs would pass its
    limit (so that the slots of one batch stay valid) or when many shapes are kept."""
    book = _BOOKS.get((height, width))
    if book is None or len(book.slots) + fresh > _ArcBook.LIMIT:
        if len(_BOOKS) > 8:
            _BOOKS.clear()
        book = _BOOKS[height, width] = _ArcBook(height, width)
    return book


class _View:
    """One level's sight arrays, shared by every observer on it."""

    def __init__(self, clear: BoolArray, opaque: BoolArray | None, smoke: BoolArray | None):
        self.clear = np.ascontiguousarray(clear)
        self.opaque = opaque  # set when the exact rule must confirm every cell
        self.smoke = smoke

    def _check(self, origin: Cell, facing: str | None) -> None:
        height, width = self.clear.shape
        if not (0 <= origin.x < width and 0 <= origin.y < height):
            raise ValueError(f"{origin} is off its level ({width}x{height})")
        if facing is not None and facing not in COMPASS:
            raise ValueError(f"unknown facing {facing!r}; expected one of {', '.join(COMPASS)}")

    def fill_many(self, group: Sequence[Observer], block: BoolArray) -> None:
        """Mark ``field(origin, facing, half_angle, 0)`` of each observer of ``group`` in its
        place of ``block``, which comes in all False (no exact rule): one compiled call
        shadowcasts them all, cutting each to its arc and the smoke as it goes."""
        height, width = self.clear.shape
        count = len(group)
        xs = np.empty(count, dtype=np.int64)
        ys = np.empty(count, dtype=np.int64)
        for place, (origin, facing, _) in enumerate(group):
            self._check(origin, facing)
            xs[place] = origin.x
            ys[place] = origin.y
        arc_ids = np.full(count, -1, dtype=np.int64)
        arcs = {(facing, half) for _, facing, half in group if facing is not None and half < 180.0}
        masks = _NO_ARCS
        if arcs:
            with _BOOKS_LOCK:  # the server casts for several rooms at once
                book = _book(height, width, len(arcs))
                slots = {key: book.slot(*key) for key in sorted(arcs)}
                masks = book.masks
            for place, (_, facing, half_angle) in enumerate(group):
                if facing is not None and half_angle < 180.0:
                    arc_ids[place] = slots[facing, half_angle]
        smoke = self.smoke
        shadowcast_many(
            self.clear,
            xs,
            ys,
            arc_ids,
            masks,
            _NO_MASK if smoke is None else smoke,
            smoke is not None,
            block,
        )

    def field(self, origin: Cell, facing: str | None, half_angle: float, radius: int) -> BoolArray:
        """The field of one observer, as ``field_of_view`` describes it."""
        if radius <= 0 and self.opaque is None:
            block = np.zeros((1, *self.clear.shape), dtype=bool)
            self.fill_many([(origin, facing, half_angle)], block)
            one: BoolArray = block[0]
            return one
        self._check(origin, facing)
        height, width = self.clear.shape
        x, y = origin.x, origin.y
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
        window = np.ascontiguousarray(self.clear[y0:y1, x0:x1])
        seen: BoolArray = np.zeros(window.shape, dtype=bool)
        shadowcast(window, x - x0, y - y0, _NO_ARCS, -1, _NO_MASK, False, seen)
        arc = facing is not None and half_angle < 180.0
        # Fields of view are mostly small next to the level: cut them cell by cell on the
        # seen cells alone, never with whole-level array passes.
        # (2-D np.nonzero is many times slower than a copy and a 1-D flatnonzero)
        ys, xs = np.divmod(np.flatnonzero(seen), seen.shape[1])
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


@register
def warm() -> None:
    """Run both compiled shadowcasts once on a 3x3 level, as the fields above call them
    (``core.kernels``)."""
    clear = np.ones((3, 3), dtype=bool)
    shadowcast(clear, 1, 1, _NO_ARCS, -1, _NO_MASK, False, np.zeros((3, 3), dtype=bool))
    one = np.ones(1, dtype=np.int64)
    shadowcast_many(clear, one, one, np.full(1, -1, dtype=np.int64), _NO_ARCS, _NO_MASK, False,
                    np.zeros((1, 3, 3), dtype=bool))
