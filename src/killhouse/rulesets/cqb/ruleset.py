"""``CqbRuleset``: "CQB – Skirmish wargames rules for hostage rescue operations" on the flow kit."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any, ClassVar

from killhouse.core.chance import Chance
from killhouse.core.events import Event, EventLog
from killhouse.core.layers import LayerSpec
from killhouse.errors import Problem, ScenarioError
from killhouse.rulesets.base import GameInfo, Result, RollSpec
from killhouse.rulesets.cqb import turn, views
from killhouse.rulesets.cqb.cards import ability_deck, hostage_deck, roll_luck
from killhouse.rulesets.cqb.flow import FLOW
from killhouse.rulesets.cqb.narrate import narrate
from killhouse.rulesets.cqb.rolls import ROLLS
from killhouse.rulesets.cqb.scenario import read_scenario
from killhouse.rulesets.cqb.state import HOSTAGES, WINDOW_STATES, CqbState, deck_key
from killhouse.rulesets.cqb.world import find_rooms, refresh
from killhouse.rulesets.kit import FlowRuleset
from killhouse.scenario.model import Issue, Scenario

DEFAULT_TURN_LIMIT = 20


class CqbRuleset(FlowRuleset[CqbState]):
    """Rescuers against terrorists holding hostages, turn by turn with reaction cards."""

    id: ClassVar[str] = "cqb"
    title: ClassVar[str] = "CQB"
    source: ClassVar[str] = ("CQB – Skirmish wargames rules for hostage rescue operations "
                             "(seed 001; digest: cqb.md)")
    scenario_keys: ClassVar[Mapping[str, frozenset[str]]] = {
        "side": frozenset({"role"}),
        "figure": frozenset({"ability", "magazines"}),
        "object": frozenset({"effect", "timer"}),
    }
    info: ClassVar[GameInfo] = GameInfo(
        turn_shapes=("phased", "reaction", "simultaneous"),
        imperfect_information=True,
        roles=("rescuers", "terrorists"),
        unit="1 inch (1 yard)",
    )
    flow = FLOW
    #: ruling Q-65: a window is closed unless the legend says open or broken
    layers: ClassVar[Mapping[str, LayerSpec]] = {
        "window": LayerSpec("window", "name", names=WINDOW_STATES[1:],
                            help="a window's state: open or broken (default closed)"),
        # ruling Q-67: with the darkness option, the cells that are lit
        "light": LayerSpec("light", "name", names=("lit",),
                           help="lit: seen at any range under the darkness option"),
    }

    def check_scenario(self, scenario: Scenario) -> list[Issue]:
        return read_scenario(scenario)[1]

    def new_state(self, scenario: Scenario, chance: Chance, log: EventLog) -> CqbState:
        setup, issues = read_scenario(scenario)
        if setup is None:
            raise ScenarioError([
                Problem(scenario.file, scenario.line_of(i.path), i.path, i.message, i.hint)
                for i in issues
            ])
        figures = {f.id: copy.deepcopy(f) for f in setup.figures}
        jokers: dict[str, int] = {}
        luck: dict[str, str] = {}
        for side in setup.sides:
            if setup.options.luck:  # ruling Q-4: once per side, the umpire's side included
                luck[side], jokers[side] = roll_luck(chance, side)
                log.emit("luck", {"side": side, "luck": luck[side], "jokers": jokers[side],
                                  "die": {"bad": 2, "average": 3, "good": 5}[luck[side]]})
        decks = {}
        for f in figures.values():
            key = deck_key(setup.options, f)
            if key not in decks:
                decks[key] = ability_deck(key, f.ability, jokers.get(f.side))
        board = scenario.board.copy()
        rooms, open_rooms = find_rooms(board)
        state = CqbState(
            scenario=scenario, board=board, options=setup.options, sides=setup.sides,
            rescuers=setup.rescuers, figures=figures, decks=decks, hostage_deck=hostage_deck(),
            luck=luck, turn_limit=scenario.turn_limit or DEFAULT_TURN_LIMIT, rooms=rooms,
            open_rooms=open_rooms, devices={d.id: copy.deepcopy(d) for d in setup.devices},
        )
        log.emit("scenario", {"name": scenario.name, "turn_limit": state.turn_limit})
        refresh(state)
        turn.start_turn(state, chance, log)
        turn.proceed(state, chance, log)
        return state

    def result(self, state: CqbState) -> Result | None:
        return state.result

    def view(self, state: CqbState, side: str) -> dict[str, Any]:
        return views.view(state, side)

    def known_ids(self, state: CqbState, side: str) -> frozenset[str]:
        return views.known_ids(state, side)

    def secret_ids(self, state: CqbState, side: str) -> frozenset[str]:
        return views.secret_ids(state, side)

    def snapshot(self, state: CqbState) -> dict[str, Any]:
        return views.snapshot(state)

    def sides(self, state: CqbState) -> tuple[str, ...]:
        return state.sides

    def casualties(self, state: CqbState) -> dict[str, int]:
        out = {s: sum(1 for f in state.side_figures(s) if f.condition != "active")
               for s in state.sides}
        out[HOSTAGES] = sum(1 for f in state.side_figures(HOSTAGES) if f.condition != "active")
        return out

    def invariants(self, state: CqbState) -> list[str]:
        problems = []
        cells: dict[Any, str] = {}
        running = state.running
        # a move paused by an interrupt may stand in a friend's cell it is passing through (1)
        moving = running["figure"] if running and running.get("kind") == "move" else None
        for f in state.figures.values():
            other = cells.get(f.at) if f.active else None
            if other is not None:
                passing = moving in (f.id, other) and state.figures[other].side == f.side
                if not passing:
                    problems.append(f"{f.id} and {other} share {f.at}")
            if f.active and other is None:
                cells[f.at] = f.id
        if state.result is None and not self.pending(state):
            problems.append("nobody is to decide but the game is not over")
        return problems

    def narrate(self, event: Event) -> str | None:
        return narrate(event)

    def rolls(self) -> Mapping[str, RollSpec]:
        return ROLLS
