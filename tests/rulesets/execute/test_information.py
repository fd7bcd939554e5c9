"""What each side is told (6.3; rulings E-7, E-20, E-29, E-36): fog of war, surveillance,
cameras, alerts, open_map, and the audience of every event."""

from __future__ import annotations

import json

from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.rulesets.execute.state import ExecuteState
from tests.rulesets.execute.helpers import RULESET, Dice, act, place, scenario, state_of, to_combat

WALLED = (
    "############\n"
    "#....#.....#\n"
    "#....#.....#\n"
    "#....+.....#\n"
    "#....#.....#\n"
    "#....#.....#\n"
    "#####+######\n"
    "............\n"
)


def text(data: object) -> str:
    return json.dumps(data, sort_keys=True)


def walled(**kw: object) -> ExecuteState:
    st, log = state_of(scenario(levels={"ground": WALLED}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "gunman", "side": "terrorists", "card": "standard_terrorist",
         "at": "ground:8,2"},
        {"id": "clerk", "kind": "hostage", "card": "hostage_female", "at": "ground:9,4"},
    ], **kw))  # type: ignore[arg-type]
    to_combat(st, log)
    return st


def test_fbi_sees_only_what_is_in_sight() -> None:
    """E-7: line-of-sight fog: nothing behind the wall shows in the FBI's view."""
    st = walled()
    place(st, "zach", 0, 2, 2)
    view = RULESET.view(st, st.fbi)
    assert view["seen"] == [] and "gunman" not in text(view) and "clerk" not in text(view)
    st.board.set_terrain(Cell(0, 5, 3), Terrain.DOOR_OPEN)
    place(st, "zach", 0, 4, 3)
    view = RULESET.view(st, st.fbi)
    assert {s["id"] for s in view["seen"]} == {"gunman", "clerk"}
    seen = next(s for s in view["seen"] if s["id"] == "gunman")
    assert {"at", "card", "status", "weapon", "armour"} <= set(seen)  # 6.3


def test_open_map_shows_everyone_on_the_map() -> None:
    """E-7: the open_map option reproduces the tabletop's open map."""
    st = walled(options={"open_map": True})
    place(st, "zach", 0, 2, 2)
    assert {s["id"] for s in RULESET.view(st, st.fbi)["seen"]} == {"gunman", "clerk"}


def test_surveillance_reveals_setup_squares_as_markers() -> None:
    """E-29: revealed figures become last-known markers until an agent sees the square."""
    st, log = state_of(scenario(levels={"ground": WALLED}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "gunman", "side": "terrorists", "card": "standard_terrorist",
         "at": "ground:8,2"},
    ]))
    act(st, log, Dice(12, 0), st.terrorists, "ready")  # everyone: pick gunman
    revealed = next(e for e in log.events if e.kind == "surveillance")
    assert revealed.audience is None and revealed.data["revealed"][0]["id"] == "gunman"
    told = revealed.for_side(st.fbi)
    assert told is not None and told["revealed"][0]["id"] == "contact-1"  # E-65
    view = RULESET.view(st, st.fbi)
    assert view["remembered"][0]["id"] == "contact-1"
    assert view["remembered"][0]["source"] == "surveillance"
    assert "gunman" not in text(view)
    st.figures["gunman"].pos = Cell(0, 10, 5)  # it moves away unseen
    st.touch()
    act(st, log, Dice(), st.fbi, "end_negotiation")
    act(st, log, Dice(), st.terrorists, "end_negotiation")
    act(st, log, Dice(), st.fbi, "ready")
    act(st, log, Dice(6, 1), st.fbi, "continue")
    st.board.set_terrain(Cell(0, 5, 3), Terrain.DOOR_OPEN)
    place(st, "zach", 0, 6, 2)
    st.figures["gunman"].pos = None  # keep it out of the picture for this check
    st.figures["gunman"].status = "released"
    from killhouse.rulesets.execute.vision import refresh

    refresh(st, log)
    assert RULESET.view(st, st.fbi)["remembered"] == []  # the square was seen empty


def test_contacts_go_by_opaque_handles_until_seen() -> None:
    """E-29, E-65: a surveillance contact is named by a handle numbered in the draw order,
    never by its scenario id (``marksman`` would give the role away), in views and events,
    until an agent sees the figure; the terrorists' copy keeps the ids."""
    st, log = state_of(scenario(levels={"ground": WALLED}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "alpha", "side": "terrorists", "card": "standard_terrorist", "at": "ground:8,2"},
        {"id": "marksman", "side": "terrorists", "card": "standard_terrorist",
         "at": "ground:9,4", "equipment": ["sniper"]},
        {"id": "safecracker", "kind": "hostage", "card": "hostage_male", "at": "ground:7,1"},
    ]))
    # d12 = 12: everyone; the draws pick the second of [alpha, marksman] first, then alpha
    act(st, log, Dice(12, 1, 0, 0, log=log), st.terrorists, "ready")
    fbi_text = text([e.for_side(st.fbi) for e in log.events]) + text(RULESET.view(st, st.fbi))
    for secret in ("alpha", "marksman", "safecracker"):
        assert secret not in fbi_text
    names = {r["at"][1]: r["id"] for r in RULESET.view(st, st.fbi)["public"]["surveillance"][
        "revealed"]}
    assert names == {9: "contact-1", 8: "contact-2", 7: "contact-3"}  # draw order, not ids
    assert {m["id"] for m in RULESET.view(st, st.fbi)["remembered"]} == set(names.values())
    terrorists = RULESET.view(st, st.terrorists)["public"]["surveillance"]["revealed"]
    assert {r["id"] for r in terrorists} == {"alpha", "marksman", "safecracker"}
    assert "marksman" not in RULESET.known_ids(st, st.fbi)
    assert st.handle(st.fbi, "marksman") == "contact-1"  # stable for the game
    # once seen, the figure is known by what the agent sees
    act(st, log, Dice(), st.fbi, "end_negotiation")
    act(st, log, Dice(), st.terrorists, "end_negotiation")
    act(st, log, Dice(), st.fbi, "ready")
    act(st, log, Dice(6, 1), st.fbi, "continue")
    st.board.set_terrain(Cell(0, 5, 3), Terrain.DOOR_OPEN)
    place(st, "zach", 0, 6, 3)
    from killhouse.rulesets.execute.vision import refresh

    refresh(st, log)
    view = RULESET.view(st, st.fbi)
    assert "marksman" in {s["id"] for s in view["seen"]}
    assert "contact-1" not in {m["id"] for m in view["remembered"]}


def test_surveillance_selection_hides_the_terrorist_count() -> None:
    """The random selection's pool size is the terrorists' secret: only they see that draw."""
    st, log = state_of(scenario())
    act(st, log, Dice(5, 0, log=log), st.terrorists, "ready")
    rolls = [e for e in log.events if e.kind == "roll"]
    assert rolls and rolls[0].audience is None  # the d12 itself is told to both (E-29)
    samples = [e for e in log.events if e.kind == "sample"]
    assert samples and all(e.audience == frozenset({st.terrorists}) for e in samples)


def test_rolls_of_unseen_figures_stay_with_their_side() -> None:
    """6.3: a roll and its TN reach the other side only if it sees the actor."""
    st = walled()
    place(st, "zach", 0, 2, 2)
    st.board.set_terrain(Cell(0, 5, 3), Terrain.WALL)
    st.touch()
    log_start = 0
    from killhouse.core.events import EventLog

    log = EventLog()
    act(st, log, Dice(), st.fbi, "done")  # FBI grenade slot
    act(st, log, Dice(8, log=log), st.terrorists, "throw", figure="gunman", at=[0, 9, 5])
    grenade = [e for e in log.events[log_start:] if e.kind in ("grenade", "roll")]
    assert grenade and all(e.audience == frozenset({st.terrorists}) for e in grenade)
    boom = [e for e in log.events if e.kind == "explosion"]
    assert boom and boom[0].audience is None  # explosions are announced to both sides


def test_terrorists_know_their_bombs_and_hostages_the_fbi_does_not() -> None:
    st, _log = state_of(scenario(objects=[{"id": "b", "type": "bomb", "at": "ground:3,3"}]))
    assert {"b", "h1", "t1"} <= RULESET.known_ids(st, st.terrorists)
    assert not {"b", "h1", "t1"} & RULESET.known_ids(st, st.fbi)
    assert {"b", "h1", "t1"} <= RULESET.secret_ids(st, st.fbi)
    assert "zach" in RULESET.secret_ids(st, st.terrorists)
    assert "zach" not in text(RULESET.view(st, st.terrorists))


def test_planning_is_hidden_from_the_terrorists() -> None:
    """E-36: roster and loadouts are private to the FBI."""
    st, log = state_of(scenario())
    act(st, log, Dice(1), st.terrorists, "ready")
    act(st, log, Dice(), st.fbi, "end_negotiation")
    act(st, log, Dice(), st.terrorists, "end_negotiation")
    start = len(log)
    act(st, log, Dice(), st.fbi, "recruit", card="gary_ballanger")
    act(st, log, Dice(), st.fbi, "loadout", figure="gary_ballanger", weapon="sniper", armour=1)
    act(st, log, Dice(), st.fbi, "dismiss", figure="zach")
    act(st, log, Dice(), st.fbi, "ready")
    private = [e for e in log.events[start:] if e.kind in ("recruited", "loadout", "dismissed",
                                                          "planned")]
    assert len(private) == 4 and all(e.audience == frozenset({st.fbi}) for e in private)
    assert [f.id for f in st.agents()] == ["gary_ballanger"]
    assert st.figures["gary_ballanger"].weapon == "sniper"
    assert st.phase == "turn-start"


def test_devices_and_levels_are_public() -> None:
    """E-20: both sides know every building device and its level."""
    st, _ = state_of(scenario(objects=[{"id": "lk", "type": "lock", "at": "ground:5,6",
                                        "level": 7}]))
    for side in st.side_ids():
        devices = RULESET.view(st, side)["public"]["devices"]
        assert [(d["id"], d["level"]) for d in devices] == [("lk", 7)]


def test_goals_point_each_side_at_its_mission() -> None:
    st, log = state_of(scenario())
    act(st, log, Dice(12, 0, 0), st.terrorists, "ready")  # surveillance reveals everyone
    fbi_goals = RULESET.view(st, st.fbi)["goals"]
    assert [0, 8, 2] in fbi_goals  # the revealed hostage
    terr_goals = RULESET.view(st, st.terrorists)["goals"]
    assert [0, 8, 2] in terr_goals and [0, 0, 7] in terr_goals  # its hostage, the ways in
