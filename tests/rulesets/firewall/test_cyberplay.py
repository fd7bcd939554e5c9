"""Cybernetics in play (§14; rulings F-40, F-112 … F-114): cyber failure after an action's
critical failure, and Wired Reflexes' additional action."""

from __future__ import annotations

import pytest

from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Status
from tests.rulesets.firewall.test_stealth import HIDE_AT, _activate, _stage
from tests.rulesets.firewall.test_teams import Dice


def _cf_hide(cp: int, faces: list[int], cyber: frozenset[str] = frozenset()) -> Game:
    """daewoo-1 (Gutz 6, Stealth 0) hides and rolls 2-2: a CF at level 0 (total 4)."""
    game = _stage()
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    f.cp, f.skills, f.cyber = cp, {"stealth": 0}, cyber
    _activate(game, "daewoo", "seoul")
    game.chance = Dice([2, 2, *faces])  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "hide", figure="daewoo-1"))
    return game


@pytest.mark.parametrize(("cp", "fails"), [(5, True), (4, False)])
def test_cyber_failure_needs_a_total_below_the_cp(cp: int, fails: bool) -> None:
    """Ruling F-40: the CF's total 4 against CP 5 (fails) and CP 4 (the edge: no check)."""
    game = _cf_hide(cp, [1, 3])
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    assert f.gutz == 5  # the CF's own −1 first
    kinds = [e.kind for e in game.log.events]
    assert ("cyber-failure" in kinds) is fails
    assert (f.no_action_until == state.turn + 3) is fails


def test_a_rebooting_figure_takes_no_actions_until_its_turns_are_over() -> None:
    game = _cf_hide(5, [2, 1, 1])  # overload: 2d6 = 2 Turns
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    assert f.no_action_until == state.turn + 2
    f.failed_this_turn = False
    state.turn += 2
    state.figures["daewoo-1"].move_used = False
    _activate(game, "daewoo", "seoul")
    assert not [a for a in game.legal_actions("daewoo") if a.get("figure") == "daewoo-1"]
    state.turn += 1  # one Turn past: it acts again
    _activate(game, "daewoo", "seoul")
    assert [a for a in game.legal_actions("daewoo") if a.get("figure") == "daewoo-1"]


@pytest.mark.parametrize(("faces", "left"), [
    ([3, 1], {"lo_light", "target_optic"}),  # one system, the first in order: the arm
    ([5], set()),  # all systems
    ([4, 1, 2], {"cyber_arm"}),  # 1d6 = 1 system, drawn among arm and eye: the eye
])
def test_systems_stop_whole(faces: list[int], left: set[str]) -> None:
    game = _cf_hide(5, faces, frozenset({"lo_light", "target_optic", "cyber_arm"}))
    f = game.state.figures["daewoo-1"]
    assert set(f.cyber) == left
    assert f.cyber | f.cyber_stopped == {"lo_light", "target_optic", "cyber_arm"}
    assert f.cp == 5  # stopped systems keep counting


def test_an_exploding_figure_kills_within_5_cm_and_suppresses_within_10() -> None:
    game = _stage(keep=("daewoo-1", "daewoo-2", "daewoo-3", "thorco-1"))
    state: FirewallState = game.state
    x, y = HIDE_AT
    state.figures["daewoo-2"].cell = (x + 3, y)  # 5 cm: killed (edge)
    state.figures["daewoo-3"].cell = (x + 4, y)  # 7.5 cm: suppressed only
    f = state.figures["daewoo-1"]
    f.cp, f.skills = 5, {"stealth": 0}
    _activate(game, "daewoo", "seoul")
    game.chance = Dice([2, 2, 6])  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "hide", figure="daewoo-1"))
    assert f.status is Status.KILLED
    assert state.figures["daewoo-2"].status is Status.KILLED
    assert state.figures["daewoo-3"].status is Status.ACTIVE
    assert state.figures["daewoo-3"].suppressed


def _wired() -> Game:
    game = _stage()
    state: FirewallState = game.state
    state.figures["daewoo-1"].cyber = frozenset({"wired_reflexes"})
    _activate(game, "daewoo", "seoul")
    return game


def test_wired_reflexes_give_one_more_action() -> None:
    game = _wired()
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    game.chance = Dice([1, 2, 1, 2])  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "move", figure="daewoo-1", speed="crawl",
                           path=[[0, HIDE_AT[0], HIDE_AT[1] + 1]]))
    with pytest.raises(IllegalActionError, match="still has its Combat action"):
        game.apply(Action.make("daewoo", "reflex", figure="daewoo-1", slot="combat"))
    game.apply(Action.make("daewoo", "reflex", figure="daewoo-1", slot="move"))
    assert not f.move_used and f.extra_used
    game.apply(Action.make("daewoo", "move", figure="daewoo-1", speed="crawl",
                           path=[[0, HIDE_AT[0], HIDE_AT[1]]]))
    f.combat_used = True
    with pytest.raises(IllegalActionError):  # the one additional action is spent
        game.apply(Action.make("daewoo", "reflex", figure="daewoo-1", slot="move"))
    assert f.move_used and f.extra_used


def test_no_extra_action_without_working_wired_reflexes() -> None:
    game = _wired()
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    f.cyber, f.cyber_stopped = frozenset(), frozenset({"wired_reflexes"})
    f.move_used = True
    with pytest.raises(IllegalActionError, match="no working Wired Reflexes"):
        game.apply(Action.make("daewoo", "reflex", figure="daewoo-1", slot="move"))
