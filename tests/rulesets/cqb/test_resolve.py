"""CQB's resolution functions against the digest: every test vector of section 16 as a table row,
section 15's exact tables by enumerating the real draws, and a seeded statistical check."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import pytest

from killhouse.core.chance import Chance, enumerate_outcomes, sample_outcomes
from killhouse.core.deck import Card, Deck
from killhouse.core.events import Audience
from killhouse.rulesets.cqb.cards import (
    ability_deck,
    card_value,
    hostage_deck,
    is_red,
    luck_from_die,
    reaction_value,
    value_colour,
)
from killhouse.rulesets.cqb.resolve import (
    Protection,
    ShotFactors,
    action_tn,
    cs_failures,
    cs_tn,
    judge,
    margin_outcome,
    range_modifier,
    recoil_modifier,
    resolve_hit,
    resolve_shot,
    shot_tn,
    stun_tn,
    throw_difficulty,
    throw_landing,
)
from killhouse.rulesets.cqb.rolls import ROLLS
from killhouse.rulesets.cqb.tables import ABILITIES, tables

H, D, S, C = "hearts", "diamonds", "spades", "clubs"


class Stacked(Chance):
    """A chance that deals named cards in order (the deck must hold them)."""

    def __init__(self, *cards: Card) -> None:
        self.cards = list(cards)

    def draw(self, deck: Deck, purpose: str, audience: Audience = None) -> Card:
        card = self.cards.pop(0)
        deck.cards.remove(card)
        return card


# -- 16.1 - 16.3 -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ability", "jokers", "size", "values"),
    [("experienced", 3, 43, range(2, 12)), ("elite", 2, 42, range(4, 14)),
     ("novice", 1, 41, range(1, 11))],
)
def test_16_1_deck_build(ability: str, jokers: int, size: int, values: range) -> None:
    deck = ability_deck("d", ability, jokers)
    assert len(deck) == size
    assert sum(c.is_joker for c in deck.cards) == jokers
    numbers = [card_value(c) for c in deck.cards if not c.is_joker]
    assert sorted(set(numbers)) == list(values)  # type: ignore[type-var]
    assert all(numbers.count(v) == 4 for v in values)


@pytest.mark.parametrize(
    ("card", "value", "red"),
    [(Card(14, S), 1, False), (Card(12, H), 12, True), (Card(11, D), 11, True)],
)
def test_16_2_card_values(card: Card, value: int, red: bool) -> None:
    assert card_value(card) == value and is_red(card) is red


def test_16_2_joker_has_no_value_fails_and_orders_as_zero() -> None:
    joker = Card(0, "joker")
    assert card_value(joker) is None and reaction_value(joker) == 0
    assert not judge(joker, -5).passed and not is_red(joker)


@pytest.mark.parametrize(("die", "jokers"), [(2, 3), (3, 2), (4, 2), (5, 1)])
def test_16_3_luck(die: int, jokers: int) -> None:
    assert luck_from_die(die)[1] == jokers


# -- 16.4 range ------------------------------------------------------------------------

RANGES = [(1.0, -2), (3.0, -2), (3.2, -1), (6.0, -1), (6.5, 0), (12.0, 0), (12.1, 1), (24.0, 1),
          (30, 2), (48.0, 2), (96.0, 3), (96.5, 4), (192, 4), (193, 5)]


@pytest.mark.parametrize(("r", "mod"), RANGES)
def test_16_4_range_modifier(r: float, mod: int) -> None:
    assert range_modifier(r) == mod


def test_16_4_range_matches_the_closed_form() -> None:
    for tenth in range(1, 4000):
        r = tenth / 10
        assert range_modifier(r) == max(-2, math.ceil(math.log2(r / 12))), r


# -- recoil (8.3.5) --------------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 23))
def test_recoil_table_matches_the_closed_forms(n: int) -> None:
    light = 0 if n <= 4 else 1 + (min(n, 20) - 5) // 6
    heavy = 0 if n == 1 else 1 + (min(n, 20) - 2) // 3
    assert recoil_modifier(n, False, True) == min(light, 3)
    assert recoil_modifier(n, True, True) == min(heavy, 7)


def test_recoil_single_shots_flat_plus_one_for_heavy_only() -> None:
    assert [recoil_modifier(n, True, False) for n in (1, 2, 3)] == [0, 1, 1]
    assert [recoil_modifier(n, False, False) for n in (1, 2, 3)] == [0, 0, 0]


def test_recoil_table_has_twenty_rows() -> None:
    assert sorted(tables().recoil) == list(range(1, 21))


# -- 16.5 - 16.9 the TN --------------------------------------------------------------


def shot_odds(ability: str, tn: int) -> dict[str, Fraction]:
    def one(c: Chance) -> str:
        return resolve_shot(c, ability_deck("f", ability, colour=False), tn, None).outcome

    return enumerate_outcomes(one)


def test_16_5_elite_mp5_two_bursts() -> None:
    tns = [shot_tn(ShotFactors(range=5, target_moved=4, aim=-4, shot=n, automatic=True))
           for n in range(1, 7)]
    assert tns == [4, 4, 4, 4, 5, 5]
    p = [shot_odds("elite", tn)["hit"] for tn in tns]
    assert p == [Fraction(40, 42)] * 4 + [Fraction(36, 42)] * 2


def test_16_6_experienced_ak47_nine_shots() -> None:
    tns = [shot_tn(ShotFactors(range=10, firer_moved=5, shot=n, heavy=True, automatic=True))
           for n in range(1, 10)]
    assert tns == [10, 11, 11, 11, 12, 12, 12, 13, 13]
    hits = [shot_odds("experienced", tn).get("hit", Fraction(0)) for tn in tns]
    assert hits[0] == Fraction(8, 42) and hits[1:4] == [Fraction(4, 42)] * 3
    assert hits[4:] == [0] * 5


def test_16_7_desert_eagle_three_shots() -> None:
    assert [shot_tn(ShotFactors(range=8, shot=n, heavy=True)) for n in (1, 2, 3)] == [8, 9, 9]


def test_16_8_changing_targets() -> None:
    base = shot_tn(ShotFactors(range=8, shot=3))
    assert shot_tn(ShotFactors(range=8, shot=3, change=int(2.7))) == base + 2
    assert shot_tn(ShotFactors(range=8, shot=4, change=0)) == base


def test_16_9_called_shots() -> None:
    brain = ShotFactors(range=6, aim=-6, scope=True, called="brain-stem", heavy=True)
    assert shot_tn(brain) == 4
    torso = ShotFactors(range=12, called="torso")
    assert shot_tn(torso) == 9
    assert resolve_shot(Stacked(Card(8, S)), ability_deck("n", "novice"), 9, "torso"
                        ).outcome == "graze"
    assert resolve_shot(Stacked(Card(7, S)), ability_deck("n", "novice"), 9, "torso"
                        ).outcome == "miss"
    # a called head that misses by 1 is a complete miss (8.4)
    assert resolve_shot(Stacked(Card(8, S)), ability_deck("n", "novice"), 9, "head"
                        ).outcome == "miss"


# -- 16.10, 16.11 hits and armour -----------------------------------------------------


NONE = Protection()


def hit(rnd: str, *cards: Card, called: str | None = None, armour: Protection = NONE
        ) -> tuple[str | None, str, bool]:
    h = resolve_hit(Stacked(*cards), ability_deck("f", "novice"), rnd, called, armour)
    return h.location, h.effect, h.knocked_down


@pytest.mark.parametrize(
    ("rnd", "cards", "armour", "expected"),
    [
        ("pistol", [Card(9, H)], Protection(), ("torso", "ooa", True)),
        ("pistol", [Card(9, S)], Protection(), ("torso", "flesh", False)),
        ("rifle", [Card(6, S)], Protection(), ("strong-arm", "ooa", True)),
        ("rifle", [Card(8, H)], Protection(plates=True), ("torso", "stopped", True)),
        ("rifle", [Card(7, S)], Protection(soft=True), ("torso", "flesh", False)),
        ("pistol", [Card(7, H)], Protection(soft=True), ("torso", "stopped", True)),
        ("pistol", [Card(10, C), Card(3, S)], Protection(helmet=True), ("head", "stopped", False)),
        ("pistol", [Card(10, C), Card(3, D)], Protection(helmet=True), ("head", "flesh", False)),
        ("fifty", [Card(8, D)], Protection(plates=True, soft=True), ("torso", "ooa", True)),
        # card 7 is not under the plates: without soft armour a rifle goes through
        ("rifle", [Card(7, H)], Protection(plates=True), ("torso", "ooa", True)),
        # ruling Q-39: both worn, a plated card meets the plates
        ("rifle", [Card(9, S)], Protection(plates=True, soft=True), ("torso", "stopped", False)),
        ("pistol", [Card(0, "joker")], Protection(), (None, "equipment", False)),
        ("pistol", [Card(10, H), Card(0, "joker")], Protection(helmet=True),
         ("head", "stopped", True)),
        ("pistol", [Card(14, D)], Protection(soft=True, plates=True), ("leg", "ooa", True)),
    ],
)
def test_16_10_16_11_hit_results(rnd: str, cards: list[Card], armour: Protection,
                                 expected: tuple[str | None, str, bool]) -> None:
    assert hit(rnd, *cards, armour=armour) == expected


def test_called_location_reads_only_the_colour_and_brain_stem_kills() -> None:
    assert hit("pistol", Card(2, H), called="torso", armour=Protection(plates=True)) == (
        "torso", "stopped", True)
    assert hit("rifle", called="brain-stem", armour=Protection(helmet=True)) == (
        "brain-stem", "dead", True)


def test_hostage_location_joker_is_drawn_again() -> None:
    h = resolve_hit(Stacked(Card(0, "joker"), Card(5, H)), hostage_deck(), "pistol", None,
                    Protection(), redraw_jokers=True)
    assert (h.location, h.effect) == ("weak-arm", "ooa")


# -- 16.13 - 16.16 ----------------------------------------------------------------------


def test_16_13_stun_tn_sequence() -> None:
    assert [stun_tn(k) for k in range(4)] == [8, 7, 6, 5]
    assert judge(Card(5, S), stun_tn(3)).passed and not judge(Card(4, S), stun_tn(3)).passed


def test_16_14_cs_tn_sequence_and_joker_counts_two() -> None:
    assert [cs_tn(k) for k in range(3)] == [6, 7, 8]
    assert cs_failures(judge(Card(3, S), 6)) == 1 + 0
    assert cs_failures(judge(Card(0, "joker"), 6)) == 2
    assert cs_failures(judge(Card(9, S), 8)) == 0


def test_16_16_other_action_margins() -> None:
    tn = action_tn("difficult", wounds=1)
    assert tn == 9
    assert margin_outcome(judge(Card(7, S), tn)) == "no-progress"
    assert margin_outcome(judge(Card(5, S), tn)) == "setback"
    assert margin_outcome(judge(Card(6, S), tn)) == "setback"  # margin 3: the edge
    assert margin_outcome(judge(Card(0, "joker"), tn)) == "joker"


@pytest.mark.parametrize(("d", "window", "expected"),
                         [(6, False, "easy"), (6.1, False, "moderate"), (12, False, "moderate"),
                          (12.1, False, None), (3, True, "difficult")])
def test_grenade_throw_difficulty_edges(d: float, window: bool, expected: str | None) -> None:
    assert throw_difficulty(d, window) == expected


def test_grenade_landing_by_margin() -> None:
    assert throw_landing(judge(Card(4, S), 4)) == "target"
    assert throw_landing(judge(Card(2, S), 4)) == "doorway"
    assert throw_landing(judge(Card(14, S), 4)) == "own-room"
    assert throw_landing(judge(Card(0, "joker"), 4)) == "lost"


# -- section 15: exact tables by enumeration ----------------------------------------


def exact(roll: str, **params: object) -> dict[str, Fraction]:
    spec = ROLLS[roll]
    full = {p.name: p.default for p in spec.params}
    full.update({k.replace("_", "-"): v for k, v in params.items()})
    return enumerate_outcomes(lambda c: spec.resolve(c, full))


def pass_table(m: int, tn: int, jokers: int) -> Fraction:
    return Fraction(4 * max(0, min(10, m + 10 - tn)), 40 + jokers)


@pytest.mark.parametrize("ability", ABILITIES)
@pytest.mark.parametrize("jokers", [1, 2, 3])
def test_15_pass_table(ability: str, jokers: int) -> None:
    m = tables().lowest[ability]
    for tn in range(0, 16):
        odds = exact("test", ability=ability, tn=tn, jokers=jokers)
        assert odds.get("pass", 0) == pass_table(m, tn, jokers)
        assert odds["joker"] == Fraction(jokers, 40 + jokers)


def test_15_worked_example_and_luck_edges() -> None:
    assert exact("test", ability="experienced", tn=8)["pass"] == Fraction(8, 21)
    assert exact("test", ability="elite", tn=8, jokers=1)["pass"] == Fraction(24, 41)
    assert exact("test", ability="elite", tn=8, jokers=3)["pass"] == Fraction(24, 43)


def test_15_reaction_odds() -> None:
    ee = exact("reaction", ability="experienced", against="experienced")
    assert ee["tie"] == Fraction(41, 441) and ee["first"] == Fraction(200, 441)
    en = exact("reaction", ability="elite", against="novice")
    assert en["first"] == Fraction(44, 63) and en["tie"] == Fraction(29, 441)


def test_15_same_deck_tie() -> None:
    def two(c: Chance) -> bool:
        deck = ability_deck("x", "experienced")
        return bool(reaction_value(c.draw(deck, "a")) == reaction_value(c.draw(deck, "b")))
    assert enumerate_outcomes(two)[True] == Fraction(61, 861)


STUN = {"novice": [0.7143, 0.4422, 0.2316, 0.0993, 0.0331],
        "experienced": [0.6190, 0.3243, 0.1390, 0.0463, 0.0110],
        "veteran": [0.5238, 0.2245, 0.0748, 0.0178, 0.0025],
        "elite": [0.4286, 0.1429, 0.0340, 0.0049, 0.0002]}


@pytest.mark.parametrize("ability", ABILITIES)
def test_15_stun_table(ability: str) -> None:
    for k, printed in enumerate(STUN[ability], start=1):
        p = exact("stun", ability=ability, tests=k)["stunned"]
        assert round(float(p), 4) == printed


@pytest.mark.parametrize(("ability", "fail"), [("novice", Fraction(11, 21)),
                                               ("experienced", Fraction(3, 7)),
                                               ("veteran", Fraction(1, 3)),
                                               ("elite", Fraction(5, 21))])
def test_15_cs_first_turn(ability: str, fail: Fraction) -> None:
    odds = exact("cs", ability=ability)
    assert odds["fail"] + odds["overcome"] == fail


def test_15_hostage_deck() -> None:
    odds = exact("hostage")
    hit = sum((p for k, p in odds.items() if k not in ("not-hit", "panic")), Fraction(0))
    assert hit == Fraction(10, 21)
    legs = sum((p for k, p in odds.items() if k.startswith("leg-")), Fraction(0))
    assert legs / hit == Fraction(16, 40)
    torso = sum((p for k, p in odds.items() if k.startswith("torso-")), Fraction(0))
    assert torso / hit == Fraction(12, 40)
    assert exact("hostage")["panic"] == Fraction(2, 42)


def test_15_luck() -> None:
    assert exact("luck") == {"bad": Fraction(1, 6), "average": Fraction(2, 3),
                             "good": Fraction(1, 6)}


def test_9_1_location_counts_by_deck() -> None:
    rows = {"novice": (16, 4, 4, 4, 8, 4), "experienced": (12, 4, 4, 4, 12, 4),
            "veteran": (8, 4, 4, 4, 16, 4), "elite": (4, 4, 4, 4, 20, 4)}
    for ability, expected in rows.items():
        counts = [0] * 6
        for card in ability_deck("x", ability).cards:
            v = card_value(card)
            if v is None:
                continue
            loc, plated = tables().location[v]
            index = {"leg": 0, "weak-arm": 1, "strong-arm": 2, "head": 5}.get(loc)
            counts[index if index is not None else (4 if plated else 3)] += 1
        assert tuple(counts) == expected


def test_decks_group_by_value_and_colour() -> None:
    deck = ability_deck("x", "novice")
    assert len(deck.groups()) == 21 and value_colour(Card(14, H)) == (1, "red")


# -- the real code run many times ----------------------------------------------------


def _within(fn: Callable[[Chance], str], trials: int, seed: int) -> None:
    odds = enumerate_outcomes(fn)
    counts = sample_outcomes(fn, trials, seed)
    for outcome, p in odds.items():
        se = math.sqrt(float(p) * (1 - float(p)) / trials)
        assert abs(counts.get(outcome, 0) / trials - float(p)) <= 4 * se + 1e-12, outcome


def test_statistics_match_exact_odds() -> None:
    params = {p.name: p.default for p in ROLLS["shot"].params}
    params.update({"ability": "veteran", "range": "10", "called": "torso"})
    _within(lambda c: ROLLS["shot"].resolve(c, params), 100_000, 7)
