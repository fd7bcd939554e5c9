"""The role AI's choices on drawn boards: picking up a weapon (C-178 … C-180), shooting out a
searchlight whose beam lights its men at night (C-13, C-181), and the hold mission's zone
(C-177). Each is shown done where it should be, and not done one step past."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from killhouse.ai.roles.commando import CommandoBot, DefenderBot, RaiderBot
from killhouse.core.cells import Cell
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.scenario.model import ObjectSpec
from tests.rulesets.commando.arena import activate, arena, registered, state

pytestmark = pytest.mark.usefixtures(registered.__name__)


def choice(game: Game, bot: CommandoBot) -> Action:
    return bot.choose(game.view(bot.side), game.legal_actions(bot.side), Rng.from_seed(1))


# -- weapons on the ground -------------------------------------------------------------------


def fallen(kane: tuple[str, ...], g1: tuple[str, ...] = ("ak47", "pistol")) -> Game:
    """Kane (raider) with ``kane``, next to the fallen guard g1 with ``g1``; g2 far off, unseen
    (a wall hides him)."""
    men = [("kane", "raiders", (5, 4), kane, {"man": "commando"}),
           ("g1", "guards", (6, 4), g1, {}),
           ("g2", "guards", (38, 8), ("pistol",), {})]
    walls = tuple((30, y) for y in range(9))
    game = Game(arena(men, walls=walls), seed=1)
    state(game).men["g1"].kill()
    activate(game, "kane")
    return game


def test_a_man_whose_weapon_is_empty_picks_up_the_best_one_by_him() -> None:
    game = fallen(("m16",))
    state(game).men["kane"].empty = frozenset({"m16"})
    pick = choice(game, RaiderBot(game.scenario, "raiders"))
    assert (pick.kind, pick.get("weapon"), pick.get("fallen")) == ("pickup", "ak47", "g1")


def test_a_man_with_a_loaded_weapon_as_good_leaves_the_enemys_on_the_ground() -> None:
    """An M16 (3 fires) against an enemy AK47 at −15: not clearly better; he walks on."""
    game = fallen(("m16",))
    assert choice(game, RaiderBot(game.scenario, "raiders")).kind != "pickup"


@pytest.mark.parametrize(("tp", "picks"), [(28, True), (27, False)])
def test_a_clearly_better_weapon_is_taken_when_he_can_still_fire_it(tp: int, picks: bool) -> None:
    """A pistol against an AK47 lying by him: 10 TP to take it and 18 to fire it after."""
    game = fallen(("pistol",))
    state(game).men["kane"].tp = tp
    pick = choice(game, RaiderBot(game.scenario, "raiders"))
    assert (pick.kind == "pickup" and pick.get("weapon") == "ak47") is picks


def test_nothing_but_worse_weapons_lie_by_him() -> None:
    game = fallen(("m16",), g1=("pistol",))
    state(game).men["kane"].empty = frozenset({"m16"})
    pick = choice(game, DefenderBot(game.scenario, "raiders"))
    assert (pick.kind, pick.get("weapon")) == ("pickup", "pistol")  # empty: anything fires
    game = fallen(("rifle",), g1=("pistol",))
    assert choice(game, DefenderBot(game.scenario, "raiders")).kind != "pickup"


# -- searchlights ----------------------------------------------------------------------------


def lit(men: list[tuple[str, str, tuple[int, int], tuple[str, ...], dict[str, Any]]],
        aim: str, light: str = "night") -> Game:
    """A searchlight on (35, 4) aimed at ``aim`` (its 5×5 beam), the guard g1 far off behind
    a wall with a gap (no LOS to the raiders)."""
    scenario = arena([*men, ("g1", "guards", (38, 8), ("pistol",), {})], light=light,
                     walls=tuple((37, y) for y in range(5, 9)))
    sl = ObjectSpec("sl", "searchlight", "objects[0]", at=Cell(0, 35, 4), extra={"aim": aim})
    return Game(replace(scenario, objects=[sl]), seed=3)


@pytest.mark.parametrize(("x", "shoots"), [(16, True), (17, False)])
def test_a_raider_in_the_beam_shoots_the_light_out(x: int, shoots: bool) -> None:
    """Aimed at (14, 4), the beam lights x 12-16: at 16 he is lit (range 19, an M16's base 69),
    at 17 he is not and, with nobody else lit, leaves the light alone."""
    game = lit([("kane", "raiders", (x, 4), ("m16",), {"man": "commando"})], "ground:14,4")
    activate(game, "kane")
    pick = choice(game, RaiderBot(game.scenario, "raiders"))
    assert (pick.kind == "shoot_light" and pick.get("light") == "sl") is shoots


@pytest.mark.parametrize(("x", "shoots"), [(15, True), (14, False)])
def test_only_where_one_fire_has_a_fair_chance(x: int, shoots: bool) -> None:
    """An SMG's base is 35 at range 20 and 15 at 21: lit at both, he fires only at 20."""
    game = lit([("kane", "raiders", (x, 4), ("smg",), {"man": "commando"})], "ground:14,4")
    activate(game, "kane")
    assert "shoot_light" in {a.kind for a in game.legal_actions("raiders")}
    pick = choice(game, RaiderBot(game.scenario, "raiders"))
    assert (pick.kind == "shoot_light") is shoots


def test_a_raider_puts_out_the_light_on_a_friend_when_he_has_nobody_to_shoot() -> None:
    men = [("kane", "raiders", (20, 4), ("m16",), {"man": "commando"}),
           ("bird", "raiders", (14, 4), ("m16",), {"man": "grunt", "leader": "kane"})]
    game = lit(men, "ground:14,4")
    activate(game, "kane")
    assert choice(game, RaiderBot(game.scenario, "raiders")).kind == "shoot_light"


def test_no_light_is_shot_by_day_nor_by_the_defenders() -> None:
    men = [("kane", "raiders", (14, 4), ("m16",), {"man": "commando"})]
    game = lit(men, "ground:14,4", light="day")
    activate(game, "kane")
    assert choice(game, RaiderBot(game.scenario, "raiders")).kind != "shoot_light"
    guards = lit([("kane", "raiders", (2, 8), ("m16",), {"man": "commando"}),
                  ("g2", "guards", (14, 4), ("m16",), {})], "ground:14,4")
    activate(guards, "g2")
    assert "shoot_light" in {a.kind for a in guards.legal_actions("guards")}
    assert choice(guards, DefenderBot(guards.scenario, "guards")).kind != "shoot_light"


# -- the hold mission ------------------------------------------------------------------------

#: the crossing: a 3 x 3 block in the middle of the arena
ZONE = {Cell(0, x, y) for x in (19, 20, 21) for y in (3, 4, 5)}


def hold(kane: tuple[int, int], guard: tuple[int, int]) -> Game:
    """The guards hold the zone (``hold_side``); the raiders must take it."""
    men = [("kane", "raiders", kane, ("m16",), {"man": "commando"}),
           ("g1", "guards", guard, ("pistol",), {})]
    scenario = arena(men, zones={"crossing": ZONE}, light="night",
                     options={"hold_side": "guards"})
    return Game(replace(scenario, objectives={"mission": "hold", "hold_zone": "crossing"}),
                seed=1)


def test_the_raider_makes_for_the_zone_and_steps_into_it() -> None:
    game = hold((10, 4), (38, 8))
    activate(game, "kane")
    bot = RaiderBot(game.scenario, "raiders")
    step = choice(game, bot)
    assert step.kind == "step" and step.hint["to"][1] == 11
    state(game).pos["kane"] = Cell(0, 18, 4)
    step = choice(game, bot)
    assert step.kind == "step" and tuple(step.hint["to"])[1] == 19  # into the zone's edge
    state(game).pos["kane"] = Cell(0, 19, 4)
    assert choice(game, bot).kind != "step"  # in it: he stays


@pytest.mark.parametrize(("x", "steps"), [(21, False), (22, True)])
def test_a_holder_stays_in_the_zone_and_one_outside_walks_into_it(x: int, steps: bool) -> None:
    """Even knowing where a raider is, a guard in the zone (its last column) keeps to it; one
    a step past it walks back in."""
    game = hold((2, 4), (x, 4))
    s = state(game)
    s.last_seen["guards"]["kane"] = (Cell(0, 2, 4), 1)
    s.ever_seen["guards"].add("kane")
    activate(game, "g1")
    pick = choice(game, DefenderBot(game.scenario, "guards"))
    assert (pick.kind == "step") is steps
    if steps:
        assert Cell(*pick.hint["to"]) in ZONE
