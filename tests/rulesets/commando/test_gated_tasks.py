"""Ruling C-196: picking up a weapon, shooting at a light, leading and executing a hostage
wait, like every other task, for a Preserving man's forced move (C-186); up a tree (C-188) a
man may still fire at a light, but not pick up a weapon lying below."""

from __future__ import annotations

from dataclasses import replace

import pytest

from killhouse.core.cells import Cell
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.scenario.model import ObjectSpec
from tests.rulesets.commando.arena import activate, arena, kinds, registered, state

pytestmark = pytest.mark.usefixtures(registered.__name__)


def ready() -> Game:
    """Kane (raider, M16) at (5, 4) by the fallen guard g1, a searchlight in sight at night."""
    men = [("kane", "raiders", (5, 4), ("m16",), {"man": "commando"}),
           ("g1", "guards", (6, 4), ("ak47",), {}),
           ("g2", "guards", (38, 8), ("pistol",), {})]
    light = ObjectSpec("sl", "searchlight", "objects[0]", at=Cell(0, 20, 4),
                       extra={"aim": "ground:14,4"})
    game = Game(replace(arena(men, light="night"), objects=[light]), seed=1)
    state(game).men["g1"].kill()
    activate(game, "kane")
    return game


def test_both_are_offered_when_nothing_comes_first() -> None:
    assert {"pickup", "shoot_light", "end"} <= set(kinds(ready(), "raiders"))


def test_a_forced_move_comes_before_a_pickup_or_a_shot_at_a_light() -> None:
    game = ready()
    state(game).forced["withdraw"] = {"figure": "kane", "next": [[0, 4, 4]]}
    assert set(kinds(game, "raiders")) == {"step"}
    before = game.state_hash()
    with pytest.raises(IllegalActionError, match="C-186"):
        game.apply(Action.make("raiders", "pickup", figure="kane", fallen="g1", weapon="ak47"))
    with pytest.raises(IllegalActionError, match="C-186"):
        game.apply(Action.make("raiders", "shoot_light", figure="kane", light="sl"))
    assert game.state_hash() == before


def test_up_a_tree_he_shoots_at_a_light_but_picks_nothing_up() -> None:
    game = ready()
    state(game).men["kane"].aloft = True
    offered = set(kinds(game, "raiders"))
    assert "shoot_light" in offered and "pickup" not in offered
    with pytest.raises(IllegalActionError, match="C-188"):
        game.apply(Action.make("raiders", "pickup", figure="kane", fallen="g1", weapon="ak47"))
