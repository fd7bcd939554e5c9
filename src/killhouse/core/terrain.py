"""Terrain kinds and the default legend of the scenario format.

Terrain is stored as small integers in numpy arrays; the masks below are what
geometry and rulesets build their own masks from.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from numpy.typing import NDArray


class Terrain(IntEnum):
    """What one cell is made of."""

    OUTSIDE = 0
    FLOOR = 1
    WALL = 2
    DOOR_CLOSED = 3
    DOOR_OPEN = 4
    DOOR_LOCKED = 5
    WINDOW = 6
    STAIRS_UP = 7
    STAIRS_DOWN = 8
    WATER = 9


class Cover(IntEnum):
    """Cover a cell gives to a figure in it."""

    NONE = 0
    LIGHT = 1
    MEDIUM = 2
    HEAVY = 3


#: Terrain names accepted in legend entries.
TERRAIN_NAMES: dict[str, Terrain] = {
    "outside": Terrain.OUTSIDE,
    "floor": Terrain.FLOOR,
    "wall": Terrain.WALL,
    "door": Terrain.DOOR_CLOSED,
    "window": Terrain.WINDOW,
    "stairs-up": Terrain.STAIRS_UP,
    "stairs-down": Terrain.STAIRS_DOWN,
    "stairs": Terrain.STAIRS_UP,
    "water": Terrain.WATER,
}
DOOR_STATES: dict[str, Terrain] = {
    "closed": Terrain.DOOR_CLOSED,
    "open": Terrain.DOOR_OPEN,
    "locked": Terrain.DOOR_LOCKED,
}
COVER_NAMES: dict[str, Cover] = {
    "none": Cover.NONE,
    "light": Cover.LIGHT,
    "medium": Cover.MEDIUM,
    "heavy": Cover.HEAVY,
}


#: The default legend of the scenario format; a scenario may add symbols, never change these.
DEFAULT_LEGEND: dict[str, dict[str, object]] = {
    "#": {"terrain": "wall"},
    ".": {"terrain": "floor"},
    " ": {"terrain": "outside"},
    "+": {"terrain": "door", "state": "closed"},
    "'": {"terrain": "door", "state": "open"},
    "L": {"terrain": "door", "state": "locked"},
    "=": {"terrain": "window"},
    ">": {"terrain": "stairs-up"},
    "<": {"terrain": "stairs-down"},
    "~": {"terrain": "water"},
    ",": {"terrain": "floor", "cover": "light"},
    ";": {"terrain": "floor", "cover": "medium"},
    "%": {"terrain": "floor", "cover": "heavy"},
    **{str(n): {"terrain": "floor", "clutter": n} for n in range(6)},
}

_OPAQUE = np.zeros(16, dtype=bool)
_OPAQUE[[Terrain.WALL, Terrain.DOOR_CLOSED, Terrain.DOOR_LOCKED]] = True
_PASSABLE = np.zeros(16, dtype=bool)
_PASSABLE[
    [
        Terrain.FLOOR,
        Terrain.DOOR_CLOSED,
        Terrain.DOOR_OPEN,
        Terrain.STAIRS_UP,
        Terrain.STAIRS_DOWN,
        Terrain.WATER,
    ]
] = True
_DOOR = np.zeros(16, dtype=bool)
_DOOR[[Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN, Terrain.DOOR_LOCKED]] = True
_STAIRS = np.zeros(16, dtype=bool)
_STAIRS[[Terrain.STAIRS_UP, Terrain.STAIRS_DOWN]] = True
_SOLID = np.zeros(16, dtype=bool)
_SOLID[[Terrain.WALL, Terrain.DOOR_CLOSED, Terrain.DOOR_LOCKED, Terrain.OUTSIDE]] = True


def opaque_mask(terrain: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """Cells that stop sight: walls and closed or locked doors (windows and open doors do not)."""
    return _OPAQUE.take(terrain)


def passable_mask(terrain: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """Cells a figure may enter: floor, water, stairs and unlocked doors (entering opens them)."""
    return _PASSABLE.take(terrain)


def door_mask(terrain: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """Door cells in any state."""
    return _DOOR.take(terrain)


def stairs_mask(terrain: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """Stair cells."""
    return _STAIRS.take(terrain)


def solid_mask(terrain: NDArray[np.uint8]) -> NDArray[np.bool_]:
    """Cells that stop blasts, flood fills and corner-cutting: walls, closed doors, off-map."""
    return _SOLID.take(terrain)
