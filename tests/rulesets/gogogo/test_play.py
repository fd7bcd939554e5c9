"""Random legal play under ``Game``: always something to do, listed actions never fail, and
illegal ones fail with a reason before changing anything."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.scenario.loader import load_scenario

from .helpers import RULES

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "gogogo"


def snap(game: Game) -> str:
    return json.dumps(RULES.snapshot(game.state), sort_keys=True)


def mutations(game: Game, action: Action) -> list[Action]:
    """Plausible but illegal variants of a legal action."""
    state = game.state
    enemy = state.enemy_side(action.side)
    enemy_fig = next(f.id for f in state.side_figures(enemy))
    args: dict[str, Any] = {k: v for k, v in action.args}
    out = [
        Action.make(action.side, action.kind, **{**args, "figure": enemy_fig}),
        Action.make(action.side, "teleport", **args),
        Action.make(
            enemy if enemy not in {d.side for d in game.pending()} else action.side,
            "order",
            figure="nobody",
            posture="hold",
        ),
    ]
    if "to" in args:
        level, x, y = args["to"]
        out.append(Action.make(action.side, action.kind, **{**args, "to": [level, x + 40, y]}))
    if "at" in args:
        level, x, y = args["at"]
        out.append(Action.make(action.side, action.kind, **{**args, "at": [level, x, y + 60]}))
    if action.kind == "fire":
        own = next(f.id for f in state.side_figures(action.side))
        out.append(Action.make(action.side, "fire", **{**args, "target": own}))
    if action.kind == "order":
        out.append(Action.make(action.side, "order", **{**args, "posture": "crawl"}))
    return out


@pytest.mark.parametrize("name", ["hostage", "destruction", "assassination"])
def test_random_play_is_well_behaved(name: str) -> None:
    # random play can end a short mission early (the Warehouse Siege has three terrorists), so
    # further seeds are played until the walk has taken enough steps
    steps = 0
    for seed in (77, 78, 79, 80, 81):
        game = Game(load_scenario(SCENARIOS / f"{name}.yaml"), seed)
        rng = Rng.from_seed(seed)
        while game.pending() and steps < 1500:
            pending = game.pending()
            for decision in pending:
                assert RULES.legal_actions(game.state, decision.side), decision
            side = pending[rng.below(len(pending))].side
            actions = game.legal_actions(side)
            action = actions[rng.below(len(actions))]
            if steps % 5 == 0:
                for bad in mutations(game, action):
                    if bad in actions:
                        continue
                    before = snap(game), game.rng.state
                    with pytest.raises(IllegalActionError) as info:
                        RULES.apply(game.state, bad, game.chance, game.log)
                    assert str(info.value)
                    assert (snap(game), game.rng.state) == before, bad
            game.apply(action)
            assert RULES.invariants(game.state) == []
            steps += 1
        if steps > 100:
            break
    assert steps > 100
