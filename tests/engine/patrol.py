"""A toy ruleset on the flow kit that proves the reaction window.

A runner (the first side) walks a route of its own choosing towards the ``exit`` zone; each
watcher side (every other side) has one figure. At the first cell of a walk where a watcher
sees the runner, the watcher may shoot (4+ on a d6 downs the runner) or hold its fire. When
several watchers see the runner at once they draw a card each: the highest reacts first,
equal cards react together as one secret simultaneous question (the tie rule). If the runner
is still up, the walk resumes where it stopped. After the runner's turn every watcher gives a
secret step order at once (a simultaneous phase); a watcher that shot cannot step that turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.deck import Card, Deck, standard_cards
from killhouse.core.events import EventLog
from killhouse.core.geometry import chebyshev, line_of_sight
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action, GameInfo, Result
from killhouse.rulesets.kit import Arg, Flow, FlowRuleset, Move, Phase, Reaction, Window
from killhouse.rulesets.kit.flow import own_question, windows_json
from killhouse.rulesets.kit.view import Status, viewer
from killhouse.scenario.model import FigureSpec, Issue, Scenario, SideSpec

STEPS = 4  # the runner's allowance
RUN, WATCH, OVER = "run", "watch", "over"

# y0  . . . . . . . .
# y1  . # # # # # # .
# y2  . . . . . . . .     the runner walks along this corridor, west to east
# y3  . # # . # # # .
# y4  . . . . . . . .
WALLS = [(x, 1) for x in range(1, 7)] + [(x, 3) for x in (1, 2, 4, 5, 6)]


def patrol_scenario(
    watchers: dict[str, tuple[int, int]] | None = None,
    runner: tuple[int, int] = (0, 2),
    gaps: tuple[tuple[int, int], ...] = (),
) -> Scenario:
    """The corridor map with a runner and one figure per watcher side; ``gaps`` opens walls."""
    watchers = {"blue": (3, 4), "green": (3, 0)} if watchers is None else watchers
    level = Level.blank("ground", 8, 5)
    for x, y in WALLS:
        if (x, y) not in gaps:
            level.terrain[y, x] = Terrain.WALL
    board = Board([level], zones={"exit": frozenset({Cell(0, 7, 2)})})
    sides = [SideSpec("runner", "Runner", "ai", "sides[0]")]
    figures = [FigureSpec("r", "runner", "figure", "figures[0]", at=Cell(0, *runner))]
    for i, (side, at) in enumerate(watchers.items(), start=1):
        sides.append(SideSpec(side, side.title(), "ai", f"sides[{i}]"))
        figures.append(FigureSpec(side[0], side, "figure", f"figures[{i}]", at=Cell(0, *at)))
    return Scenario("patrol", "patrol", board, sides, figures, content_hash="patrol-test")


@dataclass
class PatrolState:
    scenario: Scenario
    runner: str
    watchers: tuple[str, ...]
    pos: dict[str, Cell]
    deck: Deck
    turn: int = 1
    limit: int = 8
    phase: str = RUN
    down: bool = False
    steps: dict[str, Cell | None] = field(default_factory=dict)
    fired: set[str] = field(default_factory=set)
    windows: list[Window] = field(default_factory=list)
    result: Result | None = None

    def sides(self) -> tuple[str, ...]:
        return (self.runner, *self.watchers)


def _cell(value: Any) -> Cell:
    return Cell(int(value[0]), int(value[1]), int(value[2]))


def _free(state: PatrolState, cell: Cell, mover: str) -> bool:
    board = state.scenario.board
    return (
        board.in_bounds(cell)
        and board.passable(cell)
        and all(p != cell for s, p in state.pos.items() if s != mover)
    )


def _neighbours(cell: Cell) -> Iterable[Cell]:
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dx or dy:
                yield Cell(cell.level, cell.x + dx, cell.y + dy)


def sees(state: PatrolState, watcher: str, cell: Cell) -> bool:
    at = state.pos[watcher]
    opaque = state.scenario.board.opaque(at.level)
    return at.level == cell.level and line_of_sight(opaque, (at.x, at.y), (cell.x, cell.y))


# -- the runner's walk ----------------------------------------------------------------------


def routes(state: PatrolState, side: str) -> Iterable[Action]:
    """One shortest route to every cell within the allowance (the player may give any other)."""
    start = state.pos[state.runner]
    came: dict[Cell, Cell | None] = {start: None}
    frontier = [start]
    for _ in range(STEPS):
        nxt = []
        for cell in frontier:
            for n in _neighbours(cell):
                if n not in came and _free(state, n, state.runner):
                    came[n] = cell
                    nxt.append(n)
        frontier = nxt
    for cell in sorted(came, key=lambda c: (c.y, c.x)):
        if cell == start:
            continue
        path = []
        at: Cell | None = cell
        while at is not None and at != start:
            path.append(cell_json(at))
            at = came[at]
        yield Action.make(side, "walk", path=path[::-1])


def check_walk(state: PatrolState, action: Action) -> None:
    path = [_cell(c) for c in action.get("path")]
    if not path:
        raise IllegalActionError("a walk needs at least one cell")
    if len(path) > STEPS:
        raise IllegalActionError(f"a walk is at most {STEPS} cells; this is {len(path)}")
    at = state.pos[state.runner]
    for cell in path:
        if chebyshev(at, cell) != 1 or cell.level != at.level:
            raise IllegalActionError(f"{cell_json(cell)} is not next to {cell_json(at)}")
        if not _free(state, cell, state.runner):
            raise IllegalActionError(f"{cell_json(cell)} is a wall or taken")
        at = cell


def walk(state: PatrolState, action: Action, chance: Chance, log: EventLog) -> None:
    log.emit("walks", {"side": state.runner}, frozenset({state.runner}))
    go_on(state, [_cell(c) for c in action.get("path")], [], chance, log)


def go_on(
    state: PatrolState, path: list[Cell], reacted: list[str], chance: Chance, log: EventLog
) -> None:
    """Walk the rest of ``path``; stop for the first watchers that see the runner."""
    for i, cell in enumerate(path):
        state.pos[state.runner] = cell
        log.emit("step", {"at": cell_json(cell)})
        triggered = [w for w in state.watchers if w not in reacted and sees(state, w, cell)]
        if triggered:
            queue = order_by_cards(state, triggered, chance)
            rest = [cell_json(c) for c in path[i + 1 :]]
            ask(state, queue, rest, [*reacted, *triggered], log)
            return
    end_walk(state, log)


def order_by_cards(state: PatrolState, sides: list[str], chance: Chance) -> list[list[str]]:
    """A card each when several react: highest first; equal cards react together (the tie rule)."""
    if len(sides) == 1:
        return [sides]
    cards: dict[str, Card] = {}
    for side in sides:
        cards[side] = chance.draw(state.deck, f"{side} reaction card")
        state.deck.discard(cards[side])
    ranks = sorted({c.rank for c in cards.values()}, reverse=True)
    return [[s for s in sides if cards[s].rank == r] for r in ranks]


def ask(
    state: PatrolState, queue: list[list[str]], rest: list[Any], reacted: list[str], log: EventLog
) -> None:
    group, later = queue[0], queue[1:]
    context = {"rest": rest, "queue": later, "reacted": reacted}
    FLOW.open(state, "react", group, context)
    for side in group:  # ruling: only the asked learn that they see the runner
        log.emit("asked", {"side": side}, frozenset({side}))


def resume(state: PatrolState, window: Window, chance: Chance, log: EventLog) -> None:
    for side in window.asked:
        if window.answers[side].kind != "shoot":
            log.emit("holds-fire", {"side": side}, frozenset({side}))
            continue
        state.fired.add(side)
        hit = chance.roll(6, f"{side} shoots") >= 4
        log.emit("shot", {"side": side, "hit": hit})
        if hit and not state.down:
            state.down = True
            state.result = Result(side, "the runner is down")
    if state.down:
        state.phase = OVER
        return
    ctx = window.context
    queue = [list(g) for g in ctx["queue"]]
    if queue:
        ask(state, queue, ctx["rest"], list(ctx["reacted"]), log)
        return
    go_on(state, [_cell(c) for c in ctx["rest"]], list(ctx["reacted"]), chance, log)


def end_walk(state: PatrolState, log: EventLog) -> None:
    if state.pos[state.runner] in state.scenario.board.zone_cells("exit"):
        state.result = Result(state.runner, "the runner got out")
        state.phase = OVER
        return
    state.phase = WATCH
    state.steps = {}


def wait(state: PatrolState, action: Action, chance: Chance, log: EventLog) -> None:
    end_walk(state, log)


# -- the watchers' secret steps -----------------------------------------------------------


def step_options(state: PatrolState, side: str) -> Iterable[Action]:
    if side in state.fired:
        return
    for n in _neighbours(state.pos[side]):
        if _free(state, n, side):
            yield Action.make(side, "step", to=cell_json(n))


def order_step(state: PatrolState, action: Action, chance: Chance, log: EventLog) -> None:
    to = action.get("to")
    state.steps[action.side] = None if to is None else _cell(to)
    log.emit("ordered", {"side": action.side}, frozenset({action.side}))


def all_ordered(state: PatrolState) -> bool:
    return state.phase == WATCH and len(state.steps) == len(state.watchers)


def next_turn(state: PatrolState, chance: Chance, log: EventLog) -> None:
    targets = [c for c in state.steps.values() if c is not None]
    for side, cell in sorted(state.steps.items()):
        if cell is not None and targets.count(cell) == 1:
            state.pos[side] = cell
    log.emit("steps", {s: cell_json(c) for s, c in sorted(state.steps.items())})
    state.steps, state.fired = {}, set()
    if state.turn >= state.limit:
        state.result = Result(None, "time")
        state.phase = OVER
        return
    state.turn += 1
    state.phase = RUN


def _runner(state: PatrolState) -> Iterable[str]:
    return (state.runner,)


def _unordered(state: PatrolState) -> Iterable[str]:
    return [w for w in state.watchers if w not in state.steps]


def _answers(kind: str) -> Move[PatrolState]:
    return Move(kind, (), lambda s, side: [Action.make(side, kind)], None)


FLOW: Flow[PatrolState] = Flow(
    phases=[
        Phase(RUN, "single", _runner, ("walk", "wait"), "walk up to 4 cells, or wait"),
        Phase(WATCH, "simultaneous", _unordered, ("step", "stay"), "secret step orders",
              done=all_ordered, advance=next_turn),
    ],
    moves=[
        Move("walk", (Arg("path", "cells"),), routes, walk, check=check_walk,
             help="walk a route of adjacent cells"),
        Move("wait", (), lambda s, side: [Action.make(side, "wait")], wait),
        Move("step", (Arg("to", "cell"),), step_options, order_step),
        Move("stay", (), lambda s, side: [Action.make(side, "stay")], order_step),
        _answers("shoot"),
        _answers("hold-fire"),
    ],
    reactions=[Reaction("react", ("shoot", "hold-fire"), resume, "the runner is in sight")],
    phase_of=lambda s: s.phase,
    over=lambda s: s.result is not None,
    windows=lambda s: s.windows,
)


class PatrolRuleset(FlowRuleset[PatrolState]):
    id: ClassVar[str] = "patrol"
    title: ClassVar[str] = "Patrol (engine test of reaction windows)"
    source: ClassVar[str] = "tests/engine"
    info: ClassVar[GameInfo] = GameInfo(
        ("phased", "simultaneous", "reaction"), True, ("runner", "watcher"), "1 square",
        max_sides=3,
    )
    flow = FLOW

    def check_scenario(self, scenario: Scenario) -> list[Issue]:
        problems = []
        if len(scenario.sides) < 2:
            problems.append(Issue("sides", "a patrol needs a runner and at least one watcher"))
        if len(scenario.figures) != len(scenario.sides):
            problems.append(Issue("figures", "one figure per side"))
        return problems

    def new_state(self, scenario: Scenario, chance: Chance, log: EventLog) -> PatrolState:
        sides = tuple(s.id for s in scenario.sides)
        pos = {str(f.side): f.at for f in scenario.figures if f.at is not None}
        deck = Deck("reaction", standard_cards(), key=lambda c: c.rank)
        return PatrolState(scenario, sides[0], sides[1:], pos, deck,
                           limit=scenario.turn_limit or 8)

    def result(self, state: PatrolState) -> Result | None:
        return state.result

    def view(self, state: PatrolState, side: str) -> dict[str, Any]:
        own = {"id": side, "at": cell_json(state.pos[side]), "status": Status.ACTIVE.value}
        if side == state.runner and state.down:
            own["status"] = Status.OUT_OF_ACTION.value
        seen = []
        if side != state.runner and sees(state, side, state.pos[state.runner]):
            seen.append({"id": state.runner, "at": cell_json(state.pos[state.runner])})
        return {
            "side": side,
            "viewer": viewer(side),
            "turn": state.turn,
            "phase": state.phase,
            "figures": [own],
            "seen": seen,
            "remembered": [],
            "sounds": [],
            "goals": [cell_json(c) for c in sorted(state.scenario.board.zone_cells("exit"))]
            if side == state.runner else [],
            "public": {"turn_limit": state.limit},
            "question": own_question(state.windows, side),
        }

    def known_ids(self, state: PatrolState, side: str) -> frozenset[str]:
        return frozenset(state.sides())

    def snapshot(self, state: PatrolState) -> dict[str, Any]:
        return {
            "sides": list(state.sides()),
            "turn": state.turn,
            "phase": state.phase,
            "pos": {s: cell_json(c) for s, c in sorted(state.pos.items())},
            "down": state.down,
            "steps": {s: cell_json(c) for s, c in sorted(state.steps.items())},
            "fired": sorted(state.fired),
            "deck": [str(c) for c in state.deck.cards],
            "windows": windows_json(state.windows),
        }
