"""Map rows to boards (``parse_rows``): legend entries, ragged rows and stair pairing."""

from __future__ import annotations

import numpy as np
import pytest

from killhouse.core.board import Level
from killhouse.core.cells import Cell
from killhouse.core.terrain import Cover, Terrain
from killhouse.errors import ScenarioError
from killhouse.scenario.mapparse import (
    DEFAULT_ENTRIES,
    LegendEntry,
    LevelRows,
    StairEntry,
    build_level,
    parse_legend,
    split_rows,
)
from killhouse.scenario.stairs import pair_stairs, parse_rows


def _messages(rows: dict[str, list[str]]) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        parse_rows(rows)
    return [str(p) for p in caught.value.problems]


def test_parse_rows_fills_every_array_from_the_default_legend() -> None:
    board = parse_rows({"g": ["#+'L=~", "0125,;", " %~~..", "345..."]})
    (level,) = board.levels
    assert level.name == "g" and (level.width, level.height) == (6, 4)
    assert [Terrain(int(t)) for t in level.terrain[0]] == [
        Terrain.WALL,
        Terrain.DOOR_CLOSED,
        Terrain.DOOR_OPEN,
        Terrain.DOOR_LOCKED,
        Terrain.WINDOW,
        Terrain.WATER,
    ]
    assert level.clutter[1].tolist() == [0, 1, 2, 5, 0, 0]
    assert level.clutter[3].tolist() == [3, 4, 5, 0, 0, 0]
    assert level.cover[1].tolist() == [0, 0, 0, 0, Cover.LIGHT, Cover.MEDIUM]
    assert level.cover[2, 1] == Cover.HEAVY
    assert level.terrain[2, 0] == Terrain.OUTSIDE
    assert not level.lock.any() and not level.smoke.any()
    assert level.terrain.dtype == np.uint8 and level.lock.dtype == np.int16
    assert level.smoke.dtype == np.bool_


def test_parse_rows_reports_every_problem() -> None:
    assert _messages({"g": ["###", "#.#", "#.", "#?#"]}) == [
        "<rows>: map.levels.g: row 2 has 2 cells; the rows above have 3 "
        "(every row of a level has the same number of cells; if this row ends in outside "
        "cells, an editor may have trimmed its trailing spaces: end the row with a visible "
        "symbol)",
    ]
    assert _messages({"g": ["#?#", "#!!"]}) == [
        "<rows>: map.levels.g: unknown map symbol '!' at g:1,1 and 1 more cell "
        "(add it to map.legend, or use a default symbol: # . + ' L = > < ~ , ; % 0-5 and space)",
        "<rows>: map.levels.g: unknown map symbol '?' at g:1,0 "
        "(add it to map.legend, or use a default symbol: # . + ' L = > < ~ , ; % 0-5 and space)",
    ]


def test_ragged_first_row_compares_with_most_rows() -> None:
    assert _messages({"g": ["####", "#..", "#..", "#.."]}) == [
        "<rows>: map.levels.g: row 0 has 4 cells; most rows have 3 "
        "(every row of a level has the same number of cells)"
    ]


def test_split_rows_strips_one_newline_and_keeps_spaces() -> None:
    assert split_rows("  #\n# \n") == ("  #", "# ")
    assert split_rows("#\n\n") == ("#", "")
    assert split_rows("#") == ("#",)


def test_row_lines_come_from_the_first_row_line() -> None:
    rows = LevelRows("g", ("###", "#.#", "#.##"), "map.levels.g", first_line=10)
    level, zones, issues = build_level(0, rows, DEFAULT_ENTRIES)
    assert level is None and zones == {}
    assert [(i.line, i.message) for i in issues] == [
        (12, "row 2 has 4 cells; the rows above have 3")
    ]


def test_legend_adds_symbols_and_refines_default_ones() -> None:
    legend, issues = parse_legend(
        {
            "L": {"terrain": "door", "state": "locked", "lock": 7},
            "+": {"lock": 2},
            ".": {"zone": "lobby"},
            "c": {"terrain": "floor", "clutter": 4, "cover": "light", "zone": "desk"},
            "s": {"terrain": "stairs-down"},
        },
        "map.legend",
    )
    assert issues == []
    assert legend["L"] == LegendEntry(Terrain.DOOR_LOCKED, lock=7)
    assert legend["+"] == LegendEntry(Terrain.DOOR_CLOSED, lock=2)
    assert legend["."] == LegendEntry(Terrain.FLOOR, zone="lobby")
    assert legend["c"] == LegendEntry(Terrain.FLOOR, clutter=4, cover=Cover.LIGHT, zone="desk")
    assert legend["s"] == LegendEntry(Terrain.STAIRS_DOWN)
    assert legend["#"] == DEFAULT_ENTRIES["#"]


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ({"ab": {"terrain": "floor"}}, ("map.legend.ab", "a legend symbol is one character")),
        ({"x": "floor"}, ("map.legend.x", "expected a legend entry such as")),
        ({"x": {"cover": "light"}}, ("map.legend.x", "missing required key 'terrain'")),
        ({"x": {"terrain": "floor", "lock": 3}}, ("map.legend.x.lock", "only doors have a lock")),
        ({"x": {"terrain": "door", "lock": -1}}, ("map.legend.x.lock", "expected a lock level")),
        ({"x": {"terrain": "door", "state": "ajar"}}, ("map.legend.x.state", "expected open")),
        ({"x": {"terrain": "floor", "cover": "thick"}}, ("map.legend.x.cover", "expected none")),
        ({"x": {"terrain": "floor", "zone": 3}}, ("map.legend.x.zone", "expected a zone name")),
        ({"x": {"terrain": "floor", "colour": 3}}, ("map.legend.x.colour", "unknown key")),
        ({"0": {"clutter": 1}}, ("map.legend.0", "'0' is a default symbol (floor)")),
        ({"L": {"state": "open"}}, ("map.legend.L", "'L' is a default symbol (a locked door)")),
    ],
)
def test_bad_legend_entries(spec: dict[str, object], expected: tuple[str, str]) -> None:
    _, issues = parse_legend(spec, "map.legend")
    assert len(issues) == 1
    assert issues[0].path == expected[0]
    assert issues[0].message.startswith(expected[1]), issues[0].message


def _levels(rows: dict[str, list[str]]) -> tuple[list[LevelRows], list[Level | None]]:
    drawn = [
        LevelRows(n, tuple(r), f"map.levels.{n}", 5 * i + 1)
        for i, (n, r) in enumerate(rows.items())
    ]
    built = [build_level(i, d, DEFAULT_ENTRIES)[0] for i, d in enumerate(drawn)]
    return drawn, built


def test_stairs_pair_by_place_then_as_a_lone_pair() -> None:
    board = parse_rows({"a": [">.>", "..."], "b": ["..<", ".<."], "c": ["...", "..."]})
    # a:2,0 with b:2,0 by place; then the lone a:0,0 with the lone b:1,1
    assert board.stairs == {
        Cell(0, 2, 0): Cell(1, 2, 0),
        Cell(1, 2, 0): Cell(0, 2, 0),
        Cell(0, 0, 0): Cell(1, 1, 1),
        Cell(1, 1, 1): Cell(0, 0, 0),
    }


def test_unpaired_stairs_each_get_a_problem() -> None:
    assert _messages({"a": ["<.", ".."], "b": [">.", ".."]}) == [
        "<rows>: map.levels.a: the stairs down at a:0,0 lead nowhere: there is no level below "
        "'a' (levels are listed bottom first; '<' leads to the one before)",
        "<rows>: map.levels.b: the stairs up at b:0,0 lead nowhere: there is no level above 'b' "
        "(levels are listed bottom first; '>' leads to the next one)",
    ]
    assert _messages({"a": [">.", ".."], "b": ["..", ".."], "c": ["..", ".<"]}) == [
        "<rows>: map.levels.a: the stairs up at a:0,0 have no stairs down ('<') on level 'b' "
        "to arrive at (draw '<' on level 'b' where these stairs arrive)",
        "<rows>: map.levels.c: the stairs down at c:1,1 have no stairs up ('>') on level 'b' "
        "to come from (draw '>' on level 'b' where these stairs start)",
    ]


def test_explicit_stairs_entries() -> None:
    drawn, built = _levels({"a": [">>", ".."], "b": ["<<", ".."], "c": ["<.", ".."]})
    levels = [lv for lv in built if lv is not None]
    assert len(levels) == 3
    entries = [
        StairEntry("map.stairs[0]", Cell(1, 0, 0), Cell(0, 1, 0)),  # either order
        StairEntry("map.stairs[1]", Cell(0, 0, 0), Cell(2, 0, 0)),  # not neighbours
        StairEntry("map.stairs[2]", Cell(0, 1, 0), Cell(1, 1, 0)),  # already joined
        StairEntry("map.stairs[3]", Cell(0, 0, 1), Cell(1, 1, 0)),  # floor
        StairEntry("map.stairs[4]", Cell(1, 1, 0), Cell(2, 0, 0)),  # '<' cannot lead up
    ]
    links, issues = pair_stairs(levels, drawn, entries)
    assert links[Cell(0, 1, 0)] == Cell(1, 0, 0) and links[Cell(1, 0, 0)] == Cell(0, 1, 0)
    assert [(i.path, i.message) for i in issues[:4]] == [
        (
            "map.stairs[1]",
            "stairs join neighbouring levels; 'a' and 'c' are not",
        ),
        ("map.stairs[2].from", "'a:1,0' is already joined to 'b:0,0'"),
        ("map.stairs[3].from", "'a:0,1' is floor, not stairs"),
        (
            "map.stairs[4]",
            "stairs must lead up ('>') from 'b:1,0' on the lower level and arrive down ('<') "
            "at 'c:0,0' on the upper level",
        ),
    ]
    # what is left: a:0,0 pairs with the lone b:1,0; c:0,0 has no '>' below it
    assert links[Cell(0, 0, 0)] == Cell(1, 1, 0)
    assert [(i.path, i.line) for i in issues[4:]] == [("map.levels.c", 11)]
