"""Play one game to the end with a bot on every side."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from killhouse.ai.base import Bot
from killhouse.ai.registry import bot_for
from killhouse.core.rng import Rng, derive_seed
from killhouse.engine.game import Game
from killhouse.errors import KillhouseError
from killhouse.scenario.model import Scenario

#: a game that needs more decisions than this is a ruleset bug, not a long game
MAX_DECISIONS = 200_000


def make_bots(scenario: Scenario, bot_names: Mapping[str, str] | None = None) -> dict[str, Bot]:
    """A bot per side: the controller's choice, or the name given for that side."""
    names = bot_names or {}
    return {s.id: bot_for(scenario, s.id, names.get(s.id)) for s in scenario.sides}


def play(
    scenario: Scenario,
    seed: int,
    bots: Mapping[str, Bot] | None = None,
    on_step: Callable[[Game], None] | None = None,
) -> Game:
    """Play ``scenario`` with ``seed`` until it ends; bots draw their ties from their own seeds."""
    game = Game(scenario, seed)
    players = dict(bots) if bots is not None else make_bots(scenario)
    rngs = {side: Rng.from_seed(derive_seed(seed, 1_000_003 + i)) for i, side in enumerate(players)}
    for _ in range(MAX_DECISIONS):
        pending = game.pending()
        if not pending:
            return game
        side = pending[0].side
        actions = game.legal_actions(side)
        if not actions:
            raise KillhouseError(f"side {side!r} must decide but has no legal action")
        action = players[side].choose(game.view(side, events_since=None), actions, rngs[side])
        game.apply(action)
        if on_step is not None:
            on_step(game)
    raise KillhouseError(f"the game did not end within {MAX_DECISIONS} decisions")
