"""Three or more sides plus an umpire through the engine, the sim and the conformance checks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from killhouse import rulesets
from killhouse.core.board import Board, Level
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action, Result
from killhouse.scenario.model import Scenario, SideSpec
from killhouse.sim.batch import GameSummary, summarize
from killhouse.sim.play import play
from tests.conformance import play_out


@pytest.fixture(autouse=True)
def melee_registered() -> Iterator[None]:
    rulesets.register("melee", "tests.engine.melee:MeleeRuleset")
    yield
    rulesets.REGISTRY.pop("melee", None)
    rulesets._LOADED.pop("melee", None)


def melee(umpire: bool = True, players: int = 3) -> Scenario:
    sides = [SideSpec(f"p{i}", f"Player {i}", "ai", f"sides[{i}]") for i in range(players)]
    if umpire:
        sides.append(SideSpec("gm", "Umpire", "ai", f"sides[{players}]", role="umpire"))
    return Scenario(
        name="melee",
        ruleset="melee",
        board=Board([Level.blank("ground", 2, 1)]),
        sides=sides,
        figures=[],
        content_hash="melee-test",
    )


def test_result_names_several_winners_or_none() -> None:
    one = Result("a", "x")
    assert one.winners == ("a",) and one.to_json() == {"winner": "a", "reason": "x"}
    many = Result.shared(("a", "b"), "time")
    assert many.winner is None and many.to_json()["winners"] == ["a", "b"]
    none = Result.shared((), "all down")
    assert none.winner is None and none.winners == () and "winners" not in none.to_json()
    assert Result.shared(("c",), "last").winner == "c"
    with pytest.raises(ValueError):
        Result("a", "x", winners=("a", "b"))


def test_the_umpire_decides_between_rounds_and_cannot_win() -> None:
    game = Game(melee(), 3)
    assert [d.side for d in game.pending()] == ["p0"]
    for side in ("p0", "p1", "p2"):
        game.apply(Action.make(side, "hide"))
    assert [d.side for d in game.pending()] == ["gm"]
    game.apply(Action.make("gm", "weather", storm=True))
    assert [d.side for d in game.pending()] == ["p0"]
    assert melee().player_sides() == ["p0", "p1", "p2"]


@pytest.mark.parametrize("seed", range(12))
def test_conformance_random_play_with_three_sides_and_an_umpire(seed: int) -> None:
    game = play_out(melee(players=3 + seed % 2), seed)
    result = game.result
    assert result is not None
    assert "gm" not in result.winners
    assert len(result.winners) <= 3 + seed % 2


def test_sim_counts_shared_wins_for_each_winner() -> None:
    scenario = melee()
    games = [play(scenario, seed) for seed in range(30)]
    shared = [g for g in games if g.result is not None and len(g.result.winners) > 1]
    assert shared, "thirty games should include a shared win at the turn limit"
    summaries = [
        GameSummary(i, i, g.result.winner, g.result.reason, 0, {}, winners=g.result.winners)  # type: ignore[union-attr]
        for i, g in enumerate(games)
    ]
    summary = summarize(scenario, 0, summaries)
    total_wins = sum(len(g.result.winners) for g in games)  # type: ignore[union-attr]
    assert sum(summary["wins"].values()) == total_wins
    assert summary["draws"] == sum(1 for g in games if not g.result.winners)  # type: ignore[union-attr]
    assert summary["wins"]["gm"] == 0
