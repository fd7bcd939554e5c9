"""The players' entry edges chosen in set-up (§18.2, §18.3; rulings F-55, F-56, F-210 … F-213).

A scenario with ``options: {edges: choose}`` (Triple-Cross) has each player side roll 1d6;
in descending order (tied sides re-roll among themselves) each chooses an edge that is not
closed (``closed_edges``: the river) and not taken. With ``edges: opposite`` (Ash End) the
higher chooses any edge and the other side takes the opposite one; the file's ``entry``
edges are the edges it was drawn for, and a side's vehicles arrive turned with its edge.
The rolls and the choices are public (ruling F-211); a side's teams then come on over its
edge by a move (F-198).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Status
from killhouse.rulesets.firewall.vehicles.model import Vehicle
from killhouse.scenario.model import Issue, Scenario

EDGES = ("n", "e", "s", "w")
OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e"}
#: how the sides come by their edges: each chooses in turn (§18.3), or the higher roller
#: chooses and the other takes the opposite edge (§18.2)
RULES = ("choose", "opposite")


@dataclass(frozen=True)
class EdgePlan:
    """How a scenario's entry edges are chosen in set-up, and the edges its file was drawn
    for (the reference for turning a side's vehicles, ruling F-212)."""

    rule: str
    closed: tuple[str, ...] = ()
    drawn: Mapping[str, str] | None = None


def read_edges(scenario: Scenario, entry: dict[str, str], players: Sequence[str],
               issues: list[Issue]) -> EdgePlan | None:
    """The ``edges`` and ``closed_edges`` options: ``None`` when the file fixes the edges."""
    rule = scenario.options.get("edges")
    closed_raw = scenario.options.get("closed_edges", [])
    if not isinstance(closed_raw, list) or any(e not in EDGES for e in closed_raw):
        issues.append(Issue("options.closed_edges", "expected a list of edges",
                            "e.g. [s] for a river edge nobody enters by"))
        closed_raw = []
    closed = tuple(str(e) for e in closed_raw)
    if rule is None:
        return None
    if rule not in RULES:
        issues.append(Issue("options.edges", f"unknown edge rule {rule!r}",
                            "choose (each side in turn, §18.3) or opposite (§18.2)"))
        return None
    if rule == "choose":
        named = [s for s in players if s in entry]
        if named:
            issues.append(Issue("sides", f"{', '.join(named)} name an entry edge, but the "
                                "edges are chosen in play (options.edges: choose)",
                                "remove entry: from the sides"))
        if len(EDGES) - len(closed) < len(players):
            issues.append(Issue("options.closed_edges", "too few open edges for one a side"))
        return EdgePlan("choose", closed)
    if len(players) != 2 or set(players) - set(entry) \
            or OPPOSITE[entry[players[0]]] != entry[players[1]]:
        issues.append(Issue("options.edges", "edges: opposite needs two player sides whose "
                            "entry edges are opposite (the edges the file is drawn for)",
                            "entry: s and entry: n"))
        return None
    if closed:
        issues.append(Issue("options.closed_edges", "edges: opposite closes no edge"))
    return EdgePlan("opposite", (), dict(entry))


def edge_sides(state: FirewallState) -> list[str]:
    """The player sides without an edge yet."""
    return [s for s in state.players if s not in state.entry]


def edges_due(state: FirewallState) -> bool:
    """Whether the edge dice are still to be rolled."""
    return state.edge_plan is not None and state.edge_order is None and bool(edge_sides(state))


def _ordered(chance: Chance, sides: Sequence[str],
             rolls: list[dict[str, int]]) -> list[str]:
    """Sides by 1d6, highest first; tied sides re-roll among themselves (ruling F-210).
    Each round of dice is added to ``rolls``."""
    if len(sides) <= 1:
        return list(sides)
    dice = {s: chance.roll(6, f"entry edge {s}") for s in sides}
    rolls.append(dice)
    out: list[str] = []
    for value in sorted(set(dice.values()), reverse=True):
        tied = [s for s in sides if dice[s] == value]
        out.extend(_ordered(chance, tied, rolls) if len(tied) > 1 else tied)
    return out


def roll_edges(state: FirewallState, chance: Chance, log: EventLog) -> None:
    """Every side rolls 1d6 (public dice); the order of choosing follows (ruling F-210)."""
    rolls: list[dict[str, int]] = []
    order = _ordered(chance, edge_sides(state), rolls)
    log.emit("edge-order", {"order": list(order), "rolls": rolls})
    state.edge_order = order
    _assign_forced(state, log)


def free_edges(state: FirewallState) -> list[str]:
    """Edges the next side may still choose: open, and nobody's yet (§18.3, F-56)."""
    plan = state.edge_plan
    closed = plan.closed if plan is not None else ()
    return [e for e in EDGES if e not in closed and e not in state.entry.values()]


def edge_deciders(state: FirewallState) -> list[str]:
    return state.edge_order[:1] if state.edge_order else []


def edge_prompt(state: FirewallState) -> str:
    """The question, with what is public: the edges taken and the edges open (F-211)."""
    taken = ", ".join(f"{s} {e}" for s, e in sorted(state.entry.items())) or "none"
    how = " (the other side takes the opposite edge)" \
        if state.edge_plan is not None and state.edge_plan.rule == "opposite" else ""
    return (f"choose your table edge{how}: open {', '.join(free_edges(state))}; "
            f"taken: {taken} (§18)")


def edge_options(state: FirewallState, side: str) -> Iterable[Action]:
    if side not in edge_deciders(state):
        return []
    return [Action.make(side, "edge", edge=e, hint={"role": "setup", "edge": e})
            for e in free_edges(state)]


def why_not_edge(state: FirewallState, action: Action) -> str:
    edge = action.get("edge")
    plan = state.edge_plan
    if plan is not None and edge in plan.closed:
        return f"the {edge} edge is closed: nobody enters by it (the river, F-56)"
    taken = [s for s, e in state.entry.items() if e == edge]
    if taken:
        return f"the {edge} edge is {taken[0]}'s: two sides may not share an edge (F-56)"
    return f"choose one of {', '.join(free_edges(state))}"


def choose_edge(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """The side takes its edge (public, ruling F-211); with ``opposite`` the other side
    takes the opposite edge; a last side with one edge left takes it."""
    assert state.edge_order is not None and state.edge_plan is not None
    edge = str(action.get("edge"))
    _take(state, action.side, edge, "chose", log)
    if state.edge_plan.rule == "opposite":
        for other in list(state.edge_order):
            _take(state, other, OPPOSITE[edge], "opposite", log)
    _assign_forced(state, log)


def _assign_forced(state: FirewallState, log: EventLog) -> None:
    """Ruling F-210: a last side left with a single edge gets it without a decision."""
    order = state.edge_order or []
    if len(order) == 1 and len(free_edges(state)) == 1 \
            and state.edge_plan is not None and state.edge_plan.rule == "choose":
        _take(state, order[0], free_edges(state)[0], "last", log)


def _take(state: FirewallState, side: str, edge: str, how: str, log: EventLog) -> None:
    state.entry[side] = edge
    if state.edge_order is not None and side in state.edge_order:
        state.edge_order.remove(side)
    log.emit("edge-chosen", {"side": side, "edge": edge, "how": how})
    _turn_side(state, side, edge)


def edges_done(state: FirewallState) -> bool:
    return state.edge_plan is None or not edge_sides(state)


# -- vehicles arrive turned with their side's edge (ruling F-212) ---------------------------

def _quarter_turns(drawn: str, chosen: str) -> int:
    return (EDGES.index(chosen) - EDGES.index(drawn)) % 4


def turn_square(x: int, y: int, width: int, height: int, turns: int) -> tuple[int, int]:
    """A square turned clockwise about the table's centre by ``turns`` quarter turns (kept
    on the table when it is not square)."""
    for _ in range(turns % 4):
        x, y = width - 1 - y, x
    return min(max(x, 0), width - 1), min(max(y, 0), height - 1)


def _turn_side(state: FirewallState, side: str, edge: str) -> None:
    """Ruling F-212: what stands on the side's drawn edge (figures) or arrives over it
    (vehicles) turns with the edge chosen."""
    plan = state.edge_plan
    drawn = (plan.drawn or {}).get(side) if plan is not None else None
    if drawn is None or drawn == edge:
        return
    turns = _quarter_turns(drawn, edge)
    _turn_figures(state, side, drawn, edge, turns)
    for v in state.vehicles.values():
        if v.side != side or v.on_table:
            continue
        level = state.board.levels[v.level]
        turned = [turn_square(x, y, level.width, level.height, turns) for x, y in v.squares()]
        # the anchor is the footprint's top-left square (F-140); the turned footprint is
        # the same rectangle on its side, so its top-left square anchors the turned facing
        anchor = (min(x for x, _ in turned), min(y for _, y in turned))
        v.facing = EDGES[(EDGES.index(v.facing) + turns) % 4]
        v.anchor = _on_edge(state, v, anchor, edge)


def _turn_figures(state: FirewallState, side: str, drawn: str, edge: str, turns: int) -> None:
    """Figures of ``side`` standing on its drawn edge go to the turned square (the nearest
    free passable square of the chosen edge when that one is not), facing turned too."""
    moving = [f for f in state.figures.values() if f.side == side
              and f.status is Status.ACTIVE and f.aboard is None
              and _edge_at(*f.cell, *_size(state, f.level)) == drawn]
    taken = {(g.level, *g.cell) for g in state.figures.values() if g not in moving
             and g.status in (Status.ACTIVE, Status.INCAPACITATED, Status.KILLED)}
    for f in moving:
        width, height = _size(state, f.level)
        want = turn_square(*f.cell, width, height, turns)
        line = [sq for sq in _edge_line(width, height, edge)
                if (f.level, *sq) not in taken
                and state.board.passable(Cell(f.level, *sq))]
        line.sort(key=lambda sq: (abs(sq[0] - want[0]) + abs(sq[1] - want[1]), sq[1], sq[0]))
        if line:
            f.cell = line[0]
        taken.add((f.level, *f.cell))
        dx, dy = f.facing
        for _ in range(turns):
            dx, dy = -dy, dx
        f.facing = (dx, dy)


def _size(state: FirewallState, level: int) -> tuple[int, int]:
    lv = state.board.levels[level]
    return lv.width, lv.height


def _edge_line(width: int, height: int, edge: str) -> list[tuple[int, int]]:
    return {"n": [(x, 0) for x in range(width)], "s": [(x, height - 1) for x in range(width)],
            "w": [(0, y) for y in range(height)], "e": [(width - 1, y) for y in range(height)]
            }[edge]


def _on_edge(state: FirewallState, v: Vehicle, anchor: tuple[int, int],
             edge: str) -> tuple[int, int]:
    """Ruling F-212: the nearest place along the edge where the turned footprint touches the
    edge and fits (F-144); else the turned place (arrival then takes the nearest fit,
    F-145)."""
    from killhouse.rulesets.firewall.vehicles.crew import forbidden, vehicle_fits
    level = state.board.levels[v.level]
    blocked = forbidden(state, v, frozenset(v.passengers))
    along = []
    for i in range(max(level.width, level.height)):
        for a in ((i, anchor[1]), (anchor[0], i)):
            feet = v.squares(a, v.facing)
            if any(_edge_at(x, y, level.width, level.height) == edge for x, y in feet):
                along.append(a)
    along.sort(key=lambda a: (abs(a[0] - anchor[0]) + abs(a[1] - anchor[1]), a[1], a[0]))
    for a in along:
        if vehicle_fits(state, v, a, v.facing, blocked=blocked) is None:
            return a
    return anchor


def _edge_at(x: int, y: int, width: int, height: int) -> str | None:
    if y == 0:
        return "n"
    if y == height - 1:
        return "s"
    if x == 0:
        return "w"
    return "e" if x == width - 1 else None


def edges_view(state: FirewallState) -> dict[str, Any]:
    """What every side knows of the choice (public): who is still to choose, in order, and
    which edges are open to the next."""
    if state.edge_plan is None:
        return {}
    return {"edge_choice": {"rule": state.edge_plan.rule,
                            "closed": list(state.edge_plan.closed),
                            "order": list(state.edge_order or []),
                            "free": free_edges(state)}}
