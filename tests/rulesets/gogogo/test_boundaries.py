"""Every range, radius and threshold of gogogo at its edge and one step past it, in play.

Issue 10 item 17: hearing at exactly 10, the grenade radius, the short-range line, the throw
range, tiers of fire, spotting a hider in the game, grenade accuracy, defuse and follow
adjacency, voices.
"""

from __future__ import annotations

from typing import Any

import pytest

from killhouse.errors import IllegalActionError

from .helpers import RULES, ScriptedDice, Table, fig, open_rows, scenario

BIG = open_rows(26, 12)  # floor x 1..24, y 1..10
SITE = {"bomb_a": ["ground:3,3-3,3"]}


def table_of(*figures: dict[str, Any], dice: ScriptedDice | None = None, **kw: Any) -> Table:
    scn = scenario(BIG, figures, mission="destruction", zones=SITE, **kw)
    return Table(scn, dice if dice is not None else ScriptedDice())


# -- hearing (G-33): within 10, dx²+dy² <= 100 ----------------------------------------------------


@pytest.mark.parametrize(
    ("delta", "heard"),
    [((10, 0), True), ((6, 8), True), ((8, 7), False), ((10, 1), False)],
    ids=["10,0 hears", "6,8 hears", "8,7 does not", "10,1 one past"],
)
def test_footsteps_are_heard_at_exactly_ten_and_not_one_step_past(
    delta: tuple[int, int], heard: bool
) -> None:
    dx, dy = delta
    end = (1 + dx, 1 + dy)
    table = table_of(
        fig("t1", "t", 1, 1, "w", equipment=["he", "bomb"]),  # the listener faces the wall
        fig("c1", "ct", end[0] + 2, end[1], "e"),  # behind t1's back, and t1 behind its
    )
    table.turn(ct={"c1": {"posture": "move", "to": end, "facing": "e"}})
    assert table.at("c1") == end
    markers = [m for m in table.state.know["t"].markers if m.kind == "footsteps"]
    assert bool(markers) is heard, (delta, markers)


def test_a_stealthy_mover_is_not_heard_even_next_door() -> None:
    table = table_of(
        fig("t1", "t", 1, 1, "w", equipment=["he", "bomb"]),
        fig("c1", "ct", 5, 1, "e"),
    )
    table.turn(ct={"c1": {"posture": "stealth", "to": (3, 1), "facing": "e"}})
    assert table.state.know["t"].markers == []


@pytest.mark.parametrize(("delta", "heard"), [((10, 0), True), ((10, 1), False)])
def test_voices_carry_exactly_ten(delta: tuple[int, int], heard: bool) -> None:
    end = (1 + delta[0], 1 + delta[1])
    table = table_of(
        fig("t1", "t", 1, 1, "w", equipment=["he", "bomb"]),
        fig("c1", "ct", end[0], end[1], "e"),
        options={"per_player_views": True},
    )
    table.act("ct", "speak", figure="c1")
    table.orders()
    voices = [m for m in table.state.know["t"].markers if m.kind == "voices"]
    assert bool(voices) is heard


# -- the grenade radius (G-20, G-21): dx²+dy² <= 16 --


def blast(grenade: str, dice: ScriptedDice) -> Table:
    """t1 throws at (8,5); c1 stands at Δ(4,0) (16, inside), c2 at Δ(4,1) (17, one past)."""
    table = table_of(
        fig("t1", "t", 1, 5, "w", equipment=[grenade, "bomb"]),
        fig("c1", "ct", 12, 5, "e"),
        fig("c2", "ct", 12, 6, "e"),
        dice=dice,
    )
    table.orders(t={"t1": {"task": "throw", "grenade": grenade, "target": (8, 5)}})
    return table


def test_he_reaches_exactly_radius_four_and_not_one_step_past() -> None:
    dice = ScriptedDice([6, 3])  # on target; the HE effect on c1 alone: wounded
    table = blast("he", dice)
    assert [p for p, _ in dice.rolled] == ["grenade t1: accuracy", "he on c1"]
    assert table.state.fig("c1").wounds == 1 and table.state.fig("c2").wounds == 0


def test_stun_reaches_exactly_radius_four_and_not_one_step_past() -> None:
    dice = ScriptedDice([6, 6])
    table = blast("stun", dice)
    assert [p for p, _ in dice.rolled] == ["grenade t1: accuracy", "stun on c1"]
    assert table.state.fig("c1").stunned and not table.state.fig("c2").stunned


def test_smoke_fills_exactly_radius_four_and_not_one_step_past() -> None:
    table = blast("smoke", ScriptedDice([6]))
    smoke = table.state.board.levels[0].smoke
    assert smoke[5, 12] and smoke[1, 8] and not smoke[6, 12] and not smoke[5, 13]


@pytest.mark.parametrize(("face", "on_target"), [(4, True), (3, False)])
def test_grenade_accuracy_needs_four(face: int, on_target: bool) -> None:
    dice = ScriptedDice([face] if on_target else [face, 1, 1])  # a miss scatters: 2 more dice
    table = table_of(
        fig("t1", "t", 1, 5, "w", equipment=["smoke", "bomb"]),
        fig("c1", "ct", 20, 5, "e"),
        dice=dice,
    )
    table.orders(t={"t1": {"task": "throw", "grenade": "smoke", "target": (8, 5)}})
    throw = table.events("throw")[-1]
    assert throw.data["need"] == 4 and throw.data["on_target"] is on_target


# -- throw range (G-18): 1..10 ---------------------------------------------------------------------


def test_a_throw_reaches_exactly_ten_and_not_one_step_past() -> None:
    table = table_of(
        fig("t1", "t", 1, 1, "w", equipment=["he", "bomb"]),
        fig("c1", "ct", 20, 9, "e"),
    )
    table.act("t", "order", figure="t1", posture="hold", task="throw", grenade="he")
    targets = {tuple(a.get("at")) for a in RULES.legal_actions(table.state, "t")}
    assert (0, 11, 1) in targets and (0, 7, 9) in targets  # 100: (10,0) and (6,8)
    assert (0, 11, 2) not in targets and (0, 9, 8) not in targets  # 101 and 113
    assert (0, 1, 1) not in targets and (0, 2, 1) in targets  # distance 0 is no throw; 1 is
    with pytest.raises(IllegalActionError):
        table.act("t", "target", figure="t1", at=[0, 11, 2])
    table.act("t", "target", figure="t1", at=[0, 11, 1])


# -- short range (G-2): <= 5 -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("at", "facing", "span", "need"),
    [
        ((7, 4), "e", "short", 2),
        ((6, 7), "se", "short", 2),
        ((7, 5), "e", "long", 3),
        ((8, 4), "e", "long", 3),
    ],
    ids=["5,0", "4,3", "5,1 one past", "6,0"],
)
def test_short_range_is_five_and_one_step_past_is_long(
    at: tuple[int, int], facing: str, span: str, need: int
) -> None:
    """A stationary firer needs 2 at short range and 3 at long (table 3.2)."""
    table = table_of(
        fig("c1", "ct", 2, 4, facing),  # the target in its auto cone: no spotting die
        fig("t1", "t", at[0], at[1], "e", equipment=["he", "bomb"]),  # facing away
        dice=ScriptedDice([6, 6]),  # a hit, then the effect: wounded
    )
    table.turn(fire_ct={"c1": "t1"})
    shot = table.events("shot")[-1]
    assert shot.data["range"] == span and shot.data["need"] == need
    assert table.state.fig("t1").wounds == 1


# -- tiers of fire (G-14): stationary, then stealthy, then normal movers --


def test_a_stealthy_firer_shoots_after_the_stationary_and_before_normal_movers() -> None:
    """t1 holds (tier 1), c1 moves stealthily (tier 2), t2 moves normally (tier 3).

    c1's tier-2 kill of t2 lands before t2's turn to fire comes, so t2 never shoots; t1's
    tier-1 shot came first, though its firer id sorts after c1's.
    """
    dice = ScriptedDice([6, 6, 6, 6])  # spotting: setup c1-t1, t1-c1; turn 1 the same pairs
    table = table_of(
        fig("c1", "ct", 2, 4, "e"),
        fig("c2", "ct", 2, 6, "e"),
        fig("t1", "t", 6, 6, "w"),
        fig("t2", "t", 8, 4, "w", equipment=["he", "bomb"]),
        dice=dice,
    )
    table.orders(
        ct={"c1": {"posture": "stealth", "to": (3, 4)}},
        t={"t2": {"posture": "move", "to": (7, 4)}},
    )
    assert {"t1", "t2"} <= table.state.know["ct"].seen
    dice.add(1)  # tier 1: t1 at c2 misses
    dice.add(6, 1)  # tier 2: c1 at t2 (moving firer 4+, target moving −1: needs 5) hits, OOA
    table.fire(ct={"c1": "t2"}, t={"t1": "c2", "t2": "c1"})
    shots = [(e.data["firer"], e.data["tier"], e.data["result"]) for e in table.events("shot")]
    assert shots == [("t1", 1, "miss"), ("c1", 2, "out-of-action")]
    assert [p for p, _ in dice.rolled[4:]] == [
        "fire t1 at c2: needs 2",
        "fire c1 at t2: needs 5",
        "fire c1 at t2: effect",
    ]
    assert table.state.fig("c1").status == "active" and dice.faces == []


# -- spotting in the game against a hider (G-9, G-10) --


@pytest.mark.parametrize(("face", "seen"), [(4, True), (3, False)])
def test_a_hiding_target_in_the_periphery_needs_one_more(face: int, seen: bool) -> None:
    """Stationary observer on a stationary target: 3+; hiding −1: a 4 spots it, a 3 does not."""
    dice = ScriptedDice([6])  # setup spotting (nobody hides yet): c1 sees t1
    table = table_of(
        fig("c1", "ct", 2, 4, "e"),
        fig("t1", "t", 6, 7, "e", equipment=["he", "bomb"]),  # Δ(4,3): peripheral to c1
        dice=dice,
    )
    assert dice.rolled == [("spot c1 t1: needs 3", 6)]
    dice.add(face)
    table.orders(t={"t1": {"posture": "hide"}})
    assert dice.rolled[-1] == ("spot c1 t1: needs 4", face)
    assert ("t1" in table.state.know["ct"].seen) is seen


def test_a_hider_in_the_auto_cone_is_seen_without_a_die() -> None:
    dice = ScriptedDice()
    table = table_of(
        fig("c1", "ct", 2, 4, "e"),
        fig("t1", "t", 7, 4, "e", equipment=["he", "bomb"]),
        dice=dice,
    )
    table.orders(t={"t1": {"posture": "hide"}})
    assert dice.rolled == [] and "t1" in table.state.know["ct"].seen


# -- adjacency: defuse (G-30) and follow-me (G-25) at one square, not two --


@pytest.mark.parametrize(("x", "ok"), [(4, True), (5, False)])
def test_defuse_needs_the_bomb_within_one_square(x: int, ok: bool) -> None:
    table = table_of(
        fig("c1", "ct", x, 4, "w"),
        fig("t1", "t", 20, 9, "e"),
        objects=[{"id": "bomb", "type": "bomb", "at": "ground:3,3"}],
    )
    bomb = table.state.bomb
    assert bomb is not None
    bomb.planted, bomb.planted_turn, bomb.detonates = True, 0, 8
    table.state.know["ct"].bomb_at = bomb.pos
    if ok:
        table.act("ct", "order", figure="c1", posture="hold", task="defuse")
    else:
        with pytest.raises(IllegalActionError):
            table.act("ct", "order", figure="c1", posture="hold", task="defuse")


@pytest.mark.parametrize(("x", "ok"), [(3, True), (4, False)])
def test_follow_me_reaches_one_square_not_two(x: int, ok: bool) -> None:
    table = Table(
        scenario(
            BIG,
            [
                fig("c1", "ct", x, 2, "w"),  # h1 at (2,2) straight ahead: seen
                fig("h1", None, 2, 2, kind="hostage"),
                fig("t1", "t", 20, 9, "e"),
            ],
            zones={"location": ["ground:1,1-2,3"], "rescue": ["ground:24,1-24,1"]},
        ),
        ScriptedDice(),
    )
    assert "h1" in table.state.know["ct"].seen
    follows = [a for a in RULES.legal_actions(table.state, "ct") if a.kind == "follow"]
    assert bool(follows) is ok
    if not ok:
        with pytest.raises(IllegalActionError):
            table.act("ct", "follow", figure="c1", hostage="h1")
