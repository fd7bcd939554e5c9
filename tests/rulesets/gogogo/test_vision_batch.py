"""Doors and the bomb seen at spotting: one sight batch for all of a side's fighters answers
what ``sees_cells`` answers figure by figure."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.core.cells import Cell
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.rulesets.gogogo.vision import _sees_all, sees_cells
from killhouse.scenario.loader import load_scenario

SCENARIOS = Path(__file__).resolve().parents[3] / "scenarios" / "gogogo"


@pytest.mark.parametrize("name", ["hostage.yaml", "destruction.yaml"])
def test_one_batch_sees_what_each_figure_sees(name: str) -> None:
    game = Game(load_scenario(SCENARIOS / name), 4)
    rng = Rng.from_seed(9)
    checked = 0
    for _ in range(400):
        pending = game.pending()
        if not pending:
            break
        state = game.state
        board = state.board
        h, w = board.levels[0].terrain.shape
        cells = [Cell(0, rng.below(w), rng.below(h)) for _ in range(25)]
        figs = [f for f in state.ordered() if f.active and f.fighter]
        for initial in (False, True):
            expected = [sees_cells(state, f, cells, initial) for f in figs]
            assert _sees_all(state, figs, cells, initial) == expected
            checked += sum(map(sum, expected))
        legal = game.legal_actions(pending[0].side)
        game.apply(legal[rng.below(len(legal))])
    assert checked > 0  # some squares were in sight


def test_spotting_pairs_are_the_pairs_is_target_names() -> None:
    """``target_pairs`` (each figure's team read once) names exactly the (observer, target)
    pairs ``is_target`` holds for, in the same order, through random games with hostages led
    and figures out of action."""
    from pathlib import Path

    from killhouse.core.rng import Rng
    from killhouse.engine.game import Game
    from killhouse.rulesets.gogogo import vision
    from killhouse.scenario.loader import load_scenario

    scenarios = Path(__file__).resolve().parents[3] / "scenarios" / "gogogo"
    checked = 0
    for name in ("hostage.yaml", "assassination.yaml"):
        game = Game(load_scenario(scenarios / name), 3)
        rng = Rng.from_seed(9)
        for _ in range(400):
            pending = game.pending()
            if not pending:
                break
            state = game.state
            figures = [f for f in state.ordered() if f.active]
            observers = [f for f in figures if f.fighter]
            expected = [
                (o, t) for o in observers for t in figures if vision.is_target(state, o, t)
            ]
            assert vision.target_pairs(state, observers, figures) == expected
            checked += len(expected)
            legal = game.legal(pending[0].side)
            game.apply(legal[rng.below(len(legal))])
    assert checked
