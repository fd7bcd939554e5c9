"""Models that cover several cells (vehicles): footprints, their centre, and arcs from it.

Ruling K-11: a model of several cells is a rectangle ``length`` cells along its facing by
``width`` across it, facing one of the four cardinal directions (a rectangle turned 45° has no
exact cells); its centre is the rectangle's centre, which may lie on a cell edge or corner, so
arcs are measured in doubled coordinates from it with K-8's tie rule, and distances to it are
the least over its cells (``measure.footprint_within_sq``).
"""

from __future__ import annotations

from collections.abc import Sequence

from killhouse.core.cells import COMPASS, Cell
from killhouse.core.measure import quarter_arc

CARDINAL_FACINGS: tuple[str, ...] = ("n", "e", "s", "w")


def footprint(anchor: Cell, length: int, width: int, facing: str) -> tuple[Cell, ...]:
    """The cells of a ``length`` x ``width`` model whose top-left cell is ``anchor``.

    Facing north or south the length runs along y; facing east or west, along x. Cells come
    row by row.
    """
    if facing not in CARDINAL_FACINGS:
        raise ValueError(f"a model of several cells faces n, e, s or w, not {facing!r} (K-11)")
    if length < 1 or width < 1:
        raise ValueError(f"a model is at least 1 x 1 cells, not {length} x {width}")
    across, along = (width, length) if facing in ("n", "s") else (length, width)
    return tuple(
        Cell(anchor.level, anchor.x + dx, anchor.y + dy)
        for dy in range(along)
        for dx in range(across)
    )


def centre2(cells: Sequence[Cell]) -> tuple[int, int]:
    """The centre of a rectangle of cells in doubled coordinates (``2x``, ``2y``)."""
    xs = [c.x for c in cells]
    ys = [c.y for c in cells]
    return min(xs) + max(xs), min(ys) + max(ys)


def model_arc(cells: Sequence[Cell], facing: str, target: Cell, ties: str = "front-back") -> str:
    """Which 90° arc (front, right, back, left) of a model ``target``'s centre lies in (K-8)."""
    cx, cy = centre2(cells)
    arc = quarter_arc(COMPASS[facing], 2 * target.x - cx, 2 * target.y - cy, ties)
    return str(arc)
