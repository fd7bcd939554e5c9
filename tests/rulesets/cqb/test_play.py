"""CQB in play: the turn of section 14, Hold and interrupts, ties, movement and fire limits,
grenade reach, and hidden information across many random states."""

from __future__ import annotations

from typing import Any

import pytest

from killhouse.core.cells import Cell
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.cqb import turn
from killhouse.rulesets.cqb.actions import throw_targets
from killhouse.rulesets.cqb.fire import factors, fire_more, may_fire
from killhouse.rulesets.cqb.flow import FLOW
from killhouse.rulesets.cqb.resolve import shot_tn
from killhouse.rulesets.cqb.state import CqbState
from killhouse.rulesets.cqb.world import refresh
from killhouse.rulesets.kit.view import view_problems
from killhouse.scenario.loader import load_scenario, loads_scenario
from tests.conformance import ROOT, string_values

HALL = """
name: hall
ruleset: cqb
turn_limit: 5
map:
  levels:
    g: |
      ....................
      ....................
      #########+##########
      ....................
      ....................
sides:
  - {id: blue, role: rescuers, controller: ai}
  - {id: red, role: terrorists, controller: ai}
figures:
  - {id: b1, side: blue, ability: elite, at: "g:1,0", equipment: [mp5, pistol, stun]}
  - {id: b2, side: blue, ability: elite, at: "g:2,1", equipment: [sniper-rifle]}
  - {id: r1, side: red, ability: veteran, at: "g:15,4", equipment: [ak47]}
  - {id: h1, kind: hostage, at: "g:18,4"}
"""


def game(text: str = HALL, seed: int = 1) -> Game:
    return Game(loads_scenario(text), seed)


def st(g: Game) -> CqbState:
    state: CqbState = g.state
    return state


def test_no_contact_means_alternating_activations_rescuers_first() -> None:
    g = game()
    s = st(g)
    assert s.stage == "n" and not s.contact and s.queue == []
    assert [d.side for d in g.pending()] == ["blue"]
    assert {a.get("figure") for a in g.legal_actions("blue")} == {"b1", "b2"}
    g.apply(Action.make("blue", "wait", figure="b1"))
    assert [d.side for d in g.pending()] == ["red"]  # the sides alternate (14 N)


def test_views_keep_the_contract_and_hide_the_unseen() -> None:
    g = game()
    for side in ("blue", "red"):
        view = g.view(side)
        assert view_problems(view) == []
    assert "r1" not in string_values(g.view("blue"))
    assert "b1" not in string_values(g.view("red"))


def test_normal_move_allowance_edge() -> None:
    g = game()
    six = [[0, x, 0] for x in range(2, 8)]  # 6 orthogonal steps = 6"
    FLOW.validate(st(g), Action.make("blue", "move", figure="b1", mode="normal",
                                                 path=six))
    seven = [[0, x, 0] for x in range(2, 9)]
    with pytest.raises(IllegalActionError, match="allows 6"):
        g.apply(Action.make("blue", "move", figure="b1", mode="normal", path=seven))
    # four diagonal steps cost 6" (1.5" each, ruling Q-29); five would be 7.5"
    diag = [[0, 2, 1], [0, 3, 0], [0, 4, 1], [0, 5, 0]]
    FLOW.validate(st(g), Action.make("blue", "move", figure="b1", mode="normal",
                                                 path=diag))
    with pytest.raises(IllegalActionError):
        g.apply(Action.make("blue", "move", figure="b1", mode="normal",
                            path=[*diag, [0, 6, 1]]))


def test_door_opens_on_entering_and_costs_an_inch() -> None:
    g = game()
    # b1 at (1,0): to the door (9,2) and through: the door cell costs 2"
    path = [[0, 2, 0], [0, 3, 0], [0, 4, 0], [0, 5, 0], [0, 6, 0], [0, 7, 0], [0, 8, 1],
            [0, 9, 1], [0, 9, 2]]
    with pytest.raises(IllegalActionError):
        g.apply(Action.make("blue", "move", figure="b1", mode="normal", path=path))
    g.apply(Action.make("blue", "move", figure="b1", mode="fast", path=path))
    assert st(g).board.terrain(Cell(0, 9, 2)).name == "DOOR_OPEN"


def test_fast_movers_may_not_fire_next_turn_and_slow_single_cooldown() -> None:
    g = game()
    s = st(g)
    b1, b2 = s.figures["b1"], s.figures["b2"]
    b1.mode_last = "fast"
    assert "Fast" in may_fire(s, b1)
    b1.mode_last = "normal"
    assert may_fire(s, b1) == ""
    b2.fired_turn = s.turn - 1  # ruling Q-33: fired last turn, not this one
    assert "every other turn" in may_fire(s, b2)
    b2.fired_turn = s.turn - 2
    assert may_fire(s, b2) == ""


def put(s: CqbState, fid: str, x: int, y: int) -> None:
    s.figures[fid].at = Cell(0, x, y)
    refresh(s)


def test_range_edge_in_play_changes_the_tn() -> None:
    g = game()
    s = st(g)
    b1, r1 = s.figures["b1"], s.figures["r1"]
    put(s, "r1", 13, 0)  # 12" from b1 at (1,0): +0
    w = b1.weapon_in_hand()
    assert w is not None
    at_12 = shot_tn(factors(s, b1, r1, None, True, w))
    put(s, "r1", 14, 0)  # 13": +1
    assert shot_tn(factors(s, b1, r1, None, True, w)) == at_12 + 1


def test_grenade_reach_edge_12_inches() -> None:
    g = game()
    s = st(g)
    s.board.set_terrain(Cell(0, 9, 2), s.board.terrain(Cell(0, 9, 2)).__class__.DOOR_OPEN)
    put(s, "b1", 9, 0)
    cells = throw_targets(s, s.figures["b1"])
    assert cells  # the room beyond the open door
    target = next(iter(cells.values()))
    assert (target.x - 9) ** 2 + (target.y - 0) ** 2 <= 144
    put(s, "b1", 9, 0)
    s.board.set_terrain(Cell(0, 9, 2), s.board.terrain(Cell(0, 9, 2)).__class__.DOOR_CLOSED)
    assert throw_targets(s, s.figures["b1"]) == {}


def contact_game() -> Game:
    text = HALL.replace('at: "g:15,4"', 'at: "g:15,0"')
    return game(text)


def test_contact_draws_reaction_cards_and_orders_by_card() -> None:
    g = contact_game()
    s = st(g)
    assert set(s.contact) == {"b1", "b2", "r1"}
    assert all(s.figures[i].card_label for i in s.contact)
    # highest first; the first decision belongs to the head of the queue
    values = [s.figures[e[0]].card or 0 for e in s.queue]
    assert values == sorted(values, reverse=True)


def test_tie_rules_hold_first_then_stationary_else_simultaneous() -> None:
    g = contact_game()
    s = st(g)
    b1, r1 = s.figures["b1"], s.figures["r1"]
    b1.card = r1.card = 9
    r1.hold = True
    assert turn.order(s, ["b1", "r1"]) == [["r1"], ["b1"]]
    r1.hold = False
    r1.moved_last = 3.0
    assert turn.order(s, ["b1", "r1"]) == [["b1"], ["r1"]]  # b1 had not moved
    b1.moved_last = 2.0
    assert turn.order(s, ["b1", "r1"]) == [["b1", "r1"]]  # both moved: simultaneous
    b2 = s.figures["b2"]
    b2.card, b2.moved_last = 9, 2.0
    # one figure per side in each simultaneous group
    assert turn.order(s, ["b1", "b2", "r1"]) == [["b1", "r1"], ["b2"]]


def test_section_16_15_reaction_ordering() -> None:
    g = contact_game()
    s = st(g)
    b1, b2, r1 = s.figures["b1"], s.figures["b2"], s.figures["r1"]
    b1.card, b2.card, r1.card = 9, 11, 9
    r1.hold = True
    assert turn.order(s, ["b1", "b2", "r1"]) == [["b2"], ["r1"], ["b1"]]


def test_simultaneous_group_is_asked_secretly_at_once() -> None:
    g = contact_game()
    s = st(g)
    for f in s.figures.values():
        f.moved_last = 1.0
    s.queue = [["b1", "r1"]]
    s.stage = "q"
    turn.proceed(s, g.chance, g.log)
    assert sorted(d.side for d in g.pending()) == ["blue", "red"]
    assert {d.kind for d in g.pending()} == {"together"}
    red_choice = next(a for a in g.legal_actions("red") if a.kind == "wait")
    g.apply(red_choice)
    # blue cannot see red's declaration before the group resolves
    assert g.view("blue")["question"] == {"reaction": "together", "answered": None}
    assert "wait" not in str(g.view("blue")["question"])
    g.apply(Action.make("blue", "wait", figure="b1"))
    assert s.figures["b1"].acted and s.figures["r1"].acted


def test_hold_is_secret_and_interrupts_a_move_in_sight() -> None:
    g = game()
    s = st(g)
    g.apply(Action.make("blue", "wait", figure="b1"))
    g.apply(Action.make("red", "hold", figure="r1"))
    assert s.figures["r1"].hold
    blue_view = g.view("blue")
    assert "hold" not in str([e for e in blue_view["seen"]])
    assert all(e.for_side("blue") is None for e in g.log.events if e.kind == "hold")
    told = [e.for_side("blue") for e in g.log.events]
    assert not any(e and e.get("action") == "hold" for e in told)  # not even who chose it
    # b2 walks through the door into r1's sight: r1 (on Hold) is offered the interrupt
    path = [[0, 3, 1], [0, 4, 1], [0, 5, 1], [0, 6, 1], [0, 7, 1], [0, 8, 1], [0, 9, 1],
            [0, 9, 2], [0, 9, 3], [0, 10, 4]]
    g.apply(Action.make("blue", "move", figure="b2", mode="fast", path=path))
    pending = g.pending()
    assert [(d.side, d.kind) for d in pending] == [("red", "interrupt")]
    assert s.figures["b2"].at == Cell(0, 9, 3)  # paused at the first cell in sight
    g.apply(Action.make("red", "let-pass"))
    assert s.figures["b2"].at == Cell(0, 10, 4)  # the move went on; r1 tries only once


def interrupted(seed: int) -> tuple[Game, str]:
    g = game(seed=seed)
    g.apply(Action.make("blue", "wait", figure="b1"))
    g.apply(Action.make("red", "hold", figure="r1"))
    path = [[0, 3, 1], [0, 4, 1], [0, 5, 1], [0, 6, 1], [0, 7, 1], [0, 8, 1], [0, 9, 1],
            [0, 9, 2], [0, 9, 3], [0, 10, 4]]
    g.apply(Action.make("blue", "move", figure="b2", mode="fast", path=path))
    g.apply(Action.make("red", "interrupt", figure="r1"))
    ev = next(e for e in reversed(g.log.events) if e.kind == "interrupt")
    return g, str(ev.data["outcome"])


def test_interrupt_that_wins_acts_before_the_rest_of_the_move() -> None:
    g, outcome = interrupted(1)  # r1 draws 6C against b2's 5D
    s = st(g)
    assert outcome == "wins"
    assert [(d.side, d.kind) for d in g.pending()] == [("red", "act")]
    assert s.figures["b2"].at == Cell(0, 9, 3)
    assert {a.kind for a in g.legal_actions("red")} >= {"fire", "wait"}
    g.apply(Action.make("red", "wait", figure="r1"))
    assert any(e.kind == "wait" and e.data["figure"] == "r1" for e in g.log.events)
    assert not s.figures["r1"].hold  # interrupting used its action and ended its Hold
    assert s.figures["b2"].at == Cell(0, 10, 4)  # then the move goes on


def test_interrupt_that_loses_lets_the_move_go_on_and_keeps_hold() -> None:
    g, outcome = interrupted(3)  # 4C against 8C
    s = st(g)
    assert outcome == "loses"
    assert s.figures["b2"].at == Cell(0, 10, 4)
    assert s.figures["r1"].hold and not s.figures["r1"].acted  # ruling Q-11


# -- hidden information across many random states ------------------------------------------


def test_no_leaks_across_a_thousand_random_states() -> None:
    states = 0
    # the aircraft ends by turn 4 (its deadline), so the other three fill the count
    games = (("night", 9), ("aircraft", 5), ("stronghold", 6), ("overwatch", 7),
             ("night", 10), ("aircraft", 8), ("stronghold", 9), ("overwatch", 10))
    for name, seed in games:
        scenario = load_scenario(ROOT / "scenarios" / "cqb" / f"{name}.yaml")
        g = Game(scenario, seed)
        rng = Rng.from_seed(seed)
        here = 0
        while g.pending() and here < 400:
            for side in scenario.side_ids():
                check_view(g, side)
                here += 1
            decision = g.pending()[rng.below(len(g.pending()))]
            actions = g.legal_actions(decision.side)
            g.apply(actions[rng.below(len(actions))])
        states += here
    assert states >= 1000


def check_view(g: Game, side: str) -> None:
    s = st(g)
    view: dict[str, Any] = g.ruleset.view(s, side)
    assert view_problems(view) == []
    known = g.ruleset.known_ids(s, side)
    secrets = g.ruleset.secret_ids(s, side) - known
    assert not (string_values(view) & secrets)
    for entry in view["seen"]:  # nobody else's Hold, aim, ammunition or declared action
        assert not {"hold", "aim", "aim_at", "acted", "hesitant", "ammo"} & set(entry)
        f = s.figures[entry["id"]]
        assert entry.get("restrained", False) == (f.restrained_by is not None)
    for entry in view["figures"]:  # its own: a point aimed at, rounds left
        f = s.figures[entry["id"]]
        assert entry.get("aim_at") == (list(f.aim_at) if f.aim_at else None)
        if s.options.track_ammo:
            assert {k: v["loaded"] for k, v in entry["ammo"].items()} == f.loaded
    if "rescued" in view["public"]:
        assert side == s.rescuers
    seen = {e["id"] for e in view["seen"]} | {f["id"] for f in view["figures"]}
    for f in s.figures.values():
        if f.id not in seen:
            assert f.id not in string_values(view["seen"])
    q = view["question"]
    if q is not None and s.windows:
        assert side in s.windows[-1].asked


def test_an_interrupters_action_does_not_undo_the_knock_down_of_the_figure_it_cut_into() -> None:
    # regression: finishing the interrupter's action cleared every figure's knock-down, so
    # a firer knocked down by an interrupt fired on (and crashed without a weapon in hand)
    g = game()
    s = st(g)
    b1 = s.figures["b1"]
    b1.knocked = True
    turn.finish(s, {"kind": "wait", "figure": "r1"}, g.log)
    assert b1.knocked
    b1.dropped = True
    b1.sidearm = None
    b1.knocked = False
    ctx = {"kind": "fire", "figure": "b1", "volleys": [["r1", None, 1]], "v": 0, "left": None,
           "fired": 0}
    assert not fire_more(s, ctx)  # no weapon in hand: no more shots


def test_choosing_hold_in_sight_of_the_enemy_is_told_to_no_one_else() -> None:
    g = contact_game()
    s = st(g)
    s.stage, s.queue, s.n_side = "n", [], "red"
    for f in s.figures.values():
        f.acted = f.passed = False
    assert "r1" in s.visible["b1"]
    start = len(g.log)
    g.apply(Action.make("red", "hold", figure="r1"))
    told = [e.for_side("blue") for e in g.log.since(start)]
    assert not any(e and e.get("action") in ("hold", "wait") for e in told)
    assert not any(e and e["kind"] == "hold" for e in told)


def test_a_move_paused_in_a_friends_cell_then_ends_in_an_empty_one() -> None:
    """Rule 1 / ruling Q-59: a mover may stand in a friend's cell while an interrupt window is
    open (it is passing through), and ends its move in an empty cell. Seed 10000100 pauses
    red-1 in red-2's cell (found by the conformance property test)."""
    from tests.conformance import first_scenario, random_playout

    paused = 0
    for game in random_playout(first_scenario("cqb"), 10000100):
        state = game.state
        running = state.running
        active = [f for f in state.figures.values() if f.active]
        cells = [f.at for f in active]
        if len(set(cells)) < len(cells):
            assert running is not None and running.get("kind") == "move"
            paused += 1
    assert paused, "the seed no longer pauses a move in a friend's cell: pick another"
