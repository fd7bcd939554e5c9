"""Hand-to-hand in play (digest 10, rulings C-37 … C-44, C-126, C-127): entering an enemy's
square, stacking, phase 4's secret disengagement and declarations, five rounds at most."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from killhouse import rulesets
from killhouse.core.cells import Cell
from killhouse.engine.game import Game, canonical_json
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando.h2hflow import H2H
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


def build(extra_guards: int = 0) -> Scenario:
    guards = "".join(
        f"""  - {{id: g{i}, side: guards, at: "ground:3,0", equipment: [pistol], man: doofus,
     stats: {{st: 13, mk: 13, dex: 13, end: 13}}}}
""" for i in range(2, 2 + extra_guards))
    text = f"""
name: melee test
ruleset: commando
map:
  levels:
    ground: |
      ..........
      ..........
sides:
  - {{id: raiders, name: R, controller: ai}}
  - {{id: guards, name: G, controller: ai}}
figures:
  - {{id: kane, side: raiders, at: "ground:0,0", equipment: [m16], man: commando,
     stats: {{st: 22, mk: 22, dex: 18, end: 19, lead: 21, hero: 22}}}}
  - {{id: bird, side: raiders, at: "ground:0,1", equipment: [m16], man: commando,
     stats: {{st: 15, mk: 18, dex: 15, end: 16, lead: 12, hero: 15}}}}
  - {{id: g1, side: guards, at: "ground:1,0", equipment: [pistol], man: commando,
     stats: {{st: 13, mk: 13, dex: 13, end: 13, lead: 10, hero: 15}}}}
{guards}
"""
    return loads_scenario(text, "melee.yaml")


def commit(game: Game) -> None:
    for side in ("raiders", "guards"):
        game.apply(Action.make(side, "commit"))


def engage(game: Game) -> None:
    commit(game)
    game.state.active_side = "raiders"
    game.apply(Action.make("raiders", "activate", figure="kane"))
    game.apply(Action.make("raiders", "step", figure="kane", dir="e"))
    game.apply(Action.make("guards", "hold"))


def test_stepping_into_an_enemy_square_engages_and_ends_the_activation() -> None:
    game = Game(build(), seed=1)
    engage(game)
    state = game.state
    assert state.pos["kane"] == Cell(0, 1, 0)
    assert state.men["kane"].engaged and state.men["g1"].engaged
    assert state.active_man is None and state.men["kane"].tp == 0
    # engaged men do not activate in phase 5 (C-37)
    acts = {a.get("figure") for s in state.sides for a in game.legal_actions(s)
            if a.kind == "activate"}
    assert "g1" not in acts and "kane" not in acts


def test_stacking_two_a_side_edge() -> None:
    game = Game(build(extra_guards=2), seed=1)  # g2, g3 at (3,0)
    commit(game)
    state = game.state
    state.active_side = "raiders"
    state.pos["kane"] = Cell(0, 2, 0)
    game.apply(Action.make("raiders", "activate", figure="kane"))
    steps = {a.get("dir") for a in game.legal_actions("raiders") if a.kind == "step"}
    assert "e" in steps  # into g2 and g3's square: the raiders have nobody there
    state.pos["bird"] = Cell(0, 3, 0)
    state.men["bird"].engaged = True
    steps = {a.get("dir") for a in game.legal_actions("raiders") if a.kind == "step"}
    assert "e" in steps  # one raider there: a second may enter
    # a third guard may not join g2 and g3 (two of a side already, C-37)
    state.pos["g1"] = Cell(0, 4, 0)
    from killhouse.rulesets.commando.basic_tasks import may_engage

    assert not may_engage(state, state.men["g1"], Cell(0, 3, 0))


def to_h2h(game: Game) -> None:
    engage(game)
    # the rest of the turn: bird and nobody else
    while game.state.phase != "plot" or game.state.turn == 1:
        side = next(d.side for d in game.pending())
        acts = game.legal_actions(side)
        pick = next((a for a in acts if a.kind in ("end", "hold")), None)
        if pick is None:
            pick = next(a for a in acts if a.kind == "activate")
        game.apply(pick)
    commit(game)


def test_phase_4_declarations_are_secret_until_both_are_ready() -> None:
    game = Game(build(), seed=2)
    to_h2h(game)
    state = game.state
    assert state.phase == H2H and state.h2h["step"] == "leave"
    assert {d.side for d in game.pending()} == {"raiders", "guards"}
    game.apply(Action.make("raiders", "ready"))
    game.apply(Action.make("guards", "ready"))
    assert state.h2h["step"] == "round" and state.h2h["round"] == 1
    start = len(game.log)
    game.apply(Action.make("raiders", "strike", figure="kane", target="g1"))
    guards_see = canonical_json([e.for_side("guards") for e in game.log.since(start)])
    assert "strike" not in guards_see
    assert "strike" not in canonical_json(game.view("guards"))
    # ready only once every engaged man has a choice
    assert not [a for a in game.legal_actions("guards") if a.kind == "ready"]
    game.apply(Action.make("guards", "evade", figure="g1"))
    game.apply(Action.make("guards", "ready"))
    game.apply(Action.make("raiders", "ready"))
    revealed = [e for e in game.log.since(start) if e.kind == "h2h-revealed"]
    assert {e.data["figure"] for e in revealed} == {"kane", "g1"}
    assert all(e.for_side("guards") is not None for e in revealed)
    rounds = [e for e in game.log.since(start) if e.kind == "h2h-round"]
    assert len(rounds) == 1


def test_leaving_costs_20_tp_whatever_happens() -> None:
    game = Game(build(), seed=3)
    to_h2h(game)
    game.apply(Action.make("guards", "leave", figure="g1"))
    game.apply(Action.make("guards", "ready"))
    game.apply(Action.make("raiders", "ready"))
    assert game.state.men["g1"].tp == 30
    dis = [e for e in game.log.since(0) if e.kind == "disengage"]
    assert dis and dis[-1].data["leaving"] == ["g1"]
    if dis[-1].data["freed"]:
        assert game.state.men["g1"].must_leave and not game.state.men["g1"].engaged


def test_at_most_five_rounds_then_phase_5() -> None:
    game = Game(build(), seed=4)
    to_h2h(game)
    game.apply(Action.make("raiders", "ready"))
    game.apply(Action.make("guards", "ready"))
    rounds = 0
    while game.state.phase == H2H:
        for side, man in (("raiders", "kane"), ("guards", "g1")):
            game.apply(Action.make(side, "evade", figure=man))
            game.apply(Action.make(side, "ready"))
        rounds += 1
    assert rounds == 5  # both evade: nobody is hurt, five rounds (C-38)
    assert game.state.phase == "activate"
    assert game.state.men["kane"].engaged  # still engaged into the next turn


def test_no_leak_of_declarations_in_random_play() -> None:
    """Random play on a close board: every secret declaration stays with its own side until
    the round resolves, and the other side's view never names an undisclosed order."""
    from tests.conformance import random_playout

    declared = 0
    for seed in range(8):
        last = 0
        for game in random_playout(build(extra_guards=1), seed):
            new = game.log.since(last)
            last = len(game.log)
            for event in new:
                if event.kind == "h2h-declared":
                    declared += 1
                    side = game.state.men[event.data["figure"]].side
                    assert event.for_side(game.state.enemy(side)) is None
            orders = game.state.h2h.get("orders", {}) if game.state.phase == H2H else {}
            for side, mine in orders.items():
                enemy_view = game.view(game.state.enemy(side))
                told = [e for e in enemy_view.get("events", [])
                        if e.get("kind") == "h2h-declared" and e.get("figure") in mine]
                assert not told, told
    assert declared > 20


def test_a_raider_who_cannot_fire_charges_into_hand_to_hand() -> None:
    from killhouse.ai.roles.commando import RaiderBot
    from killhouse.core.rng import Rng

    sc = build()
    game = Game(sc, seed=1)
    commit(game)
    game.state.active_side = "raiders"
    game.apply(Action.make("raiders", "activate", figure="kane"))
    game.state.men["kane"].tp = 10  # not enough for an M16 fire (18)
    bot = RaiderBot(sc, "raiders")
    choice = bot.choose(game.view("raiders"), game.legal_actions("raiders"), Rng.from_seed(1))
    assert choice.kind == "step" and choice.get("dir") == "e"
    game.apply(choice)
    assert game.state.men["kane"].engaged and game.state.men["g1"].engaged
