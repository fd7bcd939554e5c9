"""CQB additions: narration of an equipment strike, ammunition (Q-28, Q-60 …), aiming at a
point (Q-15), restraining and disarming, window states, extraction, darkness."""

from __future__ import annotations

from collections.abc import Callable, Hashable

import pytest

from killhouse.core.chance import Chance
from killhouse.core.deck import Card, Deck
from killhouse.core.events import Audience, Event
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.cqb import turn
from killhouse.rulesets.cqb.narrate import narrate
from killhouse.rulesets.cqb.state import CqbState
from killhouse.rulesets.cqb.world import refresh
from killhouse.scenario.loader import loads_scenario


def test_an_equipment_strike_narrates_no_location() -> None:
    """Regression: a joker location card (section 13) has no location; the line said None."""
    event = Event(0, "hit", {"firer": "hj-3", "target": "blue-2", "location": None,
                             "effect": "equipment", "knocked_down": False,
                             "condition": "active", "stray": False, "card": "joker"})
    line = narrate(event)
    assert line is not None
    assert "None" not in line
    assert "equipment" in line and "hj-3 hits blue-2" in line


# -- helpers ------------------------------------------------------------------------------

RANGE = """
name: range
ruleset: cqb
turn_limit: 9
map:
  levels:
    g: |
      ....................
      ....................
      ....................
sides:
  - {id: blue, role: rescuers, controller: ai}
  - {id: red, role: terrorists, controller: ai}
figures:
  - {id: b1, side: blue, ability: elite, at: "g:1,1", equipment: [mp5, pistol], magazines: 1}
  - {id: r1, side: red, ability: veteran, at: "g:18,1", equipment: [ak47, hard-plates]}
options:
  track_ammo: true
"""


class Misses(Chance):
    """Deals the lowest card left in each deck (a miss at any TN above it), dice fixed."""

    def __init__(self, die: int = 3) -> None:
        self.die = die

    def draw(self, deck: Deck, purpose: str, audience: Audience = None,
             key: Callable[[Card], Hashable] | None = None) -> Card:
        card = min((c for c in deck.cards if not c.is_joker),
                   key=lambda c: (2 if c.rank == 14 else 1, c.rank))
        deck.cards.remove(card)
        return card

    def average_die(self, purpose: str, audience: Audience = None) -> int:
        return self.die


def game(text: str = RANGE, seed: int = 1) -> tuple[Game, CqbState]:
    g = Game(loads_scenario(text), seed)
    s: CqbState = g.state
    return g, s


def ready(s: CqbState, side: str) -> None:
    """Alternating activations with ``side`` to act, nobody acted, nobody left to interrupt."""
    s.stage, s.queue, s.n_side = "n", [], side
    for f in s.figures.values():
        f.acted = f.passed = f.hold = False
    for f in s.figures.values():
        if f.side != side:
            f.acted = True  # no fresh interrupter (section 14 I)
    refresh(s)


def fire(g: Game, s: CqbState, count: int, chance: Chance | None = None) -> int:
    """b1 fires ``count`` shots or bursts at r1 with every card a miss; the shots fired."""
    ready(s, "blue")
    action = Action.make("blue", "fire", figure="b1", target="r1", count=count)
    from killhouse.rulesets.cqb.flow import FLOW

    FLOW.validate(s, action)
    before = len(g.log)
    turn.begin(s, action, chance or Misses(), g.log)
    return sum(1 for e in g.log.since(before) if e.kind == "shot")


# -- ammunition (ruling) ----------------------------------------------------


def test_q60_weapons_start_loaded_with_spare_magazines() -> None:
    _g, s = game()
    b1 = s.figures["b1"]
    assert b1.loaded == {"main": 30, "sidearm": 13}
    assert b1.spares == {"main": 1, "sidearm": 1}
    _g, s2 = game(RANGE.replace("track_ammo: true", "track_ammo: false"))
    assert s2.figures["b1"].loaded == {}  # unlimited by default


def test_each_round_of_a_burst_uses_a_round() -> None:
    g, s = game()
    assert fire(g, s, 2) == 6
    assert s.figures["b1"].loaded["main"] == 24


@pytest.mark.parametrize(("loaded", "bursts", "fired"), [
    (4, 2, 4),  # the second burst is cut short after one round
    (3, 2, 3),  # exactly one burst: the action ends with the magazine
    (1, 1, 1),  # one round left: a burst of one
])
def test_q61_an_empty_magazine_cuts_the_action_short(loaded: int, bursts: int,
                                                    fired: int) -> None:
    g, s = game()
    s.figures["b1"].loaded["main"] = loaded
    assert fire(g, s, bursts) == fired
    assert s.figures["b1"].loaded["main"] == 0
    assert any(e.kind == "empty" and e.for_side("red") is None for e in g.log.events)


def test_an_empty_weapon_refuses_fire_with_a_reason_then_reloads() -> None:
    g, s = game()
    b1 = s.figures["b1"]
    b1.loaded["main"] = 0
    ready(s, "blue")
    assert "fire" not in {a.kind for a in g.legal_actions("blue")}
    state_before = g.ruleset.snapshot(s)
    with pytest.raises(IllegalActionError, match=r"empty .*reload first: 1 spare magazine left"):
        g.apply(Action.make("blue", "fire", figure="b1", target="r1", count=1))
    assert g.ruleset.snapshot(s) == state_before  # refused: nothing changed
    reloads = [a for a in g.legal_actions("blue") if a.kind == "reload"]
    assert len(reloads) == 1
    g.apply(reloads[0])
    assert b1.loaded["main"] == 30 and b1.spares["main"] == 0
    assert any(e.kind == "reload" for e in g.log.events)


def test_reload_refusals() -> None:
    g, s = game()
    b1 = s.figures["b1"]
    ready(s, "blue")
    with pytest.raises(IllegalActionError, match="fully loaded"):
        g.apply(Action.make("blue", "reload", figure="b1"))
    b1.loaded["main"] = 29  # one round short of full: may reload
    assert any(a.kind == "reload" for a in g.legal_actions("blue"))
    b1.spares["main"] = 0
    with pytest.raises(IllegalActionError, match="no spare magazine"):
        g.apply(Action.make("blue", "reload", figure="b1"))
    b1.loaded["main"] = 0
    with pytest.raises(IllegalActionError, match=r"empty .*no spare magazine"):
        g.apply(Action.make("blue", "fire", figure="b1", target="r1", count=1))
    g2, s2 = game(RANGE.replace("track_ammo: true", "track_ammo: false"))
    ready(s2, "blue")
    with pytest.raises(IllegalActionError, match="not tracked"):
        g2.apply(Action.make("blue", "reload", figure="b1"))


def test_the_sidearm_has_its_own_magazine() -> None:
    g, s = game()
    b1 = s.figures["b1"]
    b1.loaded["main"] = 0
    b1.dropped = True  # the main weapon dropped: the sidearm is in hand
    assert fire(g, s, 3) == 3
    assert b1.loaded == {"main": 0, "sidearm": 10}


def test_reloading_ends_aim() -> None:
    g, s = game()
    b1 = s.figures["b1"]
    b1.aim_target, b1.aim_turn = "r1", s.turn - 1
    b1.loaded["main"] = 5
    ready(s, "blue")
    g.apply(Action.make("blue", "reload", figure="b1"))
    assert b1.aim_target is None  # any action but Fire or Hold ends aim


def test_ammo_is_in_the_own_view_only() -> None:
    g, _s = game()
    blue = g.view("blue")
    assert blue["figures"][0]["ammo"] == {"main": {"loaded": 30, "spare": 1},
                                          "sidearm": {"loaded": 13, "spare": 1}}
    red = g.view("red")
    assert all("ammo" not in e for e in red["seen"])


def test_magazines_key_is_checked() -> None:
    from killhouse.errors import ScenarioError

    with pytest.raises(ScenarioError, match="magazines"):
        game(RANGE.replace("magazines: 1", "magazines: -1"))
