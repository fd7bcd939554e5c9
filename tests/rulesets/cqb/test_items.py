"""CQB additions: narration of an equipment strike, ammunition (Q-28, Q-60 …), aiming at a
point (Q-15), restraining and disarming, window states, extraction, darkness."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

import pytest

from killhouse.core.cells import Cell
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


# -- aiming at a point (ruling) -----------------------------------------------------

ROOM = """
name: room
ruleset: cqb
turn_limit: 9
map:
  levels:
    g: |
      ..........
      ..........
      ####+#####
      #........#
      #........#
      ##########
sides:
  - {id: blue, role: rescuers, controller: ai}
  - {id: red, role: terrorists, controller: ai}
figures:
  - {id: b1, side: blue, ability: elite, at: "g:1,0", equipment: [mp5, pistol]}
  - {id: r1, side: red, ability: veteran, at: "g:4,4", equipment: [ak47]}
  - {id: r2, side: red, ability: veteran, at: "g:8,4", equipment: [ak47]}
"""


def aimed_tn(s: CqbState, firer: str, target: str) -> int:
    from killhouse.rulesets.cqb.fire import factors
    from killhouse.rulesets.cqb.resolve import shot_tn

    f, t = s.figures[firer], s.figures[target]
    w = f.weapon_in_hand()
    assert w is not None
    return shot_tn(factors(s, f, t, None, True, w))


@pytest.mark.parametrize(("x", "y", "aimed"), [
    (5, 3, True),   # the point itself
    (6, 3, True),   # 1" away: covered (edge)
    (6, 4, False),  # 1.41" away (diagonal): one step past the edge
    (7, 3, False),  # 2" away
])
def test_q15_aim_at_a_point_covers_figures_within_1_inch(x: int, y: int, aimed: bool) -> None:
    _g, s = game(ROOM)
    r1, b1 = s.figures["r1"], s.figures["b1"]
    r1.at, b1.at = Cell(0, 1, 3), Cell(0, x, y)
    refresh(s)
    assert "b1" in s.visible["r1"]
    unaimed = aimed_tn(s, "r1", "b1")
    r1.aim_at, r1.aim_turn = Cell(0, 5, 3), s.turn - 1
    ak = -3  # the Poor Rifle's aim modifier (8.3.2)
    assert aimed_tn(s, "r1", "b1") == unaimed + (ak if aimed else 0)
    r1.aim_turn = s.turn  # declared this turn: not yet (8.3.2, "at least one turn prior")
    assert aimed_tn(s, "r1", "b1") == unaimed


def test_aim_at_a_point_in_play_hidden_from_the_enemy() -> None:
    g, s = game(ROOM)
    from killhouse.core.terrain import Terrain

    s.board.set_terrain(Cell(0, 4, 2), Terrain.DOOR_OPEN)
    s.figures["b1"].at = Cell(0, 4, 0)  # blue sees r1 through the open door
    ready(s, "red")
    s.figures["b1"].acted = True
    assert "r1" in s.visible["b1"]
    points = [a for a in g.legal_actions("red") if a.kind == "aim" and a.get("at")]
    assert points and all(a.get("figure") in ("r1", "r2") for a in points)
    door = [a for a in points if a.get("figure") == "r1" and list(a.get("at")) == [0, 4, 2]]
    assert door
    start = len(g.log)
    g.apply(door[0])
    r1 = s.figures["r1"]
    assert r1.aim_at == Cell(0, 4, 2) and r1.aim_turn == s.turn
    own = next(f for f in g.view("red")["figures"] if f["id"] == "r1")
    assert own["aim_at"] == [0, 4, 2]
    told = [e.for_side("blue") for e in g.log.since(start) if e.kind == "aim"]
    assert len(told) == 1, "blue sees r1 take aim"
    assert told[0] is not None
    assert {k: v for k, v in told[0].items() if k != "seq"} == {"kind": "aim", "figure": "r1"}
    assert "4, 2" not in str(g.view("blue"))
    # the next turn a figure 1" from the door gets the aim modifier; aim this turn does not
    b1 = s.figures["b1"]
    b1.at = Cell(0, 4, 1)  # 1" from the door
    refresh(s)
    with_aim_now = aimed_tn(s, "r1", "b1")
    r1.aim_turn = s.turn - 1
    assert aimed_tn(s, "r1", "b1") == with_aim_now - 3


def test_aim_refusals() -> None:
    g, s = game(ROOM)
    ready(s, "red")
    s.figures["b1"].acted = True
    with pytest.raises(IllegalActionError, match="cannot see the point"):
        g.apply(Action.make("red", "aim", figure="r1", at=[0, 8, 0]))  # behind the wall
    with pytest.raises(IllegalActionError, match="not both"):
        g.apply(Action.make("red", "aim", figure="r1", at=[0, 4, 2], target="b1"))
    with pytest.raises(IllegalActionError, match="not both"):
        g.apply(Action.make("red", "aim", figure="r1"))
    with pytest.raises(IllegalActionError, match="sees no opposing figure"):
        g.apply(Action.make("red", "aim", figure="r1", target="b1"))
    g.apply(Action.make("red", "aim", figure="r1", at=[0, 1, 4]))  # any cell it sees
    assert s.figures["r1"].aim_at == Cell(0, 1, 4)


# -- restrain and disarm (section 12.1, rulings) -------------------------------------


class Deal(Misses):
    """Deals the named cards, then misses."""

    def __init__(self, *cards: Card) -> None:
        super().__init__()
        self.cards = list(cards)

    def draw(self, deck: Deck, purpose: str, audience: Audience = None,
             key: Callable[[Card], Hashable] | None = None) -> Card:
        if self.cards:
            card = self.cards.pop(0)
            deck.cards.remove(card)
            return card
        return super().draw(deck, purpose, audience, key)


def task(g: Game, s: CqbState, chance: Chance, fig: str, kind: str, **args: Any) -> None:
    from killhouse.rulesets.cqb.flow import FLOW

    action = Action.make(s.figures[fig].side, "task", figure=fig, task=kind, **args)
    FLOW.validate(s, action)
    turn.begin(s, action, chance, g.log)


def test_q63_restrain_an_incapacitated_enemy_next_to_you() -> None:
    g, s = game(ROOM)
    b1, r1 = s.figures["b1"], s.figures["r1"]
    r1.condition = "incapacitated"
    b1.at = Cell(0, 5, 3)  # next to r1 (diagonal)
    ready(s, "blue")
    offered = [a for a in g.legal_actions("blue") if a.get("task") == "restrain"]
    assert [a.get("target") for a in offered] == ["r1"]
    task(g, s, Deal(Card(4, "spades")), "b1", "restrain", target="r1")  # Easy 4: a 4 passes
    assert r1.restrained_by == "b1"
    seen = next(e for e in g.view("blue")["seen"] if e["id"] == "r1")
    assert seen["restrained"] is True
    assert turn.summary(s)["restrained"] == 1
    ready(s, "blue")
    assert not [a for a in g.legal_actions("blue") if a.get("task") == "restrain"]


def test_restrain_is_not_offered_two_cells_away_or_for_the_dead() -> None:
    g, s = game(ROOM)
    b1, r1 = s.figures["b1"], s.figures["r1"]
    r1.condition = "incapacitated"
    b1.at = Cell(0, 6, 3)  # two cells away: one past the edge
    ready(s, "blue")
    assert not [a for a in g.legal_actions("blue") if a.get("task") == "restrain"]
    b1.at = Cell(0, 5, 3)
    r1.condition = "dead"
    ready(s, "blue")
    assert not [a for a in g.legal_actions("blue") if a.get("task") == "restrain"]


DEVICE = ROOM + """objects:
  - {id: bomb, type: device, at: "g:2,4", effect: stun, timer: 3}
"""


def test_q64_disarm_a_device_pass() -> None:
    g, s = game(DEVICE)
    b1 = s.figures["b1"]
    b1.at = Cell(0, 3, 3)
    ready(s, "blue")
    offered = [a for a in g.legal_actions("blue") if a.get("task") == "disarm"]
    assert [list(a.get("at")) for a in offered] == [[0, 2, 4]]
    assert offered[0].hint["tn"] == 10  # Very difficult
    task(g, s, Deal(Card(10, "spades")), "b1", "disarm", at=[0, 2, 4])
    assert s.devices["bomb"].state == "disarmed"
    assert turn.summary(s)["bombs_defused"] == 1
    assert g.view("red")["public"]["devices"][0]["state"] == "disarmed"


@pytest.mark.parametrize(("card", "state"), [
    (Card(9, "spades"), "armed"),     # fails by 1: no progress
    (Card(8, "spades"), "armed"),     # fails by 2: no progress (edge)
    (Card(7, "spades"), "exploded"),  # fails by 3: the device goes off
])
def test_q64_disarm_failure_by_margin(card: Card, state: str) -> None:
    g, s = game(DEVICE)
    b1 = s.figures["b1"]
    b1.at = Cell(0, 3, 3)
    ready(s, "blue")
    task(g, s, Deal(card), "b1", "disarm", at=[0, 2, 4])
    assert s.devices["bomb"].state == state
    if state == "exploded":
        assert any(e.kind == "stun-grenade" for e in g.log.events)
        assert turn.summary(s)["bombs_exploded"] == 1


def test_q64_a_joker_on_disarm_is_a_complication() -> None:
    g, s = game(DEVICE)
    b1 = s.figures["b1"]
    b1.at = Cell(0, 3, 3)
    ready(s, "blue")
    task(g, s, Deal(Card(0, "joker")), "b1", "disarm", at=[0, 2, 4])
    assert s.devices["bomb"].state == "armed" and "disarm" in b1.lost_tasks
    ready(s, "blue")
    assert not [a for a in g.legal_actions("blue") if a.get("task") == "disarm"]


def test_q64_the_timer_goes_off_at_the_upkeep_of_its_turn() -> None:
    g, s = game(DEVICE)
    s.turn = 2
    turn.start_turn(s, Misses(), g.log)
    assert s.devices["bomb"].state == "armed"  # turn 2: one before the timer
    s.turn = 3
    turn.start_turn(s, Misses(), g.log)
    assert s.devices["bomb"].state == "exploded"


def test_devices_are_checked() -> None:
    from killhouse.errors import ScenarioError

    with pytest.raises(ScenarioError, match="effect"):
        game(DEVICE.replace("effect: stun", "effect: nuke"))
    with pytest.raises(ScenarioError, match="timer"):
        game(DEVICE.replace("timer: 3", "timer: 0"))
    with pytest.raises(ScenarioError, match="no 'camera' objects"):
        game(DEVICE.replace("type: device", "type: camera"))


# -- window states (ruling Q-65) and extraction (Q-66) -----------------------------------------

HOUSE = """
name: house
ruleset: cqb
turn_limit: 9
map:
  legend:
    "o": {terrain: window, window: open}
    "x": {terrain: window, window: broken}
  levels:
    g: |
      .............
      .............
      ##=##o##x####
      #...........#
      #...........#
      #############
  zones:
    extraction: ["g:0,0-1,1"]
sides:
  - {id: blue, role: rescuers, controller: ai}
  - {id: red, role: terrorists, controller: ai}
figures:
  - {id: b1, side: blue, ability: elite, at: "g:2,1", equipment: [mp5, pistol, stun]}
  - {id: r1, side: red, ability: veteran, at: "g:11,4", equipment: [ak47]}
  - {id: h1, kind: hostage, at: "g:3,4"}
"""


def window_of(s: CqbState, x: int) -> str:
    from killhouse.rulesets.cqb.world import window_state

    return window_state(s, Cell(0, x, 2))


def test_q65_windows_start_as_the_legend_says() -> None:
    _g, s = game(HOUSE)
    assert [window_of(s, x) for x in (2, 5, 8)] == ["closed", "open", "broken"]


def test_q65_sight_passes_every_window_state() -> None:
    _g, s = game(HOUSE)
    b1, h1 = s.figures["b1"], s.figures["h1"]
    for x in (2, 5, 8):
        b1.at, h1.at = Cell(0, x, 0), Cell(0, x, 4)
        refresh(s)
        assert "h1" in s.visible["b1"], x


@pytest.mark.parametrize(("x", "climb"), [(2, False), (5, True), (8, True)])
def test_q65_climb_only_through_an_open_or_broken_window(x: int, climb: bool) -> None:
    g, s = game(HOUSE)
    s.figures["b1"].at = Cell(0, x, 1)
    ready(s, "blue")
    tasks = {a.get("task") for a in g.legal_actions("blue")}
    assert ("climb" in tasks) is climb


def test_q65_open_close_and_break_a_window() -> None:
    g, s = game(HOUSE)
    ready(s, "blue")
    doings = {(tuple(a.get("at")), a.get("do")) for a in g.legal_actions("blue")
              if a.kind == "window"}
    assert doings == {((0, 2, 2), "open"), ((0, 2, 2), "break")}
    g.apply(Action.make("blue", "window", figure="b1", at=[0, 2, 2], do="open"))
    assert window_of(s, 2) == "open"
    ready(s, "blue")
    g.apply(Action.make("blue", "window", figure="b1", at=[0, 2, 2], do="break"))
    assert window_of(s, 2) == "broken"
    assert any(snd["kind"] == "glass" for snd in g.view("red")["sounds"])  # 24": r1 is 9.5"
    ready(s, "blue")
    assert not [a for a in g.legal_actions("blue") if a.kind == "window"]  # broken stays
    with pytest.raises(IllegalActionError):
        g.apply(Action.make("blue", "window", figure="b1", at=[0, 2, 2], do="close"))


@pytest.mark.parametrize(("x", "difficulty", "breaks"), [
    (2, 8, True),    # through the closed window: Difficult, and it breaks (12.2)
    (5, 4, False),   # through the open one within 6": Easy
    (8, 4, False),   # broken: as open
])
def test_q65_grenade_through_a_window(x: int, difficulty: int, breaks: bool) -> None:
    from killhouse.rulesets.cqb import actions as act

    g, s = game(HOUSE)
    b1 = s.figures["b1"]
    b1.at = Cell(0, x, 0)
    refresh(s)
    act.do_throw(s, b1, Action.make("blue", "throw", figure="b1", grenade="stun",
                                    at=[0, x, 4]), Deal(Card(13, "spades")), g.log)
    ev = next(e for e in g.log.events if e.kind == "throw")
    assert ev.data["tn"] == difficulty
    assert (window_of(s, x) == "broken") is (x == 8 or breaks)


def test_q66_a_secured_hostage_led_into_the_extraction_zone_is_rescued() -> None:
    from killhouse.rulesets.cqb import actions as act

    g, s = game(HOUSE)
    b1, h1 = s.figures["b1"], s.figures["h1"]
    h1.at = Cell(0, 2, 1)
    h1.secured_by = "b1"
    b1.at = Cell(0, 0, 1)  # in the zone; the free neighbour nearest h1 is (1, 1), in it too
    refresh(s)
    act.follow(s, b1, g.log)
    assert h1.at == Cell(0, 1, 1) and h1.extracted and not h1.active
    assert turn.summary(s)["rescued"] == 1 and turn.summary(s)["hostages"] == 1
    assert turn.summary(s)["hostages_down"] == 0
    assert g.ruleset.casualties(s)["hostages"] == 0
    assert g.view("blue")["public"]["rescued"] == ["h1"]
    assert "rescued" not in g.view("red")["public"]
    assert "h1" not in s.visible["b1"]  # off the map


def test_q66_a_hostage_one_cell_outside_the_zone_is_not_rescued() -> None:
    from killhouse.rulesets.cqb import actions as act

    g, s = game(HOUSE)
    b1, h1 = s.figures["b1"], s.figures["h1"]
    h1.at, h1.secured_by = Cell(0, 4, 1), "b1"
    b1.at = Cell(0, 2, 0)  # the free neighbour nearest h1 is at x = 3: one past the zone
    refresh(s)
    act.follow(s, b1, g.log)
    assert h1.at.x == 3 and not h1.extracted
    assert turn.summary(s)["rescued"] == 0


# -- darkness (section 1, ruling Q-67) ---------------------------------------------------------

DARK = """
name: dark
ruleset: cqb
turn_limit: 9
map:
  legend:
    "*": {terrain: floor, light: lit}
  levels:
    g: |
      ....................
      ..............****..
      ....................
sides:
  - {id: blue, role: rescuers, controller: ai}
  - {id: red, role: terrorists, controller: ai}
figures:
  - {id: b1, side: blue, ability: elite, at: "g:1,1", equipment: [mp5, pistol]}
  - {id: r1, side: red, ability: veteran, at: "g:7,1", equipment: [ak47]}
  - {id: h1, kind: hostage, at: "g:10,1"}
options:
  darkness: true
"""


@pytest.mark.parametrize(("x", "y", "seen"), [
    (7, 1, True),    # 6" in the dark: seen (edge)
    (7, 2, False),   # 6.08": one step past
    (7, 0, False),
    (15, 1, True),   # 14" but in a lit cell
    (13, 1, False),  # the cell before the light
])
def test_q67_in_the_dark_figures_are_seen_only_within_6_inches(x: int, y: int,
                                                               seen: bool) -> None:
    g, s = game(DARK)
    s.figures["r1"].at = Cell(0, x, y)
    refresh(s)
    assert ("r1" in s.visible["b1"]) is seen
    assert ("r1" in {e["id"] for e in g.view("blue")["seen"]}) is seen
    assert "r1" in s.in_los["b1"]  # the line of sight is there either way


def test_q67_without_the_option_range_does_not_matter() -> None:
    _g, s = game(DARK.replace("darkness: true", "darkness: false"))
    s.figures["r1"].at = Cell(0, 13, 2)
    refresh(s)
    assert "r1" in s.visible["b1"]


def test_q67_a_stray_round_can_strike_a_hostage_unseen_in_the_dark() -> None:
    from killhouse.rulesets.cqb.world import in_line_of_fire

    _g, s = game(DARK)
    b1, r1, h1 = s.figures["b1"], s.figures["r1"], s.figures["h1"]
    refresh(s)
    assert "h1" not in s.visible["b1"]  # 9" in the dark
    assert [f.id for f in in_line_of_fire(s, b1, r1, [h1])] == ["h1"]


# -- the line of fire on the core's exact segment (ruling Q-68) and the caches of item 6 -------


@pytest.mark.parametrize(("dx", "dy", "extend"), [
    (3, 0, 6), (-3, 0, 6), (0, 5, 6), (5, 5, 6), (-12, 12, 0), (-14, 6, 0), (-13, 1, 6),
    (7, -2, 6), (1, 13, 6),
])
def test_q68_line_cells_are_the_cores_cells_on_the_extended_segment(dx: int, dy: int,
                                                                    extend: int) -> None:
    from killhouse.core.geometry import cells_on_extended_segment
    from killhouse.rulesets.cqb.world import line_cells

    a, b = Cell(0, 20, 20), Cell(0, 20 + dx, 20 + dy)
    core = cells_on_extended_segment((20, 20), (20 + dx, 20 + dy), extend)
    assert [(c.x, c.y) for c in line_cells(a, b, extend)] == core


OPEN = """
name: open
ruleset: cqb
turn_limit: 9
map:
  levels:
    g: |
""" + "".join("      " + "." * 30 + "\n" for _ in range(30)) + """
sides:
  - {id: blue, role: rescuers, controller: ai}
  - {id: red, role: terrorists, controller: ai}
figures:
  - {id: b1, side: blue, ability: elite, at: "g:20,2", equipment: [mp5]}
  - {id: r1, side: red, ability: veteran, at: "g:8,14", equipment: [ak47]}
  - {id: h1, kind: hostage, at: "g:19,4"}
"""


@pytest.mark.parametrize(("x", "y", "in_line"), [
    (19, 3, True),   # the diagonal crosses (19, 3)
    (19, 4, False),  # it only touches this cell's corner (the old sampler took it in)
    (18, 4, True),
])
def test_q68_a_cell_touched_at_a_corner_is_not_in_the_line(x: int, y: int,
                                                          in_line: bool) -> None:
    from killhouse.rulesets.cqb.world import in_line_of_fire

    _g, s = game(OPEN)
    b1, r1, h1 = s.figures["b1"], s.figures["r1"], s.figures["h1"]
    h1.at = Cell(0, x, y)
    refresh(s)
    assert ([f.id for f in in_line_of_fire(s, b1, r1, [h1])] == ["h1"]) is in_line


def test_move_options_follow_the_board_and_the_figures() -> None:
    """Item 6 keeps a figure's move options while nothing they depend on changes: a door that
    opens or a figure that steps aside gives fresh ones, equal to computing them anew."""
    from killhouse.core.terrain import Terrain
    from killhouse.rulesets.cqb import actions as act

    _g, s = game(ROOM)
    b1 = s.figures["b1"]
    s.board.set_terrain(Cell(0, 4, 2), Terrain.DOOR_LOCKED)
    first = list(act.move_options(s, b1))
    assert list(act.move_options(s, b1)) == first == list(act._move_options(s, b1))
    s.board.set_terrain(Cell(0, 4, 2), Terrain.DOOR_OPEN)
    opened = list(act.move_options(s, b1))
    assert opened != first and opened == list(act._move_options(s, b1))
    s.figures["r1"].at = Cell(0, 1, 1)  # next to b1: blocks and takes a cell
    moved = list(act.move_options(s, b1))
    assert moved != opened and moved == list(act._move_options(s, b1))


def test_move_options_made_directly_are_the_actions_action_make_builds() -> None:
    """Issue 12: moves are made without freezing each path anew; they must be the very
    actions ``Action.make`` gives for the same arguments (equal, same hash, same JSON)."""
    from killhouse.rulesets.base import Action
    from killhouse.rulesets.cqb import actions as act

    _g, s = game(ROOM)
    listed = list(act._move_options(s, s.figures["b1"]))
    assert listed
    for a in listed:
        data = a.to_json()
        made = Action.make(a.side, a.kind, hint=dict(a.hint), **{
            k: v for k, v in data.items() if k not in ("side", "kind")})
        assert a == made and hash(a) == hash(made)
        assert a.hint == made.hint and a.to_json() == made.to_json() and str(a) == str(made)
        assert a.hint["to"] == data["path"][-1]


def test_sight_follows_doors_and_figures() -> None:
    from killhouse.core.terrain import Terrain

    _g, s = game(ROOM)
    s.figures["b1"].at = Cell(0, 4, 0)
    refresh(s)
    assert "r1" not in s.visible["b1"]
    s.board.set_terrain(Cell(0, 4, 2), Terrain.DOOR_OPEN)
    refresh(s)
    assert "r1" in s.visible["b1"]
    s.figures["r1"].condition = "dead"
    refresh(s)
    assert "b1" not in s.visible["r1"]  # the dead see nothing


def test_q64_disarm_is_offered_next_to_the_device_not_two_cells_away() -> None:
    g, s = game(DEVICE)
    b1 = s.figures["b1"]
    b1.at = Cell(0, 2, 3)  # on the device's neighbour (edge)
    ready(s, "blue")
    assert [a for a in g.legal_actions("blue") if a.get("task") == "disarm"]
    b1.at = Cell(0, 4, 3)  # two cells away: one past the edge
    ready(s, "blue")
    assert not [a for a in g.legal_actions("blue") if a.get("task") == "disarm"]
    ready(s, "red")
    s.figures["r1"].at = Cell(0, 3, 4)  # the gunmen never disarm
    assert not [a for a in g.legal_actions("red") if a.get("task") == "disarm"]


GLASS = """
name: glass
ruleset: cqb
turn_limit: 9
map:
  levels:
    g: |
      .#...........................
      .=...........................
      .#...........................
sides:
  - {id: blue, role: rescuers, controller: ai}
  - {id: red, role: terrorists, controller: ai}
figures:
  - {id: b1, side: blue, ability: elite, at: "g:0,1", equipment: [mp5]}
  - {id: r1, side: red, ability: veteran, at: "g:25,1", equipment: [ak47]}
"""


@pytest.mark.parametrize(("x", "heard"), [(25, True), (26, False)])
def test_q65_breaking_glass_is_heard_within_24_inches(x: int, heard: bool) -> None:
    g, s = game(GLASS)
    s.figures["r1"].at = Cell(0, x, 1)  # 24" from the window (edge), or 25"
    ready(s, "blue")
    s.sounds.clear()
    g.apply(Action.make("blue", "window", figure="b1", at=[0, 1, 1], do="break"))
    got = any(snd["kind"] == "glass" for snd in s.sounds.get("red", []))
    assert got is heard
