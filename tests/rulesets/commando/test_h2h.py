"""Hand-to-hand rounds: declarations, grapples, draws and simultaneous strikes (digest 10.2)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando import melee
from killhouse.rulesets.commando.h2h import Declaration, engagement_over, melee_round, strike_row
from killhouse.rulesets.commando.men import Kind, ManState, Ratings, SkillRating
from killhouse.rulesets.commando.wounds import Wound


class Forced(Chance):
    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        face = self.faces.pop(0)
        assert 1 <= face <= len(weights), (face, what, purpose)
        return face - 1


def man(ident: str, side: str, st: int = 13, end: int = 14, **kw: Any) -> ManState:
    skills = kw.pop("skills", {})
    ratings = Ratings(Kind.COMMANDO, st, 13, 13, end, lead=10, hero=15,
                      wps={"pistol": 0, "knife": 2}, skills=skills)
    return ManState(ident, side, ratings, **kw)


def test_simultaneous_strikes_both_land() -> None:
    a = man("a", "x", st=22, in_hand="combat_knife")
    b = man("b", "y", in_hand="combat_knife")
    decl = {"a": Declaration("a", "strike", "b"), "b": Declaration("b", "strike", "a")}
    # a: hit 30 (<= 36), kill 40 (> 9), d10 7 -> class 6 row 7 = 4, +1 St = 5
    # b: hit 27 (<= 25+0+2 = 27), kill 90 (> 8), d10 10 -> 6
    result = melee_round(Forced([30, 40, 7, 27, 90, 10]), {"a": a, "b": b}, decl)
    assert [(s, t, blow.result, blow.damage) for s, t, blow in result.blows] == [
        ("a", "b", melee.WOUND, 5), ("b", "a", melee.WOUND, 6)]
    assert (a.damage, b.damage) == (6, 5)


def test_a_killed_man_still_strikes_this_round() -> None:
    a = man("a", "x", in_hand="samurai_sword")
    b = man("b", "y", in_hand="combat_knife")
    decl = {"a": Declaration("a", "strike", "b"), "b": Declaration("b", "strike", "a")}
    result = melee_round(Forced([1, 1, 1, 99, 5]), {"a": a, "b": b}, decl)
    assert result.blows[0][2].result == melee.KILL
    assert result.blows[1][2].result == melee.WOUND
    assert b.wound() is Wound.DEAD and a.damage == 3
    assert engagement_over({"a": a, "b": b})


def test_grapple_then_garrote() -> None:
    a = man("a", "x", st=22, in_hand="garrote")
    b = man("b", "y")
    men = {"a": a, "b": b}
    # grapple: 50 + 9 - 0 = 59, roll 59 succeeds; then b's draw (unarmed, now grappled) on 2d6
    # 3 + 3 = 6 fails (2-7 fail)
    r1 = melee_round(Forced([59, 3, 3]), men, {"a": Declaration("a", "grapple", "b"),
                                               "b": Declaration("b", "draw", weapon="pistol")})
    assert r1.grapples == [("a", "b", True)]
    assert r1.draws == {"b": False} and b.in_hand is None
    assert a.grappled_with == "b" and b.grappled_with == "a"
    # next round: b tries to break free (50 + 0 - 9 = 41; 90 fails), then the garrote kills on
    # d100 <= 90 + 1 with no to-hit roll
    r2 = melee_round(Forced([90, 91]), men, {"a": Declaration("a", "strike", "b"),
                                             "b": Declaration("b", "evade")})
    assert r2.breaks == [("b", False)]
    assert r2.blows[0][2].result == melee.KILL
    assert b.wound() is Wound.DEAD and a.grappled_with is None


def test_garrote_needs_a_grapple() -> None:
    a, b = man("a", "x", in_hand="garrote"), man("b", "y")
    r = melee_round(Forced([]), {"a": a, "b": b}, {"a": Declaration("a", "strike", "b")})
    assert r.blows[0][2].result == melee.MISS


def test_grapple_fails_against_an_evader() -> None:
    a, b = man("a", "x"), man("b", "y")
    r = melee_round(Forced([26]), {"a": a, "b": b},
                    {"a": Declaration("a", "grapple", "b"), "b": Declaration("b", "evade")})
    assert r.grapples == [("a", "b", False)]  # 50 - 25 = 25
    assert a.grappled_with is None


def test_evade_breaks_a_grapple_and_lowers_strikes() -> None:
    a = man("a", "x", in_hand="combat_knife", grappled_with="b")
    b = man("b", "y", grappled_with="a")
    # b evades: break free on 50 + 0 - 0; roll 50 frees him. a's strike: 25 + 2 - 20 = 7
    r = melee_round(Forced([50, 8]), {"a": a, "b": b},
                    {"a": Declaration("a", "strike", "b"), "b": Declaration("b", "evade")})
    assert r.breaks == [("b", True)]
    assert r.blows[0][2].result == melee.MISS
    assert a.grappled_with is None and b.grappled_with is None


def test_personal_combat_rolls_first_each_round() -> None:
    a = man("a", "x", in_hand="combat_knife",
            skills={"personal_combat": SkillRating("personal_combat", 10)})
    b = man("b", "y")
    # PC: SDL 20, roll 20 succeeds -> +10 hit (25 + 2 + 10 = 37), +1 damage; kill 50 > 8;
    # d10 1 -> 1 + 1 = 2; b's fists (20) miss on 99
    r = melee_round(Forced([20, 37, 50, 1, 99]), {"a": a, "b": b},
                    {"a": Declaration("a", "strike", "b"), "b": Declaration("b", "strike", "a")})
    assert r.personal_combat == {"a": True}
    assert r.blows[0][2] == melee.Blow(melee.WOUND, 2)


def test_draw_takes_effect_next_round() -> None:
    a = man("a", "x")
    b = man("b", "y")
    r = melee_round(Forced([3, 3]), {"a": a, "b": b},
                    {"a": Declaration("a", "draw", weapon="combat_knife"),
                     "b": Declaration("b", "evade")})
    assert r.draws == {"a": True}  # unarmed, free: fails 2-4, 6 succeeds
    assert a.in_hand == "combat_knife"


@pytest.mark.parametrize(("item", "row"), [(None, "fists"), ("m16", "automatic"),
                                           ("carbine", "rifle"), ("pistol", "pistol"),
                                           ("bayonet", "bayonet")])
def test_strike_rows(item: str | None, row: str) -> None:
    assert strike_row(item) == row


def test_stacking_and_engagement() -> None:
    from killhouse.rulesets.commando.h2h import engage, may_enter

    a1, a2, b = man("a1", "x"), man("a2", "x"), man("b", "y")
    assert may_enter([a1, b], "x") and not may_enter([a1, a2, b], "x")
    engage([a1, b])
    assert a1.engaged and b.engaged
    lone = man("c", "x")
    engage([lone])
    assert not lone.engaged


@pytest.mark.parametrize(
    ("faces", "result", "free"), [([2, 3], "all", True), ([3, 3], "none", False)]
)
def test_disengagement_one_against_one(faces: list[int], result: str, free: bool) -> None:
    from killhouse.rulesets.commando.h2h import disengagement

    a, b = man("a", "x", engaged=True, tp=50), man("b", "y", engaged=True, tp=50)
    assert disengagement(Forced(faces), [a, b], ["a"]) == result
    assert a.tp == 30 and (not a.engaged) is free and a.must_leave is free


def test_disengagement_b_result_leaves_the_choice_to_the_side() -> None:
    from killhouse.rulesets.commando.h2h import disengagement, release

    a1, a2 = man("a1", "x", engaged=True, tp=50), man("a2", "x", engaged=True, tp=50)
    b = man("b", "y", engaged=True, tp=50)
    assert disengagement(Forced([2, 2]), [a1, a2, b], ["a1", "a2"]) == "one"  # 4 on 2 v 1
    assert a1.engaged and a2.engaged and a1.tp == a2.tp == 30
    release(a2)
    assert not a2.engaged and a2.must_leave
