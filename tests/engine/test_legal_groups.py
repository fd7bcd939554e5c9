"""The kit's counted legal actions (``Flow.legal``, issue 12): the same actions in the same
order as ``legal_actions``, counted before any is made, and a group made only when read."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action, Result
from killhouse.rulesets.kit import Group, Legal
from killhouse.scenario.loader import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def _acts(n: int, tag: str) -> tuple[Action, ...]:
    return tuple(Action.make("a", "wait", figure=f"{tag}{i}") for i in range(n))


def test_legal_counts_first_and_makes_only_the_group_read() -> None:
    made: list[str] = []

    def group(n: int, tag: str) -> Group:
        def make() -> tuple[Action, ...]:
            made.append(tag)
            return _acts(n, tag)

        return Group(n, make, {"figure": tag})

    legal = Legal([group(2, "x"), group(0, "empty"), group(3, "y")])
    assert len(legal) == 5 and made == []
    assert legal[3] == _acts(3, "y")[1] and made == ["y"]
    assert legal[-1] == _acts(3, "y")[2] and made == ["y"]  # made once
    assert legal[0] == _acts(2, "x")[0] and made == ["y", "x"]
    assert list(legal) == [*_acts(2, "x"), *_acts(3, "y")]
    assert legal[1:3] == [_acts(2, "x")[1], _acts(3, "y")[0]]
    with pytest.raises(IndexError):
        legal[5]
    with pytest.raises(IndexError):
        legal[-6]
    assert len(Legal([])) == 0


def test_a_group_that_miscounts_is_a_ruleset_bug() -> None:
    legal = Legal([Group(3, lambda: _acts(2, "z"))])
    with pytest.raises(AssertionError, match="counted 3 actions but made 2"):
        legal[0]


@pytest.mark.parametrize(
    "path",
    [
        "cqb/night.yaml",
        "cqb/stronghold.yaml",
        "cqb/aircraft.yaml",
        "cqb/overwatch.yaml",
        "gogogo/hostage.yaml",
        "execute/bank.yaml",
    ],
)
def test_legal_is_legal_actions_at_every_decision_of_random_games(path: str) -> None:
    """Counted before made: the length and every action equal ``legal_actions``'s, so a draw
    by index picks the same action; the random game is the one ``legal_actions`` plays."""
    scenario = load_scenario(SCENARIOS / path)
    game = Game(scenario, 3)
    rng = Rng.from_seed(5)
    for _ in range(150):
        pending = game.pending()
        if not pending:
            break
        side = pending[0].side
        legal = game.legal(side)
        count = len(legal)
        index = rng.below(count)
        drawn = legal[index]
        full = game.legal_actions(side)
        assert count == len(full)
        assert drawn == full[index] and drawn.hint == full[index].hint
        assert list(legal) == full
        game.apply(drawn)


@pytest.mark.parametrize("path", ["execute/bank.yaml", "execute/airliner.yaml"])
def test_a_flows_listing_is_every_moves_own_listing(path: str) -> None:
    """``Flow(listing=...)`` hands a side's groups over in one call: at every decision of a
    random game they are the moves' own options, kind by kind in the phase's order."""
    scenario = load_scenario(SCENARIOS / path)
    game = Game(scenario, 2)
    flow = game.ruleset.flow  # type: ignore[attr-defined]
    assert flow.listing is not None
    rng = Rng.from_seed(7)
    for _ in range(300):
        pending = game.pending()
        if not pending:
            break
        side = pending[0].side
        by_move = [a for kind in flow.active_moves(game.state)
                   for a in flow.moves[kind].options(game.state, side)]
        assert list(game.legal(side)) == by_move
        assert game.legal_actions(side) == by_move
        game.apply(by_move[rng.below(len(by_move))])


def test_validate_makes_only_the_groups_the_action_matches() -> None:
    """A move without a check accepts what it lists: with groups, only the groups whose
    shared arguments the action has are made and searched."""
    from killhouse.errors import IllegalActionError
    from killhouse.rulesets.kit import Arg, Flow, Move, Phase

    made: list[str] = []

    def groups(state: dict[str, bool], side: str) -> list[Group]:
        def make(tag: str) -> tuple[Action, ...]:
            made.append(tag)
            return _acts(1, tag)

        return [Group(1, partial(make, tag), {"figure": f"{tag}0"}) for tag in ("p", "q")]

    def options(state: dict[str, bool], side: str) -> list[Action]:
        return [a for g in groups(state, side) for a in g.make()]

    def resolve(state: dict[str, bool], action: Action, *_: object) -> None:
        state["done"] = True

    flow: Flow[dict[str, bool]] = Flow(
        phases=[Phase("go", "single", lambda s: ["a"], ("wait",))],
        moves=[Move("wait", (Arg("figure", "id"),), options, resolve, groups=groups)],
        phase_of=lambda s: "go",
        over=lambda s: s.get("done", False),
    )
    state: dict[str, bool] = {}
    assert len(flow.legal(state, "a")) == 2 and made == []
    flow.validate(state, _acts(1, "q")[0])
    assert made == ["q"]
    made.clear()
    with pytest.raises(IllegalActionError):
        flow.validate(state, Action.make("a", "wait", figure="r0"))
    assert made == []  # no group shares figure r0: none is made


def test_apply_asks_who_decides_once_and_refuses_with_the_engines_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kit checks whose turn it is (``checks_turn``), so the engine does not ask a second
    time per action, and nobody formats the prompts of ``pending`` for a check; a side not to
    decide, or any side once the game is over, gets the engine's message before any check of
    the action's form."""
    from killhouse.errors import IllegalActionError

    game = Game(load_scenario(SCENARIOS / "cqb/night.yaml"), 4)
    flow = game.ruleset.flow  # type: ignore[attr-defined]
    calls: list[str] = []
    real, real_deciding = flow.pending, flow.deciding

    def counting(state: object) -> object:
        calls.append("pending")
        return real(state)

    def counting_deciding(state: object) -> object:
        calls.append("deciding")
        return real_deciding(state)

    monkeypatch.setattr(flow, "pending", counting)
    monkeypatch.setattr(flow, "deciding", counting_deciding)
    side = real(game.state)[0].side
    action = game.legal_actions(side)[0]
    calls.clear()
    game.apply(action)
    assert calls == ["deciding"]
    assert real_deciding(game.state) == tuple(d.side for d in real(game.state))
    others = [s.id for s in game.scenario.sides if s.id not in {d.side for d in real(game.state)}]
    with pytest.raises(IllegalActionError, match="is not to decide now; waiting for"):
        game.apply(Action.make(others[0], "no-such-kind"))
    game.state.result = Result(None, "test")  # the game is over
    with pytest.raises(IllegalActionError, match="waiting for nobody \\(the game is over\\)"):
        game.apply(action)
