"""Terrain and elevation from the core's cell layers in play (ruling C-120): the Terrain Effects
Chart per step (§17 item 7), sight through woods and over hills (C-10), terrain in fire (C-22)
and in observation (6.3)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from killhouse import rulesets
from killhouse.core.cells import Cell
from killhouse.engine.game import Game
from killhouse.errors import ScenarioError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import fire, ground
from killhouse.rulesets.commando.flow import has_los
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


LEGEND = """
  legend:
    "F": {terrain: floor, ground: forest}
    "T": {terrain: floor, ground: woods}
    "R": {terrain: floor, ground: road}
    "t": {terrain: floor, ground: trail}
    "u": {terrain: floor, ground: rubble}
    "d": {terrain: floor, ground: dune}
    "f": {terrain: floor, ground: fence}
    "h": {terrain: floor, ground: trench}
    "^": {terrain: floor, elevation: 1}
    "2": {terrain: floor, elevation: 2}
    "b": {terrain: floor, building: building}
    "B": {terrain: floor, building: large}
"""


def scenario(rows: str, a: str = "ground:0,0", b: str = "ground:9,0",
             light: str = "day") -> Scenario:
    body = "\n".join("      " + r for r in rows.strip("\n").splitlines())
    text = f"""
name: ground test
ruleset: commando
options: {{light: {light}}}
map:
{LEGEND}
  levels:
    ground: |
{body}
sides:
  - {{id: raiders, name: R, controller: ai}}
  - {{id: guards, name: G, controller: ai}}
figures:
  - {{id: kane, side: raiders, at: "{a}", equipment: [m16], man: commando,
     stats: {{st: 17, mk: 22, dex: 18, end: 19, lead: 21, hero: 22}}}}
  - {{id: g1, side: guards, at: "{b}", equipment: [pistol],
     stats: {{st: 13, mk: 13, dex: 13, end: 13}}}}
"""
    return loads_scenario(text, "ground.yaml")


def cost(rows: str, a: tuple[int, int], b: tuple[int, int], prone: bool = False) -> int | None:
    board = scenario(rows).board
    return ground.step_tp(board, Cell(0, *a), Cell(0, *b), prone=prone)


@pytest.mark.parametrize(("rows", "a", "b", "prone", "expected"), [
    ("..........", (0, 0), (1, 0), False, 5),        # orthogonal into clear
    ("..........\n..........", (0, 0), (1, 1), False, 7),  # diagonal into clear
    (".F........", (0, 0), (1, 0), False, 13),       # orthogonal into forest
    ("..........\n.u........", (0, 0), (1, 1), False, 16),  # diagonal into rubble
    (".T........", (0, 0), (1, 0), True, 13),        # prone orthogonal into woods
    ("RR........", (0, 0), (1, 0), False, 3),        # road to road
    (".R........", (0, 0), (1, 0), False, 5),        # one past: onto a road from clear
    ("t.........\n.t........", (0, 0), (1, 1), False, 6),  # diagonal trail to trail
    (".d........", (0, 0), (1, 0), False, 15),       # dune
    (".~........", (0, 0), (1, 0), False, 10),       # water
    (".'........", (0, 0), (1, 0), False, 10),       # (open) door cell
    (".=........", (0, 0), (1, 0), False, 28),       # window cell
    (".f........", (0, 0), (1, 0), False, 17),       # fence cell
    (".^........", (0, 0), (1, 0), False, 11),       # one level up
    ("^.........\n..........", (0, 0), (1, 1), False, 11),  # diagonal one level down
    (".2........", (0, 0), (1, 0), False, 17),       # two levels up: 5 + 12
    (".h........", (0, 0), (1, 0), False, 7),        # trench
])
def test_section_17_step_costs_on_the_map(rows: str, a: tuple[int, int], b: tuple[int, int],
                                          prone: bool, expected: int) -> None:
    assert cost(rows, a, b, prone) == expected


def test_walls_closed_doors_and_outside_cannot_be_entered() -> None:
    for rows in (".#........", ".+........", ".L........"):
        assert cost(rows, (0, 0), (1, 0)) is None


def test_a_step_in_play_pays_the_chart() -> None:
    game = Game(scenario(".F........", b="ground:9,0"), seed=1)
    for side in ("raiders", "guards"):
        game.apply(Action.make(side, "commit"))
    game.state.active_side = "raiders"
    game.apply(Action.make("raiders", "activate", figure="kane"))
    game.apply(Action.make("raiders", "step", figure="kane", dir="e"))
    assert game.state.men["kane"].tp == 50 - 13


def test_woods_block_sight_but_a_man_in_the_first_woods_is_seen() -> None:
    sc = scenario("..T..", b="ground:4,0")
    game = Game(sc, seed=1)
    state = game.state
    assert not has_los(state, Cell(0, 0, 0), Cell(0, 4, 0))
    assert has_los(state, Cell(0, 0, 0), Cell(0, 2, 0))  # vision reaches into the woods


def test_a_man_on_a_hill_sees_over_a_wall_lower_than_both_ends() -> None:
    # C-10: a blocking cell counts only at least as high as the lower end
    low = scenario("..#..", b="ground:4,0")
    assert not has_los(Game(low, seed=1).state, Cell(0, 0, 0), Cell(0, 4, 0))
    high = scenario("^.#.^", b="ground:4,0")
    assert has_los(Game(high, seed=1).state, Cell(0, 0, 0), Cell(0, 4, 0))
    # a hill higher than both ends blocks even with nothing on it
    ridge = scenario("..2..", b="ground:4,0")
    assert not has_los(Game(ridge, seed=1).state, Cell(0, 0, 0), Cell(0, 4, 0))


def test_fire_terrain_reads_the_target_cell_and_line_terrain_next_to_him() -> None:
    board = scenario("......T...\n....f.f...").board
    firer = Cell(0, 0, 1)
    assert ground.cell_kind(board, Cell(0, 6, 0)) == "woods"
    assert fire.terrain_modifier(ground.cell_kind(board, Cell(0, 6, 0))) == -8
    # a fence 1 square from the target on the line of fire counts (C-22), 2 squares does not
    assert ground.fire_lines(board, firer, Cell(0, 7, 1)) == ["fence"]
    assert ground.fire_lines(board, firer, Cell(0, 8, 1)) == []
    # the firer's own cell is never counted (firing out through one's own window)
    assert ground.fire_lines(board, Cell(0, 4, 1), Cell(0, 5, 1)) == []


def test_observation_reads_target_terrain_and_buildings() -> None:
    sc = scenario("....T.b.B.", b="ground:4,0")
    board = sc.board
    assert ground.cell_kind(board, Cell(0, 4, 0)) == "woods"
    assert ground.building(board, Cell(0, 6, 0)) == "building"
    assert ground.building(board, Cell(0, 8, 0)) == "large"
    assert ground.building(board, Cell(0, 0, 0)) is None


def test_a_bad_ground_name_is_one_clear_problem() -> None:
    text = """
name: bad
ruleset: commando
map:
  legend:
    "T": {terrain: floor, ground: jungle}
  levels:
    ground: |
      .T.
sides:
  - {id: raiders, name: R, controller: ai}
  - {id: guards, name: G, controller: ai}
figures: []
"""
    with pytest.raises(ScenarioError) as err:
        loads_scenario(text, "bad.yaml")
    message = str(err.value)
    assert "bad.yaml:6" in message and "jungle" in message and "woods" in message


def test_a_man_climbs_through_a_window_and_never_stands_in_it() -> None:
    # ruling C-121: the step lands beyond the window and pays both steps (28 + 5)
    game = Game(scenario(".=........", b="ground:9,0"), seed=1)
    for side in ("raiders", "guards"):
        game.apply(Action.make(side, "commit"))
    game.state.active_side = "raiders"
    game.apply(Action.make("raiders", "activate", figure="kane"))
    steps = {a.get("dir"): a for a in game.legal_actions("raiders") if a.kind == "step"}
    assert tuple(steps["e"].hint["to"]) == (0, 2, 0)
    game.apply(steps["e"])
    assert game.state.pos["kane"] == Cell(0, 2, 0)
    assert game.state.men["kane"].tp == 50 - 28 - 5


def test_a_window_climb_needs_both_steps_tp_edge() -> None:
    for tp, allowed in ((33, True), (32, False)):
        game = Game(scenario(".=........", b="ground:9,0"), seed=1)
        for side in ("raiders", "guards"):
            game.apply(Action.make(side, "commit"))
        game.state.active_side = "raiders"
        game.apply(Action.make("raiders", "activate", figure="kane"))
        game.state.men["kane"].tp = tp
        dirs = {a.get("dir") for a in game.legal_actions("raiders") if a.kind == "step"}
        assert ("e" in dirs) is allowed
