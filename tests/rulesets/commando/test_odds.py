"""Digest section 16's exact values, reproduced by enumerating the real resolution code, and a
seeded statistical check of the same code in play (≥ 10^5 runs, within 4 standard errors)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from killhouse.core.chance import Chance, enumerate_outcomes, sample_outcomes
from killhouse.rulesets.commando import melee
from killhouse.rulesets.commando.characters import efficiency
from killhouse.rulesets.commando.dice import d100, passes
from killhouse.rulesets.commando.rolls import ROLLS
from killhouse.sim.odds import exact_odds, parse_args

F = Fraction


def odds(roll: str, *args: str) -> dict[str, Fraction]:
    spec = ROLLS[roll]
    return exact_odds(spec, parse_args(spec, list(args)))


def test_the_issue_names_every_required_roll() -> None:
    required = {"fire", "observe", "panic", "preservation", "grenade", "h2h", "disengage", "draw",
                "characteristic"}
    assert required <= set(ROLLS)
    for name, spec in ROLLS.items():
        assert spec.name == name and spec.help


@pytest.mark.parametrize(("x", "p"), [(-5, F(0)), (0, F(0)), (1, F(1, 100)), (57, F(57, 100)),
                                      (100, F(1)), (130, F(1))])
def test_percentile_rule(x: int, p: Fraction) -> None:
    got = enumerate_outcomes(lambda c: passes(d100(c, "test"), x))
    assert got.get(True, F(0)) == p


M16_57 = ("--weapon", "m16", "--range", "15", "--mk", "20", "--hero", "22", "--wp", "1",
          "--terrain", "woods", "--target-prone")


def test_one_fire_at_h57() -> None:
    assert odds("fire", *M16_57) == {"kill": F(9, 100), "miss": F(43, 100), "wound": F(48, 100)}


def test_three_m16_fires_at_h57() -> None:
    got = odds("fire", *M16_57, "--fires", "3")
    assert got["kill"] == 1 - F(91, 100) ** 3
    assert round(float(got["kill"]), 6) == 0.246429
    assert got["miss"] == F(43, 100) ** 3
    assert round(float(got["miss"]), 6) == 0.079507
    assert sum(got.values()) == 1


def test_prohibited_fire() -> None:
    assert odds("fire", "--weapon", "pistol", "--range", "31") == {"prohibited": F(1)}
    assert odds("fire", "--weapon", "pistol", "--range", "30")["kill"] == F(5, 100)


def test_three_observers_at_25_percent() -> None:
    got = odds("observe", "--code", "E", "--range", "35", "--target-prone", "--terrain", "woods",
               "--observers", "3")
    assert got["observed"] == 1 - F(3, 4) ** 3 == F(37, 64)  # 0.578125


def test_observation_out_of_range() -> None:
    args = ("--weather", "light_rain", "--light", "dusk", "--code", "E")
    assert odds("observe", *args, "--range", "21") == {"out-of-range": F(1)}
    assert "observed" in odds("observe", *args, "--range", "20")


def test_panic_split() -> None:
    got = odds("panic", "--lead", "12", "--wound", "serious", "--observed", "--first-sighting",
               "--leader-near", "--conditions", "1")
    p = F(39, 100)
    assert got == {"steady": 1 - p, "prone": p * F(6, 10), "fire": p * F(2, 10),
                   "run": p * F(2, 10)}


def test_preservation() -> None:
    assert odds("preservation", "--lead", "12", "--conditions", "2")["preserving"] == F(42, 100)
    assert odds("preservation", "--lead", "1", "--conditions", "3")["preserving"] == F(95, 100)


WAYS = [1, 5, 15, 35, 71, 130, 215, 325, 456, 595, 725, 825, 876, 865, 795, 670, 511, 345, 200,
        90, 26]


def test_five_d6_keep_four() -> None:
    got = odds("characteristic")
    assert {int(k): v for k, v in got.items()} == {
        total: F(w, 7776) for total, w in zip(range(4, 25), WAYS, strict=True)
    }
    mean = sum(int(k) * v for k, v in got.items())
    assert round(float(mean), 4) == 15.9309
    assert got["23"] + got["24"] == F(29, 1944)
    assert got["4"] + got["5"] == F(1, 1296)


def test_skill_efficiency_mean_is_14() -> None:
    got = enumerate_outcomes(lambda c: efficiency(sum(c.dice(2, 10, "efficiency"))))
    assert sum(k * v for k, v in got.items()) == 14


def test_knife_round() -> None:
    strike = melee.Strike("combat_knife", st=22, wp=2)
    got = odds("h2h", "--weapon", "combat_knife", "--st", "22", "--wp", "2")
    assert got["kill"] == F(36, 100) * F(9, 100)  # 0.0324
    blows = enumerate_outcomes(lambda c: melee.strike(c, strike))
    expected = sum(p * (b.damage - 1) for b, p in blows.items() if b.result == melee.WOUND)
    assert expected == F(36, 100) * F(91, 100) * F(7, 2)  # 1.1466 before the St bonus
    assert float(expected) == pytest.approx(1.1466)


@pytest.mark.parametrize(
    ("w", "s", "expected"),
    [(1, 1, {"all": F(10, 36), "none": F(26, 36)}),
     (1, 2, {"all": F(3, 36), "none": F(33, 36)}),
     (2, 1, {"all": F(3, 36), "one": F(7, 36), "none": F(26, 36)}),
     (2, 2, {"all": F(1, 36), "one": F(5, 36), "none": F(30, 36)})],
)
def test_disengagement(w: int, s: int, expected: dict[str, Fraction]) -> None:
    assert odds("disengage", "--withdrawing", str(w), "--staying", str(s)) == expected


@pytest.mark.parametrize(
    ("flags", "p"),
    [((), F(5, 6)), (("--armed",), F(7, 12)), (("--armed", "--grappled"), F(1, 6)),
     (("--grappled",), F(5, 12))],
)
def test_weapon_draw(flags: Sequence[str], p: Fraction) -> None:
    assert odds("draw", *flags)["drawn"] == p


def test_scatter() -> None:
    thrown = odds("scatter", "--device", "frag")
    by_distance: dict[int, Fraction] = {}
    by_direction: dict[str, Fraction] = {}
    for key, p in thrown.items():
        direction, distance = key.split("-")
        by_distance[int(distance)] = by_distance.get(int(distance), F(0)) + p
        by_direction[direction] = by_direction.get(direction, F(0)) + p
    assert by_distance == {1: F(1, 2), 2: F(1, 3), 3: F(1, 6)}
    assert set(by_direction.values()) == {F(1, 8)} and len(by_direction) == 8
    fired = odds("scatter", "--device", "rocket")
    distances = {int(k.split("-")[1]) for k in fired}
    assert distances == set(range(1, 7))
    assert fired["N-6"] == F(1, 48)


def test_grenade_example() -> None:
    got = odds("grenade", "--range", "6", "--dex", "19", "--terrain", "woods", "--door",
               "--prone")
    assert got["on-target"] == F(21, 100)
    assert got["scatter-2"] == F(79, 100) * F(1, 3)


def test_initiative_is_even() -> None:
    assert odds("initiative") == {"first side": F(1, 2), "second side": F(1, 2)}


def test_mag_check() -> None:
    assert odds("mag", "--weapon", "m16") == {"empty": F(18, 100), "loaded": F(82, 100)}
    assert odds("mag", "--weapon", "m16", "--semi") == {"empty": F(9, 100), "loaded": F(91, 100)}
    assert odds("mag", "--weapon", "rifle") == {"loaded": F(1)}


def test_skill() -> None:
    assert odds("skill", "--skill", "sniping", "--rating", "16", "--hero", "22")["success"] == F(
        25, 100)
    assert odds("skill", "--skill", "demolitions", "--rating", "10")["success"] == F(35, 100)


def _agrees(roll: str, args: Sequence[str], trials: int, seed: int) -> None:
    spec = ROLLS[roll]
    params: dict[str, Any] = parse_args(spec, list(args))
    exact = exact_odds(spec, params)
    counts = sample_outcomes(lambda c: spec.resolve(c, params), trials, seed)
    assert set(counts) <= set(exact)
    for outcome, p in exact.items():
        pf = float(p)
        se = math.sqrt(pf * (1 - pf) / trials)
        assert abs(counts.get(outcome, 0) / trials - pf) <= 4 * se + 1e-12, (outcome, pf)


def test_statistical_agreement_with_the_exact_odds() -> None:
    """10^5 seeded runs of three M16 fires, and of a knife strike, within 4 standard errors."""
    _agrees("fire", [*M16_57, "--fires", "3"], 100_000, 11)
    _agrees("h2h", ["--weapon", "combat_knife", "--st", "22", "--wp", "2"], 100_000, 12)


def test_a_chance_that_is_not_forced_plays_too() -> None:
    class First(Chance):
        def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Any) -> int:
            return 0

    assert ROLLS["fire"].resolve(First(), parse_args(ROLLS["fire"], list(M16_57))) == "kill"


@pytest.mark.parametrize("roll", sorted(ROLLS))
def test_every_roll_with_defaults_sums_to_one(roll: str) -> None:
    from killhouse.sim.odds import empirical_odds

    spec = ROLLS[roll]
    params = parse_args(spec, [])
    exact = exact_odds(spec, params)
    assert sum(exact.values()) == 1
    assert set(empirical_odds(spec, params, 500, 4)) <= set(exact)


def test_grapple_odds() -> None:
    assert odds("grapple", "--st", "22")["grappled"] == F(59, 100)
    assert odds("grapple", "--st", "22", "--evading")["grappled"] == F(34, 100)


def test_bad_roll_parameters_are_clear_errors() -> None:
    from killhouse.errors import UnknownRollError

    with pytest.raises(UnknownRollError, match="at least 1"):
        odds("disengage", "--withdrawing", "0")
    with pytest.raises(UnknownRollError, match="whole number"):
        odds("skill", "--skill", "safe_cracking", "--mult", "x")
    assert odds("skill", "--skill", "safe_cracking", "--rating", "12", "--mult", "2")[
        "success"] == F(24, 100)


def test_the_list_names_exactly_these_rolls() -> None:
    assert sorted(ROLLS) == sorted([
        "fire", "observe", "panic", "preservation", "grenade", "scatter", "h2h", "grapple",
        "disengage", "draw", "characteristic", "mag", "skill", "initiative", "blast", "claymore",
    ])


def test_blast_odds_digest_17_item_12() -> None:
    # a Closed room with 3 men: a d100 of 6 or less kills one of them at random, else 2d6
    got = odds("blast", "--device", "frag", "--environment", "closed", "--men", "3")
    assert got["killed"] == F(6, 100) * F(1, 3)
    assert got["damage-7"] == (1 - F(2, 100)) * F(6, 36)
    assert "damage-1" not in got and "damage-12" in got
    # satchel in the open: 1d6 - 2, at least 0 (C-30); one man: 2 % kill
    sat = odds("blast", "--device", "satchel", "--environment", "open", "--men", "1")
    assert sat["killed"] == F(2, 100)
    assert sat["damage-0"] == F(98, 100) * F(2, 6)  # faces 1 and 2
    # the 2 %-per-man rule at 50 men reaches 100 %
    assert odds("blast", "--men", "50")["killed"] == F(1, 50)


@pytest.mark.parametrize(("rng", "base"), [(1, 95), (3, 92), (4, 90), (8, 90), (9, 55), (10, 55)])
def test_claymore_odds_by_shotgun_band(rng: int, base: int) -> None:
    got = odds("claymore", "--range", str(rng), "--target-prone")
    h = base - 12
    assert got == {"kill": F(min(16, h // 6), 100), "wound": F(h - min(16, h // 6), 100),
                   "miss": F(100 - h, 100)}
    assert odds("claymore", "--range", "11") == {"out-of-reach": F(1)}  # one past its reach


def test_statistical_agreement_of_blast_and_claymore() -> None:
    """10^5 seeded blasts (Closed room, 3 men) and Claymore attacks, within 4 standard errors."""
    _agrees("blast", ["--environment", "closed", "--men", "3"], 100_000, 13)
    _agrees("claymore", ["--range", "9", "--target-prone"], 100_000, 14)
