"""Digest §3's exact probabilities, reproduced by enumerating the real roll code, the named
rolls of ``killhouse odds firewall`` and a seeded statistical check."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from killhouse.core.chance import Chance, enumerate_outcomes, sample_outcomes
from killhouse.errors import UnknownRollError
from killhouse.rulesets.firewall.gutz import gutz_roll
from killhouse.rulesets.firewall.rolls import ROLLS
from killhouse.sim.odds import exact_odds, parse_args

# §3: counts out of 36 for m = 0: (CS, S, F, CF)
SECTION_3 = {
    2: (1, 0, 30, 5), 3: (1, 2, 28, 5), 4: (2, 4, 26, 4), 5: (2, 8, 22, 4), 6: (3, 12, 18, 3),
    7: (3, 18, 12, 3), 8: (4, 22, 8, 2), 9: (4, 26, 4, 2), 10: (5, 28, 2, 1), 11: (5, 30, 0, 1),
}
# §3: N(T), ordered non-double pairs with a + b <= T
N = {2: 0, 3: 2, 4: 4, 5: 8, 6: 12, 7: 18, 8: 22, 9: 26, 10: 28, 11: 30}


def _counts(g: int, m: int, **kw: object) -> tuple[int, ...]:
    def roll(chance: Chance) -> str:
        return gutz_roll(chance, g, m, "test", **kw).result  # type: ignore[arg-type]

    odds = enumerate_outcomes(roll)
    assert sum(odds.values()) == 1
    counts = tuple(odds.get(r, Fraction(0)) * 36 for r in ("CS", "S", "F", "CF"))
    assert all(c.denominator == 1 for c in counts)
    return tuple(int(c) for c in counts)


@pytest.mark.parametrize("g", range(2, 12))
def test_section_3_table_for_m_0(g: int) -> None:
    assert _counts(g, 0) == SECTION_3[g]
    cs, s, _, _ = SECTION_3[g]
    # P(S or CS) with m = 0 equals P(2d6 <= g)
    assert cs + s == sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= g)


@pytest.mark.parametrize("g", range(2, 12))
@pytest.mark.parametrize("m", range(-10, 11))
def test_section_3_formula_for_every_modifier(g: int, m: int) -> None:
    n = N[min(11, max(2, g + m))]
    assert _counts(g, m) == (g // 2, n, 30 - n, 6 - g // 2)


@pytest.mark.parametrize(
    ("m", "s", "f"), [(-4, 2, 28), (-2, 8, 22), (-1, 12, 18), (1, 22, 8), (2, 26, 4), (4, 30, 0),
                      (-5, 0, 30)],
)
def test_section_3_examples_for_gutz_7(m: int, s: int, f: int) -> None:
    assert _counts(7, m) == (3, s, f, 3)


def test_section_3_skill_levels() -> None:
    assert _counts(9, 0, skill_level=0) == (0, 1, 30, 5)
    # level 3 in combat: CF only on 6-6 (g 7: CS 3, F includes the doubles 4-4 and 5-5)
    assert _counts(7, 0, skill_level=3, in_combat=True, start_gutz=7) == (3, 18, 14, 1)


def _exact(roll: str, *args: str) -> dict[str, Fraction]:
    spec = ROLLS[roll]
    return exact_odds(spec, parse_args(spec, list(args)))


def test_roll_list_names_the_issue_rolls() -> None:
    assert {"gutz", "shoot", "move", "close-combat", "malfunction", "fall", "leader-loss"} <= set(
        ROLLS
    )


def test_gutz_roll_odds() -> None:
    assert _exact("gutz", "--gutz", "7") == {
        "critical-failure": Fraction(3, 36), "critical-success": Fraction(3, 36),
        "failure": Fraction(12, 36), "success": Fraction(18, 36),
    }
    assert _exact("gutz", "--gutz", "9", "--skill-level", "0")["success"] == Fraction(1, 36)


def test_shoot_odds_colt_uaw() -> None:
    # 12 cm is effective (10/20/30); +1 weapon, −1 controlled burst: M 0 at Gutz 8
    odds = _exact("shoot", "--gutz", "8", "--weapon", "colt 10mm uaw", "--range-cm", "12")
    assert odds["success"] == Fraction(22, 36) and odds["critical-success"] == Fraction(4, 36)
    # at the Short edge (10 cm) the +1 applies; one step past Long (31 cm) is no shot
    short = _exact("shoot", "--gutz", "8", "--weapon", "colt_10mm_uaw", "--range-cm", "10")
    assert short["success"] == Fraction(26, 36)
    assert _exact("shoot", "--gutz", "8", "--weapon", "Colt 10mm UAW", "--range-cm", "30")
    with pytest.raises(UnknownRollError, match="beyond"):
        _exact("shoot", "--gutz", "8", "--weapon", "Colt 10mm UAW", "--range-cm", "31")


def test_shoot_modifiers_stack() -> None:
    odds = _exact(
        "shoot", "--gutz", "8", "--weapon", "Colt 10mm UAW", "--range-cm", "12", "--prone",
        "--cover", "light", "--suppressed", "--leader-near",
    )
    # M = 0 − 2 − 1 − 4 + 1 = −6: target 2, no non-double succeeds
    assert odds.get("success", Fraction(0)) == 0
    assert odds["critical-success"] == Fraction(4, 36)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--gutz", "12"), "2..11"),
        (("--gutz", "1"), "2..11"),
        (("--weapon", "Phaser"), "no weapon"),
        (("--fire-type", "B"), "fire type"),
    ],
)
def test_shoot_bad_parameters(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(UnknownRollError, match=message):
        _exact("shoot", *args)


def test_close_combat_c1() -> None:
    odds = _exact(
        "close-combat", "--gutz", "8", "--weapon-class", "close_combat", "--clutter", "3",
        "--extra-friends", "1", "--extra-enemies", "1",
    )
    assert odds["success"] == Fraction(18, 36)  # M −1: target 7


def test_move_run_second_roll() -> None:
    odds = _exact("move", "--gutz", "7", "--speed", "run")
    assert odds["failure-and-gutz-lost"] == Fraction(12, 36) * Fraction(15, 36)
    assert odds["failure"] == Fraction(12, 36) * Fraction(21, 36)
    assert _exact("move", "--gutz", "7", "--speed", "walk")["failure"] == Fraction(12, 36)


def test_malfunction_x1_green_lmg() -> None:
    odds = _exact("malfunction", "--weapon", "H&K LMG-21", "--experience", "green")
    assert odds == {
        "jammed": Fraction(2, 6), "useless": Fraction(1, 6), "explodes": Fraction(1, 6),
        "killed": Fraction(2, 6),
    }
    assert _exact("malfunction", "--weapon", "Bow") == {"no-roll": 1}
    grenade = _exact("malfunction", "--weapon", "Hand Grenade")
    assert grenade["dud"] == Fraction(3, 6)
    # F-28: a launcher's grenade uses the grenade column too (20mm GL Malf +1)
    assert _exact("malfunction", "--weapon", "20mm Grenade Launcher") == {
        "dud": Fraction(2, 6), "dud-wrecks-launcher": Fraction(1, 6),
        "grenade-s-on-firer": Fraction(1, 6), "grenade-cs-on-firer": Fraction(2, 6),
    }


def test_unjam_fall_leader_loss() -> None:
    assert _exact("unjam", "--gutz", "6", "--leader-near")["useless"] == Fraction(3, 36)
    fall = _exact("fall", "--height-cm", "10")
    assert fall["killed"] == 1 - Fraction(31, 36) ** 2
    assert fall["gutz-4"] == Fraction(30, 36) ** 2
    assert _exact("fall", "--height-cm", "3") == {"unhurt": 1}
    assert _exact("leader-loss", "--gutz", "7") == {
        "inspired": Fraction(3, 36), "dispirited": Fraction(18, 36),
        "dispirited-failed": Fraction(12, 36), "routs": Fraction(3, 36),
    }
    # at Gutz 2 the −1 of S and F routs as well (§4)
    assert _exact("leader-loss", "--gutz", "2")["routs"] == Fraction(35, 36)


def test_statistics_agree_with_enumeration() -> None:
    """10^5 seeded shots land within 4 standard errors of the exact odds."""
    spec = ROLLS["shoot"]
    params = parse_args(spec, ["--gutz", "7", "--weapon", "IMI Buzzard", "--range-cm", "12"])
    exact = exact_odds(spec, params)
    trials = 100_000
    counts = sample_outcomes(lambda chance: spec.resolve(chance, params), trials, seed=16)
    assert set(counts) <= set(exact)
    for name, p in exact.items():
        se = math.sqrt(float(p) * (1 - float(p)) / trials)
        assert abs(counts.get(name, 0) / trials - float(p)) <= 4 * se, name
