"""Stairs (25 TP a level), locks (force 25 TP at d100 ≤ 40 + CharMod(St); pick with
Safe-Cracking × 2 over 50 TP), searchlights (C-13, C-123) and the defending side's −20 (C-12,
C-122) in play."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from killhouse import rulesets
from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game, canonical_json
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import doors, lights
from killhouse.rulesets.commando.flow import in_view, phase_one_chance
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


def build(levels: str, a: str, b: str, *, light: str = "day", extra: str = "",
          skills: str = "{}", st: int = 17, objects: str = "") -> Scenario:
    text = f"""
name: tasks test
ruleset: commando
options: {{light: {light}}}
map:
  levels:
{levels}
sides:
  - {{id: raiders, name: R, controller: ai}}
  - {{id: guards, name: G, controller: ai}}
figures:
  - {{id: kane, side: raiders, at: "{a}", equipment: [m16], man: commando,
     stats: {{st: {st}, mk: 22, dex: 18, end: 19, lead: 21, hero: 22}}, skills: {skills}}}
  - {{id: g1, side: guards, at: "{b}", equipment: [pistol],
     stats: {{st: 13, mk: 13, dex: 13, end: 13}}}}
{objects}
{extra}
"""
    return loads_scenario(text, "tasks.yaml")


def start(sc: Scenario, seed: int = 1) -> Game:
    game = Game(sc, seed=seed)
    for side in ("raiders", "guards"):
        game.apply(Action.make(side, "commit"))
    game.state.active_side = "raiders"
    game.apply(Action.make("raiders", "activate", figure="kane"))
    return game


TOWER = """    ground: |
      .>....
      ......
    upper: |
      .<....
      ......"""


def test_stairs_cost_25_and_change_the_level() -> None:
    game = start(build(TOWER, "ground:1,0", "ground:5,1"))
    climbs = [a for a in game.legal_actions("raiders") if a.kind == "climb"]
    assert [tuple(a.get("to")) for a in climbs] == [(1, 1, 0)]
    game.apply(climbs[0])
    assert game.state.pos["kane"] == Cell(1, 1, 0)
    assert game.state.men["kane"].tp == 25


def test_stairs_need_their_full_cost_edge() -> None:
    game = start(build(TOWER, "ground:1,0", "ground:5,1"))
    game.state.men["kane"].tp = 25
    assert any(a.kind == "climb" for a in game.legal_actions("raiders"))
    game.state.men["kane"].tp = 24
    assert not any(a.kind == "climb" for a in game.legal_actions("raiders"))


DOOR = """    ground: |
      .L....
      ......"""


def test_force_a_lock_pays_25_and_the_roll_edge() -> None:
    # St 17: CharMod 0, so the chance is 40: find seeds whose d100 is 40 and 41
    outcomes = {}
    for seed in range(200):
        game = start(build(DOOR, "ground:0,0", "ground:5,1"), seed)
        forces = [a for a in game.legal_actions("raiders") if a.kind == "force"]
        assert [tuple(a.get("at")) for a in forces] == [(0, 1, 0)]
        start_at = len(game.log)
        game.apply(forces[0])
        roll = next(e for e in game.log.since(start_at) if e.kind == "roll")
        face = roll.data.get("value", roll.data.get("result"))
        opened = game.state.board.terrain(Cell(0, 1, 0)) is Terrain.DOOR_CLOSED
        assert game.state.men["kane"].tp == 25
        outcomes[face] = opened
        if 40 in outcomes and 41 in outcomes:
            break
    assert outcomes[40] is True and outcomes[41] is False
    assert doors.force_chance(game.state.men["kane"]) == 40


def test_a_locked_door_cannot_be_opened_or_stepped_into() -> None:
    game = start(build(DOOR, "ground:0,0", "ground:5,1"))
    kinds = {a.kind for a in game.legal_actions("raiders")}
    assert "door" not in kinds and "pick" not in kinds  # no Safe-Cracking: no pick
    before = canonical_json(game.ruleset.snapshot(game.state))
    with pytest.raises(IllegalActionError):
        game.apply(Action.make("raiders", "step", figure="kane", dir="e"))
    assert canonical_json(game.ruleset.snapshot(game.state)) == before


def test_picking_a_lock_spans_activations() -> None:
    game = start(build(DOOR, "ground:0,0", "ground:5,1", skills="{safe_cracking: 20}"))
    kane = game.state.men["kane"]
    kane.tp = 30
    picks = [a for a in game.legal_actions("raiders") if a.kind == "pick"]
    game.apply(picks[0])
    assert kane.tp == 0 and kane.task_paid == 30  # 30 of 50 paid, no roll yet
    assert game.state.board.terrain(Cell(0, 1, 0)) is Terrain.DOOR_LOCKED


SEARCH = """    ground: |
      ..............................
      .............................."""


def test_a_searchlight_lights_a_target_beyond_night_range() -> None:
    objects = """objects:
  - {id: sl, type: searchlight, at: "ground:29,0", aim: "ground:20,1"}"""
    lit = build(SEARCH, "ground:0,1", "ground:20,1", light="night", objects=objects)
    dark = build(SEARCH, "ground:0,1", "ground:20,1", light="night")
    assert in_view(Game(lit, seed=1).state, "kane", "g1")
    assert not in_view(Game(dark, seed=1).state, "kane", "g1")
    # the lit block is 5x5: aim 20 lights x 18..22; a target at 23 is dark (edge)
    edge = build(SEARCH, "ground:0,1", "ground:22,1", light="night", objects=objects)
    past = build(SEARCH, "ground:0,1", "ground:23,1", light="night", objects=objects)
    assert in_view(Game(edge, seed=1).state, "kane", "g1")
    assert not in_view(Game(past, seed=1).state, "kane", "g1")


def test_searchlight_modifiers_near_edge_and_observer_lit() -> None:
    objects = """objects:
  - {id: sl, type: searchlight, at: "ground:29,0", aim: "ground:22,1"}"""
    # kane (Hero 22: code D, 80) at 20 squares from the lit g1: +30 -> clamped 95
    near = Game(build(SEARCH, "ground:2,1", "ground:22,1", objects=objects), seed=1)
    assert phase_one_chance(near.state, "kane", "g1") == 95
    far = Game(build(SEARCH, "ground:1,1", "ground:22,1", objects=objects), seed=1)
    assert phase_one_chance(far.state, "kane", "g1") == 80  # 21 squares: not nearby
    # g1 stands lit, looking at kane outside the block: 65 (G) - 30, and defending -20
    assert phase_one_chance(near.state, "g1", "kane") == 65 - 30 - 20


def test_destroying_a_searchlight_takes_5_tp_next_to_it() -> None:
    objects = """objects:
  - {id: sl, type: searchlight, at: "ground:1,0", aim: "ground:20,1"}"""
    game = start(build(SEARCH, "ground:0,0", "ground:25,1", light="night", objects=objects))
    destroy = [a for a in game.legal_actions("raiders") if a.kind == "destroy"]
    assert destroy
    game.apply(destroy[0])
    assert game.state.lights["sl"] == lights.Light(Cell(0, 1, 0), None)
    assert game.state.men["kane"].tp == 45
    assert game.view("guards")["public"]["searchlights"]["sl"]["aim"] is None


def test_defending_minus_20_lasts_until_the_turn_after_the_alarm() -> None:
    game = Game(build(SEARCH, "ground:0,1", "ground:20,1"), seed=1)
    state = game.state
    state.alarm_turn = None
    assert phase_one_chance(state, "g1", "kane") == 65 - 20
    state.alarm_turn = state.turn
    assert phase_one_chance(state, "g1", "kane") == 65 - 20  # the turn of the alarm
    state.turn += 1
    assert phase_one_chance(state, "g1", "kane") == 65  # the turn after: gone
    assert phase_one_chance(state, "kane", "g1") == 80  # the raiders never take it


def test_bad_searchlight_objects_are_refused() -> None:
    from killhouse.errors import ScenarioError

    objects = """objects:
  - {id: sl, type: searchlight, at: "ground:1,0", aim: "ground:99,1"}
  - {id: box, type: crate, at: "ground:2,0"}"""
    with pytest.raises(ScenarioError) as err:
        build(SEARCH, "ground:0,0", "ground:25,1", objects=objects)
    assert "aim" in str(err.value) and "crate" in str(err.value)


def test_an_unknown_defending_side_is_refused() -> None:
    from killhouse.errors import ScenarioError

    with pytest.raises(ScenarioError) as err:
        loads_scenario(_with_defending("nobody"), "defending.yaml")
    assert "options.defending" in str(err.value) and "nobody" in str(err.value)
    assert loads_scenario(_with_defending("none"), "defending.yaml") is not None


def _with_defending(side: str) -> str:
    return f"""
name: defending
ruleset: commando
options: {{defending: {side}}}
map:
  levels:
    ground: |
      ......
sides:
  - {{id: raiders, name: R, controller: ai}}
  - {{id: guards, name: G, controller: ai}}
figures:
  - {{id: kane, side: raiders, at: "ground:0,0", equipment: [m16], man: commando,
     stats: {{st: 17, mk: 22, dex: 18, end: 19, lead: 21, hero: 22}}}}
  - {{id: g1, side: guards, at: "ground:5,0", equipment: [pistol],
     stats: {{st: 13, mk: 13, dex: 13, end: 13}}}}
"""


def test_operating_a_searchlight_swings_it_to_an_observed_enemy() -> None:
    objects = """objects:
  - {id: sl, type: searchlight, at: "ground:1,0", aim: "ground:10,0"}"""
    game = start(build(SEARCH, "ground:0,0", "ground:25,1", light="night", objects=objects))
    state = game.state
    assert not [a for a in game.legal_actions("raiders") if a.kind == "operate"]
    state.observed["raiders"].add("g1")
    ops = [a for a in game.legal_actions("raiders") if a.kind == "operate"]
    assert [tuple(a.get("to")) for a in ops] == [(0, 25, 1)]
    state.men["kane"].tp = 49
    assert not [a for a in game.legal_actions("raiders") if a.kind == "operate"]
    state.men["kane"].tp = 50
    start_at = len(game.log)
    game.apply(ops[0])
    assert state.lights["sl"].aim == Cell(0, 25, 1) and state.men["kane"].tp == 0
    swung = [e for e in game.log.since(start_at) if e.kind == "searchlight"]
    assert swung and swung[0].for_side("guards") is not None  # a light is seen by all
