"""Vehicles on the board (ruling F-24, F-141): a footprint blocks sight and movement; who sees
a vehicle and what a vehicle's crew sees (§21.4: vision is all-round, crews look too)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from killhouse.core.board import Board
from killhouse.core.geometry import line_of_sight
from killhouse.core.terrain import Terrain
from killhouse.rulesets.firewall.teams import Figure
from killhouse.rulesets.firewall.vehicles.model import Vehicle
from killhouse.rulesets.firewall.vision import VISIBLE, seen_by_side

XY = tuple[int, int]


def stamp(board: Board, v: Vehicle) -> None:
    """Ruling F-141: the footprint's squares stop sight and movement as a wall would, while
    the vehicle (or its wreck) stands there; the terrain beneath is kept to restore."""
    level = board.levels[v.level]
    for x, y in v.squares():
        if (x, y) not in v.under:
            v.under[(x, y)] = int(level.terrain[y, x])
        level.terrain[y, x] = Terrain.WALL


def unstamp(board: Board, v: Vehicle) -> None:
    """The terrain beneath comes back (the vehicle moved on or left the table)."""
    level = board.levels[v.level]
    for (x, y), t in v.under.items():
        level.terrain[y, x] = t
    v.under.clear()


@contextmanager
def lifted(board: Board, *vehicles: Vehicle) -> Iterator[None]:
    """The board without these vehicles' footprints, for a while: a crew sees and fires out
    of its own vehicle, and a shot at a vehicle is not blocked by the target (F-24)."""
    stamped = [v for v in vehicles if v.under]
    saved = [dict(v.under) for v in stamped]
    for v in stamped:
        unstamp(board, v)
    try:
        yield
    finally:
        for v, under in zip(stamped, saved, strict=True):
            level = board.levels[v.level]
            for (x, y), t in under.items():
                v.under[(x, y)] = t
                level.terrain[y, x] = Terrain.WALL


def nearest_square(v: Vehicle, to: XY) -> XY:
    """The footprint square nearest a square (reading order on ties), from which a vehicle
    is measured and aimed at (ruling F-143, like sections in F-102)."""
    return min(v.squares(), key=lambda c: ((c[0] - to[0]) ** 2 + (c[1] - to[1]) ** 2,
                                           c[1], c[0]))


def _clear(board: Board, level: int, a: XY, b: XY) -> bool:
    return line_of_sight(board.opaque(level), a, b, mode="supercover")


def vehicle_sees_square(board: Board, v: Vehicle, square: XY, level: int) -> bool:
    """A crew sees a square when a line from some square of its own footprint reaches it."""
    if level != v.level or not v.active:
        return False
    with lifted(board, v):
        start = nearest_square(v, square)
        if _clear(board, level, start, square):
            return True
        return any(_clear(board, level, s, square) for s in v.squares() if s != start)


def square_sees_vehicle(board: Board, looker: XY, level: int, v: Vehicle) -> bool:
    """A look from a square reaches a vehicle when it reaches any square of its footprint."""
    if level != v.level or not v.on_table:
        return False
    with lifted(board, v):
        near = nearest_square(v, looker)
        if _clear(board, level, looker, near):
            return True
        return any(_clear(board, level, looker, s) for s in v.squares() if s != near)


def figures_seen(board: Board, figures: Mapping[str, Figure],
                 vehicles: Mapping[str, Vehicle], side: str) -> set[str]:
    """The other sides' figures the side sees: by its figures, or from its vehicles."""
    seen = seen_by_side(board, figures, side)
    crews = [v for v in vehicles.values() if v.side == side and v.active]
    if not crews:
        return seen
    for f in figures.values():
        if f.id in seen or f.side == side or f.status not in VISIBLE:
            continue
        if f.hidden:
            continue
        if any(vehicle_sees_square(board, v, f.cell, f.level) for v in crews):
            seen.add(f.id)
    return seen


def vehicles_seen(board: Board, figures: Mapping[str, Figure],
                  vehicles: Mapping[str, Vehicle], side: str) -> set[str]:
    """The other sides' vehicles (and wrecks) the side sees now (§21.4: hidden like a figure
    while out of sight)."""
    lookers = [f for f in figures.values() if f.side == side and f.active]
    crews = [v for v in vehicles.values() if v.side == side and v.active]
    out = set()
    for v in vehicles.values():
        if v.side == side or not v.on_table:
            continue
        if any(square_sees_vehicle(board, f.cell, f.level, v) for f in lookers):
            out.add(v.id)
            continue
        for c in crews:
            with lifted(board, c):
                if any(square_sees_vehicle(board, s, c.level, v) for s in c.squares()):
                    out.add(v.id)
                    break
    return out
