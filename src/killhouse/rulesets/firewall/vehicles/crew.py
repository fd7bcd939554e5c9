"""The vehicle's crew as a Fire Team (§17.8, ruling F-47) and passengers' teams (§17.3): who
may still act, the 1/3 rule over crew positions, the Turn's upkeep and arrivals."""

from __future__ import annotations

from typing import TYPE_CHECKING

from killhouse.core.cells import Cell
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
    """Members of a team sitting in a vehicle on the table."""
    out = []
    for m in team.members:
        f = state.figures[m]
        v = state.vehicles.get(f.aboard or "")
        if f.status is Status.ABOARD and v is not None and v.active:
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
    failed = sum(1 for c in v.crew if c.failed)
    return failed >= failure_limit(len(v.crew))


def can_act(c: Crew) -> bool:
    return not c.failed and not (c.combat_used and (c.move_used or not c.moves))


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


def vehicle_fits(state: FirewallState, v: Vehicle, anchor: tuple[int, int], facing: str,
                 *, ignore: frozenset[str] = frozenset()) -> str | None:
    """Why the footprint may not stand at ``anchor`` facing ``facing``, or ``None``: in
    bounds, on open ground a vehicle may enter (ruling F-144), clear of figures and other
    vehicles (F-47: no ramming)."""
    from killhouse.core.terrain import Terrain
    board = state.board
    level = board.levels[v.level]
    held = {f.cell for f in state.figures.values() if f.level == v.level
            and f.id not in ignore
            and f.status in (Status.ACTIVE, Status.INCAPACITATED, Status.KILLED)}
    others: set[tuple[int, int]] = set()
    for o in state.vehicles.values():
        if o.id != v.id and o.on_table and o.level == v.level:
            others.update(o.squares())
    for x, y in v.squares(anchor, facing):
        if not board.in_bounds(Cell(v.level, x, y)):
            return f"square {[x, y]} is off the table"
        if (x, y) in others:
            return f"square {[x, y]} holds another vehicle (no ramming, F-47)"
        terrain = v.under.get((x, y), int(level.terrain[y, x]))
        if terrain != Terrain.FLOOR:
            return f"square {[x, y]} is not open ground (F-47, F-144)"
        if int(level.clutter[y, x]) >= BUILDING_CLUTTER:
            return f"square {[x, y]} is a building or rubble (Clutter 4-5, ruling F-144)"
        if (x, y) in held:
            return f"square {[x, y]} holds a figure (no overrunning, F-47)"
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
