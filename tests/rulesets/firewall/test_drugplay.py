"""Drugs in play (§15; rulings F-41, F-115, F-116): a dose as a Movement action, the effects
on rolls and Gutz, and their end at the next critical failure."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError, ScenarioError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.fire import fire_modifier
from killhouse.rulesets.firewall.shooting import Shot, shot_situation
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.teams import Status
from killhouse.scenario.loader import load_scenario
from tests.rulesets.firewall.test_stealth import HIDE_AT, THAMES, _activate, _stage
from tests.rulesets.firewall.test_teams import Dice
from tests.rulesets.firewall.thames import thames


def _dose(drug: str, faces: list[int], gutz: int = 6) -> Game:
    """daewoo-1 (no leader near) takes one dose of ``drug`` with the given dice."""
    game = _stage()
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    f.drugs, f.gutz = {drug: 2}, gutz
    _activate(game, "daewoo", "seoul")
    game.chance = Dice(faces)  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "drug", figure="daewoo-1", drug=drug))
    return game


@pytest.mark.parametrize(("faces", "effect", "failed"), [
    ([1, 1], "good", False),  # CS: the effect, no Gutz gain (F-41)
    ([2, 4], "good", False),  # S: 6 ≤ 6 (the edge)
    ([3, 4], None, True),  # F: 7 > 6, one past
    ([4, 4], "critical", True),  # CF: the critical effect instead of the −1
])
def test_a_dose_is_a_gutz_roll(faces: list[int], effect: str | None, failed: bool) -> None:
    game = _dose("locust_8", faces)
    f = game.state.figures["daewoo-1"]
    assert f.drugs == {"locust_8": 1}  # used whatever the result
    assert f.drug_effects.get("locust_8") == effect
    assert f.failed_this_turn is failed and f.move_used
    assert f.gutz == 6
    audience = [e.audience for e in game.log.events if e.kind == "drug"]
    assert audience == [frozenset({"daewoo"})]  # §21.4: drugs are secret


@pytest.mark.parametrize(("effect", "change"), [("good", 1), ("critical", -2), (None, 0)])
def test_locust_8_changes_shooting(effect: str | None, change: int) -> None:
    game = _stage()
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    state.figures["thorco-1"].cell = (12, 22)
    f.facing = (1, 0)
    base = fire_modifier(shot_situation(state.board, state.figures, state.teams,
                                        Shot("daewoo-1", "imi_buzzard", "thorco-1")))
    if effect:
        f.drug_effects["locust_8"] = effect
    now = fire_modifier(shot_situation(state.board, state.figures, state.teams,
                                       Shot("daewoo-1", "imi_buzzard", "thorco-1")))
    assert now - base == change


@pytest.mark.parametrize(("zap", "faces", "moved"), [
    (False, [2, 4], False),  # crawl at Gutz 6, clutter 2 less Acrobatics 1: 6 > 5
    (True, [2, 4], True),  # Zap +1: 6 ≤ 6 (the edge)
    (True, [3, 4], False),  # 7 > 6: one past
])
def test_zap_adds_one_to_movement(zap: bool, faces: list[int], moved: bool) -> None:
    game = _stage()
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    if zap:
        f.drug_effects["zap"] = "good"
    _activate(game, "daewoo", "seoul")
    game.chance = Dice(faces)  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "move", figure="daewoo-1", speed="crawl",
                           path=[[0, HIDE_AT[0] + 1, HIDE_AT[1]]]))
    assert (f.cell != HIDE_AT) is moved


def test_lectron_critical_failure_pins_the_figure() -> None:
    game = _dose("lectron", [4, 4])
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    assert f.drug_effects == {"lectron": "critical"}
    f.move_used = f.failed_this_turn = False
    _activate(game, "daewoo", "seoul")
    assert not [a for a in game.legal_actions("daewoo") if a.kind == "move"]
    with pytest.raises(IllegalActionError, match="may not change position"):
        game.apply(Action.make("daewoo", "move", figure="daewoo-1", speed="crawl",
                               path=[[0, HIDE_AT[0] + 1, HIDE_AT[1]]]))


def test_t80_adds_gutz_until_the_next_critical_failure() -> None:
    game = _dose("t80", [2, 3])  # S: Gutz 6 → 7
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    assert f.gutz == 7 and f.drug_gained == {"t80": 1}
    f.move_used = f.failed_this_turn = False
    f.skills = {"stealth": 0}
    _activate(game, "daewoo", "seoul")
    game.chance = Dice([2, 2])  # type: ignore[assignment]  # a hide's CF at Stealth 0
    game.apply(Action.make("daewoo", "hide", figure="daewoo-1"))
    assert f.drug_effects == {} and f.drug_gained == {}
    assert f.gutz == 5  # 7, the CF's −1, then the T80's +1 taken back


@pytest.mark.parametrize(("drug", "gutz", "status"), [
    ("t80", 3, Status.ACTIVE),  # CF: −3 at once
    ("ground_zero", 6, Status.KILLED),  # CF: death
])
def test_gutz_drugs_critical_failures(drug: str, gutz: int, status: Status) -> None:
    game = _dose(drug, [4, 4])
    f = game.state.figures["daewoo-1"]
    assert (f.gutz, f.status) == (gutz, status)


def test_retaking_an_active_drug_adds_nothing() -> None:
    game = _dose("t80", [2, 3])
    state: FirewallState = game.state
    f = state.figures["daewoo-1"]
    state.turn += 1
    f.move_used = f.failed_this_turn = False
    _activate(game, "daewoo", "seoul")
    game.chance = Dice([2, 3])  # type: ignore[assignment]
    game.apply(Action.make("daewoo", "drug", figure="daewoo-1", drug="t80"))
    assert f.gutz == 7 and f.drugs == {"t80": 0}


def test_triple_cross_carries_the_seed_s_drugs_and_refuses_unknown_ones(
        tmp_path: Path) -> None:
    game = thames(1)
    state: FirewallState = game.state
    assert state.figures["lonnie"].drugs == {"lectron": 2}
    assert state.figures["porky"].drugs == {"p90": 2}
    bad = tmp_path / "bad.yaml"
    bad.write_text(THAMES.read_text().replace("drugs: {p90: 2}", "drugs: {speed: 1}"))
    with pytest.raises(ScenarioError, match="no drug 'speed'"):
        Game(load_scenario(bad), 1)
    # Green Jeans and Wah-Wah Juice are played since F-192 … F-194
    good = tmp_path / "good.yaml"
    good.write_text(THAMES.read_text().replace("drugs: {p90: 2}",
                                               "drugs: {green_jeans: 1, wah_wah_juice: 1}"))
    assert Game(load_scenario(good), 1).state.figures["porky"].drugs == {
        "green_jeans": 1, "wah_wah_juice": 1}
