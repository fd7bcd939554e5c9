"""The flow kit's reaction window, proved on the toy ``patrol`` ruleset: a walk that watchers
may interrupt at the first cell where they see the runner."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest

from killhouse import rulesets
from killhouse.engine.game import Game, canonical_json
from killhouse.engine.record import log_lines, replay
from killhouse.errors import IllegalActionError, MalformedActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.kit.view import view_problems
from killhouse.scenario.model import Scenario
from tests.conformance import play_out
from tests.engine.patrol import patrol_scenario


@pytest.fixture(autouse=True)
def patrol_registered() -> Iterator[None]:
    rulesets.register("patrol", "tests.engine.patrol:PatrolRuleset")
    yield
    rulesets.REGISTRY.pop("patrol", None)
    rulesets._LOADED.pop("patrol", None)


def patrol(watchers: dict[str, tuple[int, int]], runner: tuple[int, int] = (0, 2)) -> Scenario:
    return patrol_scenario(watchers, runner)


def walk(*cells: tuple[int, int]) -> Action:
    return Action.make("runner", "walk", path=[[0, x, y] for x, y in cells])


def runner_at(game: Game) -> list[int]:
    return list(game.ruleset.snapshot(game.state)["pos"]["runner"])


def test_no_window_when_no_watcher_sees_the_walk() -> None:
    # blue stands at (3,4): it sees the corridor only through the gap at (3,3)
    game = Game(patrol({"blue": (3, 4)}), seed=1)
    game.apply(walk((1, 2), (2, 2)))
    assert runner_at(game) == [0, 2, 2]
    assert [(d.side, d.kind) for d in game.pending()] == [("blue", "watch")]


def test_window_opens_at_the_first_cell_in_sight_and_pauses_the_walk() -> None:
    game = Game(patrol({"blue": (3, 4)}), seed=1)
    game.apply(walk((1, 2), (2, 2), (3, 2), (4, 2)))
    # (2,2) is out of blue's sight past the wall at (2,3); (3,2) is seen through the gap
    assert runner_at(game) == [0, 3, 2]
    assert [(d.side, d.kind) for d in game.pending()] == [("blue", "react")]
    assert game.legal_actions("runner") == []
    assert {a.kind for a in game.legal_actions("blue")} == {"shoot", "hold-fire"}
    # only the asked side is told; the runner learns nothing of whom it was seen by
    runner_events = [e.for_side("runner") for e in game.log.events]
    assert not any(e and e["kind"] == "asked" for e in runner_events)
    assert game.view("blue")["question"] == {"reaction": "react", "answered": None}
    assert game.view("runner")["question"] is None


def test_declining_resumes_the_walk_where_it_stopped() -> None:
    game = Game(patrol({"blue": (3, 4)}), seed=1)
    game.apply(walk((1, 2), (2, 2), (3, 2), (4, 2)))
    game.apply(Action.make("blue", "hold-fire"))
    assert runner_at(game) == [0, 4, 2]
    assert [(d.side, d.kind) for d in game.pending()] == [("blue", "watch")]
    assert not any(e.kind == "shot" for e in game.log.events)


def test_a_watcher_reacts_once_per_walk() -> None:
    game = Game(patrol({"blue": (3, 0)}, runner=(0, 0)), seed=1)
    # blue on the top row sees every top-row cell; it is asked at the first one only
    game.apply(Action.make("runner", "walk", path=[[0, 1, 0]]))
    assert [d.kind for d in game.pending()] == ["react"]
    game.apply(Action.make("blue", "hold-fire"))
    assert [d.kind for d in game.pending()] == ["watch"]


@pytest.mark.parametrize("hit", [True, False])
def test_interrupting_shot_stops_or_resumes_the_walk(hit: bool) -> None:
    for seed in range(60):
        game = Game(patrol({"blue": (3, 4)}), seed=seed)
        game.apply(walk((1, 2), (2, 2), (3, 2), (4, 2)))
        game.apply(Action.make("blue", "shoot"))
        shot = [e for e in game.log.events if e.kind == "shot"]
        assert len(shot) == 1
        if shot[0].data["hit"] != hit:
            continue
        if hit:
            assert runner_at(game) == [0, 3, 2]  # the walk stopped where it was interrupted
            assert game.result is not None and game.result.winner == "blue"
            assert game.pending() == ()
        else:
            assert runner_at(game) == [0, 4, 2]
            # a watcher that fired may not step this turn
            assert [a.kind for a in game.legal_actions("blue")] == ["stay"]
        return
    pytest.fail(f"no seed gave hit={hit}")


def two_watchers(gaps: tuple[tuple[int, int], ...] = ()) -> Scenario:
    # blue sees (3,2) through the gap at (3,3); green through a gap at (3,1) when it is open
    return patrol_scenario({"blue": (3, 4), "green": (3, 0)}, gaps=gaps)


def cards_drawn(game: Game) -> dict[str, int]:
    out = {}
    for e in game.log.events:
        if e.kind == "draw":
            side = e.data["purpose"].split()[0]
            out[side] = e.data["card"]
    return out


def rank(card: str) -> int:
    names = {"J": 11, "Q": 12, "K": 13, "A": 14}
    face = card[:-1]
    return names.get(face, 0) or int(face)


def test_two_reactors_react_in_card_order() -> None:
    for seed in range(40):
        game = Game(two_watchers(gaps=((3, 1),)), seed=seed)
        game.apply(walk((1, 2), (2, 2), (3, 2)))
        cards = cards_drawn(game)
        assert set(cards) == {"blue", "green"}
        if rank(cards["blue"]) == rank(cards["green"]):
            continue
        first = max(cards, key=lambda s: rank(cards[s]))
        second = "green" if first == "blue" else "blue"
        assert [d.side for d in game.pending()] == [first]
        game.apply(Action.make(first, "hold-fire"))
        assert [(d.side, d.kind) for d in game.pending()] == [(second, "react")]
        assert runner_at(game) == [0, 3, 2]  # still paused at the same cell
        game.apply(Action.make(second, "hold-fire"))
        assert [d.kind for d in game.pending()] == ["watch", "watch"]
        return
    pytest.fail("no seed drew two different cards")


def test_equal_cards_react_together_as_one_secret_question() -> None:
    for seed in range(400):
        game = Game(two_watchers(gaps=((3, 1),)), seed=seed)
        game.apply(walk((1, 2), (2, 2), (3, 2)))
        cards = cards_drawn(game)
        if rank(cards["blue"]) != rank(cards["green"]):
            continue
        assert sorted(d.side for d in game.pending()) == ["blue", "green"]
        start = len(game.log)
        game.apply(Action.make("green", "shoot"))
        # green's answer is not shown to blue, and nothing resolves until blue answers
        assert not any(e.kind == "shot" for e in game.log.since(start))
        assert "shoot" not in canonical_json(game.view("blue", events_since=start))
        assert game.view("green")["question"]["answered"]["kind"] == "shoot"
        game.apply(Action.make("blue", "hold-fire"))
        assert [e.data["side"] for e in game.log.since(start) if e.kind == "shot"] == ["green"]
        return
    pytest.fail("no seed drew two equal cards")


def test_refusals_are_malformed_or_illegal_and_change_nothing() -> None:
    game = Game(patrol({"blue": (3, 4)}), seed=2)

    def record() -> tuple[str, int, int]:
        return canonical_json(game.ruleset.snapshot(game.state)), game.rng.state, len(game.log)

    before = record()
    malformed = [
        Action.make("runner", "teleport"),
        Action.make("runner", "walk"),
        Action.make("runner", "walk", path="east"),
        Action.make("runner", "walk", path=[[0, 1]]),
        Action.make("runner", "walk", path=[[0, 1, 2]], speed=3),
    ]
    for action in malformed:
        with pytest.raises(MalformedActionError) as info:
            game.apply(action)
        assert info.value.code == "malformed-action"
    illegal = [
        walk((2, 2)),  # not adjacent
        walk((1, 1)),  # a wall
        walk((1, 2), (2, 2), (3, 2), (4, 2), (5, 2)),  # over the allowance
        Action.make("blue", "shoot"),  # nobody asked blue
    ]
    for action in illegal:
        with pytest.raises(IllegalActionError) as err:
            game.apply(action)
        assert err.value.code == "illegal-action"
    assert record() == before
    # answering the wrong question while a window is open is illegal too
    game.apply(walk((1, 2), (2, 2), (3, 2)))
    before = record()
    with pytest.raises(IllegalActionError, match="not possible now"):
        game.apply(Action.make("blue", "stay"))
    assert record() == before


def test_replay_and_copy_with_windows_are_identical() -> None:
    scenario = two_watchers(gaps=((3, 1),))
    asked = 0
    for seed in range(6):
        game = play_out(scenario, seed)
        asked += sum(e.kind == "asked" for e in game.log.events)
        report = replay(list(log_lines(game)), scenario)
        assert report.identical and report.state_hash == game.state_hash()
    assert asked, "random play never opened a window"


def test_a_state_paused_in_a_window_copies_and_plays_on_identically() -> None:
    game = Game(two_watchers(gaps=((3, 1),)), seed=5)
    game.apply(walk((1, 2), (2, 2), (3, 2)))
    assert game.state.windows
    twin = copy.deepcopy(game)
    for g in (game, twin):
        while g.pending():
            side = g.pending()[0].side
            g.apply(g.legal_actions(side)[0])
    assert game.state_hash() == twin.state_hash()


def test_views_keep_the_contract_and_metadata_describes_the_flow() -> None:
    game = Game(two_watchers(), seed=1)
    for side in ("runner", "blue", "green"):
        assert view_problems(game.ruleset.view(game.state, side)) == []
    described = game.ruleset.describe()
    assert described["info"]["turn_shapes"] == ["phased", "simultaneous", "reaction"]
    assert described["flow"]["reactions"] == [{"name": "react", "answers": ["shoot", "hold-fire"]}]
    walk_schema = game.ruleset.schemas()["walk"]
    assert walk_schema["required"] == ["kind", "side", "path"]
    assert walk_schema["properties"]["path"]["maxItems"] == 64
