"""Driving (§17.4, ruling F-47): a vehicle's Movement action by its driver on the grid.

The footprint keeps its facing along the route (the anchor is its top-left square) and may
turn to a new facing at the end (ruling F-147: each 90° costs 5 cm of the allowance). Every
place on the route must fit: open ground, not a building or rubble (F-144), no figure, no other
vehicle (no ramming). The roll is the plain crew Gutz less the route's highest Clutter less
Drive (airborne: the landing place's Clutter only, F-17): CS +1 (the declared route, no
extension, F-148), S the route, F half of min(route, maximum), CF no move and −1; a failed
Full speed takes the second roll (F-11).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.measure import RootSum
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.firewall.gutz import Result, gutz_roll, roller_change
from killhouse.rulesets.firewall.movement import (
    move_allowance,
    needs_second_roll,
    second_roll_change,
)
from killhouse.rulesets.firewall.moving import _within, route_squares
from killhouse.rulesets.firewall.objectives import on_edge
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Status
from killhouse.rulesets.firewall.vehicles.catalogue import SPEEDS, catalogue
from killhouse.rulesets.firewall.vehicles.crew import crew_stopped, forbidden, vehicle_fits
from killhouse.rulesets.firewall.vehicles.damage import crew_gain
from killhouse.rulesets.firewall.vehicles.model import EXITED, Vehicle
from killhouse.rulesets.firewall.vehicles.sight import stamp, unstamp

if TYPE_CHECKING:
    from killhouse.rulesets.firewall.state import FirewallState

XY = tuple[int, int]
ORDER = ("n", "e", "s", "w")
#: ruling F-147: cm of the allowance a quarter turn costs
TURN_CM = Fraction(5)
#: "Full" failure takes the running second roll (F-11)
AS_FOOT = {"slow": "crawl", "cruise": "walk", "full": "run"}


@dataclass(frozen=True)
class Drive:
    """A declared vehicle move: speed, the anchor's waypoints, the facing at the end."""

    vehicle: str
    speed: str
    waypoints: tuple[XY, ...]
    facing: str | None = None
    exit: bool = False


def quarter_turns(a: str, b: str) -> int:
    d = abs(ORDER.index(a) - ORDER.index(b))
    return min(d, 4 - d)


def maximum(v: Vehicle, speed: str) -> Fraction:
    return catalogue().speed_cm(v.surface, v.rate, speed)


def surfaces_on(state: FirewallState, v: Vehicle, d: Drive) -> set[str]:
    """The surfaces the footprint touches from its place to the route's end, turned
    (ruling F-172): ``air`` for a flying vehicle; else ``water`` for water squares (the terrain
    under its own footprint read from beneath the stamp, F-141) and ``land`` for the rest."""
    if v.airborne:
        return {"air"}
    squares, _ = route_cost(v, d)
    places = [(v.anchor, v.facing), *((a, v.facing) for a, _ in squares)]
    if d.facing is not None:
        places.append((squares[-1][0] if squares else v.anchor, d.facing))
    level = state.board.levels[v.level]
    out: set[str] = set()
    for anchor, facing in places:
        for x, y in v.squares(anchor, facing):
            if not (0 <= x < level.width and 0 <= y < level.height):
                continue
            t = v.under.get((x, y), int(level.terrain[y, x]))
            out.add("water" if t == Terrain.WATER else "land")
    return out


def drive_limit(state: FirewallState, v: Vehicle, d: Drive) -> Fraction:
    """The most a drive may cover (ruling F-172): the rate at the declared speed on each
    surface the footprint touches along the route, the lowest of them when it touches two."""
    rates = v.surfaces
    used = [s for s in surfaces_on(state, v, d) if s in rates]
    if not used:
        return maximum(v, d.speed)
    return min(catalogue().speed_cm(s, rates[s], d.speed) for s in used)


def route_cost(v: Vehicle, d: Drive) -> tuple[list[tuple[XY, RootSum]], RootSum]:
    """The anchor's route squares and the whole cost in cm, turns included (F-147)."""
    squares = route_squares(v.anchor, d.waypoints)
    length = squares[-1][1] if squares else RootSum()
    turns = quarter_turns(v.facing, d.facing) if d.facing else 0
    return squares, length + TURN_CM * turns


def drive_problem(state: FirewallState, d: Drive,
                  blocked: dict[XY, str] | None = None) -> str | None:
    """Why the drive is not allowed now, or ``None`` (``blocked``: ``forbidden``'s answer
    for this vehicle, when the caller has it)."""
    v = state.vehicles.get(d.vehicle)
    if v is None or not v.active:
        return f"{d.vehicle} is not a running vehicle"
    driver = v.crew[0]
    if driver.move_used or driver.failed or crew_stopped(v):
        return f"{v.id}'s driver has no Movement action left this Turn"
    if v.transfer_this_turn:
        return "a passenger got in or out this Turn: the vehicle may not move (§17.3)"
    if d.speed not in SPEEDS:
        return f"unknown speed {d.speed!r} (slow, cruise or full)"
    if d.facing is not None and d.facing not in ORDER:
        return f"a vehicle faces n, e, s or w, not {d.facing!r} (K-11)"
    squares, cost = route_cost(v, d)
    if d.waypoints and not squares:
        return "the route goes nowhere"
    if blocked is None:
        blocked = forbidden(state, v)
    for anchor, _ in squares:
        problem = vehicle_fits(state, v, anchor, v.facing, blocked=blocked)
        if problem is not None:
            return problem
    end = squares[-1][0] if squares else v.anchor
    if d.facing is not None and d.facing != v.facing:
        problem = vehicle_fits(state, v, end, d.facing, blocked=blocked)
        if problem is not None:
            return f"no room to turn at the end: {problem}"
    limit = drive_limit(state, v, d)
    if not _within(cost, limit):
        return f"the route and turns cost more than {limit} cm, the most at {d.speed} speed"
    if d.exit and not _edge(state, v, end, d.facing or v.facing):
        return "a vehicle leaves the table only from a place touching an edge (F-58)"
    return None


def _edge(state: FirewallState, v: Vehicle, anchor: XY, facing: str) -> bool:
    return any(on_edge(state.board, v.level, sq) for sq in v.squares(anchor, facing))


def drive_modifier(state: FirewallState, v: Vehicle, d: Drive) -> int:
    """−(highest Clutter under the footprint along the route − Drive), never a bonus (F-47);
    airborne vehicles count the landing place only (F-17)."""
    squares, _ = route_cost(v, d)
    end = squares[-1][0] if squares else v.anchor
    places = [end] if v.surface == "air" else [v.anchor, *(a for a, _ in squares)]
    level = state.board.levels[v.level]
    clutter = max(int(level.clutter[y, x]) for a in places for x, y in v.squares(a, v.facing))
    return -max(0, clutter - v.drive)


def resolve_drive(state: FirewallState, d: Drive, chance: Chance, log: EventLog,
                  watchers: frozenset[str]) -> Result:
    """Resolve a legal drive; refuses an illegal one before any change."""
    problem = drive_problem(state, d)
    if problem is not None:
        raise IllegalActionError(problem)
    v = state.vehicles[d.vehicle]
    driver = v.crew[0]
    mod = drive_modifier(state, v, d)
    driver.move_used = True
    own = frozenset({v.side})
    roll = gutz_roll(chance, v.gutz, mod, f"{v.id} drives", own)
    squares, _ = route_cost(v, d)
    route = squares[-1][1] if squares else RootSum()
    start, start_facing = v.anchor, v.facing
    end = v.anchor
    if roll.result != "CF":
        allowance = move_allowance("S" if roll.result == "CS" else roll.result, route,
                                   drive_limit(state, v, d))
        for anchor, dist in squares:
            if not _within(dist, allowance.distance):
                break
            end = anchor
    crew_gain(v, roller_change(roll.result))
    second: Result | None = None
    if roll.result in ("F", "CF"):
        driver.failed = True
    if needs_second_roll(AS_FOOT[d.speed], roll.result):
        again = gutz_roll(chance, v.gutz, mod, f"{v.id} full-speed second roll", own)
        second = again.result
        crew_gain(v, second_roll_change(second))
    unstamp(state.board, v)
    v.anchor = end
    whole = end == (squares[-1][0] if squares else start)
    if roll.result != "CF" and whole and d.facing is not None:
        v.facing = d.facing
    v.moved_this_turn = v.moved_this_turn or (v.anchor, v.facing) != (start, start_facing)
    for fid in v.passengers:
        state.figures[fid].cell = v.anchor
    exited = d.exit and roll.result != "CF" and whole and _edge(state, v, v.anchor, v.facing)
    if v.gutz < tables().min_gutz:
        from killhouse.rulesets.firewall.vehicles.damage import destroy
        destroy(state, v)
    if exited and v.active:
        v.status = EXITED
        for fid in v.passengers:
            state.figures[fid].status = Status.EXITED
    else:
        stamp(state.board, v)
    log.emit("drive", {"vehicle": v.id, "speed": d.speed, "dice": list(roll.dice),
                       "result": roll.result, "second": second, "to": [v.level, *v.anchor],
                       "facing": v.facing, "exited": v.status == EXITED},
             own | watchers)
    return roll.result
