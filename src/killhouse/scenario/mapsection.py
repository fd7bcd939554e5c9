"""The ``map`` section of a scenario file: legend, levels, stairs and zones, checked into a Board.

Rows of a level come from a YAML literal block (``|``); the file line of each
row is known, so a ragged row or an unknown symbol is reported on its own line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from ruamel.yaml.scalarstring import FoldedScalarString, LiteralScalarString

from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell
from killhouse.core.layers import LayerSpec
from killhouse.scenario import limits
from killhouse.scenario.cellref import RefError, parse_cell, parse_zone
from killhouse.scenario.fields import Fields, Report, suggest
from killhouse.scenario.mapparse import (
    DEFAULT_ENTRIES,
    LegendEntry,
    LevelRows,
    MapIssue,
    StairEntry,
    build_level,
    parse_legend,
    split_rows,
)
from killhouse.scenario.stairs import pair_stairs
from killhouse.scenario.yamlsource import (
    PlainError,
    describe,
    is_int,
    item,
    join,
    to_plain,
    value_line,
)

MAP_KEYS = ("legend", "levels", "stairs", "zones", "layers")
STAIR_KEYS = ("from", "to")
#: level names appear inside positions ("ground:3,4"), so no colon, comma or space
LEVEL_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


@dataclass
class MapParts:
    """What the map section yielded: level names always, levels and board only if all were sound."""

    names: list[str] = field(default_factory=list)
    levels: list[Level] | None = None
    board: Board | None = None


def _issue(report: Report, issue: MapIssue) -> None:
    report.add(issue.path, issue.message, issue.hint, issue.line)


def _legend(fields: Fields, layers: Mapping[str, LayerSpec]) -> dict[str, LegendEntry]:
    node = fields.mapping("legend", "a mapping of symbols to legend entries")
    if node is None:
        return dict(DEFAULT_ENTRIES)
    try:
        plain = to_plain(node, fields.at("legend"))
    except PlainError as exc:
        fields.report.add(exc.path, exc.message)
        return dict(DEFAULT_ENTRIES)
    legend, issues = parse_legend(plain, fields.at("legend"), layers)
    for issue in issues:
        _issue(fields.report, issue)
    return legend


def _level_name(key: object) -> str | None:
    if is_int(key):
        return str(int(key))
    if isinstance(key, str) and LEVEL_NAME.match(key):
        return key
    return None


def _drawn_levels(fields: Fields) -> tuple[list[LevelRows], bool]:
    """Each level's rows with the file line of its first row, and whether every level was usable."""
    node = fields.mapping("levels", "a mapping of level names to drawings (bottom level first)")
    if node is None:
        return [], False
    report, path = fields.report, fields.at("levels")
    if not node:
        report.add(path, "a map needs at least one level")
        return [], False
    if len(node) > limits.MAX_LEVELS:
        report.add(
            path,
            f"the map has {len(node)} levels; the limit is {limits.MAX_LEVELS}",
        )
        return [], False
    drawn: list[LevelRows] = []
    for key, text in node.items():
        name = _level_name(key)
        level_path = join(path, key)
        if name is None:
            report.add(
                level_path,
                f"a level name is letters, digits, '_', '-' or '.', found {key!r}",
                "positions name levels as level:x,y, so no colons, commas or spaces",
            )
            continue
        if isinstance(text, FoldedScalarString):
            report.add(
                level_path,
                "the level is folded ('>'), which joins its rows into one line",
                "start the drawing with '|' so each row keeps its own line",
            )
            continue
        if not isinstance(text, str):
            report.add(
                level_path,
                f"expected the rows of the level as a '|' block, found {describe(text)}",
                "write  ground: |  and then the rows, indented",
            )
            continue
        first = value_line(node, key)
        if isinstance(text, LiteralScalarString) and first:
            first += 1  # the rows start on the line after the '|'
        drawn.append(LevelRows(name, split_rows(str(text)), level_path, first))
    return drawn, len(drawn) == len(node)


def _stair_entries(
    fields: Fields, names: list[str], levels: list[Level] | None
) -> list[StairEntry]:
    node = fields.sequence("stairs", 'a list of {from: "level:x,y", to: "level:x,y"}')
    if node is None:
        return []
    entries: list[StairEntry] = []
    for i, raw in enumerate(node):
        path = item(fields.at("stairs"), i)
        if not isinstance(raw, Mapping):
            fields.report.add(
                path, f'expected {{from: "level:x,y", to: "level:x,y"}}, found {describe(raw)}'
            )
            continue
        entry = Fields(raw, path, fields.report)
        entry.check_keys(STAIR_KEYS, "a stairs entry")
        if not entry.require(*STAIR_KEYS):
            continue
        ends: list[Cell] = []
        for key in STAIR_KEYS:
            try:
                ends.append(parse_cell(raw[key], names, levels))
            except RefError as exc:
                fields.report.add(entry.at(key), exc.message, exc.hint)
        if len(ends) == 2:
            entries.append(StairEntry(path, ends[0], ends[1]))
    return entries


def _zones(
    fields: Fields, names: list[str], levels: list[Level] | None, zones: dict[str, set[Cell]]
) -> None:
    """Add ``map.zones`` to the zones the legend made (a zone may be given both ways)."""
    node = fields.mapping("zones", "a mapping of zone names to lists of cells or rectangles")
    if node is None:
        return
    covered = 0
    for key, specs in node.items():
        path = join(fields.at("zones"), key)
        if not isinstance(key, str) or not key.strip():
            fields.report.add(path, f"a zone name is text, found {describe(key)}")
            continue
        listed = [specs] if isinstance(specs, str) else specs
        if not isinstance(listed, list):
            fields.report.add(
                path,
                f'expected a list of "level:x1,y1-x2,y2" rectangles or '
                f'"level:x,y" cells, found {describe(specs)}',
            )
            continue
        cells = zones.setdefault(key, set())
        for i, spec in enumerate(listed):
            where = item(path, i) if isinstance(specs, list) else path
            try:
                rectangle = parse_zone(spec, names, levels)
            except RefError as exc:
                fields.report.add(where, exc.message, exc.hint)
                continue
            covered += len(rectangle)
            if covered > limits.MAX_CELLS:
                fields.report.add(
                    where,
                    f"the zones up to here cover {covered} cells; the limit over all zones is "
                    f"{limits.MAX_CELLS}",
                    "a zone lists each cell or rectangle once",
                )
                return
            cells.update(rectangle)


def _drawn_layers(
    fields: Fields, levels: list[Level] | None, layers: Mapping[str, LayerSpec]
) -> None:
    """``map.layers``: a number layer drawn per level as rows of digits (``.`` is 0).

    A drawing sets the layer for its whole level, over any legend values (hills are easier
    drawn than named). Only ``number`` layers of 0 to 9 can be drawn.
    """
    node = fields.mapping("layers", "a mapping of layer keys to drawings per level")
    if node is None:
        return
    path = fields.at("layers")
    drawable = [k for k, spec in layers.items() if spec.kind == "number"]
    for key, per_level in node.items():
        key_path = join(path, key)
        spec = layers.get(key) if isinstance(key, str) else None
        if spec is None or spec.kind != "number":
            fields.report.add(
                key_path,
                f"no layer {key!r} of numbers to draw in this ruleset",
                suggest(str(key), drawable) if drawable else "this ruleset declares no layers",
            )
            continue
        if not isinstance(per_level, Mapping):
            fields.report.add(key_path, f"expected drawings per level, found {describe(per_level)}")
            continue
        for name, text in per_level.items():
            level_path = join(key_path, name)
            target = next((lv for lv in levels or [] if lv.name == name), None)
            if levels is not None and target is None:
                fields.report.add(
                    level_path,
                    f"no level {name!r} in this map",
                    suggest(str(name), [lv.name for lv in levels]),
                )
                continue
            if not isinstance(text, str):
                fields.report.add(
                    level_path, f"expected a '|' block of digits, found {describe(text)}"
                )
                continue
            first = value_line(per_level, name)
            if isinstance(text, LiteralScalarString) and first:
                first += 1
            rows = split_rows(str(text))
            if target is None:
                continue
            if len(rows) != target.height or any(len(r) != target.width for r in rows):
                fields.report.add(
                    level_path,
                    f"the drawing must be {target.width} x {target.height} like level {name!r}",
                    "one digit per map cell, rows as in the level",
                )
                continue
            values = []
            bad = False
            for y, row in enumerate(rows):
                for x, char in enumerate(row):
                    value = 0 if char == "." else int(char) if char.isdigit() else None
                    if value is None or not spec.low <= value <= spec.high:
                        fields.report.add(
                            level_path,
                            f"expected a digit {spec.low} to {min(spec.high, 9)} or '.', "
                            f"found {char!r} at {name}:{x},{y}",
                            spec.help,
                            first + y if first else 0,
                        )
                        bad = True
                        break
                    values.append(value)
                if bad:
                    break
            if not bad:
                target.layers[str(key)] = np.array(values, dtype=np.int16).reshape(
                    target.height, target.width
                )


def parse_map(top: Fields, layers: Mapping[str, LayerSpec] | None = None) -> MapParts:
    """Check the ``map`` section and build the board; everything wrong goes to the report.

    ``layers`` are the ruleset's declared cell layers (``Ruleset.layers``), set by the legend.
    """
    node = top.mapping("map", "a mapping with levels (and optionally legend, stairs, zones)")
    parts = MapParts()
    if node is None:
        return parts
    fields = Fields(node, "map", top.report)
    fields.check_keys(MAP_KEYS, "map")
    fields.require("levels")
    legend = _legend(fields, layers or {})
    drawn, complete = _drawn_levels(fields)
    parts.names = [d.name for d in drawn]
    levels: list[Level] = []
    zones: dict[str, set[Cell]] = {}
    cells = 0
    for index, rows in enumerate(drawn):
        cells += len(rows.rows) * max(len(r) for r in rows.rows)
        if cells > limits.MAX_CELLS:
            top.report.add(
                rows.path,
                f"the levels up to {rows.name!r} hold {cells} cells; the limit for a whole map "
                f"is {limits.MAX_CELLS}",
                "draw only the part of the building that is played",
            )
            break
        level, level_zones, issues = build_level(index, rows, legend)
        for issue in issues:
            _issue(top.report, issue)
        if level is not None:
            levels.append(level)
        for name, zone_cells in level_zones.items():
            zones.setdefault(name, set()).update(zone_cells)
    sound = complete and len(levels) == len(drawn)
    _drawn_layers(fields, levels if sound else None, layers or {})
    parts.levels = levels if sound else None
    # with a broken map, stairs and zones still get their syntax and level names checked
    entries = _stair_entries(fields, parts.names, parts.levels)
    _zones(fields, parts.names, parts.levels, zones)
    if sound:
        stairs, issues = pair_stairs(levels, drawn, entries)
        for issue in issues:
            _issue(top.report, issue)
        parts.board = Board(levels, stairs, {k: frozenset(v) for k, v in zones.items()})
    return parts
