"""Playing-card decks: standard 52 cards with ranks removed and jokers added, draws and reshuffles.

Drawing is a chance event (``Chance.draw``): the deck only holds the cards. A deck
groups cards by a key (by default the whole card) so that exact odds need only one
branch per distinct value.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field

SUITS: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
RED_SUITS = frozenset({"diamonds", "hearts"})
#: Ranks 2–10, then jack 11, queen 12, king 13, ace 14.
RANKS: tuple[int, ...] = tuple(range(2, 15))
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}


@dataclass(frozen=True, order=True)
class Card:
    """A playing card; a joker has rank 0 and suit ``joker``."""

    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.suit == "joker"

    @property
    def colour(self) -> str:
        if self.is_joker:
            return "joker"
        return "red" if self.suit in RED_SUITS else "black"

    def __str__(self) -> str:
        if self.is_joker:
            return "joker"
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{self.suit[0].upper()}"

    def to_json(self) -> dict[str, object]:
        return {"rank": self.rank, "suit": self.suit}


def standard_cards(remove_ranks: Iterable[int] = (), jokers: int = 0) -> list[Card]:
    """The 52-card pack less the given ranks, plus ``jokers`` jokers, in a fixed order."""
    removed = set(remove_ranks)
    cards = [Card(r, s) for s in SUITS for r in RANKS if r not in removed]
    cards.extend(Card(0, "joker") for _ in range(jokers))
    return cards


def whole_card(card: Card) -> Hashable:
    """The default grouping key: every distinct card is its own group."""
    return card


@dataclass
class Deck:
    """A draw pile and a discard pile. The draw pile's order never matters: draws are uniform."""

    name: str
    cards: list[Card]
    discards: list[Card] = field(default_factory=list)
    key: Callable[[Card], Hashable] = field(default=whole_card, repr=False, compare=False)

    def groups(self) -> list[tuple[Hashable, int]]:
        """The distinct keys left in the pile with their counts, in a fixed order."""
        counts: dict[Hashable, int] = {}
        for card in self.cards:
            k = self.key(card)
            counts[k] = counts.get(k, 0) + 1
        return list(counts.items())

    def take(self, group: Hashable) -> Card:
        """Remove and return the first card of a key group (called by ``Chance.draw``)."""
        for i, card in enumerate(self.cards):
            if self.key(card) == group:
                return self.cards.pop(i)
        raise KeyError(group)

    def discard(self, card: Card) -> None:
        self.discards.append(card)

    def reshuffle(self) -> None:
        """Put the discards back into the draw pile."""
        self.cards.extend(self.discards)
        self.discards.clear()
        self.cards.sort()

    def __len__(self) -> int:
        return len(self.cards)
