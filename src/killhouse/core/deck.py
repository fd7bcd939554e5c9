"""Playing-card decks: standard 52 cards with ranks removed and jokers added, draws and reshuffles.

Drawing is a chance event (``Chance.draw``): the deck only holds the cards. A draw
reads a card through a key (by default the deck's, else the whole card) so that exact
odds need only one branch per value the rule reads (ruling K-10). The keys below are the
readings rules use: value (an ace counts 1 or 14 as the ruleset says), colour, joker,
pass/fail against a threshold.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product
from math import comb

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


def card_value(card: Card, ace: int = 14) -> int | None:
    """A card's number: 2-10, J 11, Q 12, K 13, the ace ``ace`` (1 or 14); a joker has none."""
    if ace not in (1, 14):
        raise ValueError(f"an ace counts 1 or 14, not {ace}")
    if card.is_joker:
        return None
    return ace if card.rank == 14 else card.rank


def by_value(ace: int = 14) -> Callable[[Card], Hashable]:
    """A key reading the value only (jokers read ``None``)."""
    card_value(Card(2, "clubs"), ace)  # refuse a bad ace at once
    return lambda card: card_value(card, ace)


def by_colour(card: Card) -> Hashable:
    """A key reading the colour only: red, black or joker."""
    return card.colour


def by_value_colour(ace: int = 14) -> Callable[[Card], Hashable]:
    """A key reading value and colour (cqb's hit card); suits of one colour are alike."""
    card_value(Card(2, "clubs"), ace)
    return lambda card: (card_value(card, ace), card.colour)


def by_threshold(threshold: int, ace: int = 14) -> Callable[[Card], Hashable]:
    """A key reading only ``"joker"``, ``"pass"`` (value >= threshold) or ``"fail"``."""
    card_value(Card(2, "clubs"), ace)

    def key(card: Card) -> Hashable:
        value = card_value(card, ace)
        if value is None:
            return "joker"
        return "pass" if value >= threshold else "fail"

    return key


class DrawPosterior:
    """What exact enumeration knows of the cards drawn from a pile: only what rules read of them.

    Ruling K-10. The cards of the pile at the first draw (the *universe*) are split into atoms
    that no reading so far tells apart; ``states`` maps each vector of cards drawn per atom to
    the number of card sequences that fit it, and within an atom the drawn cards are a uniform
    subset. A draw's branch weights are the expected numbers of each reading left, which are
    linear in the drawn counts, so no atom needs splitting to weigh a draw; only the reading
    drawn splits atoms in two (that reading or not), its drawn counts spread
    hypergeometrically. A draw therefore branches once per reading and never on what earlier
    cards were. Nodes are immutable and remember their successors, so enumeration, which
    replays the same prefixes many times, computes each node once.
    """

    def __init__(
        self,
        universe: tuple[Card, ...],
        atom_of: tuple[int, ...],
        sizes: tuple[int, ...],
        states: dict[tuple[int, ...], int],
        drawn: int,
    ) -> None:
        self.universe = universe
        self.atom_of = atom_of
        self.sizes = sizes
        self.states = states
        self.drawn = drawn
        self._left = [
            sum(w * (size - s[a]) for s, w in states.items()) for a, size in enumerate(sizes)
        ]
        self._weights: dict[tuple[Hashable, ...], dict[Hashable, Fraction]] = {}
        self._taken: dict[tuple[bool, ...], DrawPosterior] = {}

    @classmethod
    def start(cls, cards: Iterable[Card]) -> DrawPosterior:
        universe = tuple(cards)
        return cls(universe, (0,) * len(universe), (len(universe),), {(0,): 1}, 0)

    def group_weights(self, readings: tuple[Hashable, ...]) -> dict[Hashable, Fraction]:
        """Per reading (one per universe card, in order), the chance the next card reads so."""
        known = self._weights.get(readings)
        if known is not None:
            return known
        inside: dict[tuple[int, Hashable], int] = {}
        for atom, reading in zip(self.atom_of, readings, strict=True):
            inside[(atom, reading)] = inside.get((atom, reading), 0) + 1
        out: dict[Hashable, Fraction] = {}
        for (atom, reading), count in inside.items():
            # E[cards of this reading left in the atom] = left * count / size, summed over states
            share = Fraction(self._left[atom] * count, self.sizes[atom])
            if share:
                out[reading] = out.get(reading, Fraction(0)) + share
        total = sum(out.values(), Fraction(0))
        known = self._weights[readings] = {k: v / total for k, v in out.items()}
        return known

    def take(self, mask: tuple[bool, ...]) -> DrawPosterior:
        """The posterior after drawing a card among those ``mask`` marks (one per universe card)."""
        known = self._taken.get(mask)
        if known is not None:
            return known
        split: dict[tuple[int, bool], int] = {}
        for atom, inside in zip(self.atom_of, mask, strict=True):
            split.setdefault((atom, inside), len(split))
        atom_of = tuple(split[(a, m)] for a, m in zip(self.atom_of, mask, strict=True))
        sizes = [0] * len(split)
        for atom in atom_of:
            sizes[atom] += 1
        states: dict[tuple[int, ...], int] = {}
        for state, weight in self._split(split, sizes).items():
            for (_, inside), atom in split.items():
                if inside and state[atom] < sizes[atom]:
                    vector = list(state)
                    vector[atom] += 1
                    key_ = tuple(vector)
                    states[key_] = states.get(key_, 0) + weight * (sizes[atom] - state[atom])
        if not states:
            raise ValueError("no card of that reading is left")
        known = DrawPosterior(self.universe, atom_of, tuple(sizes), states, self.drawn + 1)
        self._taken[mask] = known
        return known

    def _split(
        self, split: dict[tuple[int, bool], int], sizes: list[int]
    ) -> dict[tuple[int, ...], int]:
        """The states over the split atoms: each atom's drawn count spread over its two parts."""
        if len(split) == len(self.sizes):
            order = [split[k] for k in sorted(split)]  # renumbering only
            out: dict[tuple[int, ...], int] = {}
            for state, weight in self.states.items():
                vector = [0] * len(split)
                for a, m in enumerate(state):
                    vector[order[a]] = m
                out[tuple(vector)] = weight
            return out
        parts: list[list[int]] = [[] for _ in self.sizes]
        for (atom, _), new in sorted(split.items()):
            parts[atom].append(new)
        out = {}
        for state, weight in self.states.items():
            choices: list[list[tuple[tuple[int, ...], int]]] = []
            for a, m in enumerate(state):
                if len(parts[a]) == 1:
                    choices.append([((m,), 1)])
                    continue
                p, q = sizes[parts[a][0]], sizes[parts[a][1]]
                low, high = max(0, m - q), min(m, p)
                choices.append(
                    [((k, m - k), comb(p, k) * comb(q, m - k)) for k in range(low, high + 1)]
                )
            for combo in product(*choices):
                vector = [0] * len(split)
                w = weight
                for a, (counts, ways) in enumerate(combo):
                    if len(parts[a]) > 1:
                        # every subset of an atom fits equally many sequences: exact division
                        w = w * ways // comb(self.sizes[a], state[a])
                    for p_, m_ in zip(parts[a], counts, strict=True):
                        vector[p_] = m_
                key_ = tuple(vector)
                out[key_] = out.get(key_, 0) + w
        return out


@dataclass
class Deck:
    """A draw pile and a discard pile. The draw pile's order never matters: draws are uniform."""

    name: str
    cards: list[Card]
    discards: list[Card] = field(default_factory=list)
    key: Callable[[Card], Hashable] = field(default=whole_card, repr=False, compare=False)
    #: exact enumeration's knowledge of the cards drawn (ruling K-10); ``None`` in play
    posterior: DrawPosterior | None = field(default=None, repr=False, compare=False)
    #: how many discards there were when the posterior began
    posterior_base: int = field(default=0, repr=False, compare=False)

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
        if self.posterior is not None:
            # exact enumeration: the pile is empty, so every card of the universe was drawn;
            # the discards since hold stand-ins, replaced by the universe itself
            since = len(self.discards) - self.posterior_base
            if self.cards or since != self.posterior.drawn:
                raise ValueError(
                    f"deck {self.name!r}: exact odds need every drawn card discarded before a "
                    "reshuffle; sample instead"
                )
            self.discards = self.discards[: self.posterior_base] + list(self.posterior.universe)
            self.posterior = None
        self.cards.extend(self.discards)
        self.discards.clear()
        self.cards.sort()

    def __len__(self) -> int:
        return len(self.cards)
