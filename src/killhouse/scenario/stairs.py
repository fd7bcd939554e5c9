"""Stair links between levels: ``map.stairs`` entries first, then a '>' on one level paired
with a '<' on the next by their place, with a message for every stair left over.

Also ``parse_rows``: a board straight from ASCII rows with the default legend (tests, tools).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.errors import Problem, ScenarioError
from killhouse.scenario.mapparse import (
    DEFAULT_ENTRIES,
    TERRAIN_WORDS,
    LevelRows,
    MapIssue,
    StairEntry,
    build_level,
)
from killhouse.scenario.yamlsource import join


def _name(levels: Sequence[Level], cell: Cell) -> str:
    return f"{levels[cell.level].name}:{cell.x},{cell.y}"


def _stairs_of(level: Level, index: int, terrain: Terrain) -> list[Cell]:
    return [Cell(index, int(x), int(y)) for y, x in np.argwhere(level.terrain == terrain)]


def _explicit_links(
    levels: Sequence[Level], entries: Sequence[StairEntry], links: dict[Cell, Cell]
) -> list[MapIssue]:
    issues: list[MapIssue] = []
    for entry in entries:
        bad = False
        for key, cell in (("from", entry.start), ("to", entry.end)):
            terrain = Terrain(int(levels[cell.level].terrain[cell.y, cell.x]))
            if terrain not in (Terrain.STAIRS_UP, Terrain.STAIRS_DOWN):
                issues.append(
                    MapIssue(
                        join(entry.path, key),
                        f"{_name(levels, cell)!r} is {TERRAIN_WORDS[terrain]}, not stairs",
                    )
                )
                bad = True
            elif cell in links:
                issues.append(
                    MapIssue(
                        join(entry.path, key),
                        f"{_name(levels, cell)!r} is already joined to "
                        f"{_name(levels, links[cell])!r}",
                    )
                )
                bad = True
        if bad:
            continue
        lower, upper = sorted((entry.start, entry.end))
        if upper.level - lower.level != 1:
            issues.append(
                MapIssue(
                    entry.path,
                    f"stairs join neighbouring levels; {levels[lower.level].name!r} and "
                    f"{levels[upper.level].name!r} are not",
                    "levels are listed bottom first",
                )
            )
        elif (
            levels[lower.level].terrain[lower.y, lower.x] != Terrain.STAIRS_UP
            or levels[upper.level].terrain[upper.y, upper.x] != Terrain.STAIRS_DOWN
        ):
            issues.append(
                MapIssue(
                    entry.path,
                    f"stairs must lead up ('>') from {_name(levels, lower)!r} on the lower level "
                    f"and arrive down ('<') at {_name(levels, upper)!r} on the upper level",
                )
            )
        else:
            links[lower] = upper
            links[upper] = lower
    return issues


def _auto_pair(ups: list[Cell], downs: list[Cell]) -> list[tuple[Cell, Cell]]:
    """Same x,y first; then a lone stairs up with a lone stairs down."""
    pairs: list[tuple[Cell, Cell]] = []
    by_place = {(c.x, c.y): c for c in downs}
    for up in list(ups):
        down = by_place.get((up.x, up.y))
        if down is not None:
            pairs.append((up, down))
            ups.remove(up)
            downs.remove(down)
    if len(ups) == 1 and len(downs) == 1:
        pairs.append((ups.pop(), downs.pop()))
    return pairs


def pair_stairs(
    levels: Sequence[Level], rows: Sequence[LevelRows], entries: Sequence[StairEntry] = ()
) -> tuple[dict[Cell, Cell], list[MapIssue]]:
    """Stair links both ways: ``map.stairs`` entries, then '>' on a level with '<' on the next."""
    links: dict[Cell, Cell] = {}
    issues = _explicit_links(levels, entries, links)
    unpaired_up = [
        [c for c in _stairs_of(lv, i, Terrain.STAIRS_UP) if c not in links]
        for i, lv in enumerate(levels)
    ]
    unpaired_down = [
        [c for c in _stairs_of(lv, i, Terrain.STAIRS_DOWN) if c not in links]
        for i, lv in enumerate(levels)
    ]
    for i in range(len(levels) - 1):
        for up, down in _auto_pair(unpaired_up[i], unpaired_down[i + 1]):
            links[up] = down
            links[down] = up
    for i in range(len(levels)):
        issues.extend(_unpaired(levels, rows, i, unpaired_up, unpaired_down))
    return links, issues


def _unpaired(
    levels: Sequence[Level],
    rows: Sequence[LevelRows],
    i: int,
    ups: list[list[Cell]],
    downs: list[list[Cell]],
) -> list[MapIssue]:
    """Problems of stairs left unpaired on level ``i`` (its '>' going up, its '<' coming down)."""
    issues: list[MapIssue] = []
    name = levels[i].name

    def at(cell: Cell, message: str, hint: str) -> None:
        row = rows[cell.level]
        issues.append(MapIssue(row.path, message, hint, row.line(cell.y)))

    top = i == len(levels) - 1
    above = [] if top else downs[i + 1]
    if ups[i] and above:
        # both ends are left over: the symbols alone cannot say which goes with which
        listed_up = ", ".join(_name(levels, c) for c in ups[i])
        listed_down = ", ".join(_name(levels, c) for c in above)
        at(
            ups[i][0],
            f"the stairs between levels {name!r} and {levels[i + 1].name!r} cannot be paired "
            f"by their symbols alone: '>' at {listed_up}; '<' at {listed_down}",
            f'add a map.stairs entry for each pair, such as {{from: "{_name(levels, ups[i][0])}", '
            f'to: "{_name(levels, above[0])}"}}',
        )
    for cell in ups[i] if not above else []:
        if top:
            at(
                cell,
                f"the stairs up at {_name(levels, cell)} lead nowhere: there is no level "
                f"above {name!r}",
                "levels are listed bottom first; '>' leads to the next one",
            )
        else:
            upper = levels[i + 1].name
            at(
                cell,
                f"the stairs up at {_name(levels, cell)} have no stairs down ('<') on level "
                f"{upper!r} to arrive at",
                f"draw '<' on level {upper!r} where these stairs arrive",
            )
    below = [] if i == 0 else ups[i - 1]
    for cell in downs[i] if not below else []:
        if i == 0:
            at(
                cell,
                f"the stairs down at {_name(levels, cell)} lead nowhere: there is no level "
                f"below {name!r}",
                "levels are listed bottom first; '<' leads to the one before",
            )
        else:
            lower = levels[i - 1].name
            at(
                cell,
                f"the stairs down at {_name(levels, cell)} have no stairs up ('>') on level "
                f"{lower!r} to come from",
                f"draw '>' on level {lower!r} where these stairs start",
            )
    return issues


def parse_rows(rows_by_level: dict[str, list[str]]) -> Board:
    """A board from ASCII rows (bottom level first) with the default legend.

    Raises ``ScenarioError`` listing every problem (ragged rows, unknown symbols, stairs).
    """
    drawn = [
        LevelRows(name, tuple(rows), f"map.levels.{name}") for name, rows in rows_by_level.items()
    ]
    levels: list[Level] = []
    issues: list[MapIssue] = []
    for index, rows in enumerate(drawn):
        level, _, level_issues = build_level(index, rows, DEFAULT_ENTRIES)
        issues.extend(level_issues)
        if level is not None:
            levels.append(level)
    if not drawn:
        issues.append(MapIssue("map.levels", "a map needs at least one level"))
    stairs: dict[Cell, Cell] = {}
    if not issues:
        stairs, issues = pair_stairs(levels, drawn)
    if issues:
        raise ScenarioError([Problem("<rows>", i.line, i.path, i.message, i.hint) for i in issues])
    return Board(levels, stairs)
