"""ASCII map levels to a ``Board``: the legend, the rows and legend zones (stairs: ``stairs.py``).

Scenarios draw each level as rows of one-character cells (``#`` wall, ``.``
floor …). This module turns the rows into the numpy arrays of ``core.board``
and reports every problem it finds by field path and file line, so the loader
can show them all at once. It works on plain data, not on YAML nodes.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from killhouse.core.board import Level
from killhouse.core.cells import Cell
from killhouse.core.layers import LayerSpec, LayerValueError
from killhouse.core.terrain import (
    COVER_NAMES,
    DEFAULT_LEGEND,
    DOOR_STATES,
    TERRAIN_NAMES,
    Terrain,
)
from killhouse.scenario import limits
from killhouse.scenario.fields import suggest
from killhouse.scenario.yamlsource import describe, is_int, join

#: keys a legend entry may have
LEGEND_KEYS = ("terrain", "state", "lock", "clutter", "cover", "zone")
MAX_CLUTTER = 5

#: terrain as messages name it
TERRAIN_WORDS: dict[Terrain, str] = {
    Terrain.OUTSIDE: "outside the map",
    Terrain.FLOOR: "floor",
    Terrain.WALL: "a wall",
    Terrain.DOOR_CLOSED: "a closed door",
    Terrain.DOOR_OPEN: "an open door",
    Terrain.DOOR_LOCKED: "a locked door",
    Terrain.WINDOW: "a window",
    Terrain.STAIRS_UP: "stairs up",
    Terrain.STAIRS_DOWN: "stairs down",
    Terrain.WATER: "water",
}
_DOORS = frozenset(DOOR_STATES.values())


@dataclass(frozen=True)
class LegendEntry:
    """What one map symbol makes of a cell."""

    terrain: Terrain
    clutter: int = 0
    cover: int = 0
    lock: int = 0
    zone: str | None = None
    #: values of the ruleset's declared layers (``core.layers``), by legend key
    layers: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class MapIssue:
    """A map problem: field path, message, hint, and the line when the path alone cannot give it."""

    path: str
    message: str
    hint: str = ""
    line: int = 0


@dataclass(frozen=True)
class LevelRows:
    """One level as drawn: its rows, its field path, and the file line of its first row."""

    name: str
    rows: tuple[str, ...]
    path: str
    first_line: int = 0

    def line(self, y: int) -> int:
        """The file line of row ``y`` (0 when the level did not come from a file)."""
        return self.first_line + y if self.first_line else 0


@dataclass(frozen=True)
class StairEntry:
    """An explicit stair link from ``map.stairs``, already resolved to cells."""

    path: str
    start: Cell
    end: Cell


def split_rows(text: str) -> tuple[str, ...]:
    """Rows top to bottom: one trailing newline stripped, every other character kept."""
    body = text[:-1] if text.endswith("\n") else text
    return tuple(body.split("\n"))


def _entry_from_spec(
    spec: Mapping[str, object], layers: Mapping[str, LayerSpec] | None = None
) -> LegendEntry:
    """A legend entry from already-checked values."""
    terrain = TERRAIN_NAMES[str(spec["terrain"])]
    if terrain == Terrain.DOOR_CLOSED:
        terrain = DOOR_STATES[str(spec.get("state", "closed"))]
    clutter = spec.get("clutter", 0)
    lock = spec.get("lock", 0)
    zone = spec.get("zone")
    return LegendEntry(
        terrain=terrain,
        clutter=int(clutter) if isinstance(clutter, int) else 0,
        cover=int(COVER_NAMES[str(spec.get("cover", "none"))]),
        lock=int(lock) if isinstance(lock, int) else 0,
        zone=str(zone) if zone is not None else None,
        layers=tuple(
            (key, layer.encode(spec[key])) for key, layer in (layers or {}).items() if key in spec
        ),
    )


#: the default legend as entries; scenarios may refine these (lock, zone), never change them
DEFAULT_ENTRIES: dict[str, LegendEntry] = {
    symbol: _entry_from_spec(spec) for symbol, spec in DEFAULT_LEGEND.items()
}


def _default_symbols() -> str:
    shown = [s for s in DEFAULT_ENTRIES if not s.isdigit() and s != " "]
    return " ".join(shown) + " 0-5 and space"


def _check_entry(
    symbol: str,
    spec: Mapping[str, object],
    path: str,
    layers: Mapping[str, LayerSpec] | None = None,
) -> list[MapIssue]:
    """Problems of one legend entry's own values (not of how it relates to the default)."""
    issues: list[MapIssue] = []
    layers = layers or {}
    keys = (*LEGEND_KEYS, *layers)
    for key in spec:
        if key in layers:
            try:
                layers[key].encode(spec[key])
            except LayerValueError as exc:
                issues.append(MapIssue(join(path, key), exc.message, exc.hint))
        elif key not in LEGEND_KEYS:
            issues.append(
                MapIssue(
                    join(path, key),
                    f"unknown key {key!r} in a legend entry",
                    suggest(key, keys),
                )
            )
    terrain = spec.get("terrain")
    if terrain is None and symbol not in DEFAULT_ENTRIES:
        issues.append(
            MapIssue(
                path, "missing required key 'terrain'", "for example {terrain: floor, cover: light}"
            )
        )
    elif terrain is not None and (not isinstance(terrain, str) or terrain not in TERRAIN_NAMES):
        found = describe(terrain)
        hint = (
            suggest(terrain, TERRAIN_NAMES)
            if isinstance(terrain, str)
            else suggest("", TERRAIN_NAMES)
        )
        issues.append(MapIssue(join(path, "terrain"), f"expected a terrain, found {found}", hint))
    is_door = terrain == "door" or (
        terrain is None and symbol in DEFAULT_ENTRIES and DEFAULT_ENTRIES[symbol].terrain in _DOORS
    )
    if "state" in spec:
        state = spec["state"]
        if not is_door:
            issues.append(
                MapIssue(
                    join(path, "state"),
                    "only doors have a state",
                    "remove it, or use terrain: door",
                )
            )
        elif not isinstance(state, str) or state not in DOOR_STATES:
            hint = suggest(state if isinstance(state, str) else "", DOOR_STATES)
            issues.append(
                MapIssue(
                    join(path, "state"),
                    f"expected open, closed or locked, found {describe(state)}",
                    hint,
                )
            )
    if "lock" in spec:
        lock = spec["lock"]
        if not is_door:
            issues.append(
                MapIssue(
                    join(path, "lock"),
                    "only doors have a lock level",
                    "remove it, or use terrain: door",
                )
            )
        elif not is_int(lock) or not 0 <= int(lock) <= limits.MAX_LOCK:
            issues.append(
                MapIssue(
                    join(path, "lock"),
                    f"expected a lock level (a whole number 0 to {limits.MAX_LOCK}), "
                    f"found {describe(lock)}",
                )
            )
    if "clutter" in spec:
        clutter = spec["clutter"]
        if not is_int(clutter) or not 0 <= int(clutter) <= MAX_CLUTTER:
            issues.append(
                MapIssue(
                    join(path, "clutter"),
                    f"expected clutter 0 to {MAX_CLUTTER}, found {describe(clutter)}",
                )
            )
    if "cover" in spec:
        cover = spec["cover"]
        if not isinstance(cover, str) or cover not in COVER_NAMES:
            hint = suggest(cover if isinstance(cover, str) else "", COVER_NAMES)
            issues.append(
                MapIssue(
                    join(path, "cover"),
                    f"expected none, light, medium or heavy cover, found {describe(cover)}",
                    hint,
                )
            )
    if "zone" in spec:
        zone = spec["zone"]
        if not isinstance(zone, str) or not zone.strip():
            issues.append(
                MapIssue(join(path, "zone"), f"expected a zone name, found {describe(zone)}")
            )
    return issues


def parse_legend(
    spec: Mapping[str, object], path: str, layers: Mapping[str, LayerSpec] | None = None
) -> tuple[dict[str, LegendEntry], list[MapIssue]]:
    """The default legend merged with a scenario's ``map.legend`` (plain data at ``path``).

    ``layers`` are the ruleset's declared layers: their keys are legend keys too, checked by
    their ``LayerSpec``; a default symbol may take layer values as it may take a lock or zone.
    """
    legend = dict(DEFAULT_ENTRIES)
    issues: list[MapIssue] = []
    for symbol, entry_spec in spec.items():
        entry_path = join(path, symbol)
        if len(symbol) != 1 or symbol == "\n":
            issues.append(
                MapIssue(
                    entry_path,
                    f"a legend symbol is one character, found {symbol!r}",
                    "each map cell is drawn with one character",
                )
            )
            continue
        if not isinstance(entry_spec, Mapping):
            issues.append(
                MapIssue(
                    entry_path,
                    f"expected a legend entry such as {{terrain: door, state: locked, "
                    f"lock: 7}}, found {describe(entry_spec)}",
                )
            )
            legend.setdefault(symbol, LegendEntry(Terrain.FLOOR))
            continue
        own = _check_entry(symbol, entry_spec, entry_path, layers)
        issues.extend(own)
        if own:
            # a broken entry stands in as floor, so one mistake is reported once, not per cell
            legend.setdefault(symbol, LegendEntry(Terrain.FLOOR))
            continue
        if symbol in DEFAULT_ENTRIES:
            default = DEFAULT_ENTRIES[symbol]
            merged = {**DEFAULT_LEGEND[symbol], **entry_spec}
            entry = _entry_from_spec(merged, layers)
            if (entry.terrain, entry.clutter, entry.cover) != (
                default.terrain,
                default.clutter,
                default.cover,
            ):
                issues.append(
                    MapIssue(
                        entry_path,
                        f"{symbol!r} is a default symbol ({TERRAIN_WORDS[default.terrain]}) "
                        "and may not be redefined",
                        "pick another character for a new kind of cell; an entry for a default "
                        "symbol may only add lock or zone",
                    )
                )
                continue
            legend[symbol] = entry
        else:
            legend[symbol] = _entry_from_spec(entry_spec, layers)
    return legend, issues


def _ragged(rows: LevelRows) -> list[MapIssue]:
    widths = [len(r) for r in rows.rows]
    if len(set(widths)) <= 1:
        return []
    expected = Counter(widths).most_common(1)[0][0]
    issues: list[MapIssue] = []
    for y, width in enumerate(widths):
        if width == expected:
            continue
        above = y > 0 and all(w == expected for w in widths[:y])
        others = "the rows above have" if above else "most rows have"
        hint = (
            "every row of a level has the same number of cells; if this row ends in outside "
            "cells, an editor may have trimmed its trailing spaces: end the row with a visible "
            "symbol"
            if width < expected
            else "every row of a level has the same number of cells"
        )
        issues.append(
            MapIssue(
                rows.path, f"row {y} has {width} cells; {others} {expected}", hint, rows.line(y)
            )
        )
    return issues


#: unknown symbols reported one by one per level; the rest are counted
_SHOWN_SYMBOLS = 10


def _joining(symbol: str) -> str:
    """``U+0301 COMBINING ACUTE ACCENT`` for a code point drawn onto its neighbour, else ``""``.

    Combining marks, zero-width joiners and variation selectors make one drawn character
    out of several code points, so the row would hold more cells than it shows.
    """
    if unicodedata.category(symbol) in ("Mn", "Me", "Cf") or 0xFE00 <= ord(symbol) <= 0xFE0F:
        name = unicodedata.name(symbol, "")
        return f"U+{ord(symbol):04X}" + (f" {name}" if name else "")
    return ""


def _joined(rows: LevelRows) -> list[MapIssue]:
    """Each code point that would draw onto its neighbour, at its first place in the level."""
    issues: list[MapIssue] = []
    for symbol in sorted(set().union(*map(set, rows.rows))):
        joining = _joining(symbol)
        if not joining:
            continue
        y, x = next((y, r.index(symbol)) for y, r in enumerate(rows.rows) if symbol in r)
        issues.append(
            MapIssue(
                rows.path,
                f"{joining} at {rows.name}:{x},{y} joins the character before it: "
                "a map cell is one character",
                "accents and emoji made of several characters draw several cells; "
                "use a plain symbol and give it a legend entry",
                rows.line(y),
            )
        )
    return issues[:_SHOWN_SYMBOLS]


def _too_large(rows: LevelRows) -> list[MapIssue]:
    """A level beyond ``MAX_SIDE`` rows or columns, refused before any array is built."""
    height, width = len(rows.rows), max(len(r) for r in rows.rows)
    if height <= limits.MAX_SIDE and width <= limits.MAX_SIDE:
        return []
    return [
        MapIssue(
            rows.path,
            f"level {rows.name!r} is {width} x {height} cells; the limit is "
            f"{limits.MAX_SIDE} x {limits.MAX_SIDE}",
            "split a large building into levels, or draw only the part that is played",
        )
    ]


def build_level(
    index: int, rows: LevelRows, legend: Mapping[str, LegendEntry]
) -> tuple[Level | None, dict[str, set[Cell]], list[MapIssue]]:
    """One level's arrays and the cells its legend symbols put in zones; ``None`` if broken."""
    if not any(rows.rows):
        return (
            None,
            {},
            [
                MapIssue(
                    rows.path,
                    f"level {rows.name!r} has no cells",
                    "draw the level as rows of symbols under a '|' line",
                )
            ],
        )
    issues = _too_large(rows) or _joined(rows) or _ragged(rows)
    if issues:
        return None, {}, issues
    chars = np.array([list(r) for r in rows.rows], dtype="<U1")
    symbols, first, inverse, counts = np.unique(
        chars, return_index=True, return_inverse=True, return_counts=True
    )
    inverse = inverse.reshape(chars.shape)
    width = chars.shape[1]
    unknown = [i for i, symbol in enumerate(symbols.tolist()) if symbol not in legend]
    for i in unknown[:_SHOWN_SYMBOLS]:
        symbol = str(symbols[i])
        y, x = divmod(int(first[i]), width)
        extra = int(counts[i]) - 1
        more = f" and {extra} more cell{'s' if extra > 1 else ''}" if extra else ""
        issues.append(
            MapIssue(
                rows.path,
                f"unknown map symbol {symbol!r} at {rows.name}:{x},{y}{more}",
                f"add it to map.legend, or use a default symbol: {_default_symbols()}",
                rows.line(y),
            )
        )
    if len(unknown) > _SHOWN_SYMBOLS:
        issues.append(
            MapIssue(
                rows.path,
                f"and {len(unknown) - _SHOWN_SYMBOLS} more unknown map symbols on level "
                f"{rows.name!r}",
                "",
                rows.line(0),
            )
        )
    if issues:
        return None, {}, issues
    entries = [legend[s] for s in symbols.tolist()]
    # one lookup table per array, indexed by symbol: no Python loop over cells
    level = Level(
        name=rows.name,
        terrain=np.array([e.terrain for e in entries], dtype=np.uint8)[inverse],
        clutter=np.array([e.clutter for e in entries], dtype=np.uint8)[inverse],
        cover=np.array([e.cover for e in entries], dtype=np.uint8)[inverse],
        lock=np.array([e.lock for e in entries], dtype=np.int16)[inverse],
        smoke=np.zeros(chars.shape, dtype=bool),
    )
    for key in sorted({k for e in entries for k, _ in e.layers}):
        table = np.array([dict(e.layers).get(key, 0) for e in entries], dtype=np.int16)
        level.layers[key] = table[inverse]
    zones: dict[str, set[Cell]] = {}
    for i, entry in enumerate(entries):
        if entry.zone is not None:
            cells = zones.setdefault(entry.zone, set())
            cells.update(Cell(index, int(x), int(y)) for y, x in np.argwhere(inverse == i))
    return level, zones, []
