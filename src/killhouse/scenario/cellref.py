"""Positions and zones as scenarios write them: ``level:x,y`` and ``level:x1,y1-x2,y2``.

x is the column and y the row, 0-based from the top-left corner of the level's
drawing. Errors carry a message and a hint so the loader can place them on a line.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from killhouse.core.board import Level
from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain, passable_mask
from killhouse.scenario import limits
from killhouse.scenario.fields import suggest
from killhouse.scenario.yamlsource import describe

_NUM = r"\s*(-?\d+)\s*"
_CELL = re.compile(rf"^\s*([^:\s]+)\s*:{_NUM},{_NUM}$")
_ZONE = re.compile(rf"^\s*([^:\s]+)\s*:{_NUM},{_NUM}(?:-{_NUM},{_NUM})?$")

#: what a cell a figure may not stand on is, for messages
_BLOCKED: dict[Terrain, str] = {
    Terrain.OUTSIDE: "outside the map",
    Terrain.WALL: "a wall",
    Terrain.WINDOW: "a window",
    Terrain.DOOR_LOCKED: "a locked door",
}


class RefError(ValueError):
    """A position or zone that is malformed, names no level, or falls off the map."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


def _level(name: str, names: Sequence[str]) -> int:
    if name in names:
        return list(names).index(name)
    hint = suggest(name, names, listing=False) or "the levels are: " + ", ".join(names)
    raise RefError(f"unknown level {name!r}", hint)


def _number(text: str, digits: str) -> int:
    """A coordinate; one too long for any level is refused before ``int`` reads it."""
    if len(digits.lstrip("-")) > len(str(limits.MAX_SIDE)):
        raise RefError(
            f"{text!r} is outside every level: a coordinate is at most {limits.MAX_SIDE - 1}",
            "x is the column and y the row, 0-based from the top-left corner",
        )
    return int(digits)


def _check_inside(text: str, index: int, x: int, y: int, levels: Sequence[Level] | None) -> None:
    if levels is None:  # the map itself is broken: only the largest possible level bounds it
        if not (-limits.MAX_SIDE < x < limits.MAX_SIDE and -limits.MAX_SIDE < y < limits.MAX_SIDE):
            raise RefError(
                f"{text!r} is outside every level: a coordinate is at most {limits.MAX_SIDE - 1}",
                "x is the column and y the row, 0-based from the top-left corner",
            )
        return
    level = levels[index]
    if not (0 <= x < level.width and 0 <= y < level.height):
        raise RefError(
            f"{text!r} is outside level {level.name!r} ({level.width} x {level.height})",
            f"x is the column, 0-{level.width - 1}; "
            f"y is the row from the top, 0-{level.height - 1}",
        )


def parse_cell(value: object, names: Sequence[str], levels: Sequence[Level] | None) -> Cell:
    """The cell ``value`` names; ``names`` are the level names, ``levels`` the built levels."""
    if not isinstance(value, str):
        raise RefError(
            f'expected a position such as "ground:3,4" (level:x,y), found {describe(value)}',
            'write it as text, for example at: "ground:3,4"',
        )
    match = _CELL.match(value)
    if match is None:
        raise RefError(
            f'expected a position such as "ground:3,4" (level:x,y), found {value!r}',
            "x is the column and y the row, 0-based from the top-left corner",
        )
    index = _level(match.group(1), names)
    x, y = _number(value, match.group(2)), _number(value, match.group(3))
    _check_inside(value, index, x, y, levels)
    return Cell(index, x, y)


def parse_zone(value: object, names: Sequence[str], levels: Sequence[Level] | None) -> set[Cell]:
    """The cells of ``level:x,y`` or the rectangle ``level:x1,y1-x2,y2`` (corners included)."""
    if not isinstance(value, str):
        raise RefError(
            f'expected a cell "level:x,y" or a rectangle "level:x1,y1-x2,y2", '
            f"found {describe(value)}"
        )
    match = _ZONE.match(value)
    if match is None:
        raise RefError(
            f'expected a cell "level:x,y" or a rectangle "level:x1,y1-x2,y2", found {value!r}',
            'for example "ground:0,4-9,4" is the bottom row of a 10-wide level',
        )
    index = _level(match.group(1), names)
    x1, y1 = _number(value, match.group(2)), _number(value, match.group(3))
    x2 = _number(value, match.group(4)) if match.group(4) is not None else x1
    y2 = _number(value, match.group(5)) if match.group(5) is not None else y1
    _check_inside(value, index, x1, y1, levels)
    _check_inside(value, index, x2, y2, levels)
    if levels is None:
        return set()  # with the map broken the rectangle's cells mean nothing: none are built
    xs = range(min(x1, x2), max(x1, x2) + 1)
    ys = range(min(y1, y2), max(y1, y2) + 1)
    return {Cell(index, x, y) for y in ys for x in xs}


def blocked_reason(level: Level, x: int, y: int) -> str | None:
    """Why a figure cannot stand on the cell (``"a wall"``), or ``None`` if it can."""
    if bool(passable_mask(level.terrain[y, x : x + 1])[0]):
        return None
    terrain = Terrain(int(level.terrain[y, x]))
    return _BLOCKED.get(terrain, f"not enterable ({terrain.name.lower()})")
