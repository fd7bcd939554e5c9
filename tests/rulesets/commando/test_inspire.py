"""Inspire Men in Battle (digest 12.2, ruling C-185) and a Preserving man's forced move and
forced disengagement (digest 7.2, rulings C-125, C-186), in play."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from killhouse import rulesets
from killhouse.core.cells import Cell
from killhouse.core.chance import SeededChance
from killhouse.core.events import Audience
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import h2h
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


class Loaded(SeededChance):
    """The game's chance, with the faces of named rolls forced (1-based, in order)."""

    def __init__(self, game: Game, faces: dict[str, list[int]]) -> None:
        super().__init__(game.rng, game.log)
        self.faces = {k: list(v) for k, v in faces.items()}

    def _choose(self, weights: Sequence[int], what: str, purpose: str,
                audience: Audience) -> int:
        queue = self.faces.get(purpose)
        if queue:
            return queue.pop(0) - 1
        return super()._choose(weights, what, purpose, audience)


def build(kane: str, bird: str, g1: str, *, abilities: str = "[inspire_men]",
          rows: Sequence[str] = ("." * 30,) * 5) -> Scenario:
    drawn = "\n".join("      " + r for r in rows)
    text = f"""
name: inspire test
ruleset: commando
map:
  levels:
    ground: |
{drawn}
sides:
  - {{id: raiders, name: R, controller: ai}}
  - {{id: guards, name: G, controller: ai}}
figures:
  - {{id: kane, side: raiders, at: "{kane}", equipment: [m16], man: commando,
     abilities: {abilities},
     stats: {{st: 17, mk: 22, dex: 18, end: 19, lead: 12, hero: 22}}}}
  - {{id: bird, side: raiders, at: "{bird}", equipment: [m16], man: grunt, leader: kane,
     stats: {{st: 15, mk: 18, dex: 15, end: 16}}}}
  - {{id: g1, side: guards, at: "{g1}", equipment: [pistol],
     stats: {{st: 13, mk: 13, dex: 13, end: 13}}}}
"""
    return loads_scenario(text, "inspire.yaml")


def to_activation(game: Game) -> None:
    """Plot nobody; raiders win the initiative (forced)."""
    for side in ("raiders", "guards"):
        game.apply(Action.make(side, "commit"))
    state = game.state
    if state.active_side != "raiders":
        game.apply(Action.make("guards", "activate", figure="g1"))
        game.apply(Action.make("guards", "end"))
        while game.pending() and game.pending()[0].kind == "opfire":
            game.apply(Action.make(game.pending()[0].side, "hold"))


def kinds(game: Game, side: str) -> set[str]:
    return {a.kind for a in game.legal_actions(side)}


def panicking(kane: str, result_face: int, abilities: str = "[inspire_men]") -> Game:
    """Bird activates and panics (d100 1; the 1d10 gives the result)."""
    game = Game(build(kane, "ground:10,1", "ground:28,1", abilities=abilities), seed=4)
    game.chance = Loaded(game, {"panic check": [1], "panic result": [result_face]})
    to_activation(game)
    game.apply(Action.make("raiders", "activate", figure="bird"))
    return game


def test_a_panic_waits_for_the_side_when_kane_can_inspire() -> None:
    game = panicking("ground:0,1", 1)  # range 10: within reach; 1 = fall prone
    state = game.state
    bird = state.men["bird"]
    assert state.forced["panic"] == {"figure": "bird", "result": "prone"}
    assert kinds(game, "raiders") == {"inspire", "panic"}  # nothing else until answered
    with pytest.raises(IllegalActionError, match="C-185"):
        game.apply(Action.make("raiders", "step", figure="bird", dir="e"))
    assert bird.posture is Posture.STANDING and bird.tp == 50
    # the other side's view says nothing of it
    assert "forced" not in game.view("guards")
    assert game.view("raiders")["forced"]["panic"]["result"] == "prone"
    game.apply(Action.make("raiders", "inspire", figure="kane", man="bird"))
    assert not state.forced and state.active_man == "bird"
    assert bird.posture is Posture.STANDING and bird.tp == 50
    assert state.men["kane"].uses["inspire_men"] == 1
    assert "step" in kinds(game, "raiders")
    inspired = [e for e in game.log.events if e.kind == "inspired"]
    assert inspired[-1].data["cancels"] == "panic"


def test_letting_the_panic_stand_plays_it_out() -> None:
    game = panicking("ground:0,1", 1)
    game.apply(Action.make("raiders", "panic", figure="bird"))
    state = game.state
    assert state.men["bird"].posture is Posture.PRONE and state.men["bird"].tp == 0
    assert state.active_man != "bird" and state.men["kane"].uses["inspire_men"] == 2


def test_inspire_reach_edge_10_in_11_out() -> None:
    assert "inspire" in kinds(panicking("ground:0,1", 1), "raiders")  # range 10
    game = panicking("ground:0,0", 1)  # dx 10, dy 1: range 10 + 0 = 10
    assert "inspire" in kinds(game, "raiders")
    game = panicking("ground:0,3", 1)  # dx 10, dy 2: range 11
    assert not game.state.forced and game.state.active_man != "bird"  # played out at once


def test_twice_per_mission_then_no_more() -> None:
    game = panicking("ground:0,1", 1)
    game.apply(Action.make("raiders", "inspire", figure="kane", man="bird"))
    kane = game.state.men["kane"]
    assert kane.uses["inspire_men"] == 1
    kane.uses["inspire_men"] = 0  # the second use spent
    game.state.men["bird"].preserving = True
    assert "inspire" not in kinds(game, "raiders")
    no_ability = panicking("ground:0,1", 1, abilities="[]")
    assert not no_ability.state.forced  # no ability: no question, the panic is played out
    assert no_ability.state.men["bird"].posture is Posture.PRONE


def test_inspire_cancels_preserving_in_the_plot() -> None:
    game = Game(build("ground:0,1", "ground:10,1", "ground:28,1"), seed=4)
    state = game.state
    state.men["bird"].preserving = True
    offered = [a for a in game.legal_actions("raiders") if a.kind == "inspire"]
    assert [(a.get("figure"), a.get("man")) for a in offered] == [("kane", "bird")]
    game.apply(offered[0])
    assert not state.men["bird"].preserving
    assert any(a.kind == "plot" and a.get("figure") == "bird"
               for a in game.legal_actions("raiders"))
    seen = [e for e in game.log.events if e.kind == "inspired"]
    assert seen[-1].audience == frozenset({"raiders"})
    state.pos["bird"] = Cell(0, 11, 1)  # range 11: out of reach
    state.men["bird"].preserving = True
    assert not [a for a in game.legal_actions("raiders") if a.kind == "inspire"]


# -- the forced move (C-186) -----------------------------------------------------------------

WALLED = (
    "..............................",
    "..............................",
    ".............#................",
    "..............................",
    "..............................",
)


def preserving(bird: str, g1: str = "ground:20,2", rows: Sequence[str] = WALLED,
               tp: int | None = None) -> Game:
    game = Game(build("ground:0,4", bird, g1, abilities="[]", rows=rows), seed=4)
    state = game.state
    to_activation(game)
    bird_man = state.men["bird"]
    bird_man.preserving = True
    bird_man.panic_checked = True
    state.observed["raiders"] = {"g1"}
    if tp is not None:
        bird_man.tp = tp
    game.apply(Action.make("raiders", "activate", figure="bird"))
    return game


def steps(game: Game) -> set[str]:
    return {a.get("dir") for a in game.legal_actions("raiders") if a.kind == "step"}


def test_forced_move_offers_only_steps_toward_cover() -> None:
    # g1 at (20,2) sees bird at (13,1); the wall at (13,2) hides (12,2) and the row west of it
    game = preserving("ground:13,1")
    state = game.state
    assert state.forced["withdraw"]["figure"] == "bird"
    assert kinds(game, "raiders") == {"step"}  # no end, no fire until he is out of LOS
    assert "sw" in steps(game) and "w" in steps(game)
    assert not steps(game) & {"e", "se"}  # nearer g1 (7.2)
    with pytest.raises(IllegalActionError, match="C-186"):
        game.apply(Action.make("raiders", "end"))
    game.apply(Action.make("raiders", "step", figure="bird", dir="w"))  # (12,1): still seen
    while game.pending() and game.pending()[0].kind == "opfire":
        game.apply(Action.make(game.pending()[0].side, "hold"))
    assert state.forced.get("withdraw") is not None and "end" not in kinds(game, "raiders")
    game.apply(Action.make("raiders", "step", figure="bird", dir="s"))  # (12,2): hidden
    while game.pending() and game.pending()[0].kind == "opfire":
        game.apply(Action.make(game.pending()[0].side, "hold"))
    assert "withdraw" not in state.forced
    assert "end" in kinds(game, "raiders")


def test_forced_move_tp_edge() -> None:
    # the cheapest cover from (13,1) is (12,2), one diagonal step: 7 TP
    game = preserving("ground:13,1", tp=7)
    assert "withdraw" in game.state.forced and steps(game) == {"sw"}
    game = preserving("ground:13,1", tp=6)  # one short: no route, he drops prone for free
    state = game.state
    assert "withdraw" not in state.forced
    assert state.men["bird"].posture is Posture.PRONE and state.men["bird"].tp == 6
    assert "end" in kinds(game, "raiders")


def test_no_forced_move_out_of_sight() -> None:
    game = preserving("ground:10,2")  # in the wall's shadow already
    assert not game.state.forced
    assert game.state.men["bird"].posture is Posture.STANDING


def test_a_preserving_engaged_man_must_try_to_disengage() -> None:
    game = Game(build("ground:0,4", "ground:10,1", "ground:11,1", abilities="[]"), seed=4)
    state = game.state
    bird = state.men["bird"]
    state.pos["g1"] = Cell(0, 10, 1)
    h2h.engage([bird, state.men["g1"]])
    bird.preserving = True
    for side in ("raiders", "guards"):
        game.apply(Action.make(side, "commit"))
    assert state.phase == "h2h"
    offered = kinds(game, "raiders")
    assert "leave" in offered and "ready" not in offered
    with pytest.raises(IllegalActionError, match="must try to disengage"):
        game.apply(Action.make("raiders", "ready"))
    game.apply(Action.make("raiders", "leave", figure="bird"))
    assert "ready" in kinds(game, "raiders")
    bird.tp = 19  # without the 20 TP he cannot try, and nothing holds his side back
    state.h2h["orders"]["raiders"] = {}
    assert "ready" in kinds(game, "raiders")


@pytest.mark.parametrize("kane_observed", [True, False])
def test_the_guards_learn_who_inspired_only_while_they_observe_him(kane_observed: bool) -> None:
    """Ruling C-197: the guards, who observe Bird, see his panic cancelled; Kane's name and
    his uses left reach them only while they observe Kane too (found by the leak sweep)."""
    game = panicking("ground:0,1", 1)
    state = game.state
    state.observed["guards"] = {"bird", "kane"} if kane_observed else {"bird"}
    start = len(game.log)
    game.apply(Action.make("raiders", "inspire", figure="kane", man="bird"))
    [event] = [e for e in game.log.since(start) if e.kind == "inspired"]
    assert event.data == {"figure": "kane", "man": "bird", "cancels": "panic", "left": 1}
    assert event.for_side("raiders") == {"kind": "inspired", "seq": event.side_seq("raiders"),
                                         **event.data}
    guards = event.for_side("guards")
    assert guards is not None and guards["man"] == "bird"
    assert (guards["figure"], guards["left"]) == (("kane", 1) if kane_observed else (None, None))
