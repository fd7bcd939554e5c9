"""Revive unconscious man in play: 150 TP from the same or an adjacent square, over
activations, continued first thing; then E = 1 (digest 11; rulings C-5, C-52, C-100, C-158)."""

from __future__ import annotations

import pytest

from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando.wounds import Wound
from tests.rulesets.commando.arena import activate, arena, events, kinds, registered, state
from tests.rulesets.commando.test_ordnance import finish_turn

pytestmark = pytest.mark.usefixtures(registered.__name__)


def ward(patient_at: tuple[int, int] = (2, 4), side: str = "raiders") -> Game:
    men = [("kane", "raiders", (1, 4), ("m16",), {"man": "commando"}),
           ("bird", side, patient_at, ("m16",), {"man": "commando"}),
           ("g1", "guards", (38, 8), ("pistol",), {}),
           ("g2", "guards", (38, 1), ("pistol",), {})]
    game = Game(arena(men, light="night"), seed=1)
    s = state(game)
    s.men["bird"].damage = s.men["bird"].end0()  # E = 0: incapacitated (C-4)
    assert s.men["bird"].wound() is Wound.INCAPACITATED
    return game


@pytest.mark.parametrize(("at", "offered"), [((2, 4), True), ((2, 5), True), ((1, 4), True),
                                             ((3, 4), False)])
def test_revive_reaches_his_square_and_the_next_not_two_away(at: tuple[int, int],
                                                             offered: bool) -> None:
    game = ward(at)
    activate(game, "kane")
    assert bool(kinds(game, "raiders").get("revive")) is offered


def test_an_enemy_or_a_man_not_down_is_not_revived() -> None:
    game = ward(side="guards")
    s = state(game)
    s.pos["g1"] = s.pos["kane"].__class__(0, 2, 3)
    s.men["g1"].damage = s.men["g1"].end0()
    activate(game, "kane")
    assert not kinds(game, "raiders").get("revive")


def revive_turn(game: Game) -> None:
    activate(game, "kane")
    game.apply(Action.make("raiders", "revive", figure="kane", patient="bird"))
    finish_turn(game)


def test_three_activations_of_fifty_revive_him_to_e_one() -> None:
    game = ward()
    s = state(game)
    for paid in (50, 100):
        revive_turn(game)
        assert events(game, "revive")[-1]["paid"] == paid
        assert s.men["bird"].wound() is Wound.INCAPACITATED
    revive_turn(game)
    last = events(game, "revive")[-1]
    assert last["done"] and last["status"] == Wound.SERIOUS.value
    bird = s.men["bird"]
    assert bird.end0() - bird.damage == 1 and bird.active()  # C-52: E = 1


def test_work_not_continued_first_thing_is_lost() -> None:
    game = ward()
    revive_turn(game)
    activate(game, "kane")
    game.apply(Action.make("raiders", "posture", figure="kane", to="prone"))
    while game.pending()[0].kind == "opfire":
        game.apply(Action.make("guards", "hold"))
    game.apply(Action.make("raiders", "revive", figure="kane", patient="bird"))
    assert events(game, "revive")[-1]["paid"] == 50 - 13  # a fresh start (C-100)
