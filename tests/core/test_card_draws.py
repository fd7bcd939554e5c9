"""Card draws grouped by what a rule reads (ruling K-10), exact against brute force."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from killhouse.core.chance import Chance, enumerate_outcomes
from killhouse.core.deck import (
    Card,
    Deck,
    by_colour,
    by_threshold,
    by_value,
    by_value_colour,
    card_value,
    standard_cards,
)

SMALL = [
    Card(14, "hearts"),
    Card(2, "spades"),
    Card(3, "hearts"),
    Card(3, "clubs"),
    Card(5, "diamonds"),
    Card(0, "joker"),
    Card(0, "joker"),
]

KEYS: dict[str, Callable[[Card], Hashable]] = {
    "colour": by_colour,
    "value1": by_value(1),
    "value14": by_value(14),
    "t3": by_threshold(3, 1),
    "t4": by_threshold(4, 14),
    "vc": by_value_colour(1),
}


def brute(cards: list[Card], keys: list[str]) -> dict[tuple[Hashable, ...], Fraction]:
    """Every ordered draw of len(keys) distinct cards, equally likely."""
    counts: Counter[tuple[Hashable, ...]] = Counter()
    total = 0
    for seq in permutations(range(len(cards)), len(keys)):
        counts[tuple(KEYS[k](cards[i]) for k, i in zip(keys, seq, strict=True))] += 1
        total += 1
    return {k: Fraction(v, total) for k, v in counts.items()}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(sorted(KEYS)), min_size=1, max_size=5))
def test_grouped_draws_match_brute_force(keys: list[str]) -> None:
    def fn(c: Chance) -> tuple[Hashable, ...]:
        deck = Deck("d", list(SMALL))
        return tuple(KEYS[k](c.draw(deck, "t", key=KEYS[k])) for k in keys)

    assert enumerate_outcomes(fn) == brute(SMALL, keys)


def test_an_outcome_that_depends_on_an_earlier_card_is_exact() -> None:
    # draw 1 read as pass/fail at 3, draw 2 read by colour: the first card's colour matters
    def fn(c: Chance) -> tuple[Hashable, Hashable]:
        deck = Deck("d", list(SMALL))
        first = by_threshold(3, 1)(c.draw(deck, "a", key=by_threshold(3, 1)))
        return first, by_colour(c.draw(deck, "b", key=by_colour))

    odds = enumerate_outcomes(fn)
    assert odds == brute(SMALL, ["t3", "colour"])
    # pass (3H, 3C, 5D) then red: 3H then (AH, 5D) 2, 3C then (AH, 3H, 5D) 3, 5D then (AH, 3H) 2
    assert odds[("pass", "red")] == Fraction(2 + 3 + 2, 7 * 6)


def test_a_burst_branches_once_per_reading() -> None:
    # six shots from a 42-card deck (values 2..11, two jokers), TN 8 rising by one per shot
    leaves = 0

    def burst(c: Chance) -> tuple[int, bool]:
        nonlocal leaves
        leaves += 1
        deck = Deck("exp", standard_cards(remove_ranks=[12, 13, 14], jokers=2))
        hits = 0
        for shot in range(6):
            card = c.draw(deck, "hit", key=by_threshold(8 + shot, 1))
            if card.is_joker:
                return hits, True  # a joker jams the weapon and ends the burst
            hits += (card_value(card, 1) or 0) >= 8 + shot
        return hits, False

    odds = enumerate_outcomes(burst)
    assert sum(odds.values()) == 1
    assert leaves == 63  # a 42-way draw per card would be 42*41*40*39*38*37 sequences
    # first shot alone: 16 of 42 pass at TN 8 (cqb §15 worked example)
    assert sum(p for (h, jam), p in odds.items()) == 1
    assert odds[(0, True)] > 0
    # P(jam on the first card) = 2/42 is part of (0, True)
    first_jam = Fraction(2, 42)
    assert odds[(0, True)] >= first_jam


def test_k5_a_draw_is_never_skipped_when_only_jokers_fail() -> None:
    # TN 2 on values 2..11: only a joker fails, and the draw still happens (and takes a card)
    def fn(c: Chance) -> str:
        deck = Deck("exp", standard_cards(remove_ranks=[12, 13, 14], jokers=2))
        reading = by_threshold(2, 1)(c.draw(deck, "hit", key=by_threshold(2, 1)))
        assert len(deck) == 41
        return str(reading)

    assert enumerate_outcomes(fn) == {"pass": Fraction(40, 42), "joker": Fraction(2, 42)}


def test_ace_counts_one_or_fourteen() -> None:
    ace = Card(14, "spades")
    assert card_value(ace) == 14 and card_value(ace, ace=1) == 1
    assert card_value(Card(0, "joker"), ace=1) is None
    assert by_threshold(2, 1)(ace) == "fail" and by_threshold(2, 14)(ace) == "pass"
    with pytest.raises(ValueError):
        by_value(7)


def test_reshuffle_inside_an_enumeration_restores_every_card() -> None:
    def fn(c: Chance) -> tuple[Hashable, ...]:
        deck = Deck("d", [Card(14, "hearts"), Card(2, "spades"), Card(0, "joker")])
        out = []
        for _ in range(4):  # the fourth draw reshuffles the three discards
            card = c.draw(deck, "t", key=by_colour)
            out.append(by_colour(card))
            deck.discard(card)
        return tuple(out)

    odds = enumerate_outcomes(fn)
    assert sum(odds.values()) == 1
    assert odds[("red", "black", "joker", "red")] == Fraction(1, 6) * Fraction(1, 3)


def test_reshuffle_with_a_card_still_held_is_refused_in_enumeration() -> None:
    def fn(c: Chance) -> str:
        deck = Deck("d", [Card(14, "hearts"), Card(2, "spades")])
        c.draw(deck, "a", key=by_colour)  # kept in hand, never discarded
        deck.discard(c.draw(deck, "b", key=by_colour))
        return str(by_colour(c.draw(deck, "c", key=by_colour)))

    with pytest.raises(ValueError, match="sample instead"):
        enumerate_outcomes(fn)


def test_reshuffle_keeps_discards_from_before_the_enumeration() -> None:
    def fn(c: Chance) -> tuple[Hashable, ...]:
        deck = Deck("d", [Card(14, "hearts"), Card(2, "spades")], discards=[Card(0, "joker")])
        out = []
        for _ in range(3):  # the third draw reshuffles: the joker comes back too
            card = c.draw(deck, "t", key=by_colour)
            out.append(by_colour(card))
            deck.discard(card)
        return tuple(out)

    odds = enumerate_outcomes(fn)
    assert odds[("red", "black", "joker")] == Fraction(1, 2) * Fraction(1, 3)
    assert sum(odds.values()) == 1
