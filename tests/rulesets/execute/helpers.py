"""Small Execute scenarios built in code, injected dice, and quick ways to reach combat."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import Audience, EventLog
from killhouse.engine.game import Game
from killhouse.rulesets import get_ruleset
from killhouse.rulesets.base import Action
from killhouse.rulesets.execute.ruleset import ExecuteRuleset
from killhouse.rulesets.execute.state import ExecuteState, Figure
from killhouse.scenario.loader import loads_scenario
from killhouse.scenario.model import Scenario

RULESET: ExecuteRuleset = get_ruleset("execute")  # type: ignore[assignment]

#: an open 12 x 8 room with a wall stub, a street row for entry and no devices
ROOM = (
    "############\n"
    "#..........#\n"
    "#..........#\n"
    "#..........#\n"
    "#..........#\n"
    "#..........#\n"
    "#####+######\n"
    "............\n"
)


class Dice(Chance):
    """Chance that plays back given results: die faces for dice, indices for picks and samples.

    ``used`` records every roll taken, so a test can check that no die was consumed (E-13).
    """

    def __init__(self, *values: int, log: EventLog | None = None) -> None:
        self.values = list(values)
        self.used: list[tuple[str, str, int]] = []
        self.log = log

    def _record(self, kind: str, purpose: str, audience: Audience, **data: object) -> None:
        if self.log is not None:  # like SeededChance: the roll becomes an event
            self.log.emit(kind, {"purpose": purpose, **data}, audience)

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        assert self.values, f"an unexpected {what} for {purpose}"
        value = self.values.pop(0)
        self.used.append((what, purpose, value))
        if what.startswith("d"):
            assert 1 <= value <= len(weights), f"{value} is not a face of {what}"
            return value - 1
        assert 0 <= value < len(weights)
        return value


def scenario(
    levels: dict[str, str] | None = None,
    figures: list[dict[str, Any]] | None = None,
    objects: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
    zones: dict[str, list[str]] | None = None,
    objectives: dict[str, Any] | None = None,
    turn_limit: int | None = None,
) -> Scenario:
    """A scenario from plain data (written as JSON, which is YAML), checked by the loader."""
    levels = levels or {"ground": ROOM}
    first = next(iter(levels))
    if zones is None:
        width = len(levels[first].split("\n")[0])
        height = len(levels[first].rstrip("\n").split("\n"))
        zones = {"entry": [f"{first}:0,{height - 1}-{width - 1},{height - 1}"]}
    doc: dict[str, Any] = {
        "name": "test",
        "ruleset": "execute",
        "map": {"levels": levels, "zones": zones},
        "sides": [{"id": "fbi", "controller": "ai"}, {"id": "terrorists", "controller": "ai"}],
        "figures": figures
        if figures is not None
        else [
            {"id": "zach", "side": "fbi", "card": "zach_dante"},
            {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": f"{first}:5,2"},
            {"id": "h1", "kind": "hostage", "card": "hostage_male", "at": f"{first}:8,2"},
        ],
    }
    if objects:
        doc["objects"] = objects
    if options:
        doc["options"] = options
    if objectives:
        doc["objectives"] = objectives
    if turn_limit:
        doc["turn_limit"] = turn_limit
    return loads_scenario(json.dumps(doc))


def state_of(sc: Scenario, chance: Chance | None = None) -> tuple[ExecuteState, EventLog]:
    """A fresh state at the terrorists' setup, and its log."""
    log = EventLog()
    return RULESET.new_state(sc, chance or Dice(), log), log


def act(
    state: ExecuteState, log: EventLog, chance: Chance, side: str, kind: str, **args: Any
) -> None:
    """Apply one action through the ruleset (validation included)."""
    RULESET.apply(state, Action.make(side, kind, **args), chance, log)


def to_combat(
    state: ExecuteState, log: EventLog, fbi_wins: bool = True, surveillance: int = 1
) -> None:
    """Run the pre-game (surveillance roll ``surveillance``, reveals first in the list),
    and turn 1's start with the initiative to the FBI (or the terrorists)."""
    picks = [0] * 40
    act(state, log, Dice(surveillance, *picks), state.terrorists, "ready")
    if state.phase == "negotiation":
        act(state, log, Dice(), state.fbi, "end_negotiation")
        act(state, log, Dice(), state.terrorists, "end_negotiation")
    act(state, log, Dice(), state.fbi, "ready")
    act(state, log, Dice(*((6, 1) if fbi_wins else (1, 6))), state.fbi, "continue")


def place(state: ExecuteState, fid: str, level: int, x: int, y: int) -> Figure:
    """Put a figure on a square (tests set up positions directly), refreshing caches."""
    figure = state.figures[fid]
    figure.pos = Cell(level, x, y)
    state.touch()
    return figure


def game(sc: Scenario, seed: int = 1) -> Game:
    return Game(sc, seed)
