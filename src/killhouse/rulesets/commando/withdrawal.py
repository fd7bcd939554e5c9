"""A Preserving man's forced first move (digest 7.2, rulings C-125, C-186).

"His activation must begin by moving out of the LOS of every observed enemy, if his TP allow.
Otherwise he falls prone." The rule forces the move; the side still picks the route: while he
is in the LOS of an observed enemy his side may only step, and only to a square from which a
square out of every such LOS can still be reached with the TP he has left, by steps that never
bring him nearer an observed enemy (7.2). When no such route exists he drops prone at no cost
and goes on with his activation under Preserving's other limits. The squares are worked out
from what his side knows: the enemies it observes and where they stand.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from types import ModuleType

from killhouse.core.cells import Cell, cell_json
from killhouse.core.events import EventLog
from killhouse.core.terrain import Terrain
from killhouse.rulesets.commando import ground
from killhouse.rulesets.commando.men import ManState, Posture
from killhouse.rulesets.commando.state import CommandoState

KEY = "withdraw"


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def foes(state: CommandoState, man: ManState) -> list[Cell]:
    """Where the enemies his side observes and who are in action stand."""
    return [state.pos[t] for t in sorted(state.observed[man.side]) if state.men[t].active()]


def exposed(state: CommandoState, at: Cell, enemies: list[Cell]) -> bool:
    f = _flow()
    return any(f.has_los(state, at, e) for e in enemies)


def _steps(state: CommandoState, man: ManState, at: Cell,
           enemies: list[Cell]) -> Iterator[tuple[Cell, int]]:
    """The steps he may take from ``at`` (C-6 costs, windows climbed through as C-121, no
    square with an enemy, none nearer an observed enemy: 7.2) with their TP."""
    f = _flow()
    prone = man.posture is Posture.PRONE
    flamer = "flamethrower" in man.carried
    for dx, dy in f.COMPASS.values():
        to = Cell(at.level, at.x + dx, at.y + dy)
        cost = ground.step_tp(state.board, at, to, prone=prone, carrying_flamethrower=flamer)
        if cost is None:
            continue
        if state.board.terrain(to) is Terrain.WINDOW:
            beyond = Cell(at.level, to.x + dx, to.y + dy)
            if not ground.enterable(state.board, beyond) or \
                    state.board.terrain(beyond) is Terrain.WINDOW:
                continue
            more = ground.step_tp(state.board, to, beyond, prone=prone,
                                  carrying_flamethrower=flamer)
            if more is None:
                continue
            to, cost = beyond, cost + more
        if not f.standable(state, to, man.id):
            continue
        if any(f.rng_between(to, e) < f.rng_between(at, e) for e in enemies):
            continue
        yield to, cost


def _reaches_cover(state: CommandoState, man: ManState, start: Cell, budget: int,
                   enemies: list[Cell], hidden: dict[Cell, bool]) -> bool:
    """Whether a square out of every enemy's LOS is reachable from ``start`` within
    ``budget`` TP (Dijkstra over his legal steps)."""
    best = {start: 0}
    queue = [(0, start.level, start.x, start.y)]
    while queue:
        spent, level, x, y = heapq.heappop(queue)
        at = Cell(level, x, y)
        if spent > best.get(at, budget + 1):
            continue
        if at not in hidden:
            hidden[at] = not exposed(state, at, enemies)
        if hidden[at]:
            return True
        for to, cost in _steps(state, man, at, enemies):
            total = spent + cost
            if total <= budget and total < best.get(to, budget + 1):
                best[to] = total
                heapq.heappush(queue, (total, to.level, to.x, to.y))
    return False


def next_squares(state: CommandoState, man: ManState) -> list[Cell]:
    """The squares his next step may land in on a route out of every observed enemy's LOS
    within his TP (Move Swiftly's movement TP included)."""
    enemies = foes(state, man)
    here = state.pos[man.id]
    budget = man.tp + man.move_tp
    hidden: dict[Cell, bool] = {}
    out = []
    for to, cost in _steps(state, man, here, enemies):
        if cost <= budget and _reaches_cover(state, man, to, budget - cost, enemies, hidden):
            out.append(to)
    return sorted(out)


def allowed(state: CommandoState) -> list[Cell] | None:
    """The squares the active man's next step must land in, or None when no move is forced."""
    held = state.forced.get(KEY)
    if not isinstance(held, dict) or held.get("figure") != state.active_man:
        return None
    return [Cell(*x) for x in held.get("next", [])]


def review(state: CommandoState, man: ManState, log: EventLog) -> None:
    """After each task of a forced move: is it still forced, and where may it go on?"""
    if allowed(state) is not None:
        _settle(state, man, log)


def _settle(state: CommandoState, man: ManState, log: EventLog) -> None:
    """Is a move forced, and where may its next step go? With no route left he drops prone at
    no cost (C-186)."""
    f = _flow()
    state.forced.pop(KEY, None)
    if not man.preserving or not man.active() or state.active_man != man.id or man.aloft:
        return  # up a tree (C-188) he can neither step nor drop prone
    enemies = foes(state, man)
    if not enemies or not exposed(state, state.pos[man.id], enemies):
        return
    squares = next_squares(state, man) if man.tp + man.move_tp > 0 else []
    if squares:
        state.forced[KEY] = {"figure": man.id, "next": [cell_json(c) for c in squares]}
        return
    if man.posture is Posture.STANDING:
        man.posture = Posture.PRONE
        log.emit("posture", {"figure": man.id, "to": "prone", "forced": "preserving"},
                 f.audience_of(state, man.id))


def begin(state: CommandoState, man: ManState, log: EventLog) -> None:
    """His activation begins: a Preserving man in an observed enemy's LOS must move out."""
    if man.preserving:
        _settle(state, man, log)


def must_leave_ready(state: CommandoState, side: str, named: set[str]) -> list[str]:
    """Ruling C-186: a Preserving man engaged in hand-to-hand must try to disengage; the side
    names him with ``leave`` (its order among withdrawers stays its choice, C-127) before it
    can be ready. A man without the 20 TP cannot try."""
    from killhouse.rulesets.commando.tables import tables

    return [m.id for m in state.up(side)
            if m.engaged and m.preserving and m.id not in named
            and m.tp >= tables().cost["disengage"]]
