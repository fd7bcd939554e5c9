"""The vehicle's crew as a Fire Team (§17.8, ruling F-47) and passengers' teams (§17.3): who
may still act, the 1/3 rule over crew positions, the Turn's upkeep and arrivals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.firewall.leaders import failure_limit
from killhouse.rulesets.firewall.teams import Figure, Status, Team
from killhouse.rulesets.firewall.vehicles.model import ACTIVE, RESERVE, Crew, Vehicle

if TYPE_CHECKING:
    from killhouse.rulesets.firewall.state import FirewallState


def team_vehicle(state: FirewallState, team: Team | str | None) -> Vehicle | None:
    """The vehicle whose crew is this team, if any."""
    tid = team.id if isinstance(team, Team) else team
    for v in state.vehicles.values():
        if v.team == tid:
            return v
    return None


def aboard_members(state: FirewallState, team: Team) -> list[Figure]:
    """Members of a team sitting in a vehicle on the table who may act there (not a helpless
    figure carried in)."""
    out = []
    for m in team.members:
        f = state.figures[m]
        v = state.vehicles.get(f.aboard or "")
        if (f.status is Status.ABOARD and v is not None and v.active
                and v.passengers.get(f.id) == Status.ACTIVE.value):
            out.append(f)
    return out


def live_vehicle_team(state: FirewallState, team: Team) -> bool:
    """A crew team lives while its vehicle runs; a team with members aboard a running vehicle
    lives too (they act in their own activations, §17.8)."""
    v = team_vehicle(state, team)
    if v is not None:
        return v.active
    return bool(aboard_members(state, team))


def crew_stopped(v: Vehicle) -> bool:
    """§17.8: the 1/3 rule counts crew positions (ruling F-7)."""
    crew = [c for c in v.crew if not c.out]
    failed = sum(1 for c in crew if c.failed)
    return failed >= failure_limit(len(crew))


def can_act(c: Crew) -> bool:
    return not c.out and not c.failed and not (c.combat_used and (c.move_used or not c.moves))


def passenger_can_act(f: Figure) -> bool:
    return f.status is Status.ABOARD and not f.failed_this_turn and not (
        f.move_used and f.combat_used)


def vehicle_activation_done(state: FirewallState, team: Team) -> bool | None:
    """Whether the activation of a crew team or a team with members aboard is over; ``None``
    for any other team (the figure rule alone decides)."""
    from killhouse.rulesets.firewall.state import _can_act
    from killhouse.rulesets.firewall.teams import active_members, team_stopped
    v = team_vehicle(state, team)
    if v is not None:
        return not v.active or crew_stopped(v) or not any(can_act(c) for c in v.crew)
    inside = aboard_members(state, team)
    if not inside:
        return None
    if team_stopped(team, state.figures):
        return True
    return not any(_can_act(state, f) for f in active_members(team, state.figures)) and not any(
        passenger_can_act(f) for f in inside)


def new_turn(state: FirewallState, log: EventLog, chance: Chance) -> None:
    """Upkeep for vehicles and riders (§21.2 step 1): vehicles due arrive with their
    passengers; per-Turn flags reset; the fastest transport speed is forgotten (F-46)."""
    from killhouse.rulesets.firewall.vehicles.sight import stamp
    for v in state.vehicles.values():
        if v.on_table and not v.under:
            stamp(state.board, v)  # set-up: footprints go on the board (F-141)
        if v.arrives_roll is not None:
            from killhouse.rulesets.firewall.vehicles.scenario import roll_arrivals
            roll_arrivals(state, log, chance)
        if v.status == RESERVE and v.arrives == state.turn:
            v.anchor = _arrival_anchor(state, v)
            v.status = ACTIVE
            stamp(state.board, v)
            state.teams[v.team].aware = True
            for fid in v.passengers:
                f = state.figures[fid]
                f.cell = v.anchor
                state.teams[f.team].aware = True
            log.emit("vehicle-arrives", {"vehicle": v.id, "side": v.side,
                                         "at": [v.level, *v.anchor], "facing": v.facing},
                     frozenset({v.side}))
        v.moved_last_turn = v.moved_this_turn
        v.moved_this_turn = False
        v.transfer_this_turn = False
        for c in v.crew:
            c.move_used = c.combat_used = c.failed = False
        for m in v.mounts:
            m.fired = False
    for f in state.figures.values():
        f.rode = "none"


def forbidden(state: FirewallState, v: Vehicle,
              ignore: frozenset[str] = frozenset()) -> dict[tuple[int, int], str]:
    """The squares a footprint of ``v`` may not cover now, each with the reason: not open
    ground, building or rubble (F-144), a figure or another vehicle (F-47). Squares off the
    table are refused separately."""
    import numpy as np

    from killhouse.core.terrain import Terrain
    level = state.board.levels[v.level]
    terrain = level.terrain.copy()
    for (x, y), t in v.under.items():
        terrain[y, x] = t
    out: dict[tuple[int, int], str] = {}
    for y, x in zip(*np.nonzero(level.clutter >= BUILDING_CLUTTER), strict=True):
        out[(int(x), int(y))] = "is a building or rubble (Clutter 4-5, ruling F-144)"
    water = terrain == Terrain.WATER
    for y, x in zip(*np.nonzero((terrain != Terrain.FLOOR) & ~water), strict=True):
        out[(int(x), int(y))] = "is not open ground (F-47, F-144)"
    # ruling F-172: water needs a water rate, dry land a land rate; flying vehicles cross both
    rates = v.surfaces
    if not v.airborne and "water" not in rates:
        for y, x in zip(*np.nonzero(water), strict=True):
            out[(int(x), int(y))] = f"is water: {v.name} has no water rate (§17.4, F-172)"
    if not v.airborne and "land" not in rates:
        for y, x in zip(*np.nonzero(terrain == Terrain.FLOOR), strict=True):
            if (int(x), int(y)) not in out:
                out[(int(x), int(y))] = (f"is dry land: {v.name} has no land rate "
                                         "(§17.4, F-172)")
    for f in state.figures.values():
        if f.level == v.level and f.id not in ignore and f.status in (
                Status.ACTIVE, Status.INCAPACITATED, Status.KILLED):
            out[f.cell] = "holds a figure (no overrunning, F-47)"
    for o in state.vehicles.values():
        if o.id != v.id and o.on_table and o.level == v.level:
            for sq in o.squares():
                out[sq] = "holds another vehicle (no ramming, F-47)"
    return out


def vehicle_fits(state: FirewallState, v: Vehicle, anchor: tuple[int, int], facing: str,
                 *, ignore: frozenset[str] = frozenset(),
                 blocked: dict[tuple[int, int], str] | None = None) -> str | None:
    """Why the footprint may not stand at ``anchor`` facing ``facing``, or ``None``: in
    bounds, on open ground a vehicle may enter (ruling F-144), clear of figures and other
    vehicles (F-47: no ramming). ``blocked`` is ``forbidden``'s answer, when known."""
    if blocked is None:
        blocked = forbidden(state, v, ignore)
    level = state.board.levels[v.level]
    for x, y in v.squares(anchor, facing):
        if not (0 <= x < level.width and 0 <= y < level.height):
            return f"square {[x, y]} is off the table"
        why = blocked.get((x, y))
        if why is not None:
            return f"square {[x, y]} {why}"
    return None


#: ruling F-144: squares of Clutter 4 or 5 (building interiors, rubble) are closed to vehicles
BUILDING_CLUTTER = 4


def _arrival_anchor(state: FirewallState, v: Vehicle) -> tuple[int, int]:
    """Ruling F-145 (as F-86): the listed place, else the nearest place the footprint fits."""
    level = state.board.levels[v.level]
    x0, y0 = v.anchor
    for r in range(max(level.width, level.height)):
        ring = sorted(((x0 + dx, y0 + dy) for dy in range(-r, r + 1) for dx in range(-r, r + 1)
                       if max(abs(dx), abs(dy)) == r), key=lambda c: (c[1], c[0]))
        for a in ring:
            if vehicle_fits(state, v, a, v.facing, ignore=frozenset(v.passengers)) is None:
                return a
    return v.anchor
