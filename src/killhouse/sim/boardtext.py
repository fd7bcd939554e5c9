"""The map as text, as ``killhouse play --board`` prints it after each turn.

The umpire's board is the true state: the terrain comes from the snapshot's ``board``
(the core's ``Board.fingerprint``, so doors show as they now are) and the figures from
the snapshot's ``figures``. A side's board is drawn only from that side's view: the
scenario's map (public to every side), door states if the view lists them (``doors``),
its own figures, figures in sight (``seen``) and last-known places (``remembered``).
Where a view or snapshot has them, it also draws ``hostages`` that are no figures (seen now,
or where last seen) and ``weapons`` lying on the ground (commando, rulings C-171, C-179).
Nothing here knows a ruleset: it reads the keys the snapshots and views have.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from killhouse.core.terrain import Terrain
from killhouse.scenario.model import Scenario

#: terrain as drawn (the default legend of the scenario format)
SYMBOLS: dict[int, str] = {
    Terrain.OUTSIDE: " ",
    Terrain.FLOOR: ".",
    Terrain.WALL: "#",
    Terrain.DOOR_CLOSED: "+",
    Terrain.DOOR_OPEN: "'",
    Terrain.DOOR_LOCKED: "L",
    Terrain.WINDOW: "=",
    Terrain.STAIRS_UP: ">",
    Terrain.STAIRS_DOWN: "<",
    Terrain.WATER: "~",
}
_DOOR_STATES = {"open": Terrain.DOOR_OPEN, "closed": Terrain.DOOR_CLOSED}
_DOOR_STATES["locked"] = Terrain.DOOR_LOCKED
#: marks for figures that are not sides' fighters, and for those out of the fight
HOSTAGE, DOWN, MEMORY = "h", "x", "?"
#: a hostage where the side last saw him, and weapons lying on a square
HOSTAGE_MEMORY, WEAPONS = "*", "/"
#: what covers what on one square: a man standing over a weapon over a fallen man
_LAYER = {DOWN: 0, WEAPONS: 1, MEMORY: 2, HOSTAGE_MEMORY: 2, HOSTAGE: 3}
#: a wrecked vehicle's squares (a running one is drawn in its side's letter, lower case)
WRECK = "%"


def side_marks(scenario: Scenario) -> dict[str, str]:
    """One capital letter per side: its id's initial when no other side shares it."""
    initials = [s.id[:1].upper() for s in scenario.sides]
    marks: dict[str, str] = {}
    for i, side in enumerate(scenario.sides):
        mark = initials[i]
        if not mark.isalpha() or initials.count(mark) > 1 or mark in ("L", "X"):
            mark = "ABCDEFGHIJKMNOPQRSTUVWYZ"[i]
        marks[side.id] = mark
    return marks


def _terrain(scenario: Scenario, fingerprint: object) -> list[np.ndarray[Any, Any]]:
    """Per level, the terrain codes: decoded from a board fingerprint, else as drawn."""
    levels = [lv.terrain.copy() for lv in scenario.board.levels]
    if isinstance(fingerprint, list) and len(fingerprint) == len(levels):
        for index, entry in enumerate(fingerprint):
            if isinstance(entry, list) and entry and isinstance(entry[0], str):
                raw = np.frombuffer(bytes.fromhex(entry[0]), dtype=np.uint8)
                if raw.size == levels[index].size:
                    levels[index] = raw.reshape(levels[index].shape).copy()
    return levels


def _place(value: object) -> tuple[int, int, int] | None:
    if (
        isinstance(value, list | tuple)
        and len(value) == 3
        and all(isinstance(v, int) for v in value)
    ):
        return int(value[0]), int(value[1]), int(value[2])
    return None


def _mark(figure: Mapping[str, Any], marks: Mapping[str, str]) -> str:
    status = figure.get("status", "active")
    if status not in (None, "active"):
        return DOWN
    side = figure.get("side")
    if isinstance(side, str) and side in marks:
        return marks[side]
    return HOSTAGE


def vehicle_squares(
    entries: object, marks: Mapping[str, str]
) -> list[tuple[tuple[int, int, int], str]]:
    """Every footprint square of the vehicles listed (a view's or snapshot's ``vehicles``):
    the owner's letter in lower case, a wreck as ``%``."""
    out: list[tuple[tuple[int, int, int], str]] = []
    for vehicle in entries if isinstance(entries, list) else ():
        if not isinstance(vehicle, Mapping) or (at := _place(vehicle.get("at"))) is None:
            continue
        side = vehicle.get("side")
        mark = (WRECK if vehicle.get("status") == "destroyed"
                else marks.get(side, "v").lower() if isinstance(side, str) else "v")
        for square in vehicle.get("squares") or ():
            if isinstance(square, list | tuple) and len(square) == 2:
                out.append(((at[0], int(square[0]), int(square[1])), mark))
    return out


def ground_marks(
    hostages: object, weapons: object, *, umpire: bool = False
) -> list[tuple[tuple[int, int, int], str]]:
    """The hostages listed (a view's or snapshot's ``hostages``) and the squares with weapons
    on them (``weapons``): ``h`` where one is (the umpire's, or seen now), ``*`` where the side
    last saw one, ``/`` for weapons; a rescued hostage has left the map."""
    out: list[tuple[tuple[int, int, int], str]] = []
    for hostage in hostages if isinstance(hostages, list) else ():
        if isinstance(hostage, Mapping) and hostage.get("status") != "rescued" and (
                at := _place(hostage.get("at"))) is not None:
            out.append((at, HOSTAGE if umpire or hostage.get("seen") is not False
                        else HOSTAGE_MEMORY))
    for lying in weapons if isinstance(weapons, list) else ():
        if isinstance(lying, Mapping) and (at := _place(lying.get("at"))) is not None:
            out.append((at, WEAPONS))
    return out


def draw(
    scenario: Scenario,
    terrain: Sequence[np.ndarray[Any, Any]],
    figures: Iterable[tuple[tuple[int, int, int], str]],
    title: str,
    vehicles: Sequence[tuple[tuple[int, int, int], str]] = (),
) -> list[str]:
    """The levels as rows of symbols with the vehicles, then the figures, drawn on top, and
    a key. On one square a man standing covers a hostage, who covers a last-seen mark, which
    covers weapons, which cover a fallen man."""
    grids = [[[SYMBOLS.get(int(c), "?") for c in row] for row in level] for level in terrain]
    figures = sorted(figures, key=lambda item: _LAYER.get(item[1], 4))
    for (level, x, y), mark in [*vehicles, *figures]:
        if 0 <= level < len(grids) and 0 <= y < len(grids[level]) and 0 <= x < len(grids[level][y]):
            grids[level][y][x] = mark
    lines = [f"== {title} =="]
    for index, grid in enumerate(grids):
        if len(grids) > 1:
            lines.append(f"-- {scenario.board.levels[index].name} --")
        lines.extend("".join(row).rstrip() for row in grid)
    marks = side_marks(scenario)
    key = ", ".join(f"{m} {side}" for side, m in marks.items())
    wrecks = f", {WRECK} wreck" if any(m == WRECK for _, m in vehicles) else ""
    cars = f", lower case: that side's vehicle{wrecks}" if vehicles else ""
    drawn = {m for _, m in figures}
    last = f", {HOSTAGE_MEMORY} hostage last seen there" if HOSTAGE_MEMORY in drawn else ""
    arms = f", {WEAPONS} weapons on the ground" if WEAPONS in drawn else ""
    lines.append(f"key: {key}, {HOSTAGE} hostage{last}, {DOWN} out of the fight{arms}{cars}")
    return lines


def umpire_board(
    scenario: Scenario, snapshot: Mapping[str, Any], extras: Mapping[str, Any] | None = None
) -> list[str]:
    """The true board: every figure and hostage where he stands, doors as they now are, and
    the weapons on the ground (``extras``: what the ruleset's ``umpire_extras`` adds to the
    snapshot)."""
    terrain = _terrain(scenario, snapshot.get("board"))
    marks = side_marks(scenario)
    figures = []
    for figure in snapshot.get("figures", ()):
        if isinstance(figure, Mapping) and (place := _place(figure.get("at"))) is not None:
            figures.append((place, _mark(figure, marks)))
    more = {**snapshot, **(extras or {})}
    figures += ground_marks(more.get("hostages"), more.get("weapons"), umpire=True)
    return draw(scenario, terrain, figures, f"turn {snapshot.get('turn', '?')}, umpire",
                vehicle_squares(snapshot.get("vehicles"), marks))


def side_board(scenario: Scenario, view: Mapping[str, Any]) -> list[str]:
    """What one side's view lets it draw: its figures, those in sight, remembered places."""
    terrain = [lv.terrain.copy() for lv in scenario.board.levels]
    for door in view.get("doors", ()) if isinstance(view.get("doors"), list) else ():
        place = _place(door.get("at")) if isinstance(door, Mapping) else None
        state = _DOOR_STATES.get(str(door.get("state"))) if isinstance(door, Mapping) else None
        if place is not None and state is not None and place[0] < len(terrain):
            level, x, y = place
            if 0 <= y < terrain[level].shape[0] and 0 <= x < terrain[level].shape[1]:
                terrain[level][y, x] = state
    marks = side_marks(scenario)
    figures = []
    for key, remembered in (("remembered", True), ("seen", False), ("figures", False)):
        entries = view.get(key, ())
        for figure in entries if isinstance(entries, list) else ():
            if isinstance(figure, Mapping) and (place := _place(figure.get("at"))) is not None:
                figures.append((place, MEMORY if remembered else _mark(figure, marks)))
    figures += ground_marks(view.get("hostages"), view.get("weapons"))
    side = view.get("side", "?")
    title = f"turn {view.get('turn', '?')}, as side {side} knows it ({MEMORY}: last seen there)"
    return draw(scenario, terrain, figures, title, vehicle_squares(view.get("vehicles"), marks))
