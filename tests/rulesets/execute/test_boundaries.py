"""Every range, radius and threshold of Execute at its edge and one step past it, in play
(issue 10 item 17): actions go through ``apply``, dice through the turn sequence."""

from __future__ import annotations

from typing import Any

import pytest

from killhouse.core.cells import Cell
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.execute.state import ACTIVE, DEAD, INCAPACITATED, Bomb, ExecuteState
from killhouse.rulesets.execute.tables import Card
from tests.rulesets.execute.helpers import RULESET, Dice, act, place, scenario, state_of, to_combat

#: an open floor 60 squares wide (walled), with a street row for the entry squares
FIELD = "#" * 60 + "\n" + ("#" + "." * 58 + "#\n") * 5 + "#" * 30 + "+" + "#" * 29 + "\n" + (
    "." * 60 + "\n")


def field_game(**kw: Any) -> tuple[ExecuteState, EventLog]:
    figures = kw.pop("figures", None) or [
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:50,1"},
        {"id": "t2", "side": "terrorists", "card": "standard_terrorist", "at": "ground:52,1"},
    ]
    st, log = state_of(scenario(levels={"ground": FIELD}, figures=figures, **kw))
    to_combat(st, log)
    return st, log


def skip_to(st: ExecuteState, log: EventLog, phase: str) -> None:
    while st.phase != phase:
        act(st, log, Dice(), st.acting_side(), "done")


def card(v: int = 4, ev: int = 6, f: int = 8, g: int = 6, e: int = 4, m: int = 7) -> Card:
    return Card("test", "Test", "custom", m, f, g, e, ev, v)


def refused(st: ExecuteState, log: EventLog, side: str, kind: str, **args: Any) -> str:
    """Apply an action that must be refused; state and log unchanged. Returns the reason."""
    before, events = RULESET.snapshot(st), len(log.events)
    with pytest.raises(IllegalActionError) as caught:
        act(st, log, Dice(), side, kind, **args)
    assert RULESET.snapshot(st) == before and len(log.events) == events
    return str(caught.value)


# -- grenades: distance 1 to 15 (E-25), blast radius 3 (E-27) ------------------------------


@pytest.mark.parametrize(("distance", "legal"), [(0, False), (1, True), (15, True),
                                                 (16, False)])
def test_grenade_distance_edges(distance: int, legal: bool) -> None:
    st, log = field_game()
    place(st, "zach", 0, 20, 3)
    target = [0, 20 + distance, 3]
    if legal:
        act(st, log, Dice(8), st.fbi, "throw", figure="zach", at=target)
        assert st.figures["zach"].grenades == 1
    else:
        assert "1 to 15 squares" in refused(st, log, st.fbi, "throw", figure="zach", at=target)


def test_blast_radius_edge_three_hits_four_does_not() -> None:
    st, log = field_game()
    place(st, "zach", 0, 10, 3)
    edge = place(st, "t1", 0, 23, 3)  # 3 from the landing square (20,3)
    past = place(st, "t2", 0, 24, 4)  # 4 from it
    for f in (edge, past):
        f.armour = 0
    act(st, log, Dice(8), st.fbi, "throw", figure="zach", at=[0, 20, 3])  # TN 6 on d8: on target
    assert edge.damage == 4 and past.damage == 0


# -- movement allowance (5.2) ------------------------------------------------------------------


def test_move_exactly_the_allowance_and_one_past() -> None:
    st, log = field_game()
    zach = place(st, "zach", 0, 5, 2)  # Movement 9
    skip_to(st, log, "movement")
    assert "not a free square" in refused(st, log, st.fbi, "move", figure="zach", to=[0, 15, 2])
    act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 14, 2])
    assert zach.pos == Cell(0, 14, 2)
    assert [e for e in log.events if e.kind == "moved"][-1].data["cost"] == 9


# -- sight (E-6): the corner rule at its edge ---------------------------------------------------

CORNER = (
    "#######\n"
    "#..#..#\n"
    "#.....#\n"
    "#.....#\n"
    "###+###\n"
    ".......\n"
)


def corner_game(level: str) -> tuple[ExecuteState, EventLog]:
    st, log = state_of(scenario(levels={"ground": level}, zones={"entry": ["ground:0,5-6,5"]},
                                figures=[{"id": "zach", "side": "fbi", "card": "zach_dante"},
                                         {"id": "t1", "side": "terrorists",
                                          "card": "standard_terrorist", "at": "ground:4,1"}]))
    to_combat(st, log)
    place(st, "zach", 0, 3, 2)  # diagonal to (4,1): the segment runs through one grid corner
    skip_to(st, log, "firing")
    return st, log


def test_sight_through_a_corner_needs_one_open_side() -> None:
    """E-6: a segment through a grid corner is blocked only if both squares at it are opaque:
    (3,1) is a wall; with (4,2) open the shot is there, with (4,2) a wall it is not."""
    st, log = corner_game(CORNER)
    act(st, log, Dice(8), st.fbi, "fire", figure="zach", target="t1")
    st2, log2 = corner_game(CORNER.replace("#.....#\n#.....#\n###", "#...#.#\n#.....#\n###"))
    assert "line of sight" in refused(st2, log2, st2.fbi, "fire", figure="zach", target="t1")


# -- damage: a pistol's exactly 1 VD, a bomb's 10 VD on big cards (5.5, E-22) ------------------


def test_pistol_hit_deals_exactly_one_vd_in_play() -> None:
    st, log = field_game()
    zach = place(st, "zach", 0, 10, 2)
    zach.weapon = "pistol"
    target = place(st, "t1", 0, 14, 2)
    target.armour = 0
    skip_to(st, log, "firing")
    act(st, log, Dice(5), st.fbi, "fire", figure="zach", target="t1")  # TN 10 - 10 = 0: auto
    assert target.damage == 1 and target.vitality_left == 2 and target.status == ACTIVE


@pytest.mark.parametrize(("vitality", "armour", "taken", "status"), [
    (10, 0, 10, DEAD),          # V 10 unarmoured: exactly 0 left
    (10, 3, 7, ACTIVE),         # armour III: 7 taken, 3 left
    (8, 3, 7, INCAPACITATED),   # 1 left: incapacitated (the threshold)
    (9, 3, 7, ACTIVE),          # 2 left: one past it
    (7, 3, 7, DEAD),            # V <= 7 dies even in armour III (E-22)
])
def test_bomb_ten_vd_on_big_vitality_in_play(vitality: int, armour: int, taken: int,
                                             status: str) -> None:
    st, log = field_game()
    holder = st.figures["t1"]
    victim = place(st, "zach", 0, 30, 3)
    victim.card, victim.armour = card(v=vitality), armour
    st.bombs["b"] = Bomb("b", Cell(0, 40, 3), 6, "remote", None, holder.id)
    act(st, log, Dice(), st.fbi, "done")  # the FBI's grenade slot; the terrorists' is next
    act(st, log, Dice(), st.terrorists, "detonate", bomb="b")
    assert victim.damage == taken and victim.status == status


def test_bomb_radius_fifty_and_one_past() -> None:
    """E-22: Chebyshev 50 from the bomb is caught, 51 is not."""
    st, log = field_game(figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "gary", "side": "fbi", "card": "gary_ballanger"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:57,1"},
    ])
    edge = place(st, "zach", 0, 2, 3)  # Chebyshev 50 from (52,3)
    past = place(st, "gary", 0, 1, 3)  # 51
    st.bombs["b"] = Bomb("b", Cell(0, 52, 3), 6, "remote", None, "t1")
    act(st, log, Dice(), st.fbi, "done")
    act(st, log, Dice(), st.terrorists, "detonate", bomb="b")
    assert (edge.damage, edge.status) == (10, DEAD) and past.damage == 0


# -- timers, devices and turns ------------------------------------------------------------------


def test_bomb_timer_at_min_timer_and_one_before() -> None:
    """E-23: a timer turn of min_timer is legal; one turn earlier is not."""
    st, log = state_of(scenario(objects=[{"id": "b", "type": "bomb", "at": "ground:3,3"}],
                                options={"min_timer": 5}))
    act(st, log, Dice(), st.terrorists, "bomb_timer", bomb="b", turn=5)
    assert st.bombs["b"].explode_turn == 5
    refused(st, log, st.terrorists, "bomb_timer", bomb="b", turn=4)


def test_task_adjacency_one_and_two() -> None:
    """E-18: a device one square away may be worked; two squares away may not."""
    st, log = state_of(scenario(objects=[{"id": "cam", "type": "camera", "level": 1,
                                          "covers": "entry", "at": "ground:3,3"}]))
    to_combat(st, log)
    place(st, "zach", 0, 5, 3)
    skip_to(st, log, "tasks")
    assert not [a for a in RULESET.legal_actions(st, st.fbi) if a.kind == "task"]
    refused(st, log, st.fbi, "task", figure="zach", device="cam")
    place(st, "zach", 0, 4, 4)
    act(st, log, Dice(), st.fbi, "task", figure="zach", device="cam")  # TN 2 - 10 < 1: auto
    assert not st.devices["cam"].working


def test_turn_limit_ends_the_game_at_its_end_not_before() -> None:
    """E-37: the game ends at the end of turn turn_limit (X5), not at the end of the one
    before."""
    st, log = state_of(scenario(turn_limit=2))
    to_combat(st, log)
    skip_to_turn_end = 7  # grenades x2, tasks, movement x2, firing x2
    for _ in range(skip_to_turn_end):
        act(st, log, Dice(), st.acting_side(), "done")
    assert st.result is None and st.turn == 2
    act(st, log, Dice(6, 1), st.fbi, "continue")
    for _ in range(skip_to_turn_end):
        act(st, log, Dice(), st.acting_side(), "done")
    assert st.result is not None and st.result.details["trigger"] == "X5"


@pytest.mark.parametrize(("roll", "terrorists", "hostages"), [
    (4, 0, 0), (5, 2, 0), (6, 2, 0), (7, 3, 1), (9, 3, 1), (10, 3, 1)])
def test_surveillance_band_edges_in_play(roll: int, terrorists: int, hostages: int) -> None:
    """5.10: 1-4 nothing, 5-6 two terrorists, 7-9 five and most hostages, 10-12 everyone
    (three terrorists and one hostage here)."""
    st, log = state_of(scenario(figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        *({"id": f"t{i}", "side": "terrorists", "card": "standard_terrorist",
           "at": f"ground:{2 + i},2"} for i in range(3)),
        {"id": "h1", "kind": "hostage", "card": "hostage_male", "at": "ground:8,2"},
    ]))
    act(st, log, Dice(roll, *([0] * 4)), st.terrorists, "ready")
    kinds = [r["kind"] for r in st.surveillance["revealed"]]
    assert (kinds.count("terrorist"), kinds.count("hostage")) == (terrorists, hostages)


@pytest.mark.parametrize(("firearms", "roll", "rolled"), [
    (9, None, False),  # TN 1: automatic, no die (E-13)
    (8, 1, True),      # TN 2: a die is rolled (and a 1 misses)
    (2, 8, True),      # TN 8 on d8: the highest face still hits
    (1, None, False),  # TN 9 on d8: cannot hit, no die
])
def test_shot_tn_edges_in_play(firearms: int, roll: int | None, rolled: bool) -> None:
    st, log = field_game()
    zach = place(st, "zach", 0, 10, 2)
    zach.card = card(f=firearms)
    place(st, "t1", 0, 14, 2)  # the standard terrorist's Evasion 5: TN = 10 - F
    skip_to(st, log, "firing")
    dice = Dice(*([roll] if roll is not None else []))
    act(st, log, dice, st.fbi, "fire", figure="zach", target="t1")
    assert bool(dice.used) is rolled and dice.values == []
