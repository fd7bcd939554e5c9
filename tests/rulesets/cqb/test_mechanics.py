"""CQB mechanics in play: burst length (Q-40), stun and CS in a room, strays into hostages,
securing a hostage, breaching a locked door, and the line of fire."""

from __future__ import annotations

from fractions import Fraction

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance, enumerate_outcomes
from killhouse.core.deck import Card, Deck
from killhouse.core.events import Audience, EventLog
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.rulesets.cqb import actions as act
from killhouse.rulesets.cqb.fire import stray
from killhouse.rulesets.cqb.resolve import rounds_in_burst
from killhouse.rulesets.cqb.state import CqbState
from killhouse.rulesets.cqb.tables import tables
from killhouse.rulesets.cqb.world import in_line_of_fire, line_cells, refresh
from killhouse.scenario.loader import loads_scenario

ROOMS = """
name: rooms
ruleset: cqb
turn_limit: 5
map:
  levels:
    g: |
      ..............
      ..............
      ######L#######
      #............#
      #............#
      ##############
sides:
  - {id: blue, role: rescuers, controller: ai}
  - {id: red, role: terrorists, controller: ai}
figures:
  - {id: b1, side: blue, ability: elite, at: "g:6,1", equipment: [shotgun, pistol, charge, stun]}
  - {id: r1, side: red, ability: novice, at: "g:2,3", equipment: [pistol]}
  - {id: r2, side: red, ability: novice, at: "g:11,4", equipment: [pistol]}
  - {id: h1, kind: hostage, at: "g:7,3"}
"""


class Dealt(Chance):
    """Deals the named cards in order (they must be in the deck) and fixed dice."""

    def __init__(self, *cards: Card, die: int = 3) -> None:
        self.cards = list(cards)
        self.die = die

    def draw(self, deck: Deck, purpose: str, audience: Audience = None) -> Card:
        card = self.cards.pop(0)
        deck.cards.remove(card)
        return card

    def average_die(self, purpose: str, audience: Audience = None) -> int:
        return self.die


def state(text: str = ROOMS) -> tuple[Game, CqbState]:
    g = Game(loads_scenario(text), 1)
    s: CqbState = g.state
    return g, s


def test_q40_full_auto_bursts_are_1da_rounds_unless_fixed() -> None:
    uzi = tables().weapons["uzi"]
    odds = enumerate_outcomes(lambda c: rounds_in_burst(c, uzi, False))
    assert odds == {2: Fraction(1, 6), 3: Fraction(1, 3), 4: Fraction(1, 3), 5: Fraction(1, 6)}
    assert enumerate_outcomes(lambda c: rounds_in_burst(c, uzi, True)) == {3: 1}
    assert rounds_in_burst(Dealt(), tables().weapons["mp5"], False) == 3  # burst fire: 3


def test_breaching_charge_opens_the_locked_door() -> None:
    g, s = state()
    b1 = s.figures["b1"]
    options = {a.get("task") for a in act.task_options(s, b1)}
    assert {"kick", "pick", "charge", "shotgun-breach"} <= options
    act.do_task(s, b1, Action.make("blue", "task", figure="b1", task="charge", at=[0, 6, 2]),
                Dealt(Card(9, "spades")), g.log)
    assert s.board.terrain(Cell(0, 6, 2)) == Terrain.DOOR_OPEN and b1.charges == 0


def test_pick_that_fails_by_three_jams_the_lock() -> None:
    g, s = state()
    b1 = s.figures["b1"]
    # Difficult 8: a 5 fails by 3 (elite values start at 4)
    act.do_task(s, b1, Action.make("blue", "task", figure="b1", task="pick", at=[0, 6, 2]),
                Dealt(Card(5, "spades")), g.log)
    assert Cell(0, 6, 2) in s.jammed_locks
    assert "pick" not in {a.get("task") for a in act.task_options(s, b1)}


def test_stun_grenade_stuns_the_room_and_recovery_tn_drops() -> None:
    g, s = state()
    room = s.rooms[Cell(0, 2, 3)]
    act.detonate_stun(s, room, Dealt(Card(7, "spades"), Card(8, "spades"), Card(2, "hearts")),
                      g.log)
    stunned = {f.id for f in s.figures.values() if f.stunned}
    # r1 (7 < 8) stunned, r2 (8) not, the hostage (2) stunned; b1 outside is untouched
    assert stunned == {"r1", "h1"}
    assert s.figures["r1"].stunned_turn == s.turn


def test_cs_failures_add_to_every_action_and_respirators_are_immune() -> None:
    g, s = state(ROOMS)
    s.figures["r2"].respirator = True
    room = s.rooms[Cell(0, 2, 3)]
    act.deploy_cs(s, room, Dealt(Card(0, "joker"), Card(9, "spades")), g.log)
    r1 = s.figures["r1"]
    assert r1.cs == 2 and r1.overcome  # a joker: two failures and overcome (13)
    assert s.figures["r2"].cs == 0
    assert act.room_is_gassed(s, room)


def test_line_of_fire_extends_six_inches_past_the_target() -> None:
    cells = line_cells(Cell(0, 0, 0), Cell(0, 3, 0), 6)
    assert cells[-1] == Cell(0, 9, 0) and Cell(0, 10, 0) not in cells


def test_hostages_in_the_line_nearest_first_and_the_1_inch_rule() -> None:
    _g, s = state()
    s.board.set_terrain(Cell(0, 6, 2), Terrain.DOOR_OPEN)
    firer, target = s.figures["b1"], s.figures["r1"]
    firer.at = Cell(0, 6, 1)
    target.at = Cell(0, 6, 4)
    s.figures["h1"].at = Cell(0, 7, 4)  # 1" from the target, not farther than it + 1"
    refresh(s)
    hostages = [s.figures["h1"]]
    assert [f.id for f in in_line_of_fire(s, firer, target, hostages)] == ["h1"]
    s.figures["h1"].at = Cell(0, 8, 4)  # 2" from the target: out
    refresh(s)
    assert in_line_of_fire(s, firer, target, hostages) == []


def test_a_complete_miss_can_hit_the_hostage_with_the_hostage_deck() -> None:
    _g, s = state()
    s.board.set_terrain(Cell(0, 6, 2), Terrain.DOOR_OPEN)
    firer, target, h1 = s.figures["b1"], s.figures["r1"], s.figures["h1"]
    firer.at, target.at, h1.at = Cell(0, 6, 1), Cell(0, 6, 4), Cell(0, 6, 3)
    refresh(s)
    log = EventLog()
    stray(s, firer, target, tables().weapons["shotgun"], Dealt(Card(4, "hearts"),
                                                               Card(9, "diamonds")), log)
    assert h1.condition == "incapacitated"  # red: hit; 9 red: torso OOA
    assert s.hostage_deck.discards == [Card(4, "hearts"), Card(9, "diamonds")]


def test_securing_a_hostage_makes_it_follow() -> None:
    g, s = state()
    b1, h1 = s.figures["b1"], s.figures["h1"]
    s.board.set_terrain(Cell(0, 6, 2), Terrain.DOOR_OPEN)
    b1.at = Cell(0, 6, 3)
    refresh(s)
    act.do_task(s, b1, Action.make("blue", "task", figure="b1", task="secure", target="h1"),
                Dealt(Card(9, "spades")), g.log)
    assert h1.secured_by == "b1"
    b1.at = Cell(0, 5, 4)
    act.follow(s, b1, g.log)
    assert max(abs(h1.at.x - 5), abs(h1.at.y - 4)) == 1


def test_q46_a_shot_that_cannot_hit_still_turns_a_card() -> None:
    from killhouse.rulesets.cqb.cards import ability_deck
    from killhouse.rulesets.cqb.resolve import resolve_shot

    deck = ability_deck("n", "novice")
    shot = resolve_shot(Dealt(Card(0, "joker")), deck, 99, None)
    assert shot.outcome == "joker" and len(deck) == 41


def test_q47_a_joker_throw_loses_the_grenade_without_a_bang() -> None:
    g, s = state()
    s.board.set_terrain(Cell(0, 6, 2), Terrain.DOOR_OPEN)
    b1 = s.figures["b1"]
    refresh(s)
    target = next(iter(act.throw_targets(s, b1).values()))
    act.do_throw(s, b1, Action.make("blue", "throw", figure="b1", grenade="stun",
                                    at=[target.level, target.x, target.y]),
                 Dealt(Card(0, "joker")), g.log)
    assert b1.grenades["stun"] == 0 and "throw-stun" in b1.lost_tasks
    assert not any(f.stunned for f in s.figures.values())


def test_q48_a_stoppage_sends_no_round_at_the_hostage() -> None:
    from killhouse.rulesets.cqb.fire import fire_next, start_fire

    g, s = state()
    s.board.set_terrain(Cell(0, 6, 2), Terrain.DOOR_OPEN)
    b1, r1, h1 = s.figures["b1"], s.figures["r1"], s.figures["h1"]
    b1.at, r1.at, h1.at = Cell(0, 6, 1), Cell(0, 6, 4), Cell(0, 6, 3)
    b1.weapon = "uzi"
    refresh(s)
    ctx = start_fire(s, b1, {"target": "r1", "count": 1})
    fire_next(s, ctx, Dealt(Card(0, "joker"), die=2), g.log)
    assert b1.jammed and s.hostage_deck.discards == []


def test_q50_hostages_are_never_offered_as_targets() -> None:
    _g, s = state()
    s.board.set_terrain(Cell(0, 6, 2), Terrain.DOOR_OPEN)
    s.figures["h1"].at = Cell(0, 6, 3)
    refresh(s)
    b1 = s.figures["b1"]
    assert "h1" in s.visible["b1"]
    assert "h1" not in {t.id for t in act.targets(s, b1)}


def test_q54_rescuers_win_when_every_terrorist_is_down_within_the_hostage_limit() -> None:
    from killhouse.rulesets.cqb import turn

    g, s = state()
    for fid in ("r1", "r2"):
        s.figures[fid].condition = "dead"
    turn.check_end(s, g.chance, g.log)
    assert s.result is not None and s.result.winner == "blue"
    g2, s2 = state(ROOMS + "options:\n  max_hostage_losses: 0\n")
    s2.figures["h1"].condition = "dead"
    for fid in ("r1", "r2"):
        s2.figures[fid].condition = "dead"
    turn.check_end(s2, g2.chance, g2.log)
    assert s2.result is not None and s2.result.winner is None


def test_q56_overcome_figures_may_only_move_normal_or_fast() -> None:
    _g, s = state()
    r1 = s.figures["r1"]
    r1.overcome = True
    assert act.allowed_modes(r1) == ["normal", "fast"]


def test_q45_a_doorway_counts_in_both_rooms() -> None:
    from killhouse.rulesets.cqb.world import rooms_of

    _g, s = state()
    door = rooms_of(s, Cell(0, 6, 2))
    assert door == {s.rooms[Cell(0, 6, 1)], s.rooms[Cell(0, 6, 3)]}


def test_16_12_two_out_of_action_hits_incapacitate() -> None:
    from killhouse.rulesets.cqb.fire import apply_hit
    from killhouse.rulesets.cqb.resolve import Hit

    g, s = state()
    r1, b1 = s.figures["r1"], s.figures["b1"]
    apply_hit(s, r1, Hit("leg", "ooa", True), b1, g.log)
    assert r1.active and r1.legs_ooa == 1 and act.allowed_modes(r1) == ["crawl"]
    assert r1.wounds() == 1
    apply_hit(s, r1, Hit("weak-arm", "ooa", True), b1, g.log)
    assert r1.condition == "incapacitated"


def test_16_10_strong_arm_out_drops_the_weapon_weak_hand_and_wound() -> None:
    from killhouse.rulesets.cqb.fire import apply_hit, factors
    from killhouse.rulesets.cqb.resolve import Hit, shot_tn

    g, s = state()
    r1, b1 = s.figures["r1"], s.figures["b1"]
    pistol = tables().weapons["pistol"]
    before = shot_tn(factors(s, r1, b1, None, True, pistol))
    apply_hit(s, r1, Hit("strong-arm", "ooa", True), b1, g.log)
    assert r1.dropped and r1.posture == "prone" and r1.weapon_in_hand() is None
    assert shot_tn(factors(s, r1, b1, None, True, pistol)) == before + 2 + 1
