"""Hostages: following (G-25), cover (G-26), harm and blame (G-27), rescue (G-28)."""

from __future__ import annotations

import pytest

from killhouse.errors import IllegalActionError

from .helpers import RULES, ScriptedDice, Table, fig, scenario

ROWS = [
    "##############",
    "#............#",
    "#............#",
    "#............#",
    "##############",
]
ZONES = {"location": ["ground:1,1-4,3"], "rescue": ["ground:11,1-12,3"]}


def hostage_table(*figures: dict[str, object], dice: ScriptedDice | None = None) -> Table:
    return Table(scenario(ROWS, figures, zones=ZONES), dice)


def test_follow_me_then_rescue_wins_when_every_hostage_is_out() -> None:
    table = hostage_table(
        fig("c1", "ct", 3, 2, "w"),
        fig("h1", None, 2, 2, kind="hostage"),
        fig("t1", "t", 11, 3, "e"),
    )
    follows = [a for a in RULES.legal_actions(table.state, "ct") if a.kind == "follow"]
    assert [(a.get("figure"), a.get("hostage")) for a in follows] == [("c1", "h1")]
    table.act("ct", "follow", figure="c1", hostage="h1")
    table.order("ct", "c1", "move", to=(9, 2), facing="e")
    table.commit("ct")
    table.commit("t")
    h1 = table.state.fig("h1")
    assert h1.leader == "c1" and table.at("h1") == (8, 2) and h1.moved_as == "move"
    # a hostage moving like a normal mover makes footsteps for the other side (G-33)
    assert any(m.listener == "t1" for m in table.state.know["t"].markers)
    table.fire()
    table.orders(ct={"c1": {"posture": "move", "to": (12, 2), "facing": "e"}})
    assert h1.status == "rescued"
    assert table.state.over and table.state.winner == "ct"
    assert "rescued" in (table.state.reason or "")


def test_a_held_leader_gives_a_hostage_two_squares() -> None:
    table = hostage_table(
        fig("c1", "ct", 3, 2, "w"),
        fig("h1", None, 2, 2, kind="hostage"),
        fig("t1", "t", 11, 3, "e"),
    )
    table.act("ct", "follow", figure="c1", hostage="h1")
    table.orders(ct={"c1": {"posture": "move", "to": (9, 2), "facing": "e"}})
    table.fire()
    table.turn()  # c1 holds; h1 is already next to it
    assert table.at("h1") == (8, 2)
    table.turn(ct={"c1": {"posture": "stealth", "to": (10, 1), "facing": "e"}})
    assert table.at("h1") == (9, 1) and table.state.fig("h1").moved_as == "stealth"


def test_both_teams_calling_a_hostage_cancels_out() -> None:
    table = hostage_table(
        fig("c1", "ct", 3, 2, "w"),
        fig("h1", None, 2, 2, kind="hostage"),
        fig("t1", "t", 1, 2, "e"),
        dice=ScriptedDice([6] * 20),
    )
    assert "h1" in table.state.know["t"].seen and "h1" in table.state.know["ct"].seen
    table.act("ct", "follow", figure="c1", hostage="h1")
    table.act("t", "follow", figure="t1", hostage="h1")
    table.orders()
    assert table.state.fig("h1").leader is None


def test_a_hostage_stays_with_a_leader_beside_it() -> None:
    table = hostage_table(
        fig("c1", "ct", 3, 2, "w"),
        fig("c2", "ct", 2, 3, "n"),
        fig("h1", None, 2, 2, kind="hostage"),
        fig("t1", "t", 11, 3, "e"),
    )
    table.act("ct", "follow", figure="c2", hostage="h1")
    table.act("ct", "follow", figure="c1", hostage="h1")
    table.orders()
    assert table.state.fig("h1").leader == "c1"  # the lowest id of one team wins
    table.fire()
    with pytest.raises(IllegalActionError):
        table.act("ct", "follow", figure="c1", hostage="h1")  # already its leader
    table.act("ct", "follow", figure="c2", hostage="h1")
    table.orders()
    assert table.state.fig("h1").leader == "c1"  # ignored: c1 is still beside it


def test_follow_me_needs_a_known_adjacent_hostage() -> None:
    table = hostage_table(
        fig("c1", "ct", 3, 2, "e"),
        fig("h1", None, 2, 2, kind="hostage"),
        fig("t1", "t", 11, 3, "e"),
        dice=ScriptedDice([6] * 10),
    )
    # c1 faces away: h1 is behind it and unseen, so c1 may not name it
    assert "h1" not in table.state.know["ct"].seen
    with pytest.raises(IllegalActionError, match="cannot tell"):
        table.act("ct", "follow", figure="c1", hostage="h1")


def test_a_ct_shooting_a_hostage_bungles_the_mission() -> None:
    dice = ScriptedDice([6, 1])
    table = hostage_table(
        fig("c1", "ct", 5, 2, "w"),
        fig("h1", None, 2, 2, kind="hostage"),
        fig("t1", "t", 11, 3, "e"),
        dice=dice,
    )
    table.orders()
    shots = [a for a in RULES.legal_actions(table.state, "ct") if a.kind == "fire"]
    assert shots and all(a.get("confirm") is True for a in shots)
    assert shots[0].hint["role"] == "other"
    with pytest.raises(IllegalActionError, match="confirm"):
        table.act("ct", "fire", figure="c1", target="h1")
    table.fire(ct={"c1": "h1"})
    assert table.state.over and table.state.winner == "t"
    killed = table.events("hostage-killed")
    assert killed and killed[0].audience is None and killed[0].data["by"] == "CT"


def test_a_terrorist_he_killing_a_hostage_loses_for_the_terrorists() -> None:
    dice = ScriptedDice([6, 6])  # on target; HE 6 on the hostage: out of action
    table = hostage_table(
        fig("c1", "ct", 12, 2, "e"),
        fig("h1", None, 2, 2, kind="hostage"),
        fig("t1", "t", 8, 2, "e", equipment=["he"]),
        dice=dice,
    )
    table.orders(t={"t1": {"task": "throw", "grenade": "he", "target": (2, 2)}})
    assert table.state.over and table.state.winner == "ct"
    assert table.state.details["step"] == "grenades"


def test_a_hostage_shot_at_takes_cover() -> None:
    dice = ScriptedDice([1])  # a miss
    table = hostage_table(
        fig("c1", "ct", 12, 2, "e"),
        fig("h1", None, 4, 2, kind="hostage"),
        fig("t1", "t", 8, 2, "w"),
        dice=dice,
    )
    table.orders()
    table.fire(t={"t1": "h1"})
    h1 = table.state.fig("h1")
    assert h1.covering  # from the next turn it counts as hiding
    table.orders()
    dice.add(2)
    table.fire(t={"t1": "h1"})
    assert table.events("shot")[-1].data["need"] == 3  # stationary 2+, hiding -1 (umpire's copy)


def test_a_hostage_whose_leader_falls_stops() -> None:
    dice = ScriptedDice([6, 1])
    table = hostage_table(
        fig("c1", "ct", 3, 2, "e"),
        fig("h1", None, 2, 2, kind="hostage"),
        fig("t1", "t", 9, 2, "w"),
        dice=dice,
    )
    table.state.fig("h1").leader = "c1"
    table.turn(fire_t={"t1": "c1"})
    assert table.state.fig("c1").status == "ooa" and table.state.fig("h1").leader is None


def test_a_hostage_following_a_leader_who_holds_walks_two() -> None:
    table = hostage_table(
        fig("c1", "ct", 7, 2, "e"),
        fig("h1", None, 2, 2, kind="hostage"),
        fig("t1", "t", 11, 3, "e"),
    )
    table.state.fig("h1").leader = "c1"
    table.turn()
    assert table.at("h1") == (4, 2) and table.state.fig("h1").moved_as == "stealth"
    table.state.fig("h1").stunned_until = table.state.turn + 1
    table.turn()
    assert table.at("h1") == (5, 2)  # stunned: half of 2
