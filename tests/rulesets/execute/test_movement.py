"""Movement, doors, insertion and hostages following (5.2, 5.3; rulings E-2 … E-5, E-30, E-34)."""

from __future__ import annotations

import pytest

from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError, ScenarioError
from killhouse.rulesets.execute.combat import can_see
from killhouse.rulesets.execute.movement import claim, destinations, move
from killhouse.rulesets.execute.state import EXTRACTED, INCAPACITATED
from tests.rulesets.execute.helpers import RULESET, Dice, act, place, scenario, state_of, to_combat


def combat(**kw: object):  # type: ignore[no-untyped-def]
    st, log = state_of(scenario(**kw))  # type: ignore[arg-type]
    to_combat(st, log)
    return st, log


def to_movement(st, log) -> None:  # type: ignore[no-untyped-def]
    """Skip both grenade slots and the FBI's task slot (FBI has initiative)."""
    for _ in range(3):
        act(st, log, Dice(), st.acting_side(), "done")
    assert st.phase == "movement" and st.acting_side() == st.fbi


def test_no_corner_cutting_past_walls() -> None:
    """E-2: a diagonal may not squeeze between a wall and anything."""
    st, _ = combat(levels={"ground": "#####\n#.#.#\n##..#\n#...#\n.....\n"}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:3,3"},
    ])
    agent = place(st, "zach", 0, 1, 1)
    reach = destinations(st, agent)
    assert Cell(0, 2, 2) not in reach  # (1,1)->(2,2) squeezes past walls at (2,1) and (1,2)


def test_diagonal_costs_one() -> None:
    """E-2: all eight neighbours cost 1 MP."""
    st, _ = combat()
    agent = place(st, "zach", 0, 2, 2)
    assert destinations(st, agent)[Cell(0, 4, 4)] == 2


def test_pass_through_friends_not_enemies_and_end_on_bodies() -> None:
    """E-4: friends and hostages may be passed, never an active enemy; bodies do not block."""
    level = "#########\n#.......#\n#########\n.........\n"
    st, _log = combat(levels={"ground": level}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "gary", "side": "fbi", "card": "gary_ballanger"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:5,1"},
        {"id": "h1", "kind": "hostage", "card": "hostage_male", "at": "ground:3,1"},
    ])
    zach = place(st, "zach", 0, 1, 1)
    place(st, "gary", 0, 2, 1)
    reach = destinations(st, zach)
    assert Cell(0, 4, 1) in reach  # through Gary and the hostage
    assert Cell(0, 2, 1) not in reach and Cell(0, 3, 1) not in reach  # may not end on them
    assert Cell(0, 6, 1) not in reach  # the active gunman bars the corridor
    st.figures["t1"].status, st.figures["t1"].damage = "dead", 3
    st.touch()
    reach = destinations(st, zach)
    assert Cell(0, 5, 1) in reach and Cell(0, 7, 1) in reach  # a body blocks nothing


def test_closed_doors_open_when_entered_locked_doors_bar() -> None:
    """E-5: entering a closed door opens it for free; a locked door cannot be entered."""
    st, log = combat()
    agent = place(st, "zach", 0, 5, 5)
    move(st, agent, Cell(0, 5, 7), log)
    assert st.board.terrain(Cell(0, 5, 6)) == Terrain.DOOR_OPEN
    st.board.set_terrain(Cell(0, 5, 6), Terrain.DOOR_LOCKED)
    place(st, "zach", 0, 5, 7)
    assert Cell(0, 5, 5) not in destinations(st, agent)


def test_insertion_through_entry_squares() -> None:
    """E-34: an off-map agent steps onto a free entry square (1 MP) and moves on."""
    st, log = combat()
    agent = st.figures["zach"]
    assert agent.pos is None
    reach = destinations(st, agent)
    assert reach[Cell(0, 0, 7)] == 1
    assert reach[Cell(0, 5, 6)] == 2  # the door above the street
    assert max(reach.values()) <= agent.card.movement
    to_movement(st, log)
    act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 5, 5])
    assert agent.pos == Cell(0, 5, 5)


def test_insertion_onto_a_stair_entry_costs_two() -> None:
    """E-34: the entry step costs 2 MP when the entry square is a stair square."""
    levels = {"ground": "#####\n#...#\n#.>.#\n#####\n", "upper": "#####\n#...#\n#.<.#\n#####\n"}
    st, _log = combat(levels=levels, zones={"entry": ["ground:2,2"]}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "upper:1,1"},
    ])
    reach = destinations(st, st.figures["zach"])
    assert reach[Cell(0, 2, 2)] == 2
    assert reach[Cell(0, 1, 1)] == 3
    assert reach[Cell(1, 2, 2)] == 4  # along the stair link: another 2


def test_one_move_per_figure_per_phase() -> None:
    """E-10: a figure that moved cannot move again this phase."""
    st, log = combat()
    to_movement(st, log)
    act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 5, 7])
    before = RULESET.snapshot(st)
    with pytest.raises(IllegalActionError, match="already acted"):
        act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 4, 7])
    assert RULESET.snapshot(st) == before


def test_hostage_claimed_and_follows_then_extracted() -> None:
    """E-30, E-31: an agent next to a hostage claims it; the hostage follows with its own MP
    to a free square next to the leader; stepping on an extraction square takes it out."""
    st, log = combat()
    agent = place(st, "zach", 0, 7, 2)
    hostage = st.figures["h1"]  # at (8,2), Movement 6
    st.figures["t1"].pos = Cell(0, 1, 1)
    st.touch()
    claim(st, agent, hostage, log)
    move(st, agent, Cell(0, 5, 5), log)
    assert hostage.leader == "zach"
    assert hostage.pos is not None and max(abs(hostage.pos.x - 5), abs(hostage.pos.y - 5)) == 1
    move(st, agent, Cell(0, 5, 7), log)  # out through the door to the street (entry squares)
    assert hostage.pos == Cell(0, 5, 6)  # the door: the only free square next to the leader
    move(st, agent, Cell(0, 7, 7), log)  # one more step pulls it onto the street
    assert hostage.status == EXTRACTED and hostage.pos is None


def test_hostage_with_too_few_mp_goes_as_far_as_it_can() -> None:
    """E-30: if it cannot reach the leader this turn, it walks its MP along a cheapest path."""
    level = "##################\n#................#\n##################\n..................\n"
    st, log = combat(levels={"ground": level}, figures=[
        {"id": "zach", "side": "fbi", "card": "walt_tohmas"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:16,1"},
        {"id": "h1", "kind": "hostage", "card": "hostage_pregnant", "at": "ground:2,1"},
    ])
    agent = place(st, "zach", 0, 1, 1)
    claim(st, agent, st.figures["h1"], log)
    move(st, agent, Cell(0, 11, 1), log)  # 10 MP; the hostage has 4
    assert st.figures["h1"].pos == Cell(0, 6, 1)


def test_dropped_leader_loses_its_hostages() -> None:
    """E-30: a leader incapacitated or killed loses its hostages, which stay put."""
    st, log = combat()
    agent = place(st, "zach", 0, 7, 2)
    claim(st, agent, st.figures["h1"], log)
    move(st, agent, Cell(0, 7, 3), log)
    assert st.figures["h1"].leader == "zach"
    from killhouse.rulesets.execute.combat import apply_damage

    agent.armour = 0
    apply_damage(st, agent, 3, "shot", log)  # Zach V 4: 1 left
    assert agent.status == INCAPACITATED and st.figures["h1"].leader is None


def test_claim_action_steals_a_hostage_before_a_move() -> None:
    """E-30: an agent may claim a hostage already led by another agent, before its move."""
    st, log = combat(figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "gary", "side": "fbi", "card": "gary_ballanger"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:1,1"},
        {"id": "h1", "kind": "hostage", "card": "hostage_male", "at": "ground:8,2"},
    ])
    place(st, "zach", 0, 7, 2)
    place(st, "gary", 0, 9, 2)
    st.figures["h1"].leader = "zach"
    to_movement(st, log)
    act(st, log, Dice(), st.fbi, "claim", figure="gary", hostage="h1")
    assert st.figures["h1"].leader == "gary"


def claims(st, side: str) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    return {(str(a.get("figure")), str(a.get("hostage")))
            for a in RULESET.legal_actions(st, side) if a.kind == "claim"}


def test_claims_are_a_choice_never_automatic() -> None:
    """E-30 "may claim" (ruling E-46): walking next to a hostage claims nothing by itself."""
    st, log = combat()
    place(st, "zach", 0, 6, 3)
    st.figures["t1"].pos = Cell(0, 1, 1)
    st.touch()
    to_movement(st, log)
    act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 7, 2])
    assert st.figures["h1"].leader is None
    assert not [e for e in log.events if e.kind == "claimed"]
    # right after its move the agent may still claim (E-30: before and after a move)
    assert claims(st, st.fbi) == {("zach", "h1")}
    act(st, log, Dice(), st.fbi, "claim", figure="zach", hostage="h1")
    assert st.figures["h1"].leader == "zach"


def test_claim_needs_adjacency_not_sight() -> None:
    """E-30: an adjacent hostage round a wall corner may be claimed; one two squares off not."""
    level = "#######\n##.#..#\n#.#...#\n#.....#\n###+###\n.......\n"
    st, log = combat(levels={"ground": level}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:5,1"},
        {"id": "h1", "kind": "hostage", "card": "hostage_male", "at": "ground:1,2"},
    ])
    place(st, "zach", 0, 2, 1)  # diagonal to the hostage at (1,2); walls at (1,1) and (2,2)
    assert not can_see(st, Cell(0, 2, 1), Cell(0, 1, 2))  # no sight through the corner (E-6)
    to_movement(st, log)
    assert claims(st, st.fbi) == {("zach", "h1")}
    place(st, "zach", 0, 3, 3)  # Chebyshev 2: out of reach
    assert claims(st, st.fbi) == set()
    place(st, "zach", 0, 2, 3)  # adjacent again (edge: Chebyshev 1)
    assert claims(st, st.fbi) == {("zach", "h1")}


def test_claim_after_a_move_only_for_the_last_mover() -> None:
    """E-30: "immediately" after a move: once another agent has moved, the chance has gone."""
    st, log = combat(figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "gary", "side": "fbi", "card": "gary_ballanger"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:1,1"},
        {"id": "h1", "kind": "hostage", "card": "hostage_male", "at": "ground:8,2"},
    ])
    place(st, "zach", 0, 5, 3)
    place(st, "gary", 0, 2, 4)
    to_movement(st, log)
    act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 7, 3])
    assert claims(st, st.fbi) == {("zach", "h1")}
    act(st, log, Dice(), st.fbi, "move", figure="gary", to=[0, 2, 5])
    assert claims(st, st.fbi) == set()
    before = RULESET.snapshot(st)
    with pytest.raises(IllegalActionError):
        act(st, log, Dice(), st.fbi, "claim", figure="zach", hostage="h1")
    assert RULESET.snapshot(st) == before


# -- the player's route (5.2, issue: waypoints) ------------------------------------------------


def routed(st, log, **args):  # type: ignore[no-untyped-def]
    """Apply a move and return its ``moved`` event's data."""
    act(st, log, Dice(), st.fbi, "move", **args)
    return [e for e in log.events if e.kind == "moved"][-1].data


def test_a_move_walks_through_its_waypoints_in_order() -> None:
    """5.2: the player picks the route; each leg is the cheapest legal path."""
    st, log = combat()
    place(st, "zach", 0, 1, 1)
    st.figures["t1"].pos = Cell(0, 10, 5)
    st.touch()
    to_movement(st, log)
    moved = routed(st, log, figure="zach", to=[0, 3, 1], via=[[0, 1, 3]])
    assert moved["path"] == [[0, 1, 2], [0, 1, 3], [0, 2, 2], [0, 3, 1]]
    assert moved["cost"] == 4 and st.figures["zach"].pos == Cell(0, 3, 1)


def test_waypoint_routes_take_the_chosen_door_and_trip_only_their_alarms() -> None:
    """5.2 with E-19: going round an alarmed square is the player's choice."""
    level = ("#########\n#.......#\n#.......#\n#.......#\n#########\n.........\n")
    st, log = combat(levels={"ground": level}, zones={
        "entry": ["ground:0,5-8,5"], "hall": ["ground:4,2"]},
        objects=[{"id": "pir", "type": "alarm", "level": 3, "covers": "hall",
                  "at": "ground:7,3"}],
        figures=[{"id": "zach", "side": "fbi", "card": "zach_dante"},
                 {"id": "t1", "side": "terrorists", "card": "standard_terrorist",
                  "at": "ground:7,1"}])
    place(st, "zach", 0, 1, 2)
    to_movement(st, log)
    routed(st, log, figure="zach", to=[0, 6, 2], via=[[0, 3, 3], [0, 4, 3], [0, 5, 3]])
    assert not [e for e in log.events if e.kind == "alert"]
    st2, log2 = combat(levels={"ground": level}, zones={
        "entry": ["ground:0,5-8,5"], "hall": ["ground:4,2"]},
        objects=[{"id": "pir", "type": "alarm", "level": 3, "covers": "hall",
                  "at": "ground:7,3"}],
        figures=[{"id": "zach", "side": "fbi", "card": "zach_dante"},
                 {"id": "t1", "side": "terrorists", "card": "standard_terrorist",
                  "at": "ground:7,1"}])
    place(st2, "zach", 0, 1, 2)
    to_movement(st2, log2)
    routed(st2, log2, figure="zach", to=[0, 6, 2], via=[[0, 4, 2]])
    assert [e.data["at"] for e in log2.events if e.kind == "alert"] == [[0, 4, 2]]


def test_default_move_is_unchanged_without_waypoints() -> None:
    """The destination alone walks the path finder's cheapest path (ruling E-59)."""
    st, log = combat()
    place(st, "zach", 0, 1, 1)
    st.figures["t1"].pos = Cell(0, 10, 5)
    st.touch()
    to_movement(st, log)
    moved = routed(st, log, figure="zach", to=[0, 3, 1])
    assert moved["cost"] == 2 and len(moved["path"]) == 2


@pytest.mark.parametrize(("via", "to", "reason"), [
    ([[0, 0, 0]], [0, 3, 1], "wall"),
    ([[0, 40, 1]], [0, 3, 1], "not on the map"),
    ([[0, 5, 2]], [0, 3, 1], "active enemy"),
    ([[0, 10, 5], [0, 1, 5]], [0, 1, 1], r"costs 22 MP; 'zach' has 9"),
    ([[0, 2, 2]], [0, 8, 2], "not a free square"),
    ("east", [0, 3, 1], "argument .via. must be a list"),
])
def test_bad_routes_are_refused_with_a_reason_and_change_nothing(
    via: object, to: list[int], reason: str
) -> None:
    st, log = combat()
    place(st, "zach", 0, 1, 1)
    to_movement(st, log)
    before, events = RULESET.snapshot(st), len(log.events)
    with pytest.raises(IllegalActionError, match=reason):
        act(st, log, Dice(), st.fbi, "move", figure="zach", to=to, via=via)
    assert RULESET.snapshot(st) == before and len(log.events) == events


def test_route_allowance_edge_and_one_past() -> None:
    """5.2 in play: a route costing exactly Movement is legal; one MP more is refused."""
    st, log = combat()
    zach = place(st, "zach", 0, 1, 1)  # Movement 9
    st.figures["t1"].pos = Cell(0, 10, 5)
    st.touch()
    to_movement(st, log)
    with pytest.raises(IllegalActionError, match="costs 10 MP"):
        act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 1, 2], via=[[0, 6, 1]])
    moved = routed(st, log, figure="zach", to=[0, 2, 1], via=[[0, 6, 1]])
    assert moved["cost"] == 9 == zach.card.movement


def test_unreachable_waypoint_is_refused() -> None:
    """A waypoint behind a locked door cannot be reached this move."""
    st, log = combat()
    st.board.set_terrain(Cell(0, 5, 6), Terrain.DOOR_LOCKED)
    place(st, "zach", 0, 5, 7)
    to_movement(st, log)
    with pytest.raises(IllegalActionError, match="cannot be reached"):
        act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 6, 7], via=[[0, 5, 4]])


def test_off_map_agent_enters_along_its_route() -> None:
    """E-34 with 5.2: the first leg comes in by an entry square."""
    st, log = combat()
    st.figures["t1"].pos = Cell(0, 10, 1)
    st.touch()
    to_movement(st, log)
    moved = routed(st, log, figure="zach", to=[0, 5, 4], via=[[0, 2, 7]])
    assert moved["path"][0] == [0, 2, 7] and moved["from"] is None


# -- entry squares: doors, windows, map edges (E-34, ruling E-66) ---------------------------

WINDOWED = (
    "#######\n"
    "#.....#\n"
    "#.....#\n"
    "###=###\n"
    ".......\n"
)


def test_an_entry_window_is_climbed_through_not_stood_in() -> None:
    """E-34, E-66: a window listed as an entry square lets agents in for 1 MP; nobody ends a
    move in it; a window not listed stays a wall to movement."""
    st, log = combat(levels={"ground": WINDOWED}, zones={"entry": ["ground:3,3"]}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:5,1"},
    ])
    reach = destinations(st, st.figures["zach"])
    assert Cell(0, 3, 3) not in reach  # the window itself
    assert reach[Cell(0, 3, 2)] == 2  # 1 MP through the window, 1 MP on
    to_movement(st, log)
    with pytest.raises(IllegalActionError, match="window"):
        act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 3, 3])
    act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 3, 2])
    moved = [e for e in log.events if e.kind == "moved"][-1].data
    assert moved["path"] == [[0, 3, 3], [0, 3, 2]] and moved["cost"] == 2


def test_a_window_that_is_not_an_entry_square_bars_movement() -> None:
    st, _ = combat(levels={"ground": WINDOWED}, zones={"entry": ["ground:0,4-6,4"]}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:5,1"},
    ])
    reach = destinations(st, st.figures["zach"])
    assert Cell(0, 3, 2) not in reach and Cell(0, 3, 4) in reach


@pytest.mark.parametrize(("square", "fine"), [
    ("ground:3,3", True),  # a window (E-66)
    ("ground:3,4", True),  # the street
    ("ground:3,2", True),  # floor inside
    ("ground:2,3", False),  # the wall beside the window
    ("ground:0,0", False),  # the corner
])
def test_an_entry_square_must_be_one_a_figure_can_enter(square: str, fine: bool) -> None:
    """E-34, E-66: an entry square is floor, an unlocked door, a stair or a window; a wall is
    refused with the file's place and a hint, before any game starts."""
    def load() -> None:
        scenario(levels={"ground": WINDOWED}, zones={"entry": [square]}, figures=[
            {"id": "zach", "side": "fbi", "card": "zach_dante"},
            {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:5,1"},
        ])
    if fine:
        load()
    else:
        with pytest.raises(ScenarioError, match="cannot be entered"):
            load()


def test_map_edge_entry_squares() -> None:
    """E-34: squares on the map's edge may be entry squares (the street row of the room)."""
    st, _ = combat(zones={"entry": ["ground:0,7", "ground:11,7"]})
    reach = destinations(st, st.figures["zach"])
    assert reach[Cell(0, 0, 7)] == 1 and reach[Cell(0, 11, 7)] == 1
    assert reach[Cell(0, 5, 7)] == 6  # along the street from the nearer edge


def test_airliner_over_wing_exits_are_entry_squares() -> None:
    from killhouse.scenario.loader import load_scenario
    from tests.conformance import shipped_scenarios

    path = next(p for p in shipped_scenarios("execute") if p.stem == "airliner")
    st, _ = state_of(load_scenario(path))
    wings = {c for c in st.entry if st.board.terrain(c) == Terrain.WINDOW}
    assert len(wings) == 4
    reach = destinations(st, st.figures["zach"])
    assert reach[Cell(0, 18, 3)] == 2  # in over the wing: 1 MP the window, 1 the seat row



def test_a_door_opened_in_a_walk_leaves_nothing_stale_in_the_cache() -> None:
    """E-5: a door a walk opens changes the terrain in the middle of a resolution; what the
    state's cache read before (the terrain's key, each side's sight) is dropped then, so a
    rule that reads sight later in the walk (who sees a hostage extracted) sees through it."""
    from killhouse.rulesets.execute.movement import walk
    from killhouse.rulesets.execute.vision import side_sight, terrain_key

    st, log = combat()
    agent = place(st, "zach", 0, 5, 5)
    shut = terrain_key(st, 0)
    assert not side_sight(st, st.fbi)[0][7][5]  # the street beyond the shut door
    walk(st, agent, [Cell(0, 5, 6)], log)  # onto the door square: it opens
    assert st.board.terrain(Cell(0, 5, 6)) == Terrain.DOOR_OPEN
    assert terrain_key(st, 0) != shut
    assert terrain_key(st, 0) == st.board.levels[0].terrain.tobytes()
    assert side_sight(st, st.fbi)[0][7][5]  # seen from the doorway now
