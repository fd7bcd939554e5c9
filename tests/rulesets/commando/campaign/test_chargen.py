"""Character generation (digest 13) against the digest's exact values (16) and test vectors
(17 items 15-17): enumeration of the real code, and seeded runs within a stated error."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from killhouse.core.chance import SeededChance, enumerate_outcomes
from killhouse.core.events import EventLog
from killhouse.core.rng import Rng
from killhouse.roster.rules import NewMen
from killhouse.rulesets.commando.campaign import chargen
from killhouse.rulesets.commando.campaign.odds import CAMPAIGN_ROLLS
from killhouse.rulesets.commando.campaign.rules import CommandoCampaign
from killhouse.rulesets.commando.characters import efficiency, hero_class
from killhouse.sim.odds import exact_odds, parse_args
from tests.rulesets.commando.campaign.helpers import Faces

F = Fraction
WAYS = [1, 5, 15, 35, 71, 130, 215, 325, 456, 595, 725, 825, 876, 865, 795, 670, 511, 345, 200,
        90, 26]


def odds(roll: str, *args: str) -> dict[str, Fraction]:
    spec = CAMPAIGN_ROLLS[roll]
    return exact_odds(spec, parse_args(spec, list(args)))


def test_five_d6_keep_four_table_and_mean() -> None:
    got = enumerate_outcomes(lambda c: chargen.keep_best_four(c, "test"))
    assert got == {total: F(w, 7776) for total, w in zip(range(4, 25), WAYS, strict=True)}
    assert round(float(sum(k * p for k, p in got.items())), 4) == 15.9309
    assert got[23] + got[24] == F(29, 1944)  # the Bonus Table's trigger
    assert got[4] + got[5] == F(1, 1296)  # the Penalty Table's trigger


def test_bonus_and_penalty_tables() -> None:
    got = enumerate_outcomes(lambda c: chargen.bonus_roll(c, "test")[1])
    assert got == {0: F(50, 100), 1: F(25, 100), 2: F(15, 100), 3: F(9, 100), 4: F(1, 100)}
    # table edges and one past them
    assert [chargen.bonus_points(r) for r in (1, 50, 51, 75, 76, 90, 91, 99, 100)] == [
        0, 0, 1, 1, 2, 2, 3, 3, 4]
    assert odds("bonus", "--penalty") == {"-0": F(1, 2), "-1": F(1, 4), "-2": F(3, 20),
                                          "-3": F(9, 100), "-4": F(1, 100)}


def test_endurance_chain_expected_addition() -> None:
    per_roll = F(sum(chargen.bonus_points(r) for r in range(1, 101)), 100)
    stop = F(sum(r < 51 for r in range(1, 101)), 100)
    assert per_roll == F(86, 100) and per_roll / stop == F(172, 100)
    # the real code in play: 40 000 chains started at 24; standard error of the mean < 0.011
    chance = SeededChance(Rng.from_seed(5))
    runs = 40_000
    adds = [chargen.adjust(chance, "end", 24, "end") - 24 for _ in range(runs)]
    mean = sum(adds) / runs
    var = sum((a - mean) ** 2 for a in adds) / runs
    assert abs(mean - 1.72) < 4 * math.sqrt(var / runs)


def test_final_endurance_25_or_more() -> None:
    ways = {t: F(w, 7776) for t, w in zip(range(4, 25), WAYS, strict=True)}
    chain = {int(k.rstrip("+")) - 24: p
             for k, p in odds("generated", "--which", "end", "--rolled", "24").items()}
    at_least = {n: sum((p for add, p in chain.items() if add >= n), F(0)) for n in (1, 2)}
    assert at_least == {1: F(1, 2), 2: F(3, 8)}
    high = ways[23] * at_least[2] + ways[24] * at_least[1]
    assert high == F(4675, 777600)  # (90 x 0.375 + 26 x 0.5) / 7776, exact
    assert abs(float(high) - 0.00601) < 0.00001
    # St: the Bonus on 23-24 and the Penalty on 4-5; Mk and Hero take neither; End no penalty
    assert odds("generated", "--which", "st", "--rolled", "5") == {
        "5": F(1, 2), "4": F(1, 4), "3": F(3, 20), "2": F(9, 100), "1": F(1, 100)}
    assert odds("generated", "--which", "st", "--rolled", "6") == {"6": F(1)}
    assert odds("generated", "--which", "mk", "--rolled", "24") == {"24": F(1)}
    assert odds("generated", "--which", "end", "--rolled", "5") == {"5": F(1)}
    assert odds("generated", "--which", "lead", "--rolled", "23") == {
        "23": F(1, 2), "24": F(1, 4), "25": F(3, 20), "26": F(9, 100), "27": F(1, 100)}


def _exact_total(kind: str) -> float:
    """P(the characteristics total at most the reroll limit), by convolution, independent of
    the code under test: 5d6-keep-4 ways, then the Bonus/Penalty rules of 13.1."""
    ways = {t: F(w, 7776) for t, w in zip(range(4, 25), WAYS, strict=True)}
    bonus = {0: F(1, 2), 1: F(1, 4), 2: F(15, 100), 3: F(9, 100), 4: F(1, 100)}
    # the chain: per link +1..+4 and go on (r >= 51), or stop with +0; 60 links is exact to 1e-18
    chain: dict[int, Fraction] = {0: F(1, 2)}
    go = {1: F(1, 4), 2: F(15, 100), 3: F(9, 100), 4: F(1, 100)}
    layer = dict(go)
    for _ in range(60):
        nxt: dict[int, Fraction] = {}
        for add, p in layer.items():
            chain[add] = chain.get(add, F(0)) + p * F(1, 2)
            for more, q in go.items():
                nxt[add + more] = nxt.get(add + more, F(0)) + p * q
        layer = nxt

    def one(key: str) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for v, p in ways.items():
            if v >= 23 and key in ("st", "dex", "end", "lead"):
                table = chain if key == "end" else bonus
                for add, q in table.items():
                    out[v + add] = out.get(v + add, F(0)) + p * q
            elif v <= 5 and key in ("st", "dex"):
                for sub, q in bonus.items():
                    out[v - sub] = out.get(v - sub, F(0)) + p * q
            else:
                out[v] = out.get(v, F(0)) + p
        return out

    keys = ["st", "mk", "dex", "end", "lead", "hero"] if kind == "commando" else [
        "st", "mk", "dex", "end"]
    total: dict[int, float] = {0: 1.0}
    for key in keys:
        dist = one(key)
        summed: dict[int, float] = {}
        for s, weight in total.items():
            for v, q in dist.items():
                summed[s + v] = summed.get(s + v, 0.0) + weight * float(q)
        total = summed
    limit = 84 if kind == "commando" else 56
    return sum(p for s, p in total.items() if s <= limit)


@pytest.mark.parametrize(("kind", "digest"), [("commando", 0.09194), ("grunt", 0.14387)])
def test_optional_reroll_probabilities(kind: str, digest: float) -> None:
    assert abs(_exact_total(kind) - digest) < 0.000005
    # the real code in play, 20 000 seeded men: standard error sqrt(p(1-p)/n) <= 0.0025;
    # accepted within 4 standard errors (the forced Hero 0-4 reroll is left out here)
    chance = SeededChance(Rng.from_seed(11))
    runs = 20_000
    weak = sum(chargen.weak(kind, chargen.roll_characteristics(chance, kind, "x"))
               for _ in range(runs))
    p = weak / runs
    assert abs(p - digest) < 4 * math.sqrt(digest * (1 - digest) / runs), p


def test_vector_15_bonus_penalty_and_the_endurance_chain() -> None:
    assert chargen.characteristic(Faces([6, 6, 6, 5, 1, 80]), "st", "st") == 25
    assert chargen.adjust(Faces([80, 55, 30]), "end", 24, "end") == 27
    assert chargen.characteristic(Faces([2, 1, 1, 1, 1, 95]), "st", "st") == 2
    # edges: 22 takes no bonus, 23 does; 6 takes no penalty, 5 does; Mk never
    assert chargen.adjust(Faces([]), "st", 22, "st") == 22
    assert chargen.adjust(Faces([51]), "st", 23, "st") == 24
    assert chargen.adjust(Faces([]), "dex", 6, "dex") == 6
    assert chargen.adjust(Faces([100]), "dex", 5, "dex") == 1
    assert chargen.adjust(Faces([]), "mk", 24, "mk") == 24
    assert chargen.adjust(Faces([]), "end", 4, "end") == 4  # End takes no penalty
    assert chargen.adjust(Faces([50]), "end", 23, "end") == 23  # chain stops at 50 ...
    assert chargen.adjust(Faces([51, 50]), "end", 23, "end") == 24  # ... goes on at 51


def test_vector_16_skill_efficiency() -> None:
    assert efficiency(13) == 16
    got = enumerate_outcomes(lambda c: sum(c.dice(2, 10, "skill")))
    for k in range(2, 21):
        assert got[k] == (F(k - 1, 100) if k <= 11 else F(21 - k, 100))
    assert sum(efficiency(k) * p for k, p in got.items()) == 14


@pytest.mark.parametrize(("hero", "skills", "wps", "abilities"), [
    (24, 3, 3, 0), (25, 4, 4, 1), (26, 4, 4, 1), (27, 5, 5, 2), (28, 5, 5, 2), (29, 6, 6, 4),
    (30, 6, 6, 4),
])
def test_vector_17_hero_extras_are_cumulative(
    hero: int, skills: int, wps: int, abilities: int
) -> None:
    assert chargen.allowance("commando", hero) == {
        "skills": skills, "wps": wps, "abilities": abilities}
    assert chargen.allowance("grunt", None) == {"skills": 1, "wps": 1, "abilities": 0}


def test_hero_0_to_4_is_rolled_again_whatever_the_player_says() -> None:
    # six characteristics, the last (Hero) 5d6 of ones: 4, forcibly retired; then a new man
    first = [3, 3, 3, 3, 3] * 5 + [1, 1, 1, 1, 1]
    second = [3, 3, 3, 3, 3] * 5 + [1, 1, 1, 1, 2]
    values, tries = chargen.roll_man(Faces(first + second), "commando", "x", reroll=False)
    assert tries == 2 and values["hero"] == 5 and hero_class(5).name == "Hard Luck Case"


def test_the_optional_reroll_is_the_players() -> None:
    # all threes: 12 x 6 = 72 <= 84, a weak man; kept unless the player asked for a reroll
    weak = [3, 3, 3, 3, 3] * 6
    values, tries = chargen.roll_man(Faces(weak), "commando", "x", reroll=False)
    assert tries == 1 and sum(values.values()) == 72 and chargen.weak("commando", values)
    # all sixes: 24 each; St, Dex, End and Lead roll a Bonus d100 (1: +0, the chain stops)
    strong = ([6] * 5 + [1]) + [6] * 5 + ([6] * 5 + [1]) * 3 + [6] * 5
    values, tries = chargen.roll_man(Faces(weak + strong), "commando", "x", reroll=True)
    assert tries == 2 and sum(values.values()) == 144
    # the edge: 84 may be scrapped, 85 may not
    assert chargen.weak("commando", dict.fromkeys("abcdef", 14))
    assert not chargen.weak("commando", {"a": 15, **dict.fromkeys("bcdef", 14)})
    assert chargen.weak("grunt", dict.fromkeys("abcd", 14))
    assert not chargen.weak("grunt", {"a": 15, **dict.fromkeys("bcd", 14)})


def test_the_same_seed_rolls_the_same_roster_and_every_roll_is_an_event() -> None:
    request = NewMen({"commando": 2, "grunt": 3}, ("Kane",),
                     {"skills": ("sniping", "demolitions", "night_fighting", "grenade_toss"),
                      "wps": ("m16", "smg", "rifle", "lmg")})

    def roll(seed: int) -> tuple[list[object], EventLog]:
        log = EventLog()
        return list(CommandoCampaign().new_men(SeededChance(Rng.from_seed(seed), log),
                                               request)), log

    men, log = roll(3)
    assert men == roll(3)[0] and men != roll(4)[0]
    assert log.events and all(e.kind in ("roll", "pick") for e in log.events)
    names = [m.name for m in men]  # type: ignore[attr-defined]
    assert names[0] == "Kane" and len(set(names)) == 5
    dice = [e for e in log.events if e.data.get("die") == "5d6"]
    assert len(dice) >= 2 * 6 + 3 * 4  # every characteristic's five dice are one event
