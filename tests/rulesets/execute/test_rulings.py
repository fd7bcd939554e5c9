"""Rulings not covered elsewhere, each pinned by the play it changes (E-3, E-11, E-28, E-37,
E-38, and the new rulings E-43 … E-61 of docs/rulesets/execute.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.execute import victory
from killhouse.rulesets.execute.movement import destinations
from killhouse.rulesets.execute.state import DEAD
from killhouse.rulesets.execute.tables import STATS
from killhouse.rulesets.execute.vision import visible_ids
from tests.rulesets.execute.helpers import RULESET, Dice, act, place, scenario, state_of, to_combat

TWO_FLOORS = {"ground": "#######\n#..>..#\n#######\n.......\n",
              "upper": "#######\n#..<..#\n#######\n       \n"}


def test_no_sight_between_levels() -> None:
    """E-3: LOS never crosses levels, even straight up a stair link."""
    st, log = state_of(scenario(levels=TWO_FLOORS, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "upper:3,1"},
    ]))
    to_combat(st, log)
    place(st, "zach", 0, 3, 1)
    assert visible_ids(st, st.fbi) == frozenset()


def test_default_loadout() -> None:
    """E-11 SMG by default; E-28 two grenades per combatant; hostages carry nothing."""
    st, _ = state_of(scenario())
    assert (st.figures["zach"].weapon, st.figures["zach"].grenades) == ("smg", 2)
    assert (st.figures["h1"].weapon, st.figures["h1"].grenades, st.figures["h1"].armour) == (
        None, 0, 0)
    assert st.options.turn_limit == 30  # E-37


def test_listed_grenades_override_the_supply() -> None:
    """E-48: grenade entries in a figure's equipment set its own supply."""
    st, _ = state_of(scenario(figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante", "equipment": ["grenade"] * 3},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:5,2"},
    ], options={"grenades_per_figure": 0}))
    assert st.figures["zach"].grenades == 3 and st.figures["t1"].grenades == 0


def test_terrorist_setup_sets_bomb_modes() -> None:
    """E-43: in setup the terrorists choose each bomb's timer turn or trigger holder."""
    st, log = state_of(scenario(objects=[{"id": "b", "type": "bomb", "at": "ground:3,3"}]))
    bomb = st.bombs["b"]
    assert (bomb.mode, bomb.explode_turn, bomb.level) == ("timer", 5, 6)  # E-23 defaults
    turns = {a.get("turn") for a in RULESET.legal_actions(st, st.terrorists)
             if a.kind == "bomb_timer"}
    assert min(turns) == 5 and max(turns) == 30
    act(st, log, Dice(), st.terrorists, "bomb_remote", bomb="b", holder="t1")
    assert (bomb.mode, bomb.holder, bomb.explode_turn) == ("remote", "t1", None)
    act(st, log, Dice(), st.terrorists, "bomb_timer", bomb="b", turn=9)
    assert (bomb.mode, bomb.explode_turn) == ("timer", 9)
    with pytest.raises(IllegalActionError):
        act(st, log, Dice(), st.terrorists, "bomb_timer", bomb="b", turn=4)
    assert all(e.audience == frozenset({st.terrorists}) for e in log.events
               if e.kind == "bomb_set")


def test_drawn_locks_take_the_default_level() -> None:
    """E-44: a locked door drawn without a level is a level-5 lock."""
    room = "#####\n#...#\n##L##\n.....\n"
    st, _ = state_of(scenario(levels={"ground": room}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:1,1"},
    ]))
    lock = st.devices["lock@ground:2,2"]
    assert (lock.type, lock.level, lock.working) == ("lock", 5, True)


def test_device_shutoffs_are_announced() -> None:
    """E-45: the terrorists notice at once when their camera goes dead."""
    st, log = state_of(scenario(objects=[{"id": "cam", "type": "camera", "at": "ground:0,1",
                                          "level": 1, "covers": "entry"}]))
    to_combat(st, log)
    place(st, "zach", 0, 1, 1)
    act(st, log, Dice(), st.fbi, "done")
    act(st, log, Dice(), st.terrorists, "done")
    act(st, log, Dice(), st.fbi, "task", figure="zach", device="cam")
    off = [e for e in log.events if e.kind == "devices_off"]
    assert off and off[0].audience is None and off[0].data["devices"] == ["cam"]


def test_negotiation_messages_are_limited() -> None:
    """E-47: free talk, at most max_messages per side."""
    st, log = state_of(scenario(options={"max_messages": 2}))
    act(st, log, Dice(1), st.terrorists, "ready")
    act(st, log, Dice(), st.fbi, "talk", text="Release the children.")
    act(st, log, Dice(), st.fbi, "talk", text="Please.")
    with pytest.raises(IllegalActionError, match="up to 2 messages"):
        act(st, log, Dice(), st.fbi, "talk", text="Again.")
    said = [e.data["text"] for e in log.events if e.kind == "message"]
    assert said == ["Release the children.", "Please."]


def test_negotiation_can_be_switched_off() -> None:
    st, log = state_of(scenario(options={"negotiation": False}))
    act(st, log, Dice(1), st.terrorists, "ready")
    assert st.phase == "planning"


def test_open_map_does_not_show_bombs() -> None:
    """E-49: the open map shows figures; a bomb is still found only by sight."""
    st, log = state_of(scenario(options={"open_map": True}, objects=[
        {"id": "b", "type": "bomb", "at": "ground:3,3"}]))
    to_combat(st, log)
    assert RULESET.view(st, st.fbi)["bombs"] == []
    assert "t1" in visible_ids(st, st.fbi)


def test_no_hostages_no_x4_and_the_special_case() -> None:
    """E-50 and section 7 step 5: with H = 0, X4 never fires; X3 with agents left is an FBI win."""
    st, log = state_of(scenario(figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:5,2"},
    ]))
    to_combat(st, log)
    assert victory.check(st, end_of_turn=True) is None
    st.figures["t1"].status, st.figures["t1"].damage = DEAD, 3
    result = victory.check(st, end_of_turn=True)
    assert result is not None and result.winner == st.fbi


def test_every_side_gets_its_slots() -> None:
    """E-51: a side with active figures is always asked, even with nothing to do."""
    st, log = state_of(scenario())
    to_combat(st, log)
    assert st.phase == "grenades" and st.acting_side() == st.fbi  # all agents off-map
    assert [a.kind for a in RULESET.legal_actions(st, st.fbi)] == ["done"]


def test_a_dud_tells_the_terrorists_of_an_unseen_disarm() -> None:
    """E-55: a bomb disarmed out of their sight still shows armed until they try it."""
    st, log = state_of(scenario(objects=[{"id": "b", "type": "bomb", "at": "ground:9,5",
                                          "mode": "remote", "holder": "t1"}]))
    to_combat(st, log, fbi_wins=False)
    st.bombs["b"].state = "disarmed"
    st.touch()
    assert RULESET.view(st, st.terrorists)["bombs"][0]["state"] == "armed"
    act(st, log, Dice(), st.terrorists, "detonate", bomb="b")
    assert RULESET.view(st, st.terrorists)["bombs"][0]["state"] == "disarmed"
    assert st.result is None


def test_entry_squares_must_be_free() -> None:
    """E-60: an agent may not come in onto an entry square someone stands on."""
    st, log = state_of(scenario(zones={"entry": ["ground:0,7-1,7"]}))
    to_combat(st, log)
    place(st, "t1", 0, 0, 7)
    reach = destinations(st, st.figures["zach"])
    assert Cell(0, 0, 7) not in reach and reach[Cell(0, 1, 7)] == 1


def test_default_roster_when_the_file_lists_none() -> None:
    """E-61: without FBI figures the roster is the first fbi_count printed cards."""
    st, _ = state_of(scenario(figures=[
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:5,2"},
    ], options={"fbi_count": 3}))
    assert [a.id for a in st.agents()] == ["harry_lars", "gary_ballanger", "matt_timmerman"]
    assert all(a.armour == 3 and a.weapon == "smg" for a in st.agents())


def test_doors_are_known_as_last_seen() -> None:
    """E-58: a door opened out of a side's sight still shows closed in its view."""
    st, log = state_of(scenario())
    to_combat(st, log)
    st.board.set_terrain(Cell(0, 5, 6), Terrain.DOOR_OPEN)
    place(st, "t1", 0, 1, 1)  # far from the door, but in sight of it
    doors = {tuple(d["at"]): d["state"] for d in RULESET.view(st, st.terrorists)["doors"]}
    assert doors[(0, 5, 6)] == "closed"  # views refresh after actions, not on their own
    from killhouse.rulesets.execute.vision import refresh

    refresh(st, log)
    doors = {tuple(d["at"]): d["state"] for d in RULESET.view(st, st.terrorists)["doors"]}
    assert doors[(0, 5, 6)] == "open"


def test_illegal_actions_change_nothing() -> None:
    st, log = state_of(scenario())
    to_combat(st, log)
    before = RULESET.snapshot(st)
    bogus: list[tuple[str, str, dict[str, Any]]] = [
        (st.terrorists, "done", {}),  # not its slot
        (st.fbi, "fire", {"figure": "zach", "target": "t1"}),  # wrong phase
        (st.fbi, "throw", {"figure": "zach", "at": [0, 3, 3]}),  # off-map thrower
        (st.fbi, "move", {"figure": "t1", "to": [0, 3, 3]}),
        (st.fbi, "launch", {}),
    ]
    for side, kind, args in bogus:
        with pytest.raises(IllegalActionError) as caught:
            act(st, log, Dice(), side, kind, **args)
        assert str(caught.value)
        assert RULESET.snapshot(st) == before



def to_planning(st, log) -> None:  # type: ignore[no-untyped-def]
    act(st, log, Dice(1), st.terrorists, "ready")
    act(st, log, Dice(), st.fbi, "end_negotiation")
    act(st, log, Dice(), st.terrorists, "end_negotiation")
    assert st.phase == "planning"


def test_planning_chooses_grenades() -> None:
    """E-36, E-67: the loadout includes the grenades, 0 to grenades_per_figure."""
    st, log = state_of(scenario(options={"grenades_per_figure": 2}))
    to_planning(st, log)
    act(st, log, Dice(), st.fbi, "loadout", figure="zach", weapon="sniper", armour=1, grenades=0)
    zach = st.figures["zach"]
    assert (zach.weapon, zach.armour, zach.grenades) == ("sniper", 1, 0)
    act(st, log, Dice(), st.fbi, "loadout", figure="zach", weapon="smg", armour=2, grenades=2)
    assert zach.grenades == 2  # the edge: the whole supply
    before = RULESET.snapshot(st)
    with pytest.raises(IllegalActionError):  # one past the supply
        act(st, log, Dice(), st.fbi, "loadout", figure="zach", weapon="smg", armour=2,
            grenades=3)
    assert RULESET.snapshot(st) == before
    act(st, log, Dice(), st.fbi, "loadout", figure="zach", weapon="pistol", armour=2)
    assert zach.grenades == 2  # left out: kept


def test_planning_builds_a_custom_agent_to_the_card_rules() -> None:
    """E-33, E-36, E-67: a custom agent is a 25-point card within the stat bounds."""
    st, log = state_of(scenario())
    to_planning(st, log)
    offered = [a for a in RULESET.legal_actions(st, st.fbi) if a.kind == "recruit_custom"]
    assert len(offered) == 1 and [offered[0].get(s) for s in STATS] == [6, 6, 3, 2, 5, 3]
    for bad, why in [([7, 6, 3, 2, 5, 3], "sum to 26"), ([6, 6, 3, 2, 9, 0], "evasion. is 9"),
                     ([6, 6, 3, 2, 5], "needs the argument 'vitality'"),
                     ([11, 1, 3, 2, 5, 3], "movement. is 11")]:
        before = RULESET.snapshot(st)
        with pytest.raises(IllegalActionError, match=why):
            act(st, log, Dice(), st.fbi, "recruit_custom", **dict(zip(STATS, bad, strict=False)))
        assert RULESET.snapshot(st) == before
    act(st, log, Dice(), st.fbi, "recruit_custom", name="Runner",
        **dict(zip(STATS, [10, 1, 1, 1, 8, 4], strict=True)))
    agent = st.figures["custom-1"]
    assert (agent.card.movement, agent.card.evasion, agent.name, agent.custom) == (
        10, 8, "Runner", True)
    assert "custom-1" not in json.dumps(RULESET.view(st, st.terrorists))
    act(st, log, Dice(), st.fbi, "dismiss", figure="custom-1")
    assert "custom-1" in st.pool  # benched, and may be recalled
    act(st, log, Dice(), st.fbi, "recruit", card="custom-1")
    assert st.figures["custom-1"].card.movement == 10


def test_custom_agents_only_while_the_roster_has_room() -> None:
    st, log = state_of(scenario(options={"fbi_count": 1}))
    to_planning(st, log)
    with pytest.raises(IllegalActionError, match="fewer than 1"):
        act(st, log, Dice(), st.fbi, "recruit_custom",
            **dict(zip(STATS, [6, 6, 3, 2, 5, 3], strict=True)))
