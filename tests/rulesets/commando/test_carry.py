"""The flamethrower's +5 TP per square moved (Task Point Cost Chart; ruling C-157)."""

from __future__ import annotations

import pytest

from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from tests.rulesets.commando.arena import activate, arena, kinds, registered, state

pytestmark = pytest.mark.usefixtures(registered.__name__)


def walker(kit: tuple[str, ...]) -> Game:
    men = [("kane", "raiders", (1, 4), kit, {"man": "commando"}),
           ("g1", "guards", (38, 8), ("pistol",), {})]
    return Game(arena(men, light="night"), seed=1)


@pytest.mark.parametrize(("kit", "tp", "east"), [
    (("flamethrower",), 10, True), (("flamethrower",), 9, False),
    (("m16", "flamethrower"), 10, True), (("m16", "flamethrower"), 9, False),
    (("m16",), 5, True), (("m16",), 4, False),
])
def test_a_step_with_a_flamethrower_costs_five_more(kit: tuple[str, ...], tp: int,
                                                    east: bool) -> None:
    game = walker(kit)
    activate(game, "kane")
    s = state(game)
    s.men["kane"].tp, s.men["kane"].move_tp = tp, 0
    dirs = {a.get("dir") for a in kinds(game, "raiders").get("step", [])}
    assert ("e" in dirs) is east
    if east:
        game.apply(Action.make("raiders", "step", figure="kane", dir="e"))
        assert s.men["kane"].tp == 0  # 5 + 5 with the flamethrower, 5 without


@pytest.mark.parametrize(("tp", "offered"), [(22, True), (21, False)])
def test_exchanging_weapons_costs_twenty_two(tp: int, offered: bool) -> None:
    # ruling C-160: another carried firearm into his hands; the grenades are slung (C-88)
    game = walker(("m16", "pistol", "frag"))
    activate(game, "kane")
    s = state(game)
    s.men["kane"].tp, s.men["kane"].move_tp = tp, 0
    swaps = [a.get("weapon") for a in kinds(game, "raiders").get("exchange", [])]
    assert swaps == (["pistol"] if offered else [])
    if offered:
        game.apply(Action.make("raiders", "exchange", figure="kane", weapon="pistol"))
        assert s.men["kane"].in_hand == "pistol" and s.men["kane"].tp == 0
        assert game.view("raiders")["figures"][0]["weapon"] == "pistol"
