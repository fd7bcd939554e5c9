"""The engine carries simultaneous secret orders and one-side reactions through one protocol."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from killhouse import rulesets
from killhouse.core.board import Board, Level
from killhouse.engine.game import Game, canonical_json
from killhouse.engine.record import log_lines, replay
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.scenario.model import Scenario, SideSpec


@pytest.fixture(autouse=True)
def duel_registered() -> Iterator[None]:
    rulesets.register("duel", "tests.engine.duel:DuelRuleset")
    yield
    rulesets.REGISTRY.pop("duel", None)
    rulesets._LOADED.pop("duel", None)


def duel() -> Scenario:
    return Scenario(
        name="duel",
        ruleset="duel",
        board=Board([Level.blank("ground", 3, 1)]),
        sides=[
            SideSpec("red", "Red", "ai", "sides[0]"),
            SideSpec("blue", "Blue", "ai", "sides[1]"),
        ],
        figures=[],
        content_hash="duel-test",
    )


def test_simultaneous_orders_are_pending_together_and_hidden() -> None:
    game = Game(duel(), seed=3)
    assert [d.side for d in game.pending()] == ["red", "blue"]
    start = len(game.log)
    game.apply(Action.make("red", "order", order="duck"))
    assert [d.side for d in game.pending()] == ["blue"]
    blue_view = canonical_json(game.view("blue", events_since=start))
    assert "duck" not in blue_view and "order" not in game.ruleset.view(game.state, "blue")
    assert "duck" in canonical_json(game.view("red", events_since=start))
    assert game.legal_actions("red") == []


def test_a_side_cannot_order_twice_and_nothing_changes() -> None:
    game = Game(duel(), seed=3)
    game.apply(Action.make("red", "order", order="fire"))
    before = canonical_json(game.ruleset.snapshot(game.state)), game.rng.state, len(game.log)
    with pytest.raises(IllegalActionError, match="not to decide now"):
        game.apply(Action.make("red", "order", order="duck"))
    with pytest.raises(IllegalActionError, match="not legal"):
        game.apply(Action.make("blue", "order", order="dance"))
    assert (
        canonical_json(game.ruleset.snapshot(game.state)),
        game.rng.state,
        len(game.log),
    ) == before


def test_reaction_is_a_one_side_decision_after_simultaneous_resolution() -> None:
    for seed in range(40):
        game = Game(duel(), seed=seed)
        game.apply(Action.make("red", "order", order="fire"))
        game.apply(Action.make("blue", "order", order="duck"))
        if game.over:
            continue
        assert [(d.side, d.kind) for d in game.pending()] == [("blue", "reaction")]
        revealed = [e for e in game.log.events if e.kind == "orders-revealed"]
        assert revealed and revealed[-1].data == {"red": "fire", "blue": "duck"}
        return
    pytest.fail("no seed left blue standing to react")


def test_duel_replays_identically() -> None:
    game = Game(duel(), seed=8)
    while game.pending():
        side = game.pending()[-1].side
        game.apply(game.legal_actions(side)[0])
    report = replay(list(log_lines(game)), duel())
    assert report.identical and report.state_hash == game.state_hash()
