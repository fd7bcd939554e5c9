"""Arrival from off the table by a move (rulings F-55, F-58; F-198 … F-200).

A team whose arrival is due (a Turn in the scenario, or the alarm's response team) does not
appear on fixed squares: each of its figures enters with a Movement action whose route starts
on a free square of its side's entry edge, the player's choice, and goes on like any move
(the clutter of the route counts). A side without a fixed edge (the response team of "A Walk
in the Park": "one table edge chosen by the Anfield player") chooses it with its first
figure; the rest of that team follow over the same edge.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.doors import open_on_route  # fwdoors hook (F-230)
from killhouse.rulesets.firewall.moving import (
    FACINGS,
    MoveOrder,
    move_problem,
    noncombat_problem,
    resolve_move,
    resolve_noncombat_move,
)
from killhouse.rulesets.firewall.state import FirewallState, _aware, _occupied, _who_sees
from killhouse.rulesets.firewall.teams import Figure, Status
from killhouse.rulesets.firewall.trapplay import spring_on_route  # fwdoors hook (F-238)

EDGES = ("n", "e", "s", "w")
#: inward step of each edge, and the facing index that looks inward (F-13)
INWARD = {"n": ((0, 1), 4), "e": ((-1, 0), 6), "s": ((0, -1), 0), "w": ((1, 0), 2)}
#: the options list every EVERY-th square of an edge (any free edge square is accepted)
EVERY = 3


def edges_for(state: FirewallState, f: Figure) -> tuple[str, ...]:
    """The edges ``f`` may enter by: its side's entry edge, else the edge its team chose,
    else any (ruling F-199)."""
    if f.id in state.any_edge:
        return EDGES  # ruling F-216: a snatcher kept off the table comes on over any edge
    if f.side in state.entry:
        return (state.entry[f.side],)
    if f.team in state.team_edge:
        return (state.team_edge[f.team],)
    return EDGES


def edge_squares(state: FirewallState, level: int, edge: str) -> list[tuple[int, int]]:
    lv = state.board.levels[level]
    w, h = lv.width, lv.height
    return {"n": [(x, 0) for x in range(w)], "s": [(x, h - 1) for x in range(w)],
            "w": [(0, y) for y in range(h)], "e": [(w - 1, y) for y in range(h)]}[edge]


def _edge_of(state: FirewallState, f: Figure, at: tuple[int, int]) -> str | None:
    for edge in edges_for(state, f):
        if at in edge_squares(state, f.level, edge):
            return edge
    return None


def entering_figures(state: FirewallState, side: str) -> list[Figure]:
    """The active team's figures still off the table that may enter now."""
    if state.active_team is None or state.teams[state.active_team].side != side:
        return []
    team = state.teams[state.active_team]
    return [state.figures[m] for m in team.members if m in state.entering
            and not state.figures[m].move_used and not state.figures[m].failed_this_turn]


def _placed(state: FirewallState, f: Figure, at: tuple[int, int]) -> dict[str, Figure]:
    figures = dict(state.figures)
    figures[f.id] = dataclasses.replace(f, cell=at, status=Status.ACTIVE)
    return figures


def _order(action: Action) -> MoveOrder:
    path = tuple((int(c[1]), int(c[2])) for c in action.get("path") or ())
    facing = action.get("facing")
    face = FACINGS[int(facing)] if facing is not None else None
    return MoveOrder(str(action.get("figure")), str(action.get("speed")), path, face)


def enter_problem(state: FirewallState, action: Action) -> str | None:
    fid = str(action.get("figure"))
    f = state.figures.get(fid)
    if f is None or f not in entering_figures(state, action.side):
        return f"{fid} is not a figure of the active team waiting to enter the table"
    at = action.get("at")
    cell = (int(at[1]), int(at[2]))
    if int(at[0]) != f.level or any(int(c[0]) != f.level for c in action.get("path") or ()):
        return "a figure enters on its own level"
    if _edge_of(state, f, cell) is None:
        edges = ", ".join(edges_for(state, f))
        return f"{f.id} enters from a square of its table edge ({edges}) (F-58, F-199)"
    where = Cell(f.level, *cell)
    if not state.board.in_bounds(where) or not state.board.passable(where):
        return f"square {list(cell)} is not passable"
    if cell in _occupied(state, f.level):
        return f"square {list(cell)} is held by another figure"
    check = move_problem if _aware(state, f) else noncombat_problem
    return check(state.board, _placed(state, f, cell), _order(action))


def check_enter(state: FirewallState, action: Action) -> None:
    problem = enter_problem(state, action)
    if problem is not None:
        raise IllegalActionError(problem)


def enter_options(state: FirewallState, side: str) -> Iterable[Action]:
    """A useful subset: every third free square of each allowed edge, stepping on and going
    straight in at each speed the figure may use."""
    out = []
    taken = None
    for f in entering_figures(state, side):
        taken = taken if taken is not None else _occupied(state, f.level)
        speeds = (("walk", 0), ("walk", 7), ("run", 10)) if _aware(state, f) \
            else (("walk", 0), ("walk", 7))
        for edge in edges_for(state, f):
            (dx, dy), facing = INWARD[edge]
            for i, cell in enumerate(edge_squares(state, f.level, edge)):
                if i % EVERY != 1 or cell in taken:
                    continue
                for speed, n in speeds:
                    to = (cell[0] + dx * n, cell[1] + dy * n)
                    act = Action.make(side, "enter", figure=f.id, at=[f.level, *cell],
                                      speed=speed, path=[[f.level, *to]] if n else [],
                                      facing=facing, hint={"role": "move",
                                                           "to": [f.level, *to]})
                    if enter_problem(state, act) is None:
                        out.append(act)
    return out


def enter(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling F-198: the figure steps onto its edge square and makes the declared move from
    there; on a CF it stays on that square. Its side hears where it came on."""
    f = state.figures[str(action.get("figure"))]
    at = action.get("at")
    f.cell = (int(at[1]), int(at[2]))
    f.status = Status.ACTIVE
    state.entering.discard(f.id)
    edge = _edge_of(state, f, f.cell)
    if f.side not in state.entry and edge is not None and f.id not in state.any_edge:
        state.team_edge.setdefault(f.team, edge)  # ruling F-199: the team's edge is chosen
    log.emit("enter", {"figure": f.id, "at": [f.level, *f.cell], "edge": edge},
             frozenset({f.side}))
    order = _order(action)
    start = f.cell
    if _aware(state, f):
        resolve_move(state.board, state.figures, state.teams, order, chance, log,
                     watch=lambda g: _who_sees(state, g))
    else:
        resolve_noncombat_move(state.board, state.figures, order, log)
    open_on_route(state, f, start, order.waypoints, log)  # fwdoors hook (F-230)
    spring_on_route(state, f, start, order.waypoints, chance, log)  # fwdoors hook (F-238)
    state.last = (f.id, "move", order.speed)
