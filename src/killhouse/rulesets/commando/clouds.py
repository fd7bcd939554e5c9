"""Smoke and illumination on the board (ruling C-35): from the Bookkeeping in which they go off
to the end of the third turn after it, smoke veils sight in its 3×3 block and illumination lets
targets within 5 squares of the burst be observed at Day range."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.rulesets.commando.dice import distance
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.commando.turn import cloud_lasts_until

SMOKE = "smoke"
ILLUMINATION = "illumination"


@dataclass(frozen=True)
class Cloud:
    """A smoke or illumination burst and the last turn it lasts."""

    kind: str
    center: Cell
    until: int


def burst(kind: str, center: Cell, turn: int) -> Cloud:
    if kind not in (SMOKE, ILLUMINATION):
        raise ValueError(f"{kind!r} makes no cloud")
    return Cloud(kind, center, cloud_lasts_until(turn))


def active(clouds: Sequence[Cloud], turn: int) -> list[Cloud]:
    """The clouds still in effect in ``turn`` (Bookkeeping drops the rest, C-64 step 4)."""
    return [c for c in clouds if turn <= c.until]


def lay_smoke(board: Board, clouds: Sequence[Cloud], turn: int) -> None:
    """Set the board's smoke layer to the 3×3 blocks of the smoke clouds active in ``turn``."""
    for level in board.levels:
        level.smoke[:, :] = False
    for cloud in active(clouds, turn):
        if cloud.kind != SMOKE:
            continue
        smoke = board.levels[cloud.center.level].smoke
        height, width = smoke.shape
        y0, x0 = max(0, cloud.center.y - 1), max(0, cloud.center.x - 1)
        smoke[y0 : min(height, cloud.center.y + 2), x0 : min(width, cloud.center.x + 2)] = True


def illuminated(cell: Cell, clouds: Sequence[Cloud], turn: int) -> bool:
    """Within 5 squares (C-1 range) of an active illumination burst on his level."""
    reach = tables().illumination_radius
    return any(
        c.kind == ILLUMINATION and c.center.level == cell.level
        and distance(cell.x - c.center.x, cell.y - c.center.y) <= reach
        for c in active(clouds, turn)
    )
