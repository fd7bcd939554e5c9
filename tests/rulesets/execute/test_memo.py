"""Results kept across actions in ``state.memo`` (each figure's reach and moves, each side's
sight) always equal what a fresh computation gives: a kept answer is never stale."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from killhouse.core.rng import Rng, derive_seed
from killhouse.engine.game import Game
from killhouse.rulesets.execute.vision import cells_in_sight
from killhouse.scenario.loader import load_scenario

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("name", ["embassy", "airliner"])
def test_kept_moves_and_sight_equal_fresh_ones_through_a_game(name: str) -> None:
    scenario = load_scenario(ROOT / "scenarios" / "execute" / f"{name}.yaml")
    game = Game(scenario, derive_seed(5, 0))
    rng = Rng.from_seed(11)
    kept = 0
    for _ in range(400):
        pending = game.pending()
        if not pending:
            break
        side = pending[0].side
        state = game.state
        actions = game.legal_actions(side)
        kept += len(state.memo)
        fresh_state = copy.deepcopy(state)
        fresh_state.memo.clear()
        fresh_state.cache.clear()
        fresh = game.ruleset.legal_actions(fresh_state, side)
        assert actions == fresh
        assert [a.hint for a in actions] == [a.hint for a in fresh]
        cells = sorted({f.pos for f in state.figures.values() if f.pos is not None})
        for who in state.side_ids():
            fresh_state.memo.clear()
            assert cells_in_sight(state, who, cells) == cells_in_sight(fresh_state, who, cells)
        # mostly moves, so that the kept answers are put to the test after figures move
        moves = [a for a in actions if a.kind == "move"]
        pool = moves if moves and rng.below(4) else actions
        game.apply(pool[rng.below(len(pool))])
    assert kept > 0  # the memo was in use


@pytest.mark.parametrize("name", ["bank", "embassy"])
def test_a_game_with_kept_answers_tells_and_remembers_what_one_without_them_does(
    name: str,
) -> None:
    """Two games on one seed take the same actions; the second forgets every kept answer
    before each action, so nothing (sight, moves, memories made this turn) is reused. Their
    events, memories and views stay equal."""
    scenario = load_scenario(ROOT / "scenarios" / "execute" / f"{name}.yaml")
    kept, fresh = Game(scenario, derive_seed(9, 1)), Game(scenario, derive_seed(9, 1))
    rng = Rng.from_seed(3)
    for _ in range(300):
        pending = kept.pending()
        if not pending:
            break
        side = pending[0].side
        actions = kept.legal_actions(side)
        moves = [a for a in actions if a.kind == "move"]
        pool = moves if moves and rng.below(3) else actions
        action = pool[rng.below(len(pool))]
        fresh.state.memo.clear()
        fresh.state.cache.clear()
        kept.apply(action)
        fresh.apply(action)
        assert kept.log.for_public() == fresh.log.for_public()
        for who in kept.state.side_ids():
            assert kept.log.for_side(who) == fresh.log.for_side(who)
            assert kept.view(who, events_since=None) == fresh.view(who, events_since=None)
        assert kept.state.memory == fresh.state.memory
