"""Preservation condition 2 (digest 7.2, rulings C-124, C-189) read off every fire task, throw,
launch, blast and Claymore, and ruling K-5 for d100 checks (no die for a certain outcome)."""

from __future__ import annotations

from typing import Any

import pytest

from killhouse.core.cells import Cell
from killhouse.core.chance import SeededChance
from killhouse.core.events import EventLog
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import explosions, fire, morale
from killhouse.rulesets.commando.dice import percent_check
from tests.rulesets.commando.arena import activate, arena, declare, registered, state

pytestmark = pytest.mark.usefixtures(registered.__name__)
KANE = {"man": "commando", "wps": {"m16": 1}}


def duel(gun: str = "m16", extra: dict[str, object] | None = None,
         more: tuple[tuple[str, tuple[int, int]], ...] = ()) -> Game:
    men = [("kane", "raiders", (1, 4), (gun, "frag"), {**KANE, **(extra or {})}),
           ("g1", "guards", (11, 4), ("pistol",), {})]
    men += [(ident, "guards", xy, ("pistol",), {}) for ident, xy in more]
    game = Game(arena(men), seed=5)
    s = state(game)
    for side in s.sides:
        s.observed[side] = {m.id for m in s.side_men(s.enemy(side))}
    return game


@pytest.mark.parametrize(("kind", "gun", "extra", "args"), [
    ("aim", "m16", {}, {}),
    ("semi", "m16", {}, {}),
    ("snipe", "rifle", {"skills": {"sniping": 16}, "wps": {"rifle": 0}}, {}),
    ("spray", "m16", {}, {"split": "g1,g2,g2"}),
])
def test_every_fire_task_marks_its_targets_fired_at(
        kind: str, gun: str, extra: dict[str, object], args: dict[str, Any]) -> None:
    game = duel(gun, extra, more=(("g2", (11, 6)),))
    s = state(game)
    activate(game, "kane")
    assert "g1" not in s.fired_at
    before = morale.conditions(s, s.men["g1"])
    declare(game, Action.make("raiders", kind, figure="kane", target="g1", **args))
    assert "g1" in s.fired_at
    if kind == "spray":
        assert "g2" in s.fired_at
    else:
        assert "g2" not in s.fired_at
    if s.men["g1"].damage == 0:  # no wound to muddle the count: condition 2 alone is new
        assert morale.conditions(s, s.men["g1"]) == before + 1


def test_a_landing_within_one_square_counts_and_two_does_not() -> None:
    game = duel(more=(("g2", (13, 4)),))
    s = state(game)
    activate(game, "kane")
    game.apply(Action.make("raiders", "prepare", figure="kane", device="frag"))
    while game.pending() and game.pending()[0].kind == "opfire":
        game.apply(Action.make(game.pending()[0].side, "hold"))
    game.apply(Action.make("raiders", "throw", figure="kane", at=[0, 7, 4]))
    lands = [e.data["lands"] for e in game.log.events if e.kind == "throw"][-1]
    at = Cell(*lands)
    near = {m for m, p in s.pos.items() if p.level == at.level
            and max(abs(p.x - at.x), abs(p.y - at.y)) <= 1}
    assert s.fired_at == near


def test_a_blast_marks_men_within_one_square_edge() -> None:
    game = duel(more=(("g2", (13, 4)),))
    s = state(game)
    explosions.explode(s, "frag", Cell(0, 12, 4), "raiders", "kane", game.chance, game.log)
    assert {"g1", "g2"} <= s.fired_at  # range 1 each side
    s.fired_at.clear()
    explosions.explode(s, "frag", Cell(0, 13, 6), "raiders", "kane", game.chance, game.log)
    assert "g2" not in s.fired_at  # range 2: a blast two squares off does not count
    explosions.explode(s, "smoke", Cell(0, 13, 5), "raiders", "kane", game.chance, game.log)
    assert "g2" in s.fired_at  # a smoke grenade is a grenade landing within 1


# -- ruling K-5 for d100 checks (C-189) ----------------------------------------------------


def rolls(pct: int) -> tuple[bool, int]:
    log = EventLog()
    chance = SeededChance(Rng.from_seed(3), log)
    ok = percent_check(chance, pct, "test")
    return ok, sum(1 for e in log.events if e.kind == "roll")


@pytest.mark.parametrize(("pct", "ok", "dice"), [
    (-5, False, 0), (0, False, 0), (100, True, 0), (130, True, 0),
])
def test_a_certain_check_rolls_no_die(pct: int, ok: bool, dice: int) -> None:
    assert rolls(pct) == (ok, dice)


@pytest.mark.parametrize("pct", [1, 99])
def test_an_uncertain_check_rolls_one_die(pct: int) -> None:
    assert rolls(pct)[1] == 1


def test_a_fire_that_cannot_hit_rolls_no_die() -> None:
    for h, dice in ((0, 0), (-3, 0), (1, 1)):
        log = EventLog()
        chance = SeededChance(Rng.from_seed(3), log)
        shot = fire.one_fire(chance, h, fire.firearm("m16").damage)
        assert sum(1 for e in log.events if e.kind == "roll") == dice
        if dice == 0:
            assert shot.result == fire.MISS and shot.roll is None
