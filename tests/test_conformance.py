"""The conformance suite, run over every registered ruleset (as OpenSpiel's api_test does)."""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from killhouse.core.rng import Rng
from killhouse.engine.game import Game, canonical_json
from killhouse.engine.record import log_lines, replay
from killhouse.errors import IllegalActionError
from killhouse.rulesets import get_ruleset
from killhouse.rulesets.base import Action
from tests.conformance import (
    MORE_SCENARIOS,
    SCENARIO_DIR,
    TOYS,
    first_scenario,
    play_out,
    random_playout,
    registered,
    toys_registered,
)

RULESETS = [*registered(), *TOYS]


@pytest.fixture(autouse=True)
def toys() -> Iterator[None]:
    with toys_registered():
        yield


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_ends_with_invariants_and_no_leaks(ruleset: str, seed: int) -> None:
    scenario = first_scenario(ruleset)
    game = play_out(scenario, seed)
    assert game.result is not None
    assert game.result.reason


@pytest.mark.parametrize("path", MORE_SCENARIOS)
@pytest.mark.parametrize("seed", [1, 2])
def test_more_shipped_scenarios_play_out_with_every_check(path: str, seed: int) -> None:
    """Random play to a result, every view and event checked for leaks, and the logged game
    replays identically."""
    from killhouse.scenario.loader import load_scenario

    scenario = load_scenario(SCENARIO_DIR / path)
    game = play_out(scenario, seed)
    assert game.result is not None and game.result.reason
    report = replay(list(log_lines(game)), scenario)
    assert report.identical, report.message


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_seed_same_game(ruleset: str) -> None:
    scenario = first_scenario(ruleset)
    runs = []
    for _ in range(2):
        game = play_out(scenario, 17, check_leaks=False)
        runs.append((canonical_json([e.to_json() for e in game.log.events]), game.state_hash()))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_replay_of_a_logged_game_is_identical(ruleset: str) -> None:
    scenario = first_scenario(ruleset)
    game = play_out(scenario, 23, check_leaks=False)
    report = replay(list(log_lines(game)), scenario)
    assert report.identical, report.message
    assert report.state_hash == game.state_hash()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_tampered_log_reports_the_first_divergence(ruleset: str) -> None:
    scenario = first_scenario(ruleset)
    game = play_out(scenario, 29, check_leaks=False)
    records = list(log_lines(game))
    for record in records:
        if record["type"] == "action" and record["events"]:
            record["events"][0] = {**record["events"][0], "tampered": True}
            break
    report = replay(records, scenario)
    assert not report.identical and "tampered" in report.message


@pytest.mark.parametrize("ruleset", RULESETS)
def test_illegal_actions_leave_the_state_unchanged(ruleset: str) -> None:
    scenario = first_scenario(ruleset)
    for step, game in enumerate(random_playout(scenario, 31, check_leaks=False)):
        if step % 7:
            continue
        pending = game.pending()
        if not pending:
            break
        side = pending[0].side
        before = canonical_json(game.ruleset.snapshot(game.state)), game.rng.state, len(game.log)
        bogus = [
            Action.make(side, "no-such-action"),
            Action.make(side, "move", figure="no-such-figure", to=[0, 0, 0]),
        ]
        bogus += [
            Action.make(s.id, "done")
            for s in scenario.sides
            if s.id not in {d.side for d in pending}
        ]
        for action in bogus:
            with pytest.raises(IllegalActionError) as info:
                game.apply(action)
            assert str(info.value)
            after = canonical_json(game.ruleset.snapshot(game.state)), game.rng.state, len(game.log)
            assert after == before, f"{action} changed the state"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_pending_side_has_legal_actions_and_views_serialize(ruleset: str) -> None:
    scenario = first_scenario(ruleset)
    for step, game in enumerate(random_playout(scenario, 37, check_leaks=False)):
        if step > 400:
            break
        for decision in game.pending():
            assert game.legal_actions(decision.side)
        for side in scenario.side_ids():
            canonical_json(game.view(side, events_since=max(0, len(game.log) - 20)))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_copied_state_plays_on_identically(ruleset: str) -> None:
    """A deep copy of a game (state and generator) continues exactly like the original."""
    scenario = first_scenario(ruleset)
    for step, game in enumerate(random_playout(scenario, 41, check_leaks=False)):
        if step < 25:
            continue
        twin = copy.deepcopy(game)
        assert twin.state_hash() == game.state_hash()
        chooser = Rng.from_seed(99)
        for _ in range(60):
            pending = game.pending()
            if not pending:
                break
            actions = game.legal_actions(pending[0].side)
            assert actions == twin.legal_actions(pending[0].side)
            action = actions[chooser.below(len(actions))]
            assert canonical_json([e.to_json() for e in game.apply(action)]) == canonical_json(
                [e.to_json() for e in twin.apply(action)]
            )
        assert twin.state_hash() == game.state_hash()
        break


@pytest.mark.parametrize("ruleset", RULESETS)
def test_describe_names_source(ruleset: str) -> None:
    info = get_ruleset(ruleset).describe()
    assert info["id"] == ruleset and info["source"] and info["title"]


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(ruleset=st.sampled_from(RULESETS), seed=st.integers(min_value=0, max_value=2**32))
def test_property_no_view_leaks_in_random_games(ruleset: str, seed: int) -> None:
    scenario = first_scenario(ruleset)
    for step, _game in enumerate(random_playout(scenario, seed)):
        if step > 600:
            break


def test_wrong_side_is_refused() -> None:
    ruleset = RULESETS[0]
    game = Game(first_scenario(ruleset), 5)
    waiting = {d.side for d in game.pending()}
    others = [s for s in game.scenario.side_ids() if s not in waiting]
    if others:
        with pytest.raises(IllegalActionError, match="not to decide now"):
            game.apply(Action.make(others[0], "done"))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_offered_action_fits_its_schema(ruleset: str) -> None:
    """The kit's schemas describe every action the ruleset offers (faces build controls from
    them and the server validates input against them)."""
    from killhouse.rulesets.kit import check_args

    schemas = get_ruleset(ruleset).schemas()
    if not schemas:
        pytest.skip(f"{ruleset} declares no action schemas yet")
    flow = get_ruleset(ruleset).flow  # type: ignore[attr-defined]
    scenario = first_scenario(ruleset)
    for step, game in enumerate(random_playout(scenario, 43, check_leaks=False)):
        if step > 300:
            break
        for decision in game.pending():
            for action in game.legal_actions(decision.side):
                assert action.kind in schemas, f"{action.kind} has no schema"
                check_args(action.kind, flow.moves[action.kind].args, dict(action.args))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_side_copy_of_an_event_narrates(ruleset: str) -> None:
    """Faces narrate each side's redacted copy of an event: narration must not need what a
    copy leaves out (a gogogo shot's side copy has no need or range, G-67)."""
    from killhouse.core.events import Event

    scenario = first_scenario(ruleset)
    game = None
    for step, game in enumerate(random_playout(scenario, 47, check_leaks=False)):  # noqa: B007
        if step > 300:
            break
    assert game is not None
    for event in game.log.events:
        for side in scenario.side_ids():
            copy_ = event.for_side(side)
            if copy_ is not None:
                data = {k: v for k, v in copy_.items() if k not in ("seq", "kind")}
                line = game.ruleset.narrate(Event(event.seq, event.kind, data))
                assert line is None or isinstance(line, str)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_view_keeps_the_kit_contract(ruleset: str) -> None:
    """The keys every view has (side, viewer, turn, phase, figures, seen, remembered, sounds,
    goals, public) with one status vocabulary, checked on views of random play."""
    from killhouse.rulesets.kit.view import view_problems

    scenario = first_scenario(ruleset)
    for step, game in enumerate(random_playout(scenario, 53, check_leaks=False)):
        if step > 200:
            break
        if step % 5:
            continue
        for side in scenario.side_ids():
            view = game.ruleset.view(game.state, side)
            assert view_problems(view) == [], (side, view_problems(view))
