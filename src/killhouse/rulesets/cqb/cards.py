"""Card values, the four ability decks, Luck and the hostage deck (digest section 3).

Ruling Q-1: Ace = 1, court cards 11-13. The core deck ranks the ace 14, so every value a
rule reads goes through ``card_value``. Decks group cards by (value, colour), the only things
a rule reads, so exact odds have one branch per distinct value and colour (ruling K-3).
"""

from __future__ import annotations

from collections.abc import Hashable

from killhouse.core.chance import Chance
from killhouse.core.deck import Card, Deck, standard_cards
from killhouse.core.events import Audience
from killhouse.rulesets.cqb.tables import tables


def card_value(card: Card) -> int | None:
    """The value a test reads (ruling Q-1); ``None`` for a joker, which has none (Q-2)."""
    if card.is_joker:
        return None
    return tables().values[card.rank]


def reaction_value(card: Card) -> int:
    """The value used to order reaction cards: a joker counts 0 (ruling Q-2)."""
    value = card_value(card)
    return tables().joker_reaction_value if value is None else value


def is_red(card: Card) -> bool:
    return card.colour == "red"


def value_colour(card: Card) -> Hashable:
    """The grouping key of every CQB deck: what rules read of a card."""
    return ("joker",) if card.is_joker else (card_value(card), card.colour)


def value_only(card: Card) -> Hashable:
    """A coarser key for odds of rolls that read no colour (a test, a shot, a reaction card)."""
    return ("joker",) if card.is_joker else card_value(card)


def card_label(card: Card) -> str:
    """A card as players name it: ``A♠``-style letters (``AS``, ``QH``), or ``joker``."""
    if card.is_joker:
        return "joker"
    names = {14: "A", 11: "J", 12: "Q", 13: "K"}
    return f"{names.get(card.rank, str(card.rank))}{card.suit[0].upper()}"


def ability_deck(
    name: str, ability: str, jokers: int | None = None, colour: bool = True
) -> Deck:
    """An ability deck (section 3.2): the pack less three ranks, plus the jokers (3.3).

    ``colour=False`` groups by value alone, for the odds of rolls that read no colour.
    """
    t = tables()
    count = t.default_jokers if jokers is None else jokers
    key = value_colour if colour else value_only
    return Deck(name, standard_cards(t.remove[ability], count), key=key)


def hostage_deck(name: str = "hostage") -> Deck:
    """The hostage deck (section 3.4): ace to 10 in four suits plus two jokers."""
    t = tables()
    return Deck(name, standard_cards(t.hostage_remove, t.hostage_jokers), key=value_colour)


def luck_from_die(die: int) -> tuple[str, int]:
    """Luck and jokers per deck from one 1dA (section 3.3): 2 bad/3, 3-4 average/2, 5 good/1."""
    return tables().luck[die]


def roll_luck(chance: Chance, side: str, audience: Audience = None) -> tuple[str, int]:
    """Roll 1dA once for a side at set-up (ruling Q-4)."""
    return luck_from_die(chance.average_die(f"luck for {side}", audience))


def deck_owner(deck: Deck) -> str | None:
    """The side whose figures draw from an ability deck (its name is ``side:…``, see
    ``state.deck_key``); ``None`` for the hostage deck and the odds' unnamed decks."""
    side, sep, _ = deck.name.partition(":")
    return side if sep else None


def draw(
    chance: Chance, deck: Deck, purpose: str, audience: Audience = None, replace: bool = False
) -> Card:
    """Draw one card and put it on the deck's discard pile (section 3.5, ruling Q-3).

    An empty deck is reshuffled from its discards by ``Chance.draw``. With ``replace`` (the
    test option ``draw_with_replacement``) the card goes straight back into the deck.
    """
    owner = deck_owner(deck)
    if owner is not None:
        # ruling W-12: the draw names the deck, and so the figures' ability, which another
        # side may not know (section 14 lists only its own decks); the card it may see
        # reaches it in the event that resolves the draw (shot, task, interrupt, …)
        audience = frozenset({owner})
    card = chance.draw(deck, purpose, audience)
    if replace:
        deck.cards.append(card)
        deck.cards.sort()
    else:
        deck.discard(card)
    return card
