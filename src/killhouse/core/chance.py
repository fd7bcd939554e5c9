"""The chance interface: the only way resolution code gets dice and cards.

Two implementations share one primitive, a weighted choice among integer weights:

* ``SeededChance`` draws from the game's ``Rng`` and records every roll and draw
  as an event with its purpose (so a game is reproducible and auditable);
* ``enumerate_outcomes`` runs a resolution function again and again with a
  scripted chance that walks every branch depth-first, multiplying exact
  ``Fraction`` probabilities, so exact odds come from the very code that plays.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import TypeVar

from killhouse.core.deck import Card, Deck, DrawPosterior
from killhouse.core.events import Audience, EventLog
from killhouse.core.rng import Rng

T = TypeVar("T")
Out = TypeVar("Out", bound=Hashable)

#: The average die of CQB (1dA): faces 2, 3, 3, 4, 4, 5.
AVERAGE_DIE: tuple[int, ...] = (2, 3, 3, 4, 4, 5)


class Chance:
    """Dice and cards for resolution code. Subclasses implement ``_choose`` only."""

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        raise NotImplementedError

    def _record(self, kind: str, purpose: str, audience: Audience, **data: object) -> None:
        """Called after a roll or draw is known; the seeded chance logs it as an event."""

    # -- dice ----------------------------------------------------------------------
    def roll(self, sides: int, purpose: str, audience: Audience = None) -> int:
        """One ``d<sides>``: a uniform integer 1..sides."""
        value = self._choose((1,) * sides, f"d{sides}", purpose, audience) + 1
        self._record("roll", purpose, audience, die=f"d{sides}", result=value)
        return value

    def dice(self, count: int, sides: int, purpose: str, audience: Audience = None) -> list[int]:
        """``<count>d<sides>``, each die kept (one event holds them all)."""
        values = [
            self._choose((1,) * sides, f"d{sides}", purpose, audience) + 1 for _ in range(count)
        ]
        self._record("roll", purpose, audience, die=f"{count}d{sides}", result=values)
        return values

    def average_die(self, purpose: str, audience: Audience = None) -> int:
        """The average die 2-3-3-4-4-5 (weighted choice over its four values)."""
        faces = sorted(set(AVERAGE_DIE))
        weights = tuple(AVERAGE_DIE.count(f) for f in faces)
        value = faces[self._choose(weights, "dA", purpose, audience)]
        self._record("roll", purpose, audience, die="dA", result=value)
        return value

    def pick(self, options: Sequence[T], purpose: str, audience: Audience = None) -> T:
        """One of ``options``, uniformly (e.g. a random target among equals)."""
        index = self._choose((1,) * len(options), f"pick{len(options)}", purpose, audience)
        self._record("pick", purpose, audience, index=index, of=len(options))
        return options[index]

    def sample(
        self, options: Sequence[T], k: int, purpose: str, audience: Audience = None
    ) -> list[T]:
        """``k`` distinct items of ``options`` without replacement, in draw order."""
        pool = list(options)
        chosen: list[T] = []
        for _ in range(min(k, len(pool))):
            index = self._choose((1,) * len(pool), f"pick{len(pool)}", purpose, audience)
            chosen.append(pool.pop(index))
        self._record("sample", purpose, audience, k=len(chosen), of=len(options))
        return chosen

    def repeat_until(self, attempt: Callable[[Chance], T | None]) -> T:
        """Run ``attempt`` again until it gives a result (``None`` means "roll again").

        Play simply loops. Enumeration conditions on the attempt resolving, which is exact
        because every attempt is the same independent trial (ties re-rolled, ruling E-8).
        """
        while True:
            result = attempt(self)
            if result is not None:
                return result

    # -- cards ---------------------------------------------------------------------
    def draw(
        self,
        deck: Deck,
        purpose: str,
        audience: Audience = None,
        key: Callable[[Card], Hashable] | None = None,
    ) -> Card:
        """Draw one card from ``deck``; an empty pile is reshuffled from its discards first.

        ``key`` is what the rule reads of this card (``by_threshold(8)``, ``by_value_colour(1)``;
        default the deck's key): resolution code must read nothing else of the card, because
        exact enumeration branches once per reading (ruling K-10). A draw is never skipped,
        even when every card left reads the same: it still takes a card from the pile.
        """
        if not deck.cards:
            deck.reshuffle()
            self._record("reshuffle", purpose, audience, deck=deck.name)
        if not deck.cards:
            raise ValueError(f"deck {deck.name!r} has no cards to draw")
        card = self._take(deck, key or deck.key, purpose, audience)
        self._record("draw", purpose, audience, deck=deck.name, card=str(card))
        return card

    def _take(
        self, deck: Deck, key: Callable[[Card], Hashable], purpose: str, audience: Audience
    ) -> Card:
        """Remove one uniformly random card of the pile (K-3): play needs no grouping."""
        index = self._choose((1,) * len(deck.cards), f"deck:{deck.name}", purpose, audience)
        return deck.cards.pop(index)


class SeededChance(Chance):
    """Chance from the game's generator; every roll and draw becomes an event in ``log``."""

    def __init__(self, rng: Rng, log: EventLog | None = None) -> None:
        self.rng = rng
        self.log = log

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        total = sum(weights)
        r = self.rng.below(total)
        for i, w in enumerate(weights):
            if r < w:
                return i
            r -= w
        raise AssertionError("unreachable: weights exhausted")

    def _record(self, kind: str, purpose: str, audience: Audience, **data: object) -> None:
        if self.log is not None:
            self.log.emit(kind, {"purpose": purpose, **data}, audience)


class _ScriptedChance(Chance):
    """Replays a forced prefix of choices, then always takes the first branch, noting each point."""

    def __init__(
        self, prefix: Sequence[int], posteriors: dict[tuple[Card, ...], DrawPosterior] | None = None
    ) -> None:
        self.prefix = prefix
        # shared by every leaf of one enumeration: posterior nodes remember their successors
        self.posteriors: dict[tuple[Card, ...], DrawPosterior] = (
            {} if posteriors is None else posteriors
        )
        self.points: list[tuple[Fraction, ...]] = []
        self.taken: list[int] = []

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        return self._branch(tuple(Fraction(w) for w in weights))

    def repeat_until(self, attempt: Callable[[Chance], T | None]) -> T:
        # one choice point over the attempt's resolved outcomes, weighted by their odds
        odds = enumerate_outcomes(attempt)
        resolved = [(outcome, p) for outcome, p in odds.items() if outcome is not None]
        if not resolved:
            raise ValueError("an attempt that never resolves cannot be repeated until it does")
        index = self._branch(tuple(p for _, p in resolved))
        return resolved[index][0]

    def _branch(self, weights: tuple[Fraction, ...]) -> int:
        k = len(self.taken)
        if k < len(self.prefix):
            index = self.prefix[k]
        else:
            index = next(i for i, w in enumerate(weights) if w > 0)
        self.points.append(weights)
        self.taken.append(index)
        return index

    def _take(
        self, deck: Deck, key: Callable[[Card], Hashable], purpose: str, audience: Audience
    ) -> Card:
        # ruling K-10: branch once per reading; what earlier cards were stays a posterior
        if deck.posterior is None:
            universe = tuple(deck.cards)
            start = self.posteriors.get(universe)
            if start is None:
                start = self.posteriors[universe] = DrawPosterior.start(universe)
            deck.posterior = start
            deck.posterior_base = len(deck.discards)
        posterior = deck.posterior
        readings = tuple(key(card) for card in posterior.universe)
        weights = posterior.group_weights(readings)
        names = list(weights)
        chosen = names[self._branch(tuple(weights[r] for r in names))]
        card = posterior.universe[readings.index(chosen)]
        deck.posterior = posterior.take(tuple(r == chosen for r in readings))
        # the pile keeps its size; which cards it holds is only known through the posterior
        deck.cards.pop()
        return Card(card.rank, card.suit)


def enumerate_outcomes(fn: Callable[[Chance], Out], limit: int = 2_000_000) -> dict[Out, Fraction]:
    """Every outcome of ``fn(chance)`` with its exact probability.

    ``fn`` must build all its state afresh on each call (it is called once per leaf).
    Raises ``ValueError`` past ``limit`` leaves, so a runaway tree is an error, not a hang.
    """
    results: dict[Out, Fraction] = defaultdict(Fraction)
    stack: list[tuple[int, ...]] = [()]
    leaves = 0
    posteriors: dict[tuple[Card, ...], DrawPosterior] = {}
    while stack:
        prefix = stack.pop()
        scripted = _ScriptedChance(prefix, posteriors)
        outcome = fn(scripted)
        leaves += 1
        if leaves > limit:
            raise ValueError(f"more than {limit} outcomes; narrow the question")
        p = Fraction(1)
        for weights, index in zip(scripted.points, scripted.taken, strict=True):
            p *= weights[index] / sum(weights)
        for j in range(len(prefix), len(scripted.points)):
            weights = scripted.points[j]
            for other in range(scripted.taken[j] + 1, len(weights)):
                if weights[other] > 0:
                    stack.append((*scripted.taken[:j], other))
        results[outcome] += p
    return dict(results)


def sample_outcomes(fn: Callable[[Chance], Out], trials: int, seed: int) -> dict[Out, int]:
    """Run ``fn`` ``trials`` times on one seeded generator and count the outcomes."""
    chance = SeededChance(Rng.from_seed(seed))
    counts: dict[Out, int] = defaultdict(int)
    for _ in range(trials):
        counts[fn(chance)] += 1
    return dict(counts)
