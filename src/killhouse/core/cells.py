"""Cells and compass facings: the coordinates every other module speaks in.

A cell is ``(level, x, y)`` with x the column and y the row, origin top-left, so
"north" is ``-y`` on the map. Arrays are indexed ``[y, x]``.
"""

from __future__ import annotations

import math
from typing import NamedTuple


class Cell(NamedTuple):
    """One grid square on one level."""

    level: int
    x: int
    y: int

    def step(self, dx: int, dy: int) -> Cell:
        return Cell(self.level, self.x + dx, self.y + dy)


def cell_json(cell: Cell | None) -> list[int] | None:
    """A cell as views, events and actions write it: ``[level, x, y]`` (``None`` off the map)."""
    return None if cell is None else list(cell)  # (level, x, y): faster than by name


#: The eight compass facings as unit steps on the map (y grows southwards).
COMPASS: dict[str, tuple[int, int]] = {
    "n": (0, -1),
    "ne": (1, -1),
    "e": (1, 0),
    "se": (1, 1),
    "s": (0, 1),
    "sw": (-1, 1),
    "w": (-1, 0),
    "nw": (-1, -1),
}
COMPASS_ORDER: tuple[str, ...] = tuple(COMPASS)
_LONG = {
    "north": "n",
    "northeast": "ne",
    "north-east": "ne",
    "east": "e",
    "southeast": "se",
    "south-east": "se",
    "south": "s",
    "southwest": "sw",
    "south-west": "sw",
    "west": "w",
    "northwest": "nw",
    "north-west": "nw",
}
NEIGHBOURS: tuple[tuple[int, int], ...] = tuple(COMPASS.values())


def parse_facing(value: object) -> str:
    """Return the compass name for ``n``/``north``/degrees (0 = north, clockwise).

    Degrees are snapped to the nearest of the eight compass points.
    Raises ``ValueError`` with the accepted forms on anything else.
    """
    if isinstance(value, bool):
        raise ValueError("expected a compass direction such as n, ne, east or degrees")
    if isinstance(value, int | float):
        index = round((float(value) % 360.0) / 45.0) % 8
        return COMPASS_ORDER[index]
    if isinstance(value, str):
        key = value.strip().lower()
        if key in COMPASS:
            return key
        if key in _LONG:
            return _LONG[key]
    raise ValueError("expected a compass direction such as n, ne, east or degrees")


def facing_degrees(facing: str) -> float:
    """Bearing of a compass facing in degrees, 0 = north, clockwise."""
    return 45.0 * COMPASS_ORDER.index(facing)


def facing_vector(facing: str) -> tuple[int, int]:
    """The unit map step of a compass facing."""
    return COMPASS[facing]


def sector_of(dx: int, dy: int) -> str:
    """The compass sector (45° wide, centred on each point) that contains the map vector."""
    if dx == 0 and dy == 0:
        raise ValueError("a zero vector has no direction")
    bearing = math.degrees(math.atan2(dx, -dy)) % 360.0
    return COMPASS_ORDER[round(bearing / 45.0) % 8]
