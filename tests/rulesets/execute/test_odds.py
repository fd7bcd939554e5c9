"""Section 9's exact probabilities, from the ruleset's named rolls run over every die outcome,
and a seeded statistical check that the same code plays those odds."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from killhouse.core.chance import Chance, enumerate_outcomes, sample_outcomes
from killhouse.rulesets.execute.ruleset import ROLLS
from tests.rulesets.execute.helpers import RULESET

F = Fraction


def odds(roll: str, **params: Any) -> dict[str, Fraction]:
    spec = RULESET.rolls()[roll]
    full = {p.name: params.get(p.name, p.default) for p in spec.params}
    return enumerate_outcomes(lambda chance: spec.resolve(chance, full))


# The table of section 9: TN -> P(success) on d6, d8, d10, d12 (None marks "TN <= 1").
TABLE: dict[int, tuple[Fraction, Fraction, Fraction, Fraction]] = {
    1: (F(1), F(1), F(1), F(1)),
    2: (F(5, 6), F(7, 8), F(9, 10), F(11, 12)),
    3: (F(2, 3), F(3, 4), F(4, 5), F(5, 6)),
    4: (F(1, 2), F(5, 8), F(7, 10), F(3, 4)),
    5: (F(1, 3), F(1, 2), F(3, 5), F(2, 3)),
    6: (F(1, 6), F(3, 8), F(1, 2), F(7, 12)),
    7: (F(0), F(1, 4), F(2, 5), F(1, 2)),
    8: (F(0), F(1, 8), F(3, 10), F(5, 12)),
    9: (F(0), F(0), F(1, 5), F(1, 3)),
    10: (F(0), F(0), F(1, 10), F(1, 4)),
    11: (F(0), F(0), F(0), F(1, 6)),
    12: (F(0), F(0), F(0), F(1, 12)),
    13: (F(0), F(0), F(0), F(0)),
}


@pytest.mark.parametrize("tn", sorted(TABLE))
def test_section_9_table(tn: int) -> None:
    d6, d8, d10, d12 = TABLE[tn]
    # shots give d6/d8/d10: TN = 2 × EV − F; EV 10 with Firearms 20 − TN gives that TN
    for weapon, expected in (("pistol", d6), ("smg", d8), ("sniper", d10)):
        got = odds("shot", weapon=weapon, evasion=10, firearms=20 - tn)
        assert got.get("hit", F(0)) == expected, (weapon, tn)
    # devices give d12: TN = 2 × level − E
    got = odds("device", level=10, electronics=20 - tn)
    assert got.get("success", F(0)) == d12
    # and the TN ≤ 1 row holds for any lower TN (E-13)
    if tn == 1:
        assert odds("shot", weapon="smg", evasion=1, firearms=10) == {"hit": F(1)}


@pytest.mark.parametrize(
    ("params", "p"),
    [
        (dict(weapon="smg", firearms=8, evasion=6), F(5, 8)),  # E-TV1
        (dict(weapon="sniper", firearms=10, evasion=6), F(9, 10)),  # Zach Dante
        (dict(weapon="smg", firearms=6, evasion=8), F(0)),  # standard terrorist v Gary
        (dict(weapon="sniper", firearms=6, evasion=8), F(1, 10)),
        (dict(weapon="smg", firearms=8, evasion=5), F(7, 8)),  # Harry Lars v the standard
        (dict(weapon="pistol", firearms=5, evasion=5), F(1, 3)),  # Derik Gotam
    ],
)
def test_worked_shots(params: dict[str, Any], p: Fraction) -> None:
    assert odds("shot", **params).get("hit", F(0)) == p


def test_worked_devices_and_bombs() -> None:
    assert odds("device", level=7, electronics=5)["success"] == F(1, 3)
    assert odds("bomb-disarm", level=6, electronics=9) == {"disarmed": F(2, 3), "exploded": F(1, 3)}
    assert odds("bomb-disarm", level=6, electronics=10)["disarmed"] == F(5, 6)
    assert odds("bomb-disarm", level=6, electronics=10, damage=3) == {"exploded": F(1)}


GRENADE_ROWS = {
    # skill: [(TN, P(on), P(in blast)) for d 1-4, 5-9, 10-14, 15]
    2: [(8, F(1, 8), F(1, 2)), (10, F(0), F(1, 4)), (12, F(0), F(0)), (14, F(0), F(0))],
    4: [(6, F(3, 8), F(3, 4)), (8, F(1, 8), F(1, 2)), (10, F(0), F(1, 4)), (12, F(0), F(0))],
    6: [(4, F(5, 8), F(1)), (6, F(3, 8), F(3, 4)), (8, F(1, 8), F(1, 2)), (10, F(0), F(1, 4))],
    8: [(2, F(7, 8), F(1)), (4, F(5, 8), F(1)), (6, F(3, 8), F(3, 4)), (8, F(1, 8), F(1, 2))],
    10: [(0, F(1), F(1)), (2, F(7, 8), F(1)), (4, F(5, 8), F(1)), (6, F(3, 8), F(3, 4))],
}


@pytest.mark.parametrize("skill", sorted(GRENADE_ROWS))
def test_grenade_table(skill: int) -> None:
    for distance, (tn, p_on, p_blast) in zip((3, 7, 12, 15), GRENADE_ROWS[skill], strict=True):
        got = odds("grenade", distance=distance, grenades=skill)
        assert got.get("on-target", F(0)) == p_on
        # in the blast: on target, or overshot by at most 3 (walls aside)
        near = sum(
            (
                p
                for name, p in got.items()
                if name == "on-target" or int(name.rsplit("-", 1)[1]) <= 3
            ),
            F(0),
        )
        assert near == p_blast, (skill, distance, tn)
        assert sum(got.values()) == 1


def test_grenade_example_outcomes() -> None:
    """E-TV8: Jim (G 8) at 11 squares: TN 6, so rolls 1-5 overshoot by 5 … 1."""
    got = odds("grenade", distance=11, grenades=8)
    assert got == {"on-target": F(3, 8), **{f"overshoot-{m}": F(1, 8) for m in range(1, 6)}}


def test_surveillance_odds() -> None:
    assert odds("surveillance", terrorists=10, hostages=8) == {
        "nothing": F(1, 3),
        "2-terrorists": F(1, 6),
        "5-terrorists+6-hostages": F(1, 4),
        "everyone": F(1, 4),
    }
    assert odds("surveillance", terrorists=3, hostages=5)["3-terrorists+4-hostages"] == F(1, 4)


def test_initiative_odds() -> None:
    assert odds("initiative") == {"fbi": F(1, 2), "terrorists": F(1, 2)}


def test_every_named_roll_exists() -> None:
    assert {"shot", "device", "bomb-disarm", "grenade", "surveillance", "initiative"} <= set(ROLLS)


def _within(counts: dict[str, int], exact: dict[str, Fraction], trials: int) -> None:
    for outcome, p in exact.items():
        expected = float(p)
        se = math.sqrt(expected * (1 - expected) / trials)
        got = counts.get(outcome, 0) / trials
        assert abs(got - expected) <= 4 * se + 1e-12, (outcome, got, expected)


def test_seeded_play_matches_exact_odds() -> None:
    """10^5 shots and grenade throws with the play code agree with the exact odds (4 SE)."""
    trials = 100_000
    spec = ROLLS["shot"]
    params = {"weapon": "smg", "firearms": 8, "evasion": 6, "damage": 0}

    def shot(chance: Chance) -> str:
        return spec.resolve(chance, params)

    _within(sample_outcomes(shot, trials, seed=2024), odds("shot", **params), trials)
    g = ROLLS["grenade"]
    gp = {"distance": 11, "grenades": 8, "damage": 0}

    def grenade(chance: Chance) -> str:
        return g.resolve(chance, gp)

    _within(sample_outcomes(grenade, trials, seed=7), odds("grenade", **gp), trials)
