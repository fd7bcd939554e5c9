"""Sounds: explosions and gunfire a side does not see are heard within 30 squares, direction
only, by that side alone (digest 15; rulings C-63, C-161)."""

from __future__ import annotations

import pytest

from killhouse.core.cells import Cell
from killhouse.engine.game import Game, canonical_json
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando.devices import Live
from killhouse.rulesets.commando.sounds import direction
from tests.rulesets.commando.arena import activate, arena, declare, registered, state
from tests.rulesets.commando.test_ordnance import finish_turn

pytestmark = pytest.mark.usefixtures(registered.__name__)


def night(guard: tuple[int, int], seed: int = 1) -> Game:
    men = [("kane", "raiders", (1, 4), ("m16",), {"man": "commando",
                                                   "skills": {"sniping": 30}}),
           ("g1", "guards", guard, ("pistol",), {})]
    return Game(arena(men, width=45, light="night"), seed=seed)


def bang(game: Game, at: Cell) -> None:
    o = state(game).ordnance
    o.live.append(Live(o.next_id("x"), "frag", at, "raiders", "kane", o.seq))
    finish_turn(game)


@pytest.mark.parametrize(("x", "heard"), [(35, True), (36, False)])
def test_an_unseen_explosion_is_heard_within_thirty_squares(x: int, heard: bool) -> None:
    game = night((x, 4))
    bang(game, Cell(0, 5, 4))  # 30 squares from (35, 4), 31 from (36, 4); night: unseen
    sounds = [e for e in game.log.events if e.kind == "sound"]
    assert bool(sounds) is heard
    if heard:
        [sound] = sounds
        assert sound.audience == frozenset({"guards"})
        assert sound.data == {"turn": 1, "kind": "explosion", "heard_by": "g1",
                              "direction": "W"}
        assert "[0, 5, 4]" not in canonical_json(sound.data)  # direction only, no square
        [explosion] = [e for e in game.log.events if e.kind == "explosion"]
        assert explosion.for_side("guards") is None  # not seen, only heard
        assert game.view("raiders")["sounds"] == []


def test_the_view_lists_the_sounds_of_this_turn_and_the_last() -> None:
    game = night((20, 4))
    bang(game, Cell(0, 5, 4))  # heard in turn 1's Bookkeeping
    heard = {"turn": 1, "kind": "explosion", "heard_by": "g1", "direction": "W"}
    assert state(game).turn == 2 and game.view("guards")["sounds"] == [heard]
    finish_turn(game)
    assert state(game).turn == 3 and game.view("guards")["sounds"] == []


def test_a_seen_explosion_makes_no_sound_entry() -> None:
    game = Game(arena([("kane", "raiders", (1, 4), ("m16",), {"man": "commando"}),
                       ("g1", "guards", (15, 4), ("pistol",), {})], light="day"), seed=1)
    bang(game, Cell(0, 5, 4))
    assert not [e for e in game.log.events if e.kind == "sound"]


def test_a_successful_sniper_is_heard_not_seen() -> None:
    heard = 0
    for seed in range(30):
        game = night((30, 4), seed)
        s = state(game)
        s.men["kane"].carried = ("rifle",)
        s.men["kane"].in_hand = "rifle"
        s.observed["raiders"] = {"g1"}
        activate(game, "kane")
        s.observed["guards"] = set()
        declare(game, Action.make("raiders", "snipe", figure="kane", target="g1"))
        [shot] = [e.data for e in game.log.events if e.kind == "snipe"]
        sounds = [e for e in game.log.events if e.kind == "sound"]
        if shot["sniped"] and not s.men["g1"].active():
            assert not sounds  # a man out of action hears nothing
        elif shot["sniped"]:
            heard += 1
            [sound] = sounds
            assert sound.data["kind"] == "gunfire" and sound.data["direction"] == "W"
            assert sound.audience == frozenset({"guards"})
        else:
            assert not sounds  # a man who is seen is not only heard
    assert 0 < heard < 30


@pytest.mark.parametrize(("dx", "dy", "name"), [
    (1, 0, "E"), (1, -1, "NE"), (0, -1, "N"), (-1, -1, "NW"), (-1, 0, "W"), (-1, 1, "SW"),
    (0, 1, "S"), (1, 1, "SE"), (5, -2, "E"), (5, -3, "NE"),
])
def test_directions_are_eight_sectors(dx: int, dy: int, name: str) -> None:
    assert direction(Cell(0, 10, 10), Cell(0, 10 + dx, 10 + dy)) == name
