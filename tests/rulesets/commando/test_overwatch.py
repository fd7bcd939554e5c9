"""Mobile Overwatch in play (digest 12.1, rulings C-128, C-129)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from killhouse import rulesets
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
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


def build(skill: bool = True) -> Scenario:
    skills = "{mobile_overwatch: 25}" if skill else "{}"
    text = f"""
name: overwatch test
ruleset: commando
map:
  levels:
    ground: |
      ............
sides:
  - {{id: raiders, name: R, controller: ai}}
  - {{id: guards, name: G, controller: ai}}
figures:
  - {{id: kane, side: raiders, at: "ground:0,0", equipment: [m16], man: commando,
     stats: {{st: 17, mk: 22, dex: 18, end: 19, lead: 21, hero: 22}}}}
  - {{id: vex, side: guards, at: "ground:6,0", equipment: [pistol], man: commando,
     stats: {{st: 13, mk: 15, dex: 13, end: 13, lead: 10, hero: 15}}, skills: {skills}}}
"""
    return loads_scenario(text, "overwatch.yaml")


def fire_at_vex(game: Game, vex_tp: int = 50) -> None:
    for side in ("raiders", "guards"):
        game.apply(Action.make(side, "commit"))
    state = game.state
    state.observed["raiders"].add("vex")
    state.active_side = "raiders"
    game.apply(Action.make("raiders", "activate", figure="kane"))
    state.men["vex"].tp = vex_tp
    game.apply(Action.make("raiders", "fire", figure="kane", target="vex"))


def test_the_question_is_asked_with_or_without_the_skill() -> None:
    for skill in (True, False):
        game = Game(build(skill), seed=1)
        fire_at_vex(game)
        assert [(d.side, d.kind) for d in game.pending()] == [("guards", "overwatch")]
        offered = {a.kind for a in game.legal_actions("guards")}
        assert offered == ({"overwatch", "hold"} if skill else {"hold"})


def test_overwatch_needs_fire_cost_plus_9_edge() -> None:
    # pistol 7 + 9 = 16 TP
    for tp, allowed in ((16, True), (15, False)):
        game = Game(build(), seed=1)
        fire_at_vex(game, vex_tp=tp)
        offered = {a.kind for a in game.legal_actions("guards")}
        assert ("overwatch" in offered) is allowed


def test_hold_resolves_the_fire_alone() -> None:
    game = Game(build(), seed=1)
    fire_at_vex(game)
    start = len(game.log)
    game.apply(Action.make("guards", "hold"))
    fires = [e for e in game.log.since(start) if e.kind == "fire"]
    assert [e.data["figure"] for e in fires] == ["kane"]
    assert game.state.men["kane"].tp == 50 - 18


def test_a_successful_answer_fires_simultaneously() -> None:
    answered = 0
    for seed in range(40):
        game = Game(build(), seed=seed)
        fire_at_vex(game)
        start = len(game.log)
        game.apply(Action.make("guards", "overwatch", figure="vex", target="kane"))
        fires = [e.data["figure"] for e in game.log.since(start) if e.kind == "fire"]
        vex = game.state.men["vex"]
        if fires == ["kane"]:  # the skill roll failed: it costs nothing
            assert vex.tp == 50 or not vex.active() or vex.severely_wounded()
            continue
        answered += 1
        assert fires == ["kane", "vex"]  # he fires even if kane's fire downed him (C-129)
        if vex.active():
            assert vex.tp <= 50 - 7 - 9
    assert answered > 0
