"""The vehicle moves on the flow kit (§17): ``drive``, ``vehicle-fire``, ``fire-at-vehicle``,
``embark``, ``disembark`` and ``ride``; the options each side may take, with hints for bots
(``role``, ``to``, ``p``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.grid import model_within
from killhouse.rulesets.firewall.gutz import change_gutz, gutz_roll, roller_change
from killhouse.rulesets.firewall.shooting import Shot
from killhouse.rulesets.firewall.teams import Figure, Status, bonus_for
from killhouse.rulesets.firewall.vehicles.assault import Assault, assault_problem, resolve_assault
from killhouse.rulesets.firewall.vehicles.crew import (
    aboard_members,
    can_act,
    crew_stopped,
    passenger_can_act,
    team_vehicle,
)
from killhouse.rulesets.firewall.vehicles.driving import (
    Drive,
    drive_modifier,
    drive_problem,
    maximum,
    quarter_turns,
    resolve_drive,
)
from killhouse.rulesets.firewall.vehicles.gunnery import (
    AtVehicle,
    VFire,
    aim,
    at_vehicle_problem,
    gunner_situation,
    resolve_at_vehicle,
    resolve_vfire,
    vehicle_situation,
    vfire_problem,
)
from killhouse.rulesets.firewall.vehicles.model import Vehicle
from killhouse.rulesets.firewall.vehicles.sight import figures_seen, nearest_square, vehicles_seen
from killhouse.rulesets.firewall.vehicles.transport import mount, mount_problem

if TYPE_CHECKING:
    from killhouse.rulesets.firewall.state import FirewallState

#: ruling F-48: embarking ends within 2 cm of the vehicle
EMBARK_CM = 2


def _refuse(problem: str | None) -> None:
    """Every vehicle order's check: the rules' reason, if any, refuses the action."""
    if problem is not None:
        raise IllegalActionError(problem)


DIRECTIONS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
HEADING = {(0, -1): "n", (1, 0): "e", (0, 1): "s", (-1, 0): "w"}


def _p(gutz: int, mod: int) -> float:
    from killhouse.rulesets.firewall.fireorders import _chance_of_success
    return float(_chance_of_success(gutz, mod))


def _active_vehicle(state: FirewallState, side: str) -> Vehicle | None:
    if state.active_team is None or state.teams[state.active_team].side != side:
        return None
    v = team_vehicle(state, state.active_team)
    return v if v is not None and v.active and not crew_stopped(v) else None


def _own_vehicle(state: FirewallState, action: Action) -> Vehicle:
    v = _active_vehicle(state, action.side)
    if v is None or v.id != str(action.get("vehicle")):
        raise IllegalActionError(f"{action.get('vehicle')} is not the active team's vehicle")
    return v


def _watchers(state: FirewallState, v: Vehicle) -> frozenset[str]:
    return frozenset(s for s in state.sides if s != v.side and v.id in vehicles_seen(
        state.board, state.figures, state.vehicles, s))


# -- drive ---------------------------------------------------------------------------------

def _drive(action: Action) -> Drive:
    path = tuple((int(c[1]), int(c[2])) for c in action.get("path") or ())
    facing = action.get("facing")
    return Drive(str(action.get("vehicle")), str(action.get("speed")), path,
                 None if facing is None else str(facing), bool(action.get("exit", False)))


def drive_options(state: FirewallState, side: str) -> Iterable[Action]:
    """A useful subset: straight runs in the eight directions at the full allowance and at
    half and a quarter of it, keeping the facing or turning to a cardinal heading; and every
    such run that ends on an edge, as an exit. Any legal route is accepted."""
    v = _active_vehicle(state, side)
    if v is None or not can_act(v.crew[0]) or v.crew[0].move_used:
        return []
    from killhouse.rulesets.firewall.vehicles.crew import forbidden, vehicle_fits
    blocked = forbidden(state, v)
    out: list[Action] = []
    done: set[tuple[object, ...]] = set()
    top = {speed: float(maximum(v, speed)) for speed in ("cruise", "full")}
    longest = max(top.values())
    for dx, dy in DIRECTIONS:
        step = 2.5 * (2 ** 0.5 if dx and dy else 1)
        # the farthest anchor along the ray every place up to which fits
        reach = 0
        while (reach + 1) * step <= longest and vehicle_fits(
                state, v, (v.anchor[0] + dx * (reach + 1), v.anchor[1] + dy * (reach + 1)),
                v.facing, blocked=blocked) is None:
            reach += 1
        heading = HEADING.get((dx, dy), v.facing)
        for speed in ("cruise", "full"):
            for part in (1.0, 0.5, 0.25):
                for face in dict.fromkeys((v.facing, heading)):
                    turn = 5 * quarter_turns(v.facing, face)
                    k = min(reach, int((top[speed] * part - turn) / step))
                    if k < 1 or (speed, k, dx, dy, face) in done:
                        continue
                    done.add((speed, k, dx, dy, face))
                    end = (v.anchor[0] + dx * k, v.anchor[1] + dy * k)
                    act = Action.make(side, "drive", vehicle=v.id, speed=speed,
                                      path=[[v.level, *end]],
                                      facing=None if face == v.facing else face)
                    if drive_problem(state, _drive(act), blocked) is not None:
                        continue
                    p = _p(v.gutz, drive_modifier(state, v, _drive(act)))
                    out.append(dataclasses.replace(act, hint={
                        "role": "drive", "to": [v.level, *end], "p": p}))
                    leave = Action.make(side, "drive", vehicle=v.id, speed=speed,
                                        path=[[v.level, *end]], exit=True,
                                        facing=None if face == v.facing else face)
                    if drive_problem(state, _drive(leave), blocked) is None:
                        out.append(dataclasses.replace(leave, hint={
                            "role": "exit", "to": [v.level, *end], "p": p}))
    return out


def check_drive(state: FirewallState, action: Action) -> None:
    v = _own_vehicle(state, action)
    if any(int(c[0]) != v.level for c in action.get("path") or ()):
        # ruling F-173: no ramps on the grid; a vehicle stays on the level it stands on
        raise IllegalActionError(f"{v.id} drives on its own level only (F-173)")
    _refuse(drive_problem(state, _drive(action)))


def drive(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    d = _drive(action)
    v = state.vehicles[d.vehicle]
    before = _watchers(state, v)
    resolve_drive(state, d, chance, log, before)
    state.last = (v.id, "drive", d.speed)


# -- vehicle fire --------------------------------------------------------------------------

def _vfire(action: Action) -> VFire:
    return VFire(str(action.get("vehicle")), int(action.get("crew")), str(action.get("mount")),
                 str(action.get("target")))


def vfire_options(state: FirewallState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.firewall.fire import fire_modifier
    from killhouse.rulesets.firewall.shooting import Shot, shot_situation
    from killhouse.rulesets.firewall.vehicles.gunnery import _crew_figure
    from killhouse.rulesets.firewall.vehicles.sight import lifted
    v = _active_vehicle(state, side)
    if v is None:
        return []
    seen = sorted(figures_seen(state.board, state.figures, state.vehicles, side))
    cars = sorted(vehicles_seen(state.board, state.figures, state.vehicles, side))
    out = []
    for i, c in enumerate(v.crew):
        if c.combat_used or c.failed:
            continue
        for m in v.mounts:
            for target in [*seen, *cars]:
                act = Action.make(side, "vehicle-fire", vehicle=v.id, crew=i, mount=m.id,
                                  target=target)
                if vfire_problem(state, _vfire(act)) is not None:
                    continue
                start, at, _ = aim(state, v, target) or ((0, 0), (0, 0), 0)
                if target in state.vehicles:
                    mod = fire_modifier(vehicle_situation(state, None, m.weapon, None, None,
                                                          start, at))
                    hint = {"role": "attack", "p": _p(v.gutz, mod), "vehicle": True,
                            "to": [v.level, *at]}
                else:
                    crew = _crew_figure(state, v, m.id, start, at)
                    figures = {**state.figures, crew.id: crew}
                    with lifted(state.board, v):
                        mod = fire_modifier(shot_situation(state.board, figures, state.teams,
                                                           Shot(crew.id, m.weapon, target),
                                                           night=state.night))
                    f = state.figures[target]
                    hint = {"role": "attack", "p": _p(v.gutz, mod), "to": [f.level, *f.cell],
                            "helpless": f.status is Status.INCAPACITATED,
                            "hostage": False, "nonlethal": False, "grenade": False,
                            "area": True}  # VMG and Guns at figures have radii
                out.append(dataclasses.replace(act, hint=hint))
    return out


def check_vfire(state: FirewallState, action: Action) -> None:
    _own_vehicle(state, action)
    _refuse(vfire_problem(state, _vfire(action)))


def vfire(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    resolve_vfire(state, _vfire(action), chance, log)
    state.combat_happened = True
    state.last = (str(action.get("vehicle")), "vehicle-fire", "")


# -- figures at vehicles ---------------------------------------------------------------------

def _at(action: Action) -> AtVehicle:
    fire, grenade = action.get("fire"), action.get("grenade")
    return AtVehicle(str(action.get("figure")), str(action.get("weapon")),
                     str(action.get("vehicle")), None if fire is None else str(fire),
                     None if grenade is None else str(grenade), bool(action.get("gunner")))


def at_vehicle_options(state: FirewallState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.firewall.fire import fire_modifier
    from killhouse.rulesets.firewall.fireorders import _launchers
    from killhouse.rulesets.firewall.state import _aware, team_figures
    if not state.vehicles:
        return []
    cars = sorted(vehicles_seen(state.board, state.figures, state.vehicles, side))
    out = []
    for f in team_figures(state, side):
        if f.combat_used or not _aware(state, f) or f.carrying is not None:
            continue
        for wid, grenade in _launchers(f):
            for vid, gunner in [(c, g) for c in cars for g in (False, True)]:
                act = Action.make(side, "fire-at-vehicle", figure=f.id, weapon=wid,
                                  vehicle=vid, grenade=grenade, gunner=gunner or None)
                if at_vehicle_problem(state, _at(act)) is not None:
                    continue
                v = state.vehicles[vid]
                at = nearest_square(v, f.cell)
                if gunner:
                    mod = fire_modifier(gunner_situation(state, f, _at(act), v, at))
                else:
                    mod = fire_modifier(vehicle_situation(state, f, wid, None, grenade, f.cell,
                                                          at))
                out.append(dataclasses.replace(act, hint={
                    "role": "attack", "p": _p(f.gutz, mod), "vehicle": True,
                    "to": [v.level, *at], "grenade": grenade is not None}))
    return out


def check_at_vehicle(state: FirewallState, action: Action) -> None:
    from killhouse.rulesets.firewall.state import combat_figure
    combat_figure(state, action)
    _refuse(at_vehicle_problem(state, _at(action)))


def at_vehicle(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    resolve_at_vehicle(state, _at(action), chance, log)
    state.last = (str(action.get("figure")), "shoot", "")


# -- passengers ----------------------------------------------------------------------------

def _transfer_problem(v: Vehicle) -> str | None:
    if not v.active:
        return f"{v.id} is not a running vehicle"
    if v.moved_last_turn or v.moved_this_turn:
        return f"{v.id} moved this Turn or the last: nobody gets in or out (§17.3)"
    return None


def _near(f: Figure, v: Vehicle) -> bool:
    return f.level == v.level and model_within([f.cell], v.squares(), EMBARK_CM)


def _move_mod(state: FirewallState, f: Figure) -> int:
    clutter = state.board.clutter(Cell(f.level, *f.cell))
    clutter = max(0, clutter - int(f.skills.get("acrobatics", 0)))
    return -clutter + bonus_for(f, state.teams[f.team], state.figures)


def embark_problem(state: FirewallState, f: Figure, vid: str) -> str | None:
    v = state.vehicles.get(vid)
    if v is None or v.side != f.side:
        return f"{vid} is not a vehicle of {f.side}"
    if not f.active or f.move_used or f.failed_this_turn:
        return f"{f.id} has no Movement action left this Turn"
    if f.riding:
        return f"{f.id} rides its {f.transport}: get off first"
    problem = _transfer_problem(v)
    if problem is not None:
        return problem
    places = 1 + (1 if f.carrying else 0)
    if len(v.passengers) + places > v.capacity:
        return f"{v.id} has no room for {places} more (capacity {v.capacity})"
    if not _near(f, v):
        return f"{f.id} is not within 2 cm of {v.id} (F-48)"
    return None


def embark_options(state: FirewallState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.firewall.state import team_figures
    out = []
    for f in team_figures(state, side):
        for vid in sorted(state.vehicles):
            if embark_problem(state, f, vid) is None:
                out.append(Action.make(side, "embark", figure=f.id, vehicle=vid, hint={
                    "role": "embark", "p": _p(f.gutz, _move_mod(state, f)),
                    "carrying": f.carrying is not None}))
    return out


def check_embark(state: FirewallState, action: Action) -> None:
    from killhouse.rulesets.firewall.state import mine
    f = mine(state, action)
    _refuse(embark_problem(state, f, str(action.get("vehicle"))))


def embark(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling F-154: a Movement action with the figure's move roll (its square's clutter, the
    leader); on any result but CF it gets in (with a carried figure)."""
    f = state.figures[str(action.get("figure"))]
    v = state.vehicles[str(action.get("vehicle"))]
    watchers = frozenset({f.side})  # §21.4: those who saw the figure, not only the vehicle
    seen_before = frozenset(s for s in state.sides if f.id in figures_seen(
        state.board, state.figures, state.vehicles, s))
    f.move_used = True
    roll = gutz_roll(chance, f.gutz, _move_mod(state, f), f"{f.id} gets in {v.id}",
                     frozenset({f.side}))
    _roller(f, roll.result)
    inside = roll.result != "CF" and f.active
    if inside:
        for g in [f, *([state.figures[f.carrying]] if f.carrying else [])]:
            v.passengers[g.id] = g.status.value
            g.status = Status.ABOARD
            g.aboard = v.id
            g.cell = v.anchor
        v.transfer_this_turn = True
    log.emit("embark", {"figure": f.id, "vehicle": v.id, "dice": list(roll.dice),
                        "result": roll.result, "inside": inside}, watchers | seen_before)
    state.last = (f.id, "embark", "")


def _roller(f: Figure, result: str) -> None:
    change = change_gutz(f.gutz, roller_change(result))  # type: ignore[arg-type]
    f.gutz = change.gutz
    if change.status != "active":
        f.status = Status(change.status)
    if result in ("F", "CF"):
        f.failed_this_turn = True


def exits_of(state: FirewallState, v: Vehicle) -> list[tuple[int, int]]:
    """Free passable squares touching the footprint (ruling F-48)."""
    from killhouse.rulesets.firewall.vehicles.damage import _squares_around
    return _squares_around(state, v)


def disembark_options(state: FirewallState, side: str) -> Iterable[Action]:
    if state.active_team is None or state.teams[state.active_team].side != side:
        return []
    out = []
    for f in aboard_members(state, state.teams[state.active_team]):
        if f.move_used or f.failed_this_turn or f.carried_by is not None:
            continue
        v = state.vehicles[f.aboard or ""]
        if _transfer_problem(v) is not None:
            continue
        for sq in exits_of(state, v):
            out.append(Action.make(side, "disembark", figure=f.id, to=[v.level, *sq], hint={
                "role": "disembark", "to": [v.level, *sq], "p": _p(f.gutz, 0)}))
    return out


def check_disembark(state: FirewallState, action: Action) -> None:
    fid = str(action.get("figure"))
    f = state.figures.get(fid)
    team = state.teams.get(state.active_team or "")
    if (f is None or team is None or team.side != action.side
            or f not in aboard_members(state, team)):
        raise IllegalActionError(f"{fid} is not a passenger of the active team")
    if f.move_used or f.failed_this_turn:
        raise IllegalActionError(f"{fid} has no Movement action left this Turn")
    if f.carried_by is not None:
        raise IllegalActionError(f"{fid} is carried: it gets out with its carrier")
    v = state.vehicles[f.aboard or ""]
    _refuse(_transfer_problem(v))
    to = action.get("to")
    if int(to[0]) != v.level or (int(to[1]), int(to[2])) not in exits_of(state, v):
        raise IllegalActionError("a passenger gets out onto a free square beside the "
                                 "footprint (F-48)")


def disembark(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling F-154: a Movement action with a plain move roll (the square it steps onto); on
    any result but CF it stands on the chosen square beside the footprint, with its load."""
    f = state.figures[str(action.get("figure"))]
    v = state.vehicles[f.aboard or ""]
    to = action.get("to")
    sq = (int(to[1]), int(to[2]))
    f.move_used = True
    clutter = state.board.clutter(Cell(v.level, *sq))
    mod = -max(0, clutter - int(f.skills.get("acrobatics", 0)))
    roll = gutz_roll(chance, f.gutz, mod, f"{f.id} gets out of {v.id}", frozenset({f.side}))
    out = roll.result != "CF"
    if out:
        for g in [f, *([state.figures[f.carrying]] if f.carrying else [])]:
            g.status = Status(v.passengers.pop(g.id))
            g.aboard = None
            g.cell = sq
        v.transfer_this_turn = True
    _roller(f, roll.result)
    watchers = frozenset({f.side}) | frozenset(
        s for s in state.sides if f.id in figures_seen(state.board, state.figures,
                                                       state.vehicles, s))
    log.emit("disembark", {"figure": f.id, "vehicle": v.id, "dice": list(roll.dice),
                           "result": roll.result, "to": [v.level, *sq] if out else None},
             watchers)
    state.last = (f.id, "disembark", "walk")


# -- personal transport --------------------------------------------------------------------

def ride_options(state: FirewallState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.firewall.state import team_figures
    out = []
    for f in team_figures(state, side):
        if f.transport is None:
            continue
        on = not f.riding
        if mount_problem(f, on) is None:
            out.append(Action.make(side, "ride", figure=f.id, on=on, hint={
                "role": "ride", "p": _p(f.gutz, _move_mod(state, f))}))
    return out


def check_ride(state: FirewallState, action: Action) -> None:
    from killhouse.rulesets.firewall.state import mine
    f = mine(state, action)
    _refuse(mount_problem(f, bool(action.get("on"))))


def ride(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.firewall.state import _who_sees
    f = state.figures[str(action.get("figure"))]
    on = bool(action.get("on"))
    result = mount(chance, f, _move_mod(state, f), on, frozenset({f.side}))
    log.emit("ride", {"figure": f.id, "on": on, "result": result, "riding": f.riding},
             _who_sees(state, f))
    state.last = (f.id, "ride", "")


def passengers_can_act(state: FirewallState) -> bool:
    team = state.teams.get(state.active_team or "")
    return team is not None and any(passenger_can_act(f) for f in aboard_members(state, team))


# -- passengers firing out -------------------------------------------------------------------

@contextmanager
def _at_window(state: FirewallState, f: Figure, target: str) -> Iterator[None]:
    """Ruling F-157: a passenger fires from the footprint square nearest the target, facing
    it, as an active figure for the length of the shot (its vehicle lifted off the board)."""
    from killhouse.rulesets.firewall.vehicles.sight import lifted
    v = state.vehicles[f.aboard or ""]
    aim = state.figures[target].cell if target in state.figures else v.anchor
    start = nearest_square(v, aim)
    dx, dy = aim[0] - start[0], aim[1] - start[1]
    saved = (f.status, f.cell, f.facing)
    f.status, f.cell = Status.ACTIVE, start
    f.facing = ((dx > 0) - (dx < 0), (dy > 0) - (dy < 0))
    try:
        with lifted(state.board, v):
            yield
    finally:
        if f.status is Status.ACTIVE:
            f.status, f.cell, f.facing = saved
        else:  # killed or routed by its own weapon: out of the vehicle, beside it
            from killhouse.rulesets.firewall.vehicles.damage import _squares_around
            v.passengers.pop(f.id, None)
            f.aboard = None
            free = _squares_around(state, v)
            f.cell = free[0] if free else f.cell


def _passenger_shot(action: Action) -> Shot:
    grenade = action.get("grenade")
    return Shot(str(action.get("figure")), str(action.get("weapon")), str(action.get("target")),
                grenade=None if grenade is None else str(grenade))


def passenger_fire_options(state: FirewallState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.firewall.fire import fire_modifier
    from killhouse.rulesets.firewall.fireorders import _area, _launchers
    from killhouse.rulesets.firewall.shooting import shot_problem, shot_situation
    from killhouse.rulesets.firewall.tables import tables
    if state.active_team is None or state.teams[state.active_team].side != side:
        return []
    team = state.teams[state.active_team]
    if not team.aware:
        return []
    inside = [f for f in aboard_members(state, team)
              if not f.combat_used and not f.failed_this_turn and f.carrying is None]
    if not inside:
        return []
    seen = sorted(figures_seen(state.board, state.figures, state.vehicles, side))
    out = []
    for f in inside:
        # ruling F-171: hand grenades and launcher grenades at a model go out too
        for wid, grenade in _launchers(f):
            if grenade is not None and tables().grenade(grenade).cloud:
                continue
            for target in seen:
                if state.figures[target].side == side:
                    continue
                act = Action.make(side, "passenger-fire", figure=f.id, weapon=wid,
                                  target=target, grenade=grenade)
                with _at_window(state, f, target):
                    if shot_problem(state.board, state.figures, _passenger_shot(act)):
                        continue
                    mod = fire_modifier(shot_situation(state.board, state.figures, state.teams,
                                                       _passenger_shot(act),
                                                       night=state.night))
                t = state.figures[target]
                out.append(dataclasses.replace(act, hint={
                    "role": "attack", "p": _p(f.gutz, mod), "to": [t.level, *t.cell],
                    "helpless": t.status is Status.INCAPACITATED, "hostage": False,
                    "nonlethal": tables().weapons[wid].nonlethal or bool(
                        grenade and tables().grenade(grenade).nonlethal),
                    "grenade": grenade is not None, "area": _area(wid, grenade)}))
    return out


def _cloud(grenade: str) -> bool:
    from killhouse.rulesets.firewall.tables import tables
    try:
        return tables().grenade(grenade).cloud
    except KeyError:
        return False  # the shot's own check names the unknown type


def check_passenger_fire(state: FirewallState, action: Action) -> None:
    from killhouse.rulesets.firewall.shooting import shot_problem
    fid = str(action.get("figure"))
    f = state.figures.get(fid)
    team = state.teams.get(state.active_team or "")
    if (f is None or team is None or team.side != action.side
            or f not in aboard_members(state, team)):
        raise IllegalActionError(f"{fid} is not a passenger of the active team")
    if not team.aware:
        raise IllegalActionError("a team not yet aware of the enemy takes no Combat actions (F-16)")
    if f.carrying is not None:
        raise IllegalActionError("a carrier cannot shoot or fight in close combat (F-54)")
    target = str(action.get("target"))
    if target not in figures_seen(state.board, state.figures, state.vehicles, action.side):
        raise IllegalActionError(f"{target} is not a figure the side sees")
    grenade = action.get("grenade")
    if grenade is not None and _cloud(str(grenade)):
        raise IllegalActionError("smoke and gas grenades are not thrown out of a vehicle "
                                 "(F-171)")
    with _at_window(state, f, target):
        _refuse(shot_problem(state.board, state.figures, _passenger_shot(action)))


def passenger_fire(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """§17.3: a passenger's own hand weapon out of the vehicle, own Gutz, −3; a grenade is
    used up and its radii catch vehicles as any burst (F-151, F-171). The sides that saw it
    fire may name it from now on (F-103)."""
    from killhouse.rulesets.firewall.fireorders import _splash  # F-151 as for any shot
    from killhouse.rulesets.firewall.shooting import resolve_shot
    f = state.figures[str(action.get("figure"))]
    target = str(action.get("target"))
    shot = _passenger_shot(action)
    with _at_window(state, f, target):
        report = resolve_shot(state.board, state.figures, state.teams, shot, chance,
                              log, night=state.night, sides=state.sides)
        _splash(state, shot, report.result, log)
        for s in state.sides:
            if s != f.side and f.id in figures_seen(state.board, state.figures,
                                                    state.vehicles, s):
                state.last_seen.setdefault(s, {})[f.id] = (f.level, *f.cell, state.turn)
    state.combat_happened = True
    state.last = (f.id, "shoot", "")


# -- close combat against a vehicle ------------------------------------------------------------

def _assault(action: Action) -> Assault:
    using = action.get("using")
    return Assault(str(action.get("figure")), str(action.get("vehicle")),
                   None if using is None else str(using))


def assault_options(state: FirewallState, side: str) -> Iterable[Action]:
    from killhouse.rulesets.firewall.melee import melee_modifier
    from killhouse.rulesets.firewall.state import _aware, team_figures
    from killhouse.rulesets.firewall.vehicles.assault import BOMBS, assault_situation
    if not state.vehicles:
        return []
    out = []
    for f in team_figures(state, side):
        if f.combat_used or not _aware(state, f) or f.carrying is not None:
            continue
        kit = [None, *(w for w in f.weapons if w in BOMBS),
               *(g for g, n in sorted(f.grenades.items()) if n > 0)]
        for vid in sorted(state.vehicles):
            for using in kit:
                act = Action.make(side, "assault-vehicle", figure=f.id, vehicle=vid,
                                  using=using)
                if assault_problem(state, _assault(act)) is None:
                    v = state.vehicles[vid]
                    mod = melee_modifier(assault_situation(state, f, v, using))
                    out.append(dataclasses.replace(act, hint={
                        "role": "attack", "p": _p(f.gutz, mod), "vehicle": True,
                        "to": [v.level, *nearest_square(v, f.cell)]}))
    return out


def check_assault(state: FirewallState, action: Action) -> None:
    from killhouse.rulesets.firewall.state import combat_figure
    combat_figure(state, action)
    _refuse(assault_problem(state, _assault(action)))


def assault(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    resolve_assault(state, _assault(action), chance, log)
    state.last = (str(action.get("figure")), "close-combat", "")
