"""Sight between the levels (storeys) of a board, by ruling K-7.

Storeys are separate maps joined by stair links. Across levels a figure sees only along a
link: a figure standing on one end of a link sees the cell at the other end and, from it,
what that cell sees on its own level; two figures on different levels see each other if
either of them stands on such a link end. Balconies over a hall, ridges and windows looking
down on a street are elevation on one level (``los_pairs(..., elevation=...)``), not storeys.
"""

from __future__ import annotations

from collections.abc import Callable

from killhouse.core.board import Board
from killhouse.core.cells import Cell

#: Same-level sight between two cells of one level, as the ruleset computes it.
SeesOnLevel = Callable[[Cell, Cell], bool]


def sight_links(board: Board, cell: Cell) -> list[Cell]:
    """The cells on other levels that ``cell`` looks into: the other ends of its stair links."""
    out = {b for a, b in board.stairs.items() if a == cell and b.level != cell.level}
    out |= {a for a, b in board.stairs.items() if b == cell and a.level != cell.level}
    return sorted(out)


def sees_across_levels(board: Board, a: Cell, b: Cell, sees: SeesOnLevel) -> bool:
    """Whether figures at ``a`` and ``b`` see each other (ruling K-7); symmetric.

    On one level this is ``sees(a, b)``. Across levels it is true when ``a`` is a link end whose
    other end sees ``b`` on ``b``'s level (or is ``b``), or the same from ``b``'s side.
    """
    if a.level == b.level:
        return sees(a, b)
    for here, there in ((a, b), (b, a)):
        for end in sight_links(board, here):
            if end.level == there.level and (end == there or sees(end, there)):
                return True
    return False
