"""Trees (Task Point Cost Chart: climb 50, drop 20; rulings C-10, C-53, C-188): where a man may
climb, the TP edges, what he may do up there, sight one elevation level higher, and no
engaging him."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from killhouse import rulesets
from killhouse.core.cells import Cell
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import flow
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


#: Y a lone tree, T woods, W woods on a hill level 1, ^ a clear hill level 1
ROWS = (
    "Y..TTT...^....",
    "Y..WWW...^....",
    "..............",
    "T.............",
)


def build(kane: str = "ground:0,0", g1: str = "ground:9,0") -> Scenario:
    drawn = "\n".join("      " + r for r in ROWS)
    text = f"""
name: tree test
ruleset: commando
map:
  legend:
    "Y": {{terrain: floor, tree: 1}}
    "T": {{terrain: floor, ground: woods}}
    "W": {{terrain: floor, ground: woods, elevation: 1}}
    "^": {{terrain: floor, elevation: 1}}
  levels:
    ground: |
{drawn}
sides:
  - {{id: raiders, name: R, controller: ai}}
  - {{id: guards, name: G, controller: ai}}
figures:
  - {{id: kane, side: raiders, at: "{kane}", equipment: [m16], man: commando,
     stats: {{st: 17, mk: 22, dex: 18, end: 19, lead: 12, hero: 22}}}}
  - {{id: g1, side: guards, at: "{g1}", equipment: [pistol],
     stats: {{st: 13, mk: 13, dex: 13, end: 13}}}}
"""
    return loads_scenario(text, "trees.yaml")


def activate_kane(game: Game) -> None:
    for side in ("raiders", "guards"):
        game.apply(Action.make(side, "commit"))
    if game.state.active_side != "raiders":
        game.apply(Action.make("guards", "activate", figure="g1"))
        game.apply(Action.make("guards", "end"))
        hold(game)
    game.apply(Action.make("raiders", "activate", figure="kane"))


def hold(game: Game) -> None:
    while game.pending() and game.pending()[0].kind == "opfire":
        game.apply(Action.make(game.pending()[0].side, "hold"))


def offered(game: Game, kind: str) -> list[Action]:
    return [a for a in game.legal_actions("raiders") if a.kind == kind]


@pytest.mark.parametrize(("at", "climbable"), [
    ("ground:0,0", True),   # a lone tree drawn tree: 1
    ("ground:0,3", True),   # woods
    ("ground:1,0", False),  # clear ground beside the tree
])
def test_where_a_man_may_climb(at: str, climbable: bool) -> None:
    game = Game(build(kane=at), seed=1)
    activate_kane(game)
    assert bool(offered(game, "tree")) is climbable


def test_climb_50_and_drop_20_tp_edges() -> None:
    game = Game(build(), seed=1)
    activate_kane(game)
    kane = game.state.men["kane"]
    kane.tp = 49
    assert not offered(game, "tree")
    kane.tp = 50
    assert offered(game, "tree")
    kane.tp = 55  # 5 left over after the climb
    game.apply(offered(game, "tree")[0])
    hold(game)
    assert kane.aloft and kane.tp == 5
    assert [e.data for e in game.log.events if e.kind == "tree"][-1]["to"] == "up"
    assert game.view("raiders")["figures"][0]["aloft"] is True
    # next turn: coming down costs 20
    kane.tp = 19
    game.state.active_man = "kane"
    assert not offered(game, "tree")
    kane.tp = 20
    assert [a.get("to") for a in offered(game, "tree")] == ["down"]


def test_up_a_tree_he_fires_but_does_not_step() -> None:
    game = Game(build(), seed=1)
    activate_kane(game)
    kane = game.state.men["kane"]
    game.state.men["kane"].aloft = True
    assert not offered(game, "step") and not offered(game, "posture")
    with pytest.raises(IllegalActionError, match="C-188"):
        game.apply(Action.make("raiders", "step", figure="kane", dir="e"))
    game.state.observed["raiders"] = {"g1"}
    game.state.pos["g1"] = Cell(0, 2, 2)
    assert [a.get("target") for a in offered(game, "fire")] == ["g1"]
    assert {"tree", "end"} <= {a.kind for a in game.legal_actions("raiders")}
    assert kane.tp == 50


def test_up_a_tree_he_sees_one_level_higher() -> None:
    # kane at (0,0) and g1 on the hill at (9,0), woods at level 0 between them: the woods
    # block a man on the ground (0 >= 0) but not one up the tree (lower end 1 > 0)
    game = Game(build(), seed=1)
    state = game.state
    a, b = Cell(0, 0, 0), Cell(0, 9, 0)
    assert not flow.has_los(state, a, b)
    state.men["kane"].aloft = True
    assert flow.has_los(state, a, b) and flow.has_los(state, b, a)
    # woods on a hill of level 1 (row 1) still block: 1 >= the lower end 1 (the edge)
    state.pos["kane"], state.pos["g1"] = Cell(0, 0, 1), Cell(0, 9, 1)
    assert not flow.has_los(state, Cell(0, 0, 1), Cell(0, 9, 1))
    state.men["kane"].aloft = False
    assert not flow.has_los(state, Cell(0, 0, 1), Cell(0, 9, 1))


def test_nobody_steps_into_his_square_to_engage_him() -> None:
    game = Game(build(kane="ground:1,2", g1="ground:0,3"), seed=1)
    state = game.state
    state.men["g1"].aloft = True  # g1 up the woods' trees at (0,3)
    activate_kane(game)
    assert "sw" not in {a.get("dir") for a in offered(game, "step")}
    state.men["g1"].aloft = False
    assert "sw" in {a.get("dir") for a in offered(game, "step")}
