"""Helpers of the conformance suite: random legal play with every check after every step."""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from killhouse import rulesets
from killhouse.ai.registry import RandomBot
from killhouse.core.cells import Cell
from killhouse.core.rng import Rng
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game
from killhouse.rulesets import ruleset_ids
from killhouse.scenario.loader import load_scenario
from killhouse.scenario.model import Scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIO_DIR = ROOT / "scenarios"

#: statuses in which a figure may take no action (names used across the rulesets)
OUT_OF_PLAY = frozenset(
    {
        "dead",
        "ooa",
        "incapacitated",
        "extracted",
        "released",
        "rescued",
        "escaped",
        "killed",
        "removed",
    }
)
#: cells no figure may stand in
NOT_STANDABLE = frozenset({Terrain.WALL, Terrain.OUTSIDE, Terrain.WINDOW, Terrain.DOOR_LOCKED})


def shipped_scenarios(ruleset: str | None = None) -> list[Path]:
    pattern = f"{ruleset}/*.yaml" if ruleset else "*/*.yaml"
    return sorted(SCENARIO_DIR.glob(pattern))


#: shipped scenarios the suite also plays besides each ruleset's first, for a mission the
#: first does not play (commando's hold, C-177)
MORE_SCENARIOS = ("commando/kessel_crossroads.yaml",)


#: toy rulesets the suite runs over as well: id -> (ruleset class, scenario factory)
TOYS: dict[str, tuple[str, str]] = {
    "patrol": ("tests.engine.patrol:PatrolRuleset", "tests.engine.patrol:patrol_scenario"),
    "melee": ("tests.engine.melee:MeleeRuleset", "tests.engine.test_three_sides:melee"),
}


@contextlib.contextmanager
def toys_registered() -> Iterator[None]:
    """The toy rulesets registered for the duration (and gone afterwards, so that nothing
    else that lists the registry sees them)."""
    for ruleset, (target, _) in TOYS.items():
        rulesets.register(ruleset, target)
    try:
        yield
    finally:
        for ruleset in TOYS:
            rulesets.REGISTRY.pop(ruleset, None)
            rulesets._LOADED.pop(ruleset, None)


def _load(target: str) -> Callable[[], Scenario]:
    module, name = target.split(":")
    factory: Callable[[], Scenario] = getattr(importlib.import_module(module), name)
    return factory


def first_scenario(ruleset: str) -> Scenario:
    if ruleset in TOYS:
        return _load(TOYS[ruleset][1])()
    paths = shipped_scenarios(ruleset)
    assert paths, f"ruleset {ruleset!r} ships no scenario under scenarios/{ruleset}/"
    return load_scenario(paths[0])


def registered() -> list[str]:
    return ruleset_ids()


def string_values(data: Any) -> set[str]:
    """Every string value in JSON data (keys excluded: a figure id may equal a field name)."""
    found: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return found


def figure_problems(game: Game) -> list[str]:
    """Generic invariants read off the umpire snapshot: nobody stands in a wall."""
    problems: list[str] = []
    snap = game.ruleset.snapshot(game.state)
    board = game.state.board if hasattr(game.state, "board") else game.scenario.board
    for fig in snap.get("figures", []):
        at = fig.get("at")
        if at is None:
            continue
        cell = Cell(*at)
        if not board.in_bounds(cell):
            problems.append(f"{fig['id']} is off the board at {at}")
        elif board.terrain(cell) in NOT_STANDABLE and fig.get("status") not in OUT_OF_PLAY:
            problems.append(f"{fig['id']} stands in {board.terrain(cell).name} at {at}")
    return problems


def random_playout(
    scenario: Scenario, seed: int, max_steps: int = 100_000, check_leaks: bool = True
) -> Iterator[Game]:
    """Play random legal actions, yielding the game after every step, checking as it goes."""
    game = Game(scenario, seed)
    bot = RandomBot(scenario, "any")
    rng = Rng.from_seed(seed ^ 0x5EED)
    sides = [s.id for s in scenario.sides]
    for _ in range(max_steps):
        pending = game.pending()
        if not pending:
            return
        decision = pending[rng.below(len(pending))]
        actions = game.legal_actions(decision.side)
        assert actions, f"{decision.side} must decide ({decision.kind}) but has no legal action"
        action = bot.choose({}, actions, rng)
        if action.get("figure") is not None:
            snap = game.ruleset.snapshot(game.state)
            status = {f["id"]: f.get("status") for f in snap.get("figures", [])}
            assert status.get(action.get("figure")) not in OUT_OF_PLAY, (
                f"{action} offered for a figure that is {status.get(action.get('figure'))}"
            )
        before = {s: game.ruleset.known_ids(game.state, s) for s in sides} if check_leaks else {}
        start = len(game.log)
        game.apply(action)
        problems = figure_problems(game) + game.ruleset.invariants(game.state)
        assert not problems, f"after {action}: {problems}"
        if check_leaks:
            for side in sides:
                assert_no_leak(game, side, before[side], start)
        yield game
    raise AssertionError(f"no end after {max_steps} random steps")


def play_out(scenario: Scenario, seed: int, check_leaks: bool = True) -> Game:
    """Random legal play to the end with every check; the finished game."""
    game: Game | None = None
    for game in random_playout(scenario, seed, check_leaks=check_leaks):  # noqa: B007
        pass
    assert game is not None
    return game


def assert_no_leak(game: Game, side: str, known_before: frozenset[str], events_from: int) -> None:
    """The side's view and its new events name no secret it does not know."""
    known = game.ruleset.known_ids(game.state, side) | known_before
    secrets = game.ruleset.secret_ids(game.state, side) - known
    view_values = string_values(game.ruleset.view(game.state, side))
    event_values = string_values([e.for_side(side) for e in game.log.since(events_from)])
    for ident in secrets:
        assert ident not in view_values, f"{side}'s view names secret {ident!r}"
        assert ident not in event_values, f"an event {side} sees names secret {ident!r}"
