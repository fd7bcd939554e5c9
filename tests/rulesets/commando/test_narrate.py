"""Narration of the rolls and the side of figures in views: each side's copy says only what it
may know (rulings C-99, C-153)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from killhouse.core.events import Event
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando.narrate import narrate
from tests.rulesets.commando.arena import activate, arena, declare, registered, state

pytestmark = pytest.mark.usefixtures(registered.__name__)


def duel(seed: int = 4) -> Game:
    men = [("kane", "raiders", (1, 4), ("m16", "frag"), {"man": "commando", "wps": {"m16": 1}}),
           ("g1", "guards", (11, 4), ("pistol",), {}),
           ("g2", "guards", (30, 8), ("pistol",), {})]
    game = Game(arena(men), seed=seed)
    s = state(game)
    s.observed["raiders"] = {"g1"}
    s.observed["guards"] = {"kane"}
    return game


def copy_for(event: Event, side: str) -> Event:
    data = event.for_side(side)
    assert data is not None
    return replace(event, data={k: v for k, v in data.items() if k not in ("seq", "kind")},
                   views={})


def fire_rolls(game: Game, start: int) -> list[int]:
    return [e.data["result"] for e in game.log.since(start)
            if e.kind == "roll" and e.data["purpose"] == "fire"]


def test_a_plain_fire_narrates_each_roll_and_the_chance_only_to_the_firer() -> None:
    game = duel()
    activate(game, "kane")
    start = len(game.log)
    declare(game, Action.make("raiders", "fire", figure="kane", target="g1"))
    [event] = [e for e in game.log.since(start) if e.kind == "fire"]
    rolls = fire_rolls(game, start)
    assert event.data["rolls"] == rolls and len(rolls) == 3
    # Mk 22 +9, Hero 22 +2, WP +1, range 10 (band 9-20: 69): 81; K(81) = 13
    own = narrate(copy_for(event, "raiders"))
    theirs = narrate(copy_for(event, "guards"))
    assert own is not None and theirs is not None
    assert "needs 81, kills on 13 or less" in own
    assert "needs" not in theirs and "kills on" not in theirs  # C-99
    for roll in rolls:
        assert f"rolled {roll}:" in own and f"rolled {roll}:" in theirs
    assert "chance" not in (event.for_side("guards") or {})


def test_a_semi_automatic_fire_narrates_its_roll_without_the_chance_for_the_enemy() -> None:
    game = duel()
    activate(game, "kane")
    start = len(game.log)
    declare(game, Action.make("raiders", "semi", figure="kane", target="g1"))
    [event] = [e for e in game.log.since(start) if e.kind == "semi"]
    [roll] = fire_rolls(game, start)
    own, theirs = narrate(copy_for(event, "raiders")), narrate(copy_for(event, "guards"))
    assert own is not None and f"needs {event.data['chances'][0]}" in own
    assert theirs is not None and "needs" not in theirs
    assert f"rolled {roll}:" in own and f"rolled {roll}:" in theirs


def test_a_throw_narrates_the_accuracy_roll_and_the_chance_only_to_the_thrower() -> None:
    game = duel()
    s = state(game)
    s.pos["g1"] = s.pos["g1"].__class__(0, 9, 4)  # range 8: within a frag's reach
    activate(game, "kane")
    game.apply(Action.make("raiders", "prepare", figure="kane", device="frag"))
    while game.pending()[0].kind == "opfire":
        game.apply(Action.make("guards", "hold"))
    start = len(game.log)
    game.apply(Action.make("raiders", "throw", figure="kane", at=[0, 9, 4]))
    [event] = [e for e in game.log.since(start) if e.kind == "throw"]
    [roll] = [e.data["result"] for e in game.log.since(start)
              if e.kind == "roll" and e.data["purpose"] == "frag accuracy"]
    own, theirs = narrate(copy_for(event, "raiders")), narrate(copy_for(event, "guards"))
    assert own is not None and f"needs {event.data['chance']}, rolled {roll}" in own
    assert theirs is not None and f"(rolled {roll})" in theirs and "needs" not in theirs


def test_views_carry_the_side_of_every_figure_the_viewer_knows() -> None:
    game = duel()
    s = state(game)
    s.last_seen["raiders"]["g2"] = (s.pos["g2"], 1)
    view = game.view("raiders")
    assert {(f["id"], f["side"]) for f in view["figures"]} == {("kane", "raiders")}
    assert [(f["id"], f["side"]) for f in view["seen"]] == [("g1", "guards")]
    assert [(f["id"], f["side"]) for f in view["remembered"]] == [("g2", "guards")]
    # a man the side never saw is not in its view at all, side or not
    guards = game.view("guards")
    assert {f["id"] for f in guards["seen"] + guards["remembered"]} == {"kane"}
    assert all(f["side"] == "guards" for f in guards["figures"])


def test_the_role_bot_is_not_drawn_to_an_enemy_seen_down() -> None:
    # the side on seen figures (C-154) must not make the bot walk to fallen men
    from killhouse.ai.roles.commando import bot_for
    from killhouse.core.cells import Cell

    game = duel()
    s = state(game)
    bot = bot_for(game.scenario, "raiders")
    assert Cell(0, 11, 4) in bot.targets(game.view("raiders"))
    s.men["g1"].kill()
    assert Cell(0, 11, 4) not in bot.targets(game.view("raiders"))
