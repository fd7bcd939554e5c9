"""Section 8's exact probabilities and the dice test vectors, through the named rolls play uses."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest

from killhouse.core.chance import enumerate_outcomes, sample_outcomes
from killhouse.rulesets.gogogo import dice
from killhouse.rulesets.gogogo.ruleset import GoGoGoRuleset

from .helpers import ScriptedDice

ROLLS = GoGoGoRuleset().rolls()
F = Fraction


def odds(roll: str, **params: Any) -> dict[str, Fraction]:
    spec = ROLLS[roll]
    named = {k.replace("_", "-"): v for k, v in params.items()}
    return enumerate_outcomes(lambda chance: spec.resolve(chance, named))


def p_hit(**params: Any) -> Fraction:
    out = odds("fire", **params)
    return out.get(dice.OOA, F(0)) + out.get(dice.WOUNDED, F(0))


def test_every_required_roll_is_named() -> None:
    assert {"spot", "fire", "hit-effect", "grenade", "he-effect", "stun-effect"} <= set(ROLLS)
    names = {p.name for p in ROLLS["fire"].params}
    assert names == {"firer", "range", "target-moving", "target-hiding", "wounds", "stunned", "aim"}
    names = {p.name for p in ROLLS["spot"].params}
    assert names == {"observer", "target", "target-hiding", "wounds", "stunned"}


# -- section 8: to hit by net modifier ----------------------------------------------------

TO_HIT = [
    # firer, range, values for m = +2, +1, 0, -1, -2, -3
    ("moving", 3, ["5/6", "2/3", "1/2", "1/3", "1/6", "0"]),
    ("moving", 8, ["1/2", "1/3", "1/6", "0", "0", "0"]),
    ("stationary", 3, ["1", "1", "5/6", "2/3", "1/2", "1/3"]),
    ("stationary", 8, ["1", "5/6", "2/3", "1/2", "1/3", "1/6"]),
    ("sniper", 3, ["1", "5/6", "2/3", "1/2", "1/3", "1/6"]),
    ("sniper", 8, ["1", "1", "1", "5/6", "2/3", "1/2"]),
]


def _mods(m: int) -> dict[str, Any]:
    """Parameters for net modifier ``m``: aim for a plus (snipers only), wounds for a minus."""
    return {"aim": m} if m > 0 else {"wounds": -m}


@pytest.mark.parametrize(("firer", "span", "row"), TO_HIT)
def test_section_8_to_hit_table(firer: str, span: int, row: list[str]) -> None:
    for m, expected in zip([2, 1, 0, -1, -2, -3], row, strict=True):
        if m > 0 and firer != "sniper":
            # only aim adds to a roll; check the table's formula through the same need
            need = dice.fire_need(firer, span <= 5, False, False, 0, False, 0) - m
            assert F(min(6, max(0, 7 - need)), 6) == F(expected)
            continue
        assert p_hit(firer=firer, range=span, **_mods(m)) == F(expected), (firer, span, m)


def test_to_hit_modifiers_combine() -> None:
    # moving target and hiding target are -1 each; stunned -2; aim +1 per turn
    assert p_hit(firer="stationary", range=8, target_moving=True, target_hiding=True) == F(1, 3)
    assert p_hit(firer="stationary", range=3, stunned=True) == F(1, 2)


# -- the fire test vectors ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("vector", "params", "need", "p"),
    [
        ("G-TV7", {"firer": "stationary", "range": 5, "target_moving": True}, 3, F(2, 3)),
        ("G-TV8a", {"firer": "moving", "range": 6}, 6, F(1, 6)),
        ("G-TV8b", {"firer": "moving", "range": 6, "target_moving": True}, 7, F(0)),
        ("G-TV9", {"firer": "sniper", "range": 8, "target_hiding": True, "aim": 1}, 1, F(1)),
        ("G-TV10", {"firer": "sniper", "range": 3, "target_moving": True, "aim": 2}, 2, F(5, 6)),
        ("G-TV11", {"firer": "stationary", "range": 3, "wounds": 2, "stunned": True}, 6, F(1, 6)),
    ],
)
def test_fire_vectors(vector: str, params: Mapping[str, Any], need: int, p: Fraction) -> None:
    got = dice.fire_need(
        params["firer"],
        params["range"] ** 2 <= 25,
        params.get("target_moving", False),
        params.get("target_hiding", False),
        params.get("wounds", 0),
        params.get("stunned", False),
        params.get("aim", 0),
    )
    assert got == need, vector
    assert p_hit(**params) == p, vector


def test_range_five_is_short_and_a_hair_more_is_long() -> None:
    # G-TV1 through the firing code: (4,3) is 25 (short), (5,1) is 26 (long)
    assert dice.fire_need("stationary", 4 * 4 + 3 * 3 <= 25, False, False, 0, False, 0) == 2
    assert dice.fire_need("stationary", 5 * 5 + 1 * 1 <= 25, False, False, 0, False, 0) == 3


def test_g_tv9_sniper_auto_hit_uses_no_die_and_is_a_kill() -> None:
    chance = ScriptedDice()
    assert dice.shot(chance, 1, sniper=True) == dice.OOA
    assert chance.rolled == []


def test_g_tv8_impossible_shot_uses_no_die() -> None:
    chance = ScriptedDice()
    assert dice.shot(chance, 7, sniper=False) == dice.MISS
    assert chance.rolled == []


def test_g_tv12_hit_effect_faces() -> None:
    assert dice.hit_effect(ScriptedDice([2])) == dice.OOA
    assert dice.hit_effect(ScriptedDice([3])) == dice.WOUNDED
    assert odds("hit-effect") == {dice.OOA: F(1, 3), dice.WOUNDED: F(2, 3)}
    assert odds("hit-effect", sniper=True) == {dice.OOA: F(1)}


def test_section_8_hit_effect_compound() -> None:
    out = odds("fire", firer="stationary", range=3)
    assert out[dice.OOA] == F(5, 18)
    assert out[dice.WOUNDED] == F(5, 9)
    assert out[dice.MISS] == F(1, 6)


# -- spotting -----------------------------------------------------------------------------

SPOT = [
    # observer, target column, (m = 0, -1 hiding, -2)
    ("moving", "moving", ["1/2", "1/3", "1/6"]),
    ("moving", "stationary", ["1/3", "1/6", "0"]),
    ("stationary", "moving", ["5/6", "2/3", "1/2"]),
    ("stationary", "stationary", ["2/3", "1/2", "1/3"]),
    ("hiding", "moving", ["2/3", "1/2", "1/3"]),
    ("hiding", "stationary", ["1/2", "1/3", "1/6"]),
]


@pytest.mark.parametrize(("observer", "target", "row"), SPOT)
def test_section_8_spotting_table(observer: str, target: str, row: list[str]) -> None:
    cases: list[dict[str, Any]] = [{}, {"target_hiding": True}, {"wounds": 2}]
    for params, expected in zip(cases, row, strict=True):
        out = odds("spot", observer=observer, target=target, **params)
        assert out.get("spotted", F(0)) == F(expected), (observer, target, params)
    # -2 may also come from stun, or hiding plus a wound
    assert odds("spot", observer=observer, target=target, stunned=True).get("spotted", F(0)) == F(
        row[2]
    )


@pytest.mark.parametrize(
    ("vector", "params", "p"),
    [
        ("G-TV13", {"observer": "stationary", "target": "moving"}, F(5, 6)),
        ("G-TV14", {"observer": "hiding", "target": "stationary", "target_hiding": True}, F(1, 3)),
        (
            "G-TV15",
            {"observer": "moving", "target": "stationary", "target_hiding": True, "wounds": 1},
            F(0),
        ),
    ],
)
def test_spot_vectors(vector: str, params: Mapping[str, Any], p: Fraction) -> None:
    assert odds("spot", **params).get("spotted", F(0)) == p, vector


def test_two_observers_compound() -> None:
    def both(chance: Any) -> bool:
        a = dice.spot(chance, "stationary", "moving", False, 0, False)
        b = dice.spot(chance, "stationary", "moving", False, 0, False)
        return a or b

    assert enumerate_outcomes(both)[True] == F(35, 36)


# -- grenades ------------------------------------------------------------------------------


def test_grenade_accuracy_and_scatter_distribution() -> None:
    out = odds("grenade")
    assert out["on-target"] == F(1, 2)
    for direction, p in (
        ("short", F(1, 3)),
        ("over", F(1, 3)),
        ("left", F(1, 6)),
        ("right", F(1, 6)),
    ):
        total = sum((v for k, v in out.items() if k.startswith(direction)), F(0))
        assert total == p / 2, direction
        for k in range(1, 7):
            assert out[f"{direction} {k}"] == p / 2 / 6
    through = odds("grenade", through_door=True)
    assert through["on-target"] == F(1, 3)


def test_g_tv17_wounded_thrower_through_a_door() -> None:
    assert dice.grenade_need(True, 1, False) == 6
    assert odds("grenade", through_door=True, wounds=1)["on-target"] == F(1, 6)


def test_section_8_intended_square_in_radius() -> None:
    assert odds("grenade-radius", distance=6)["in-radius"] == F(5, 6)
    assert odds("grenade-radius", distance=9)["in-radius"] == F(5, 6)


def test_he_and_stun_effects() -> None:
    assert odds("he-effect") == {dice.STUNNED: F(1, 3), dice.WOUNDED: F(1, 3), dice.OOA: F(1, 3)}
    assert odds("stun-effect") == {dice.STUNNED: F(2, 3), dice.NO_EFFECT: F(1, 3)}


# -- the statistical check --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "params"),
    [
        ("fire", {"firer": "stationary", "range": 3}),
        ("fire", {"firer": "moving", "range": 4, "target-moving": True}),
        ("spot", {"observer": "hiding", "target": "moving"}),
        ("he-effect", {}),
    ],
)
def test_seeded_play_matches_exact_odds(roll: str, params: Mapping[str, Any]) -> None:
    spec = ROLLS[roll]
    exact = enumerate_outcomes(lambda chance: spec.resolve(chance, params))
    trials = 100_000
    counts = sample_outcomes(lambda chance: spec.resolve(chance, params), trials, seed=2024)
    for outcome, p in exact.items():
        freq = counts.get(outcome, 0) / trials
        se = (float(p) * (1 - float(p)) / trials) ** 0.5
        assert abs(freq - float(p)) <= 4 * se + 1e-12, (roll, outcome, freq, float(p))
    assert set(counts) <= set(exact)
