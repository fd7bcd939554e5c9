"""Whole turns through the ruleset: stun, sniper, bomb and end vectors (G-TV23-35) and rulings."""

from __future__ import annotations

import pytest

from killhouse.errors import IllegalActionError
from killhouse.rulesets.gogogo.state import FIRE, ORDERS, OVER

from .helpers import RULES, ScriptedDice, Table, fig, open_rows, scenario

# A destruction map with no hostage to roll for: bomb site at (3, 3)
ROOM = open_rows(20, 9)
SITE = {"bomb_a": ["ground:3,3-3,3"]}


def duel(*figures: dict[str, object], dice: ScriptedDice | None = None, **kw: object) -> Table:
    scn = scenario(ROOM, figures, mission="destruction", zones=SITE, **kw)  # type: ignore[arg-type]
    return Table(scn, dice)  # no scripted dice: seeded ones


def hold_turns(table: Table, n: int) -> None:
    for _ in range(n):
        table.turn()


# -- simultaneous orders ---------------------------------------------------------------------


def test_both_sides_decide_at_once_and_the_turn_waits_for_both() -> None:
    table = duel(fig("c1", "ct", 2, 4), fig("t1", "t", 12, 4, "e", equipment=["he", "bomb"]))
    assert {d.side for d in RULES.pending(table.state)} == {"ct", "t"}
    table.order("ct", "c1", "move", to=(6, 4), facing="e")
    table.commit("ct")
    assert [d.side for d in RULES.pending(table.state)] == ["t"]
    assert table.at("c1") == (2, 4)  # nothing resolves before both commit
    with pytest.raises(IllegalActionError, match="nothing more to decide"):
        table.act("ct", "commit")
    table.commit("t")
    assert table.at("c1") == (6, 4)
    assert table.state.phase == FIRE
    assert {d.side for d in RULES.pending(table.state)} == {"ct", "t"}
    table.fire()
    assert table.state.phase == ORDERS and table.state.turn == 2


def test_unordered_figures_hold_and_keep_their_facing() -> None:
    table = duel(fig("c1", "ct", 2, 4, "se"), fig("t1", "t", 12, 4, "e", equipment=["he", "bomb"]))
    table.turn()
    assert table.at("c1") == (2, 4) and table.state.fig("c1").facing == "se"
    assert table.state.fig("c1").posture == "hold"


def test_illegal_orders_are_refused_before_any_change() -> None:
    table = duel(fig("c1", "ct", 2, 4), fig("t1", "t", 12, 4, "e", equipment=["he", "bomb"]))
    before = RULES.snapshot(table.state)
    for args in (
        {"figure": "t1", "posture": "hold"},  # not ct's
        {"figure": "c1", "posture": "aim"},  # no sniper rifle
        {"figure": "c1", "posture": "move", "to": [0, 18, 4]},  # too far
        {"figure": "c1", "posture": "hold", "task": "plant"},  # CT cannot plant
        {"figure": "c1", "posture": "move", "to": [0, 4, 4], "task": "throw", "grenade": "stun"},
        {"figure": "c1", "posture": "hold", "task": "throw", "grenade": "he"},  # CT has no HE
    ):
        with pytest.raises(IllegalActionError):
            table.act("ct", "order", **args)
        assert RULES.snapshot(table.state) == before
    with pytest.raises(IllegalActionError):
        table.act("ct", "fire", figure="c1", target="t1")  # not the fire step
    assert RULES.snapshot(table.state) == before


# -- stun (G-TV23, G-22, G-TV6) ----------------------------------------------------------------


def test_g_tv23_stun_lasts_the_turn_and_three_more() -> None:
    dice = ScriptedDice()
    table = duel(
        fig("c1", "ct", 2, 4, "e"),
        fig("c2", "ct", 2, 3, "e"),
        fig("t1", "t", 8, 4, "w", equipment=["he", "bomb"]),
        fig("t2", "t", 17, 7, "e"),
        dice=dice,
    )
    hold_turns(table, 4)
    dice.add(5, 3)  # turn 5: accuracy 5 (on target), stun effect 3 (stunned)
    table.turn(ct={"c1": {"task": "throw", "grenade": "stun", "target": (8, 4)}})
    t1 = table.state.fig("t1")
    assert t1.stunned_until == 8
    table.turn()  # turn 6
    assert t1.stunned
    dice.add(5, 6)  # turn 7: re-stunned by c2
    table.orders(ct={"c2": {"task": "throw", "grenade": "stun", "target": (8, 4)}})
    assert t1.stunned_until == 10
    table.fire()
    hold_turns(table, 2)  # turns 8, 9
    assert t1.stunned
    table.turn()  # turn 10
    assert not t1.stunned and table.state.turn == 11


def test_stunned_mover_is_cut_in_play_and_has_half_allowance() -> None:
    dice = ScriptedDice([5, 4])  # on target, stunned
    table = duel(
        fig("c1", "ct", 2, 4, "e"),
        fig("t1", "t", 8, 4, "w", equipment=["he", "bomb"]),
        fig("t2", "t", 17, 7, "e"),
        dice=dice,
    )
    table.orders(
        ct={"c1": {"task": "throw", "grenade": "stun", "target": (8, 4)}},
        t={"t1": {"posture": "move", "path": [(9, 3), (10, 2), (11, 2)], "facing": "w"}},
    )
    assert table.at("t1") == (10, 2)  # two diagonals (cost 3) then the orthogonal step is cut
    table.fire()
    with pytest.raises(IllegalActionError, match="allowance of 1"):
        table.act("t", "order", figure="t1", posture="stealth", to=[0, 10, 4])
    with pytest.raises(IllegalActionError, match="allowance of 3"):
        table.act("t", "order", figure="t1", posture="move", to=[0, 14, 2])


# -- sniper (G-TV24-26, G-23, G-24) -------------------------------------------------------------


def sniper_table(dice: ScriptedDice) -> Table:
    return duel(
        fig("c1", "ct", 2, 4, "e", equipment=["sniper", "smoke", "stun"]),
        fig("t1", "t", 5, 4, "e", equipment=["he", "bomb"]),
        fig("t2", "t", 17, 7, "e"),
        dice=dice,
    )


def fire_targets(table: Table, figure: str) -> list[str]:
    return [
        str(a.get("target"))
        for a in RULES.legal_actions(table.state, "ct")
        if a.kind == "fire" and a.get("figure") == figure
    ]


def test_g_tv24_and_26_sniper_aims_fires_reloads() -> None:
    dice = ScriptedDice()
    table = sniper_table(dice)
    table.orders(ct={"c1": {"posture": "aim"}})
    assert fire_targets(table, "c1") == []  # G-TV26: no aim yet
    table.fire()
    c1 = table.state.fig("c1")
    assert c1.aim_turns == 1 and c1.loaded
    table.orders(ct={"c1": {"posture": "aim"}})
    assert "t1" in fire_targets(table, "c1")
    dice.add(1)  # sniper short 3+, +1 aim: needs 2; a 1 misses
    table.fire(ct={"c1": "t1"})
    assert dice.rolled[-1] == ("fire c1 at t1: needs 2", 1)
    assert not c1.loaded and c1.aim_turns == 0
    table.orders(ct={"c1": {"posture": "aim"}})  # turn 3: reloading, cannot fire
    assert fire_targets(table, "c1") == []
    table.fire()
    assert c1.loaded and c1.aim_turns == 1
    table.orders(ct={"c1": {"posture": "aim"}})  # turn 4: allowed, +1
    dice.add(2)
    table.fire(ct={"c1": "t1"})
    assert table.state.fig("t1").status == "ooa"  # a sniper hit is a kill, no effect die
    assert dice.faces == []


def test_g_tv25_sniper_reloads_on_the_move() -> None:
    dice = ScriptedDice()
    table = sniper_table(dice)
    table.turn(ct={"c1": {"posture": "aim"}})
    table.orders(ct={"c1": {"posture": "aim"}})
    dice.add(1)
    table.fire(ct={"c1": "t1"})
    c1 = table.state.fig("c1")
    table.turn(ct={"c1": {"posture": "move", "to": (2, 5), "facing": "e"}})  # turn 3
    assert c1.loaded and c1.aim_turns == 0
    table.turn(ct={"c1": {"posture": "aim"}})  # turn 4
    assert c1.aim_turns == 1
    table.orders(ct={"c1": {"posture": "aim"}})  # turn 5
    # t1 is at (5,4), c1 at (2,5): range² 10, short: 3 - 1 aim = 2
    assert "t1" in fire_targets(table, "c1")


def test_g_tv9_sniper_long_range_auto_hit_uses_no_die() -> None:
    dice = ScriptedDice()
    table = duel(
        fig("c1", "ct", 2, 4, "e", equipment=["sniper"]),
        fig("t1", "t", 10, 4, "e", equipment=["he", "bomb"]),
        fig("t2", "t", 17, 7, "e"),
        dice=dice,
    )
    table.turn(ct={"c1": {"posture": "aim"}}, t={"t1": {"posture": "hide"}})
    table.orders(ct={"c1": {"posture": "aim"}}, t={"t1": {"posture": "hide"}})
    table.fire(ct={"c1": "t1"})  # sniper long 1+, hiding -1, aim +1: automatic
    assert table.state.fig("t1").status == "ooa" and dice.rolled == []


def test_an_aiming_sniper_makes_no_peripheral_rolls() -> None:
    # setup spotting: t1 at (+4,+3) is peripheral to c1 facing e: one die, and a 1 fails
    dice = ScriptedDice([1])
    table = duel(
        fig("c1", "ct", 2, 4, "e", equipment=["sniper"]),
        fig("t1", "t", 6, 7, "e", equipment=["he", "bomb"]),
        fig("t2", "t", 17, 1, "e"),
        dice=dice,
    )
    assert dice.rolled == [("spot c1 t1: needs 3", 1)]
    table.orders(ct={"c1": {"posture": "aim"}})  # no die: aiming sees its auto cone only
    assert len(dice.rolled) == 1
    assert "t1" not in table.state.know["ct"].seen and "t2" in table.state.know["ct"].seen
    table.fire()
    dice.add(4)
    table.orders()  # holding, it rolls again (and a 4 spots t1)
    assert dice.rolled[-1] == ("spot c1 t1: needs 3", 4) and "t1" in table.state.know["ct"].seen


# -- fire tiers (G-14) and hiding (G-10) ---------------------------------------------------------


def test_stationary_fire_comes_first_and_kills_before_movers_shoot() -> None:
    dice = ScriptedDice()
    table = duel(
        fig("c1", "ct", 2, 4, "e"),
        fig("t1", "t", 7, 4, "w", equipment=["he", "bomb"]),
        fig("t2", "t", 17, 7, "e"),
        dice=dice,
    )
    table.orders(t={"t1": {"posture": "move", "to": (6, 4), "facing": "w"}})
    dice.add(6, 1)  # c1 (tier 1) hits t1 (moving: needs 3) and the effect is OOA
    table.fire(ct={"c1": "t1"}, t={"t1": "c1"})
    assert table.state.fig("t1").status == "ooa"
    assert table.state.fig("c1").wounds == 0
    assert dice.rolled == [("fire c1 at t1: needs 3", 6), ("fire c1 at t1: effect", 1)]


def test_a_figure_out_of_action_in_its_own_tier_still_fires() -> None:
    dice = ScriptedDice([6, 3, 6, 1])  # c1 hits t1 (wound), t1 hits c1 (OOA)
    table = duel(
        fig("c1", "ct", 2, 4, "e"),
        fig("c2", "ct", 2, 6, "e"),
        fig("t1", "t", 7, 4, "w", equipment=["he", "bomb"]),
        fig("t2", "t", 17, 7, "e"),
        dice=dice,
    )
    table.turn(fire_ct={"c1": "t1"}, fire_t={"t1": "c1"})
    assert table.state.fig("c1").status == "ooa"
    assert table.state.fig("t1").wounds == 1


def test_wounds_from_an_earlier_tier_count_and_shots_at_the_fallen_are_lost() -> None:
    dice = ScriptedDice()
    table = duel(
        fig("c1", "ct", 2, 4, "e"),
        fig("c2", "ct", 2, 5, "e"),
        fig("t1", "t", 6, 4, "w", equipment=["he", "bomb"]),
        fig("t2", "t", 17, 7, "e"),
        dice=dice,
    )
    table.orders(ct={"c2": {"posture": "move", "to": (3, 5), "facing": "e"}})
    dice.add(6, 2)  # tier 1: c1 kills t1; tier 3: c2's shot at t1 is lost (no die)
    table.fire(ct={"c1": "t1", "c2": "t1"})
    assert [e.data["firer"] for e in table.events("shot-lost")] == ["c2"]
    assert dice.faces == []


def test_hiding_target_is_harder_to_hit_until_it_fires() -> None:
    dice = ScriptedDice()
    table = duel(
        fig("c1", "ct", 2, 4, "e"),
        fig("t1", "t", 6, 4, "w", equipment=["he", "bomb"]),
        fig("t2", "t", 17, 7, "e"),
        dice=dice,
    )
    table.orders(t={"t1": {"posture": "hide"}})
    dice.add(2)  # needs 3 against a hider: a 2 misses
    table.fire(ct={"c1": "t1"})
    assert table.events("shot")[-1].data["need"] == 3
    table.orders(t={"t1": {"posture": "hide"}})
    dice.add(6, 6, 2, 4)  # both fire: the hider lost its -1 by firing
    table.fire(ct={"c1": "t1"}, t={"t1": "c1"})
    assert table.events("shot")[-2].data["need"] == 2


def test_hiding_lasts_one_turn() -> None:
    table = duel(fig("c1", "ct", 2, 4, "w"), fig("t1", "t", 12, 4, "e", equipment=["he", "bomb"]))
    table.orders(t={"t1": {"posture": "hide"}})
    assert table.state.fig("t1").hiding
    table.fire()
    assert not table.state.fig("t1").hiding


# -- spotting (G-9) and smoke (G-8, G-21) ---------------------------------------------------------


def test_spotting_rolls_in_observer_target_order_and_only_in_the_periphery() -> None:
    # setup: c1 on t1 and t1 on c1 are both peripheral (stationary on stationary: 3+)
    dice = ScriptedDice([3, 2])
    table = duel(
        fig("c1", "ct", 2, 4, "e"),
        fig("t1", "t", 6, 7, "n", equipment=["he", "bomb"]),
        fig("t2", "t", 17, 7, "e"),
        dice=dice,
    )
    assert dice.rolled == [("spot c1 t1: needs 3", 3), ("spot t1 c1: needs 3", 2)]
    assert "t1" in table.state.know["ct"].seen and "c1" not in table.state.know["t"].seen
    assert table.state.know["ct"].sees["c1"] == {"t1", "t2"}


def test_smoke_blocks_sight_into_and_out_of_it() -> None:
    dice = ScriptedDice([6])  # the smoke lands on target
    table = duel(
        fig("c1", "ct", 2, 4, "e"),
        fig("t1", "t", 9, 4, "w", equipment=["smoke", "bomb"]),
        fig("t2", "t", 17, 7, "e"),
        dice=dice,
    )
    assert "t1" in table.state.know["ct"].seen
    table.orders(t={"t1": {"task": "throw", "grenade": "smoke", "target": (8, 4)}})
    assert table.state.board.smoky(table.state.fig("t1").pos)  # type: ignore[arg-type]
    assert "t1" not in table.state.know["ct"].seen and "c1" not in table.state.know["t"].seen
    smoke = table.events("smoke")
    assert smoke and smoke[0].audience is None  # G-21: everyone sees smoke
    assert [0, 8, 4] in table.view("ct")["public"]["smoke"]


# -- grenades (G-18-G-20, G-42 dice order) ---------------------------------------------------------


def test_grenade_dice_order_and_effects_apply_together() -> None:
    dice = ScriptedDice([1, 5, 2, 6, 6, 3, 4])
    table = duel(
        fig("c1", "ct", 2, 4, "e"),
        fig("c2", "ct", 2, 6, "e"),
        fig("t1", "t", 10, 4, "w", equipment=["he", "bomb"]),
        fig("t2", "t", 17, 7, "e"),
        dice=dice,
    )
    table.orders(
        ct={"c1": {"task": "throw", "grenade": "stun", "target": (10, 4)}},
        t={"t1": {"task": "throw", "grenade": "he", "target": (2, 5)}},
    )
    # c1: accuracy 1 (miss), direction 5 (left), distance 2 -> lands (10, 2); t1: accuracy 6.
    # effects: c1's stun burst (t1 in it) first, then t1's HE on c1 and c2 (ascending id)
    assert [p for p, _ in dice.rolled] == [
        "grenade c1: accuracy",
        "grenade c1: scatter: direction",
        "grenade c1: scatter: distance",
        "grenade t1: accuracy",
        "stun on t1",
        "he on c1",
        "he on c2",
    ]
    assert table.state.fig("t1").stunned  # stun 6
    assert table.state.fig("c1").wounds == 1  # HE 3: wounded
    assert table.state.fig("c2").wounds == 1  # HE 4: wounded
    assert table.state.fig("c1").hiding is False and table.state.fig("c1").threw


def test_throws_need_a_clear_line_and_range() -> None:
    rows = open_rows(20, 9)
    rows[4] = "#....#.............#"
    table = Table(
        scenario(
            rows,
            [fig("c1", "ct", 2, 4), fig("t1", "t", 17, 7, "e", equipment=["he", "bomb"])],
            mission="destruction",
            zones=SITE,
        )
    )
    table.act("ct", "order", figure="c1", posture="hold", task="throw", grenade="stun")
    targets = {tuple(a.get("at")) for a in RULES.legal_actions(table.state, "ct")}
    assert (0, 6, 4) not in targets  # behind the wall
    assert (0, 12, 4) not in targets  # too far
    assert (0, 3, 5) in targets
    with pytest.raises(IllegalActionError, match="clear line"):
        table.act("ct", "target", figure="c1", at=[0, 6, 4])


# -- bombs (G-TV27-29, G-29, G-30) ---------------------------------------------------------------


def bomb_table(**kw: object) -> Table:
    return duel(
        fig("c1", "ct", 4, 3, "w"),
        fig("t1", "t", 3, 3, "e", equipment=["he", "bomb"]),
        fig("t2", "t", 17, 7, "e"),
        **kw,  # type: ignore[arg-type]
    )


PLANT = {"t1": {"task": "plant"}}


def test_g_tv27_plant_on_turns_3_and_4_detonates_at_the_end_of_12() -> None:
    table = bomb_table()
    hold_turns(table, 2)
    table.turn(t=PLANT)
    assert table.state.fig("t1").plant_progress == 1
    table.turn(t=PLANT)
    bomb = table.state.bomb
    assert bomb is not None and bomb.planted and bomb.detonates == 12
    assert not table.state.fig("t1").has_bomb
    planted = table.events("bomb-planted")[0]
    assert planted.audience is None and "detonates" not in planted.data
    hold_turns(table, 7)
    assert not table.state.over
    table.turn()
    assert table.state.over and table.state.winner == "t" and table.state.turn == 12
    assert "detonated" in (table.state.reason or "")


def test_g_tv28_defusal_on_11_and_12_wins_first() -> None:
    table = bomb_table()
    hold_turns(table, 2)
    table.turn(t=PLANT)
    table.turn(t=PLANT)
    assert table.state.know["ct"].bomb_at is None  # not yet: sight is checked at spotting
    hold_turns(table, 6)  # turns 5-10
    assert table.state.know["ct"].bomb_at is not None  # c1 looks right at it
    table.turn(ct={"c1": {"task": "defuse"}})
    assert table.state.fig("c1").defuse_progress == 1
    table.turn(ct={"c1": {"task": "defuse"}})
    assert (
        table.state.over and table.state.winner == "ct" and "defused" in (table.state.reason or "")
    )


def test_plant_progress_resets_on_any_other_order() -> None:
    table = bomb_table()
    table.turn(t=PLANT)
    table.turn()
    assert table.state.fig("t1").plant_progress == 0


@pytest.mark.parametrize(("finish", "winner"), [(22, "t"), (23, "ct")])
def test_g_tv29_late_plants(finish: int, winner: str) -> None:
    table = bomb_table()
    hold_turns(table, finish - 2)
    table.turn(t=PLANT)
    table.turn(t=PLANT)
    assert table.state.bomb is not None and table.state.bomb.planted_turn == finish
    while not table.state.over:
        table.turn()
    assert table.state.turn == 30 and table.state.winner == winner


def test_the_ct_never_learn_the_fuse() -> None:
    table = bomb_table()
    table.turn(t=PLANT)
    table.turn(t=PLANT)
    ct_view = str(table.view("ct"))
    for secret in ("detonates", "fuse_turns", "planted_turn"):
        assert secret not in ct_view
    assert "detonates" in str(table.view("t"))
    for event in table.log.events:
        if event.visible_to("ct"):
            assert "detonates" not in event.data and "fuse_turns" not in event.data


def test_a_dropped_bomb_is_picked_up_by_the_next_terrorist() -> None:
    dice = ScriptedDice([6, 1])
    table = duel(
        fig("c1", "ct", 2, 4, "e"),
        fig("t1", "t", 6, 4, "w", equipment=["he", "bomb"]),
        fig("t2", "t", 7, 4, "w"),
        dice=dice,
    )
    table.turn(fire_ct={"c1": "t1"})
    bomb = table.state.bomb
    assert bomb is not None and bomb.carrier is None and bomb.pos is not None
    table.turn(t={"t2": {"posture": "stealth", "to": (6, 4), "facing": "w"}})
    assert bomb.carrier == "t2" and table.state.fig("t2").has_bomb


def test_all_terrorists_down_with_no_bomb_planted_ends_it() -> None:
    dice = ScriptedDice([6, 1])
    table = duel(
        fig("c1", "ct", 2, 4, "e"), fig("t1", "t", 6, 4, "w", equipment=["he", "bomb"]), dice=dice
    )
    table.turn(fire_ct={"c1": "t1"})
    assert table.state.over and table.state.winner == "ct"


# -- end of the game (G-TV34, G-TV35, G-39) --------------------------------------------------------

HOSTAGE_ROOM = [
    "##########",
    "#.#......#",
    "###......#",
    "#........#",
    "##########",
]


def test_g_tv34_both_sides_fail_in_one_tier_is_a_draw() -> None:
    dice = ScriptedDice([6, 1, 6, 1])
    scn = scenario(
        HOSTAGE_ROOM,
        [fig("c1", "ct", 3, 3, "e"), fig("t1", "t", 7, 3, "w")],
        zones={"location": ["ground:1,1-1,1"], "rescue": ["ground:8,1-8,1"]},
    )
    table = Table(scn, dice)
    table.turn(fire_ct={"c1": "t1"}, fire_t={"t1": "c1"})
    assert table.state.over and table.state.winner is None
    assert table.state.details["step"] == "fire tier 1"
    result = RULES.result(table.state)
    assert result is not None and result.winner is None and "CT" in result.reason


def test_g_tv35_vip_escape_ends_the_game_before_any_fire() -> None:
    scn = scenario(
        open_rows(20, 9),
        [
            fig("vip", "ct", 16, 4, "e", kind="vip"),
            fig("c1", "ct", 2, 4, "e"),
            fig("t1", "t", 14, 6, "n"),
        ],
        mission="assassination",
        zones={"escape": ["ground:18,1-18,7"]},
    )
    table = Table(scn, ScriptedDice([6] * 10))
    table.orders(ct={"vip": {"posture": "move", "to": (18, 4), "facing": "e"}})
    assert table.state.over and table.state.phase == OVER
    assert table.state.winner == "ct" and table.state.details["step"] == "movement"
    assert RULES.pending(table.state) == ()


def test_time_out_in_the_hostage_mission_is_a_ct_failure() -> None:
    scn = scenario(
        HOSTAGE_ROOM,
        [fig("c1", "ct", 3, 3, "w"), fig("t1", "t", 7, 3, "e")],
        zones={"location": ["ground:1,1-1,1"], "rescue": ["ground:8,1-8,1"]},
        turn_limit=3,
    )
    table = Table(scn)
    hold_turns(table, 3)
    assert table.state.over and table.state.winner == "t" and table.state.turn == 3
