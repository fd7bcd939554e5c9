"""Move orders: moving (a Rally when suppressed), carrying a helpless figure, leaving the
table, and dropping a carried figure."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.doors import open_on_route  # fwdoors hook (F-230)
from killhouse.rulesets.firewall.drugs import no_movement
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.moving import (
    FACINGS,
    MoveOrder,
    move_problem,
    noncombat_problem,
    resolve_move,
    resolve_noncombat_move,
)
from killhouse.rulesets.firewall.objectives import NEAR_CM, on_edge
from killhouse.rulesets.firewall.state import (
    FirewallState,
    _aware,
    _occupied,
    _who_sees,
    mine,
    side_sees,
    team_figures,
)
from killhouse.rulesets.firewall.teams import Figure, Status
from killhouse.rulesets.firewall.trapplay import spring_on_route  # fwdoors hook (F-238)


def _order(action: Action) -> MoveOrder:
    path = tuple((int(c[1]), int(c[2])) for c in action.get("path") or ())
    facing = action.get("facing")
    face = FACINGS[int(facing)] if facing is not None else None
    return MoveOrder(str(action.get("figure")), str(action.get("speed")), path, face)


def _with_load(state: FirewallState, f: Figure, load: str | None) -> dict[str, Figure]:
    """The figures as they stand once ``f`` has picked up ``load`` (for the route checks)."""
    if load is None:
        return state.figures
    figures = dict(state.figures)
    figures[f.id] = dataclasses.replace(f, carrying=load)
    figures[load] = dataclasses.replace(state.figures[load], cell=f.cell, carried_by=f.id)
    return figures


def _load_problem(state: FirewallState, f: Figure, load: str | None) -> str | None:
    """Why ``f`` may not pick up ``load`` with this move (ruling F-54), or ``None``."""
    if load is None:
        return None
    if f.carrying is not None:
        return f"{f.id} already carries {f.carrying}"
    other = state.figures.get(load)
    if other is None or other.status is not Status.INCAPACITATED or other.carried_by:
        return "only a helpless figure nobody carries can be picked up (F-54)"
    if other.side != f.side and other.id not in side_sees(state, f.side, table=False):
        return "no such figure"
    if other.level != f.level or not within(f.cell, other.cell, NEAR_CM):
        return f"{load} is not within 2 cm of {f.id}"
    return None


def _still(state: FirewallState, f: Figure) -> bool:
    """§18.3: Lonnie may not move until he sees an enemy or a Combat action has occurred."""
    return f.id in state.objective.still and not _aware(state, f) and not state.combat_happened


def move_options(state: FirewallState, side: str) -> Iterable[Action]:
    """A useful subset: a run, walk or crawl in each of the eight directions; exits from
    edge squares; picking up a helpless figure alongside."""
    out = []
    for f in team_figures(state, side):
        if f.move_used or _still(state, f) or no_movement(f.drug_effects):
            continue
        aware = _aware(state, f)
        problem = move_problem if aware else noncombat_problem
        loads: list[str | None] = [None]
        if f.carrying is None:
            loads += [g.id for g in state.figures.values()
                      if g.status is Status.INCAPACITATED and _load_problem(state, f, g.id) is None]
        speeds = (("run", 10), ("walk", 7), ("walk", 3), ("walk", 1), ("crawl", 2)) if aware \
            else (("walk", 7), ("walk", 3), ("walk", 1))
        for load in loads:
            figures = _with_load(state, f, load)
            for i, (dx, dy) in enumerate(FACINGS):
                for speed, n in speeds:
                    if f.suppressed and speed != "crawl":
                        continue
                    to = (f.cell[0] + dx * n, f.cell[1] + dy * n)
                    act = Action.make(side, "move", figure=f.id, speed=speed,
                                      path=[[f.level, *to]], facing=i, carry=load,
                                      hint={"role": "move", "to": [f.level, *to]})
                    if problem(state.board, figures, _order(act)) is None:
                        out.append(act)
                        if on_edge(state.board, f.level, to) and _exit_problem(
                                state, f, load, to) is None:
                            out.append(Action.make(
                                side, "move", figure=f.id, speed=speed, path=[[f.level, *to]],
                                facing=i, carry=load, exit=True,
                                hint={"role": "exit", "to": [f.level, *to]}))
            if on_edge(state.board, f.level, f.cell) and _exit_problem(state, f, load) is None:
                out.append(Action.make(side, "move", figure=f.id,
                                       speed="crawl" if aware else "walk", path=[],
                                       carry=load, exit=True, hint={"role": "exit"}))
    return out


def _exit_problem(state: FirewallState, f: Figure, load: str | None,
                  to: tuple[int, int] | None = None) -> str | None:
    """Triple-Cross (ruling F-82): the spike leaves the table only over its side's entry edge,
    judged at the square the exit leaves from (``to``, the move's end; else where the figure
    stands). A Walk in the Park (ruling F-87): Kewell leaves only carried by the snatch squad."""
    objective = state.objective
    if objective.kind == "snatch" and (
        f.id == objective.target or (load == objective.target and f.side != objective.taker)
    ):
        return (f"{objective.target} leaves the table only carried off by the "
                f"{objective.taker} (F-87)")
    if state.spike_holder == f.id and f.side in state.entry:
        edge = on_edge(state.board, f.level, to if to is not None else f.cell)
        if edge is not None and edge != state.entry[f.side]:
            return "the data-spike leaves only over the side's own entry edge (F-82)"
    return None


def check_move(state: FirewallState, action: Action) -> None:
    f = mine(state, action)
    if any(c[0] != f.level for c in action.get("path") or ()):
        raise IllegalActionError("a move stays on its level")
    if _still(state, f):
        raise IllegalActionError(f"{f.id} may not move until he sees an enemy or a Combat "
                                 "action has occurred (§18.3)")
    if no_movement(f.drug_effects) and action.get("path"):
        raise IllegalActionError(f"{f.id} may not change position ('lectron, §15)")
    load = action.get("carry")
    problem = _load_problem(state, f, None if load is None else str(load))
    if problem is None:
        check = move_problem if _aware(state, f) else noncombat_problem
        problem = check(state.board, _with_load(state, f, None if load is None else str(load)),
                        _order(action))
    if problem is None and action.get("exit"):
        path = action.get("path") or ()
        end = (int(path[-1][1]), int(path[-1][2])) if path else None
        problem = _exit_problem(state, f, None if load is None else str(load), end)
    if problem is not None:
        raise IllegalActionError(problem)


def move(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    order = _order(action)
    f = state.figures[order.figure]
    load = action.get("carry")
    origin = state.figures[str(load)].cell if load is not None else None
    if load is not None:
        carried = state.figures[str(load)]
        f.carrying, carried.carried_by, carried.cell = carried.id, f.id, f.cell
        log.emit("pick-up", {"figure": f.id, "carried": carried.id}, _who_sees(state, f))
    # §21.4: a figure that leaves the table is watched only by those who saw it before
    before = _who_sees(state, f) if action.get("exit") else None
    start = f.cell
    if _aware(state, f):
        report = resolve_move(state.board, state.figures, state.teams, order, chance, log,
                              watchers_only=before, watch=lambda g: _who_sees(state, g))
        moved = report.result != "CF"
        if load is not None and not moved and origin is not None:
            # ruling F-80: on a CF the pick-up fails and the figure stays where it lay
            carried = state.figures[str(load)]
            f.carrying = carried.carried_by = None
            carried.cell = origin
    else:
        resolve_noncombat_move(state.board, state.figures, order, log)
        moved = True
    if f.carrying is not None:
        state.figures[f.carrying].cell = f.cell
    open_on_route(state, f, start, order.waypoints, log)  # fwdoors hook (F-230)
    spring_on_route(state, f, start, order.waypoints, chance, log)  # fwdoors hook (F-238)
    state.last = (f.id, "move", order.speed)
    # ruling F-82: a spike holder who ends short on another edge stays on the table
    if action.get("exit") and moved and f.active and on_edge(state.board, f.level, f.cell) \
            and _exit_problem(state, f, None) is None:
        _exit(state, f, log, before)


def _exit(state: FirewallState, f: Figure, log: EventLog,
          before: frozenset[str] | None = None) -> None:
    """Rulings F-55, F-58: a figure ending a Movement action on an edge square leaves the
    table, with whatever it carries; the sides that see it go see it leave (§21.4)."""
    audience = _who_sees(state, f) & (before if before is not None else frozenset(state.sides))
    f.status = Status.EXITED
    edge = on_edge(state.board, f.level, f.cell)
    if f.carrying is not None:
        state.figures[f.carrying].status = Status.EXITED
    if state.spike_holder == f.id and state.entry.get(f.side) == edge:
        state.spike_out = f.side
    log.emit("exit", {"figure": f.id, "edge": edge,
                      "carrying": f.carrying, "spike": state.spike_holder == f.id}, audience)


def drop_options(state: FirewallState, side: str) -> Iterable[Action]:
    out = []
    for f in team_figures(state, side):
        if f.carrying is None:
            continue
        taken = _occupied(state, f.level) - {f.cell}
        for dx, dy in FACINGS:
            cell = (f.cell[0] + dx, f.cell[1] + dy)
            where = Cell(f.level, *cell)
            if cell not in taken and state.board.in_bounds(where) and state.board.passable(where):
                out.append(Action.make(side, "drop", figure=f.id, to=[f.level, *cell],
                                       hint={"role": "other"}))
    return out


def drop(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling F-54: dropping is free during the carrier's activation; the load goes to a free
    square beside the carrier (ruling F-81)."""
    f = state.figures[str(action.get("figure"))]
    load = state.figures[str(f.carrying)]
    to = action.get("to")
    load.cell = (int(to[1]), int(to[2]))
    load.carried_by = None
    f.carrying = None
    log.emit("dropped", {"figure": load.id, "to": [load.level, *load.cell]}, _who_sees(state, f))
