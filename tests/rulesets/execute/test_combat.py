"""Initiative, firing, grenades, tasks and bombs (5.1, 5.4 … 5.9) through the turn sequence."""

from __future__ import annotations

import pytest

from killhouse.core.cells import Cell
from killhouse.core.events import EventLog
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.execute import combat
from killhouse.rulesets.execute.rolls import roll_initiative
from killhouse.rulesets.execute.state import DEAD, INCAPACITATED, ExecuteState
from killhouse.rulesets.execute.vision import visible_ids
from tests.rulesets.execute.helpers import RULESET, Dice, act, place, scenario, state_of, to_combat


def combat_state(fbi_wins: bool = True, **kw: object) -> tuple[ExecuteState, EventLog]:
    st, log = state_of(scenario(**kw))  # type: ignore[arg-type]
    to_combat(st, log, fbi_wins=fbi_wins)
    return st, log


def kinds(st: ExecuteState, side: str) -> set[str]:
    return {a.kind for a in RULESET.legal_actions(st, side)}


def skip_to(st: ExecuteState, log: EventLog, phase: str) -> None:
    while st.phase != phase and st.result is None:
        if st.phase == "turn-start":
            act(st, log, Dice(6, 1), st.fbi, "continue")
        else:
            act(st, log, Dice(), st.acting_side(), "done")


def test_initiative_dice_order_and_ties() -> None:
    """E-8: FBI die first, then the terrorists'; a tie is rolled again."""
    dice = Dice(3, 3, 2, 5)
    won, fbi, terr = roll_initiative(dice)
    assert (won, fbi, terr) == (False, 2, 5)
    assert [u[1] for u in dice.used] == ["initiative-fbi", "initiative-terrorists"] * 2


def test_initiative_side_acts_first_in_every_phase() -> None:
    """E-9: the winner has the first slot of each phase."""
    st, log = combat_state(fbi_wins=False)
    assert st.phase == "grenades" and st.acting_side() == st.terrorists
    act(st, log, Dice(), st.terrorists, "done")
    assert st.acting_side() == st.fbi
    act(st, log, Dice(), st.fbi, "done")
    assert st.phase == "tasks" and st.acting_side() == st.fbi  # terrorists have no task slot
    act(st, log, Dice(), st.fbi, "done")
    assert st.phase == "movement" and st.acting_side() == st.terrorists


def test_killed_figures_do_not_fire_back() -> None:
    """E-9: a figure dropped by the initiative side's fire takes no shot that turn."""
    st, log = combat_state(figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:5,2"},
        {"id": "t2", "side": "terrorists", "card": "standard_terrorist", "at": "ground:9,4"},
    ])
    place(st, "zach", 0, 2, 2)
    skip_to(st, log, "firing")
    act(st, log, Dice(), st.fbi, "fire", figure="zach", target="t1")  # TN 0: automatic
    assert st.figures["t1"].status == INCAPACITATED  # standard card: V 3, SMG 2 VD
    act(st, log, Dice(), st.fbi, "done")
    assert st.acting_side() == st.terrorists
    shooters = {a.get("figure") for a in RULESET.legal_actions(st, st.terrorists)
                if a.kind == "fire"}
    assert shooters == {"t2"}


def test_fire_needs_line_of_sight_and_never_at_friends() -> None:
    """E-12: a target in LOS, not of one's own side; hostages may be targeted."""
    st, log = combat_state(figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "gary", "side": "fbi", "card": "gary_ballanger"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:5,2"},
        {"id": "h1", "kind": "hostage", "card": "hostage_male", "at": "ground:8,2"},
    ])
    place(st, "zach", 0, 2, 2)
    place(st, "gary", 0, 2, 4)
    skip_to(st, log, "firing")
    targets = {a.get("target") for a in RULESET.legal_actions(st, st.fbi)
               if a.kind == "fire" and a.get("figure") == "zach"}
    assert targets == {"t1", "h1"}
    with pytest.raises(IllegalActionError):
        act(st, log, Dice(), st.fbi, "fire", figure="zach", target="gary")
    st.board.set_terrain(Cell(0, 3, 2), Terrain.WALL)
    st.board.set_terrain(Cell(0, 3, 1), Terrain.WALL)
    st.board.set_terrain(Cell(0, 3, 3), Terrain.WALL)
    st.touch()
    assert "fire" not in {a.kind for a in RULESET.legal_actions(st, st.fbi)
                          if a.get("figure") == "zach"}


def test_automatic_results_use_no_die_and_shots_show_tn_first() -> None:
    """E-13: TN ≤ 1 hits with no die; the hint shows TN and odds before the choice."""
    st, log = combat_state()
    place(st, "zach", 0, 2, 2)
    skip_to(st, log, "firing")
    action = next(a for a in RULESET.legal_actions(st, st.fbi)
                  if a.kind == "fire" and a.get("target") == "t1")
    assert action.hint["tn"] == 0 and action.hint["p"] == 1.0
    dice = Dice()
    act(st, log, dice, st.fbi, "fire", figure="zach", target="t1")
    assert dice.used == []


def test_incapacitated_figures_take_no_actions() -> None:
    """E-15: an incapacitated figure may not move, fire, throw or work."""
    st, log = combat_state()
    zach = place(st, "zach", 0, 2, 2)
    zach.damage, zach.status = 3, INCAPACITATED
    st.touch()
    skip_to(st, log, "movement")
    assert all(a.get("figure") != "zach" for a in RULESET.legal_actions(st, st.fbi))


def test_grenade_targeting_rules() -> None:
    """E-25: any square 1-15 away on the level in LOS, even empty; not through walls."""
    st, log = combat_state()
    place(st, "zach", 0, 1, 1)
    with pytest.raises(IllegalActionError, match="15"):
        act(st, log, Dice(), st.fbi, "throw", figure="zach", at=[0, 1, 1])
    with pytest.raises(IllegalActionError, match="wall"):
        act(st, log, Dice(), st.fbi, "throw", figure="zach", at=[0, 0, 0])
    act(st, log, Dice(8), st.fbi, "throw", figure="zach", at=[0, 3, 4])  # an empty square
    assert st.figures["zach"].grenades == 1  # E-28: two to start
    events = [e for e in log.events if e.kind == "explosion"]
    assert events and events[-1].data["at"] == [0, 3, 4] and events[-1].audience is None


def test_overshoot_stops_before_a_wall() -> None:
    """E-26: a long grenade stops in the last clear square before an opaque square."""
    st, _ = combat_state()
    assert combat.landing_square(st, Cell(0, 1, 3), Cell(0, 8, 3), 5) == Cell(0, 10, 3)


def test_blast_radius_los_and_friends() -> None:
    """E-27: Chebyshev 3 on the level, LOS from the landing square; friends are hit too."""
    st, log = combat_state(figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:5,2"},
        {"id": "t2", "side": "terrorists", "card": "standard_terrorist", "at": "ground:9,2"},
    ])
    place(st, "zach", 0, 3, 3)
    combat.blast(st, Cell(0, 5, 3), log)
    assert st.figures["t1"].damage == 4 and st.figures["zach"].damage == 4
    assert st.figures["t2"].damage == 0  # four squares away


def test_grenade_tn_above_eight_still_rolls_for_the_overshoot() -> None:
    """E-42: TN 10 cannot land on target, but the d8 sets how far it goes (section 9)."""
    from killhouse.rulesets.execute.rolls import resolve_grenade

    dice = Dice(7)
    throw = resolve_grenade(dice, 15, 6)
    assert throw.check.tn == 10 and not throw.check.success and throw.overshoot == 3
    assert len(dice.used) == 1


def test_tasks_only_fbi_adjacent_once_per_turn() -> None:
    """E-18: FBI agents, adjacent to the device, one attempt each per turn."""
    st, log = combat_state(objects=[{"id": "cam", "type": "camera", "at": "ground:0,3",
                                     "level": 5, "covers": "hall"}],
                           zones={"entry": ["ground:0,7-11,7"], "hall": ["ground:1,1-10,5"]})
    place(st, "zach", 0, 3, 3)
    skip_to(st, log, "tasks")
    assert "task" not in kinds(st, st.fbi)  # not adjacent
    place(st, "zach", 0, 1, 3)
    assert "task" in kinds(st, st.fbi)
    act(st, log, Dice(1), st.fbi, "task", figure="zach", device="cam")  # TN 3: a 1 fails
    assert st.devices["cam"].working
    assert "task" not in kinds(st, st.fbi)  # one attempt this turn


def test_camera_shows_terrorists_its_squares_until_shut_off() -> None:
    """E-19: a working camera lets the terrorists see its squares; shut off, it does not."""
    st, _log = combat_state(objects=[{"id": "cam", "type": "camera", "at": "ground:11,3",
                                     "level": 2, "covers": "corner"}],
                           zones={"entry": ["ground:0,7-11,7"], "corner": ["ground:1,4-3,5"]},
                           figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:9,1"},
    ])
    st.board.set_terrain(Cell(0, 5, 1), Terrain.WALL)
    for y in range(1, 6):
        st.board.set_terrain(Cell(0, 6, y), Terrain.WALL)
    place(st, "zach", 0, 2, 5)
    assert "zach" in visible_ids(st, st.terrorists)
    st.devices["cam"].working = False
    st.touch()
    assert "zach" not in visible_ids(st, st.terrorists)


def test_alarm_alerts_and_power_cuts_everything_linked() -> None:
    """E-19: an agent entering a covered square alerts the terrorists; power shuts all off."""
    st, log = combat_state(objects=[
        {"id": "alarm", "type": "alarm", "at": "ground:0,5", "level": 4, "covers": "hall"},
        {"id": "cam", "type": "camera", "at": "ground:0,1", "level": 4, "covers": "hall"},
        {"id": "box", "type": "power", "at": "ground:11,7", "level": 1},
    ], zones={"entry": ["ground:0,7-10,7"], "hall": ["ground:1,5-10,5"]})
    skip_to(st, log, "movement")
    act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 5, 5])
    alerts = [e for e in log.events if e.kind == "alert"]
    assert alerts and alerts[-1].audience == frozenset({st.terrorists})
    assert alerts[-1].data["at"] == [0, 5, 5]
    assert st.devices["box"].links == ("alarm", "cam")
    act(st, log, Dice(), st.fbi, "done")
    act(st, log, Dice(), st.terrorists, "done")
    skip_to(st, log, "turn-start")
    act(st, log, Dice(6, 1), st.fbi, "continue")
    skip_to(st, log, "movement")
    act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 10, 7])
    skip_to(st, log, "tasks")
    act(st, log, Dice(), st.fbi, "task", figure="zach", device="box")  # level 1: TN ≤ 1
    assert not st.devices["alarm"].working and not st.devices["cam"].working


def test_lock_pick_unlocks_the_door() -> None:
    """E-19: a picked lock leaves a closed, unlocked door."""
    st, log = combat_state(objects=[{"id": "lk", "type": "lock", "at": "ground:5,6",
                                     "level": 7}])
    assert st.board.terrain(Cell(0, 5, 6)) == Terrain.DOOR_LOCKED
    place(st, "zach", 0, 5, 7)
    skip_to(st, log, "tasks")
    action = next(a for a in RULESET.legal_actions(st, st.fbi) if a.kind == "task")
    assert action.hint["tn"] == 14 - 7  # Zach Dante, Electronics 7
    act(st, log, Dice(12), st.fbi, "task", figure="zach", device="lk")
    assert st.board.terrain(Cell(0, 5, 6)) == Terrain.DOOR_CLOSED


def test_bomb_disarm_above_six_explodes_without_a_roll() -> None:
    """E-21: TN above 6 sets the bomb off on the attempt, with no die."""
    st, log = combat_state(objects=[{"id": "b", "type": "bomb", "at": "ground:3,3",
                                     "level": 9}])
    place(st, "zach", 0, 3, 4)
    skip_to(st, log, "tasks")
    assert st.bombs["b"].seen_by_fbi
    action = next(a for a in RULESET.legal_actions(st, st.fbi) if a.kind == "disarm")
    assert action.hint["tn"] == 18 - 7 and action.hint["p"] == 0.0
    dice = Dice()
    act(st, log, dice, st.fbi, "disarm", figure="zach", bomb="b")
    assert dice.used == [] and st.bombs["b"].state == "exploded"
    assert st.result is not None  # everyone died: the end check ran at once (E-22)


def test_bomb_reaches_every_level_and_spares_off_map_agents() -> None:
    """E-22: 10 VD to every figure within 50 on any level; agents still off-map are safe."""
    levels = {"ground": "#####\n#.>.#\n#####\n.....\n", "upper": "#####\n#.<.#\n#####\n     \n"}
    st, log = combat_state(levels=levels, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "gary", "side": "fbi", "card": "gary_ballanger"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "upper:1,1"},
    ], objects=[{"id": "b", "type": "bomb", "at": "ground:1,1", "mode": "remote",
                 "holder": "t1"}])
    place(st, "zach", 0, 3, 1)
    combat.explode(st, "b", log)
    assert st.figures["t1"].status == DEAD and st.figures["zach"].status == DEAD
    assert st.figures["gary"].status == "active" and st.figures["gary"].pos is None


def test_timer_bomb_goes_off_at_the_end_of_its_turn() -> None:
    """E-23: a timer bomb explodes after firing in its turn, then the end check runs."""
    st, log = combat_state(objects=[{"id": "b", "type": "bomb", "at": "ground:3,3",
                                     "timer": 5}])
    for turn in range(1, 6):
        assert st.turn == turn and st.bombs["b"].state == "armed"
        skip_to(st, log, "turn-start")
        if st.result is not None:
            break
        act(st, log, Dice(6, 1), st.fbi, "continue")
    assert st.turn == 5
    assert st.bombs["b"].state == "exploded" and st.result is not None


def test_remote_detonation_needs_an_active_holder_and_the_grenade_slot() -> None:
    """E-23: the holder's side detonates in its grenade slot, before any throw."""
    st, _log = combat_state(fbi_wins=False, objects=[
        {"id": "b", "type": "bomb", "at": "ground:3,3", "mode": "remote", "holder": "t1"}])
    assert "detonate" in kinds(st, st.terrorists)
    st.figures["t1"].status, st.figures["t1"].damage = INCAPACITATED, 2
    st.touch()
    assert "detonate" not in kinds(st, st.terrorists)


def test_bombs_are_hidden_until_an_agent_sees_them() -> None:
    """E-23: the FBI learns of a bomb only when an agent has LOS to its square."""
    st, log = combat_state(objects=[{"id": "b", "type": "bomb", "at": "ground:3,3"}])
    view = RULESET.view(st, st.fbi)
    assert view["bombs"] == [] and "b" not in RULESET.known_ids(st, st.fbi)
    skip_to(st, log, "movement")
    act(st, log, Dice(), st.fbi, "move", figure="zach", to=[0, 5, 5])
    view = RULESET.view(st, st.fbi)
    assert [b["id"] for b in view["bombs"]] == ["b"]
    assert view["bombs"][0]["turns_remaining"] == 5


def test_released_and_secured_hostages_count_as_rescued() -> None:
    """E-31, E-35: a released hostage is rescued; so is one alive when no terrorist is left."""
    st, log = state_of(scenario())
    act(st, log, Dice(1), st.terrorists, "ready")
    act(st, log, Dice(), st.terrorists, "release", hostage="h1")
    assert st.figures["h1"].status == "released" and st.figures["h1"].pos is None
    assert "h1" in RULESET.known_ids(st, st.fbi)


def test_meeting_the_demands_is_a_terrorist_victory() -> None:
    """E-35, E-38 X1."""
    st, log = state_of(scenario())
    act(st, log, Dice(1), st.terrorists, "ready")
    act(st, log, Dice(), st.fbi, "meet_demands")
    assert st.result is not None and st.result.winner == st.terrorists
    assert st.result.details["trigger"] == "X1"


def test_conceding_at_the_start_of_a_turn() -> None:
    """E-38 X1: the FBI may concede at the start of any turn."""
    st, log = combat_state()
    skip_to(st, log, "turn-start")
    act(st, log, Dice(), st.fbi, "concede")
    assert st.result is not None and st.result.winner == st.terrorists


def test_turn_limit_ends_the_game() -> None:
    """E-37: the game ends at the end of the last turn."""
    st, log = combat_state(turn_limit=2)
    skip_to(st, log, "turn-start")
    act(st, log, Dice(6, 1), st.fbi, "continue")
    while st.result is None:
        act(st, log, Dice(), st.acting_side(), "done")
    assert st.turn == 2 and st.result.details["trigger"] == "X5"
