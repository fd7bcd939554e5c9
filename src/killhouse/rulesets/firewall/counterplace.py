"""The game master places the numbered counters in set-up (§18.3 "place 6 numbered counters
(1-6) anywhere"; rulings F-213, F-214).

With a game master's side the counters start off the table and the GM places them one by
one, in number order, with ``place-counter(counter, at)``, before choosing the spike; each
square is public as soon as the counter is down (F-83: counters are seen by everyone). The
scenario file's squares are used as they stand only in a game without a GM side.
"""

from __future__ import annotations

from collections.abc import Iterable

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.objectives import Counter
from killhouse.rulesets.firewall.state import FirewallState, _gm, _occupied

#: ruling F-213: a counter lies at least this many squares (15 cm) in from every open edge
EDGE_GAP = 6
#: ruling F-213: no counter within 10 cm of another (edge to edge, F-1)
SPACING_CM = 10
#: the options list every STRIDE-th square each way (any legal square is accepted)
STRIDE = 3


def place_deciders(state: FirewallState) -> list[str]:
    """The first GM side while counters are still to be placed."""
    gm = sorted(_gm(state))
    return gm[:1] if state.unplaced else []


def next_counter(state: FirewallState) -> Counter | None:
    """The lowest-numbered counter not yet placed (the GM places them in number order)."""
    return state.counters[state.unplaced[0]] if state.unplaced else None


def placed(state: FirewallState) -> list[Counter]:
    return [c for c in state.counters.values() if c.id not in state.unplaced]


def _open_edges(state: FirewallState) -> tuple[str, ...]:
    closed = state.edge_plan.closed if state.edge_plan is not None else ()
    return tuple(e for e in ("n", "e", "s", "w") if e not in closed)


def square_problem(state: FirewallState, level: int, cell: tuple[int, int]) -> str | None:
    """Why a counter may not go on ``cell`` (ruling F-213), or ``None``."""
    where = Cell(level, *cell)
    if not 0 <= level < len(state.board.levels) or not state.board.in_bounds(where):
        return f"square {list(cell)} is off the table"
    if not state.board.passable(where):
        return f"square {list(cell)} is not passable: a counter lies where figures can reach it"
    lv = state.board.levels[level]
    gaps = {"n": cell[1], "s": lv.height - 1 - cell[1], "w": cell[0], "e": lv.width - 1 - cell[0]}
    near = [e for e in _open_edges(state) if gaps[e] < EDGE_GAP]
    if near:
        return (f"square {list(cell)} is {gaps[near[0]]} squares from the {near[0]} edge: a "
                f"counter lies at least {EDGE_GAP} squares (15 cm) in from an open edge (F-213)")
    if cell in _occupied(state, level):
        return f"square {list(cell)} is held by a figure"
    for c in placed(state):
        if c.level == level and within(c.cell, cell, SPACING_CM):
            return (f"square {list(cell)} is within {SPACING_CM} cm of counter {c.number}: "
                    "counters lie further apart (F-213)")
    return None


def _square(action: Action) -> tuple[int, tuple[int, int]]:
    at = action.get("at")
    return int(at[0]), (int(at[1]), int(at[2]))


def check_place(state: FirewallState, action: Action) -> None:
    if action.side not in place_deciders(state):
        raise IllegalActionError("only the game master places the counters, before Turn 1")
    nxt = next_counter(state)
    if nxt is None or action.get("counter") != nxt.id:
        raise IllegalActionError(f"the counters are placed in number order: next is "
                                 f"{nxt.id if nxt else 'none'}")
    level, cell = _square(action)
    problem = square_problem(state, level, cell)
    if problem is not None:
        raise IllegalActionError(problem)


def place_options(state: FirewallState, side: str) -> Iterable[Action]:
    """The scenario file's square first (its suggestion), then every third square each way
    that is legal for the next counter."""
    nxt = next_counter(state)
    if nxt is None or side not in place_deciders(state):
        return []
    out = []
    if square_problem(state, nxt.level, nxt.cell) is None:
        out.append(Action.make(side, "place-counter", counter=nxt.id, at=[nxt.level, *nxt.cell],
                               hint={"role": "setup", "to": [nxt.level, *nxt.cell],
                                     "scenario": True}))
    for level, lv in enumerate(state.board.levels):
        for y in range(1, lv.height, STRIDE):
            for x in range(1, lv.width, STRIDE):
                if (level, (x, y)) != (nxt.level, nxt.cell) \
                        and square_problem(state, level, (x, y)) is None:
                    out.append(Action.make(side, "place-counter", counter=nxt.id,
                                           at=[level, x, y],
                                           hint={"role": "setup", "to": [level, x, y]}))
    return out


def place(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling F-214: the counter goes down on its square, seen by every side (F-83)."""
    c = state.counters[str(action.get("counter"))]
    c.level, c.cell = _square(action)
    state.unplaced.remove(c.id)
    log.emit("counter-placed", {"counter": c.id, "number": c.number,
                                "at": [c.level, *c.cell]})


def place_prompt(state: FirewallState) -> str:
    nxt = next_counter(state)
    left = ", ".join(str(state.counters[i].number) for i in state.unplaced)
    return (f"game master: place counter {nxt.number if nxt else '?'} (left: {left}) on a free "
            f"passable square at least {EDGE_GAP} squares in from an open edge and more than "
            f"{SPACING_CM} cm from another counter (§18.3)")
