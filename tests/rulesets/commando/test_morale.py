"""Panic and preservation in play (digest 7, §17 item 10, rulings C-14, C-15, C-124, C-125)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from killhouse import rulesets
from killhouse.core.cells import Cell
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import morale, panic
from killhouse.rulesets.commando.men import Posture
from killhouse.scenario.loader import loads_scenario
from killhouse.scenario.model import Scenario


@pytest.fixture(autouse=True)
def commando_registered() -> Iterator[None]:
    added = "commando" not in rulesets.REGISTRY
    if added:
        rulesets.register("commando", "killhouse.rulesets.commando.ruleset:CommandoRuleset")
    yield
    if added:
        rulesets.REGISTRY.pop("commando", None)
        rulesets._LOADED.pop("commando", None)


def build(kane: str, bird: str, g1: str, lead: int = 12) -> Scenario:
    text = f"""
name: morale test
ruleset: commando
map:
  levels:
    ground: |
      ..............................
      ..............................
      ..............................
sides:
  - {{id: raiders, name: R, controller: ai}}
  - {{id: guards, name: G, controller: ai}}
figures:
  - {{id: kane, side: raiders, at: "{kane}", equipment: [m16], man: commando,
     stats: {{st: 17, mk: 22, dex: 18, end: 19, lead: {lead}, hero: 22}}}}
  - {{id: bird, side: raiders, at: "{bird}", equipment: [m16], man: grunt, leader: kane,
     stats: {{st: 15, mk: 18, dex: 15, end: 16}}}}
  - {{id: g1, side: guards, at: "{g1}", equipment: [pistol],
     stats: {{st: 13, mk: 13, dex: 13, end: 13}}}}
"""
    return loads_scenario(text, "morale.yaml")


def test_section_17_item_10_panic_chance_and_preservation() -> None:
    game = Game(build("ground:0,1", "ground:10,1", "ground:18,1"), seed=1)
    state = game.state
    bird = state.men["bird"]
    bird.damage = 8  # End 16: seriously wounded (+15), the one preservation condition
    state.observed["raiders"] = {"g1"}
    bird.seen_enemy = False
    situation = morale.panic_situation(state, bird)
    assert situation.leader_near and situation.observed_enemy and situation.first_sighting
    assert situation.conditions == 1
    assert panic.panic_chance(situation) == 32 + 15 + 2 + 5 + 5 - 20 == 39
    # a second condition (he was fired at): preservation 21 x 2 = 42
    state.fired_at.add("bird")
    assert morale.conditions(state, bird) == 2
    assert panic.preservation_chance(morale.lead_of(state, bird), 2) == 42


def test_leader_within_10_squares_edge() -> None:
    for gap, near in ((10, True), (11, False)):
        game = Game(build("ground:0,1", f"ground:{gap},1", "ground:29,1"), seed=1)
        state = game.state
        situation = morale.panic_situation(state, state.men["bird"])
        assert situation.leader_near is near
        # beyond 10 squares the leader also counts as gone (preservation condition 4)
        assert situation.conditions == (0 if near else 1)


def _activate(game: Game, figure: str) -> None:
    for side in ("raiders", "guards"):
        game.apply(Action.make(side, "commit"))
    game.state.active_side = "raiders"
    game.apply(Action.make("raiders", "activate", figure=figure))


def test_a_panicking_man_loses_his_activation() -> None:
    # Lead 1 (60), seriously wounded (+15), two conditions (+10), enemy first seen (+7): 92 %
    results = set()
    for seed in range(12):
        game = Game(build("ground:0,0", "ground:20,2", "ground:29,2", lead=1), seed=seed)
        state = game.state
        state.men["bird"].damage = 8
        state.observed["raiders"] = {"g1"}
        before = state.pos["bird"]
        _activate(game, "bird")
        bird = state.men["bird"]
        assert bird.panic_checked
        panics = [e for e in game.log.since(0) if e.kind == "panic"]
        if not panics:
            assert state.active_man == "bird" and bird.tp == 50  # steady: he acts
            continue
        assert state.active_man != "bird" and bird.tp == 0
        result = panics[-1].data["result"]
        results.add(result)
        if result == "prone":
            assert bird.posture is Posture.PRONE
        if result == "run":
            assert state.pos["bird"].x < before.x  # away from g1
    assert "prone" in results


def test_a_commando_never_checks_panic() -> None:
    game = Game(build("ground:0,0", "ground:20,2", "ground:29,2", lead=1), seed=1)
    _activate(game, "kane")
    assert game.state.active_man == "kane" and game.state.men["kane"].tp == 50


def test_preserving_man_may_not_close_and_fires_only_within_5() -> None:
    game = Game(build("ground:0,0", "ground:10,1", "ground:16,1"), seed=1)
    state = game.state
    state.observed["raiders"] = {"g1"}
    state.men["bird"].preserving = True
    state.men["bird"].panic_checked = True
    _activate(game, "bird")
    dirs = {a.get("dir") for a in game.legal_actions("raiders") if a.kind == "step"}
    assert "e" not in dirs and "w" in dirs
    assert not [a for a in game.legal_actions("raiders") if a.kind == "fire"]  # range 6
    state.pos["g1"] = Cell(0, 15, 1)
    assert [a.get("target") for a in game.legal_actions("raiders")
            if a.kind == "fire"] == ["g1"]  # range 5: allowed


def test_bookkeeping_sets_and_clears_preserving() -> None:
    game = Game(build("ground:0,0", "ground:25,1", "ground:29,1", lead=1), seed=3)
    state = game.state
    bird = state.men["bird"]
    bird.damage = 3  # wounded
    state.fired_at.add("bird")  # 2 conditions + leader beyond 10: 3 x 45 -> 95
    assert morale.conditions(state, bird) == 3
    seen = 0
    for _ in range(20):
        morale.bookkeeping(state, game.chance, game.log)
        seen += bird.preserving
    assert 14 <= seen <= 20  # 95 % each
    bird.damage = 0
    state.fired_at.clear()
    state.pos["bird"] = Cell(0, 5, 0)
    morale.bookkeeping(state, game.chance, game.log)
    assert not bird.preserving  # no condition: no check, and last turn's status is cleared
