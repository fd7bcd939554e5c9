"""Open, Vented and Closed rooms read off the map's walls for blasts (digest 9.6, rulings C-28,
C-89, C-187): each class on a small map, the edges (no opening / one opening), zones as the
override, the blast kept in its room, and a blast in play."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from killhouse import rulesets
from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game
from killhouse.rulesets.commando import explosions, rooms
from killhouse.rulesets.commando.surroundings import environment
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


def build(rows: Sequence[str], zones: str = "", men: str = "") -> Scenario:
    drawn = "\n".join("      " + r for r in rows)
    text = f"""
name: rooms test
ruleset: commando
map:
  legend:
    "b": {{terrain: floor, building: building}}
    "H": {{terrain: floor, building: large}}
    "s": {{terrain: floor, ground: slit}}
  levels:
    ground: |
{drawn}
{zones}
sides:
  - {{id: raiders, name: R, controller: ai}}
  - {{id: guards, name: G, controller: ai}}
figures:
  - {{id: kane, side: raiders, at: "ground:0,0", equipment: [m16], man: commando,
     stats: {{st: 17, mk: 22, dex: 18, end: 19, lead: 12, hero: 22}}}}
  - {{id: g1, side: guards, at: "ground:11,0", equipment: [pistol],
     stats: {{st: 13, mk: 13, dex: 13, end: 13}}}}
{men}
"""
    return loads_scenario(text, "rooms.yaml")


def room_map(east: str) -> list[str]:
    """A 3x2 room at x 2-4, y 2-3; ``east`` is the wall cell at (5, 2)."""
    return [
        "............",
        "..HHH.......",
        "#####" + "#" + "......",
        "#bbb" + "b" + east + "......",
        "#bbbb#......",
        "######......",
    ]


def env(rows: Sequence[str], at: tuple[int, int] = (2, 3), zones: str = "") -> str:
    game = Game(build(rows, zones), seed=1)
    return environment(game.state, Cell(0, *at))


def test_a_room_with_every_opening_shut_is_closed() -> None:
    assert env(room_map("#")) == "closed"
    assert env(room_map("+")) == "closed"  # a closed door
    assert env(room_map("=")) == "closed"  # a window reads closed (C-79)


def test_one_open_opening_vents_it() -> None:
    assert env(room_map("'")) == "vented"  # an open door
    assert env(room_map("s")) == "vented"  # a slit
    assert env(room_map(".")) == "vented"  # a gap onto open ground


def test_a_stairwell_vents_the_room() -> None:
    game = Game(build(room_map("#")), seed=1)
    assert environment(game.state, Cell(0, 2, 3)) == "closed"
    game.state.board.set_terrain(Cell(0, 4, 4), Terrain.STAIRS_UP)  # a stairwell in the room
    assert environment(game.state, Cell(0, 2, 3)) == "vented"


def test_outdoors_and_large_buildings_are_open() -> None:
    assert env(room_map("#"), at=(8, 3)) == "open"
    assert env(room_map("#"), at=(3, 1)) == "open"  # large


def test_a_wall_corner_seals_a_diagonal() -> None:
    # room A (x 1-2, y 2-3) touches room B at (3, 4) only across a wall corner: B's open door
    # does not vent A (the flood fill's corner rule, as line of sight's)
    rows = [
        "............",
        "####........",
        "#bb#........",
        "#bb###......",
        "###b'#......",
        "..#bb#......",
        "..####......",
    ]
    assert env(rows, at=(2, 3)) == "closed"
    assert env(rows, at=(3, 5)) == "vented"


def test_zones_override_the_walls() -> None:
    zones = "  zones:\n    room_a: [\"ground:1,3\", \"ground:2,3\", \"ground:3,3\"]\n"
    # the walls say Vented (open door); the zone says Closed (no door next to the zone)
    assert env(room_map("'"), zones=zones) == "closed"


def test_room_counts() -> None:
    game = Game(build(room_map("+")), seed=1)
    room = rooms.room_at(game.state.board, Cell(0, 2, 3))
    assert room is not None
    assert room.closed_doors == 1 and room.open_doors == 0 and room.windows == 0
    assert int(room.cells.sum()) == 8
    assert rooms.room_at(game.state.board, Cell(0, 8, 3)) is None


def test_a_closed_blast_stays_in_its_room_and_hits_in_it() -> None:
    rows = room_map("'")
    rows[3] = "#bbbb'.bbb.."  # the door at (5, 3), open ground beyond it
    men = ('  - {id: g2, side: guards, at: "ground:6,3", equipment: [pistol],\n'
           '     stats: {st: 13, mk: 13, dex: 13, end: 13}}\n'
           '  - {id: g3, side: guards, at: "ground:4,3", equipment: [pistol],\n'
           '     stats: {st: 13, mk: 13, dex: 13, end: 13}}\n')
    game = Game(build(rows, men=men), seed=2)
    state = game.state
    state.board.set_terrain(Cell(0, 5, 3), Terrain.DOOR_CLOSED)
    explosions.explode(state, "satchel", Cell(0, 3, 3), "raiders", "kane", game.chance,
                       game.log)
    blast = [e.data for e in game.log.events if e.kind == "explosion"][-1]
    assert blast["environment"] == "closed"
    hit = {e.data["figure"] for e in game.log.events if e.kind == "blasted"}
    assert hit == {"g3"}  # g2 beyond the closed door is safe
    state.board.set_terrain(Cell(0, 5, 3), Terrain.DOOR_OPEN)
    explosions.explode(state, "satchel", Cell(0, 3, 3), "raiders", "kane", game.chance,
                       game.log)
    blast = [e.data for e in game.log.events if e.kind == "explosion"][-1]
    hit = {e.data["figure"] for e in game.log.events if e.kind == "blasted"}
    assert blast["environment"] == "vented" and "g2" not in hit  # the area stays inside
