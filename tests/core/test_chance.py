"""The chance interface: exact enumeration, seeded draws as events, decks."""

from __future__ import annotations

from fractions import Fraction

import pytest

from killhouse.core.chance import (
    AVERAGE_DIE,
    Chance,
    SeededChance,
    enumerate_outcomes,
    sample_outcomes,
)
from killhouse.core.deck import Card, Deck, standard_cards
from killhouse.core.events import EventLog
from killhouse.core.rng import Rng


def two_d6(chance: Chance) -> int:
    return sum(chance.dice(2, 6, "test"))


def test_two_dice_enumerate_to_the_triangle() -> None:
    odds = enumerate_outcomes(two_d6)
    assert odds == {s: Fraction(6 - abs(s - 7), 36) for s in range(2, 13)}


@pytest.mark.parametrize("sides", [3, 6, 8, 10, 12, 100])
def test_single_die_is_uniform(sides: int) -> None:
    odds = enumerate_outcomes(lambda c: c.roll(sides, "t"))
    assert odds == {v: Fraction(1, sides) for v in range(1, sides + 1)}


def test_average_die_faces() -> None:
    assert enumerate_outcomes(lambda c: c.average_die("t")) == {
        2: Fraction(1, 6),
        3: Fraction(1, 3),
        4: Fraction(1, 3),
        5: Fraction(1, 6),
    }
    assert sorted(AVERAGE_DIE) == [2, 3, 3, 4, 4, 5]


def test_branches_depend_on_earlier_rolls() -> None:
    # roll again only on a six: P(total >= 10) = 1/6 * 3/6
    def exploding(c: Chance) -> bool:
        first = c.roll(6, "a")
        total = first + (c.roll(6, "b") if first == 6 else 0)
        return total >= 10

    assert enumerate_outcomes(exploding)[True] == Fraction(1, 12)


def test_sample_without_replacement() -> None:
    odds = enumerate_outcomes(lambda c: tuple(sorted(c.sample(["a", "b", "c"], 2, "t"))))
    assert odds == {
        ("a", "b"): Fraction(1, 3),
        ("a", "c"): Fraction(1, 3),
        ("b", "c"): Fraction(1, 3),
    }


def test_deck_composition_with_ranks_removed_and_jokers() -> None:
    cards = standard_cards(remove_ranks=[2, 3, 4, 5], jokers=2)
    assert len(cards) == 52 - 16 + 2
    assert sum(c.is_joker for c in cards) == 2
    assert not any(c.rank in (2, 3, 4, 5) for c in cards)
    assert Card(14, "hearts").colour == "red" and Card(13, "spades").colour == "black"


def test_deck_draw_odds_group_by_key() -> None:
    def first_two(c: Chance) -> tuple[str, str]:
        deck = Deck(
            "d", standard_cards(remove_ranks=range(2, 14), jokers=2), key=lambda k: k.colour
        )
        return (c.draw(deck, "a").colour, c.draw(deck, "b").colour)

    odds = enumerate_outcomes(first_two)
    assert sum(odds.values()) == 1
    # 2 red aces, 2 black aces, 2 jokers: P(both jokers) = 2/6 * 1/5
    assert odds[("joker", "joker")] == Fraction(1, 15)
    assert odds[("red", "black")] == Fraction(2, 6) * Fraction(2, 5)


def test_reshuffle_when_empty_is_an_event() -> None:
    log = EventLog()
    chance = SeededChance(Rng.from_seed(3), log)
    deck = Deck("tiny", [Card(14, "hearts"), Card(13, "spades")])
    for _ in range(2):
        deck.discard(chance.draw(deck, "t"))
    assert len(deck) == 0
    card = chance.draw(deck, "t")
    assert card in (Card(14, "hearts"), Card(13, "spades"))
    assert [e.kind for e in log.events] == ["draw", "draw", "reshuffle", "draw"]


def test_seeded_chance_records_every_roll_with_its_purpose() -> None:
    log = EventLog()
    chance = SeededChance(Rng.from_seed(5), log)
    value = chance.roll(8, "shot by zach", audience=frozenset({"fbi"}))
    event = log.events[-1]
    assert event.kind == "roll" and event.data == {
        "purpose": "shot by zach",
        "die": "d8",
        "result": value,
    }
    assert event.visible_to("fbi") and not event.visible_to("terrorists")


def test_same_seed_same_rolls() -> None:
    a = SeededChance(Rng.from_seed(11))
    b = SeededChance(Rng.from_seed(11))
    assert [a.roll(12, "x") for _ in range(50)] == [b.roll(12, "x") for _ in range(50)]


def test_empirical_matches_exact_within_four_standard_errors() -> None:
    trials = 100_000
    exact = enumerate_outcomes(two_d6)
    counts = sample_outcomes(two_d6, trials, seed=2026)
    for outcome, p in exact.items():
        se = (float(p) * (1 - float(p)) / trials) ** 0.5
        assert abs(counts.get(outcome, 0) / trials - float(p)) < 4 * se


def test_runaway_enumeration_is_an_error() -> None:
    with pytest.raises(ValueError, match="outcomes"):
        enumerate_outcomes(lambda c: tuple(c.dice(8, 10, "t")), limit=1000)


def test_repeat_until_conditions_on_a_resolved_attempt() -> None:
    """Re-rolled ties: the enumeration conditions on the round resolving, play loops."""

    def duel_round(c: Chance) -> str | None:
        a, b = c.roll(6, "a"), c.roll(4, "b")
        return None if a == b else ("a" if a > b else "b")

    odds = enumerate_outcomes(lambda c: c.repeat_until(duel_round))
    # one round: P(a) = 14/24, P(b) = 6/24, P(tie) = 4/24
    assert odds == {"a": Fraction(14, 20), "b": Fraction(6, 20)}
    counts = sample_outcomes(lambda c: c.repeat_until(duel_round), 20_000, seed=8)
    assert abs(counts["a"] / 20_000 - 0.7) < 4 * (0.7 * 0.3 / 20_000) ** 0.5
