"""Clipping barbed wire in play: straight wire 50 TP, concertina 100 over activations, from a
square next to it; then clear ground (digest 5.3; rulings C-9, C-69, C-159)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from killhouse import rulesets
from killhouse.core.cells import Cell
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import ground
from killhouse.rulesets.commando.state import CommandoState
from killhouse.scenario.loader import loads_scenario
from tests.rulesets.commando.test_ordnance import finish_turn


@pytest.fixture(autouse=True)
def commando_registered() -> Iterator[None]:
    added = "commando" not in rulesets.REGISTRY
    if added:
        rulesets.register("commando", "killhouse.rulesets.commando.ruleset:CommandoRuleset")
    yield
    if added:
        rulesets.REGISTRY.pop("commando", None)
        rulesets._LOADED.pop("commando", None)


def fence(row: str) -> Game:
    text = f"""
name: wire test
ruleset: commando
options: {{light: night}}
map:
  legend:
    "w": {{terrain: floor, ground: barbed_wire}}
    "c": {{terrain: floor, ground: concertina}}
  levels:
    ground: |
      {row}
      ..........
sides:
  - {{id: raiders, name: R, controller: ai}}
  - {{id: guards, name: G, controller: ai}}
figures:
  - {{id: kane, side: raiders, at: "ground:0,0", equipment: [m16], man: commando,
     stats: {{st: 17, mk: 22, dex: 18, end: 19, lead: 21, hero: 22}}}}
  - {{id: g1, side: guards, at: "ground:9,1", equipment: [pistol],
     stats: {{st: 13, mk: 13, dex: 13, end: 13}}}}
"""
    return Game(loads_scenario(text, "wire.yaml"), seed=1)


def state(game: Game) -> CommandoState:
    s = game.state
    assert isinstance(s, CommandoState)
    return s


def kane_activates(game: Game) -> None:
    s = state(game)
    for side in s.sides:
        if s.phase == "plot" and side not in s.committed:
            game.apply(Action.make(side, "commit"))
    while s.active_man != "kane":
        side = s.active_side
        assert side is not None
        if side == "raiders":
            game.apply(Action.make("raiders", "activate", figure="kane"))
        else:
            game.apply(Action.make("guards", "activate", figure="g1"))
            game.apply(Action.make("guards", "end"))
            while game.pending() and game.pending()[0].kind == "opfire":
                game.apply(Action.make(game.pending()[0].side, "hold"))


def clips(game: Game) -> list[list[int]]:
    return [list(a.get("at")) for a in game.legal_actions("raiders") if a.kind == "clip"]


@pytest.mark.parametrize(("row", "offered"), [(".w........", True), ("..w.......", False)])
def test_wire_is_clipped_from_next_to_it_not_two_away(row: str, offered: bool) -> None:
    game = fence(row)
    kane_activates(game)
    assert (clips(game) == [[0, row.index("w"), 0]]) is offered


def test_straight_wire_takes_fifty_then_is_clear_ground() -> None:
    game = fence(".w........")
    kane_activates(game)
    s = state(game)
    wire = Cell(0, 1, 0)
    assert ground.cell_kind(s.board, wire) == "barbed_wire"
    game.apply(Action.make("raiders", "clip", figure="kane", at=[0, 1, 0]))
    assert s.men["kane"].tp == 0 and ground.cell_kind(s.board, wire) == "clear"
    [event] = [e.data for e in game.log.events if e.kind == "clip"]
    assert event["done"] and event["cost"] == 50


def test_concertina_takes_a_hundred_over_two_activations() -> None:
    game = fence(".c........")
    s = state(game)
    wire = Cell(0, 1, 0)
    kane_activates(game)
    assert not ground.enterable(s.board, wire)
    game.apply(Action.make("raiders", "clip", figure="kane", at=[0, 1, 0]))
    assert ground.cell_kind(s.board, wire) == "concertina"
    finish_turn(game)
    kane_activates(game)
    game.apply(Action.make("raiders", "clip", figure="kane", at=[0, 1, 0]))
    assert ground.cell_kind(s.board, wire) == "clear" and ground.enterable(s.board, wire)
    assert [e.data["paid"] for e in game.log.events if e.kind == "clip"] == [50, 100]
