"""Missions other than elimination: a demolish mission's targets, blown up by a charge
(rulings C-155, C-156)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from killhouse.core.cells import Cell
from killhouse.engine.game import Game
from killhouse.errors import ScenarioError
from killhouse.rulesets.commando.devices import Live
from killhouse.scenario.loader import loads_scenario
from tests.rulesets.commando.arena import arena, events, registered, state
from tests.rulesets.commando.test_ordnance import finish_turn

pytestmark = pytest.mark.usefixtures(registered.__name__)

RAID = Path(__file__).parents[3] / "scenarios" / "commando" / "radar_raid.yaml"


def demolish(objectives: dict[str, Any] | None = None) -> Game:
    """Kane far west, a guard far east, a two-square target (the mast) in the open middle."""
    men = [("kane", "raiders", (1, 4), ("m16",), {"man": "commando"}),
           ("g1", "guards", (38, 8), ("pistol",), {})]
    scenario = arena(men, zones={"mast": {Cell(0, 20, 4), Cell(0, 21, 4)}})
    scenario = replace(scenario, objectives=objectives or {
        "mission": "demolish", "bomb_sites": "mast"})
    return Game(scenario, seed=1)


def blow(game: Game, device: str, at: Cell) -> None:
    """A device of the raiders' going off at ``at`` in this turn's Bookkeeping."""
    o = state(game).ordnance
    o.live.append(Live(o.next_id("c"), device, at, "raiders", "kane", o.seq))
    finish_turn(game)


@pytest.mark.parametrize(("x", "destroyed"), [(23, True), (24, False)])
def test_a_charge_destroys_the_target_within_its_radius_of_two(x: int, destroyed: bool) -> None:
    # the nearest target square is (21, 4): range 2 is in the blast, 3 is not (C-28, C-156)
    game = demolish()
    blow(game, "demolition", Cell(0, x, 4))
    s = state(game)
    assert ("mast" in s.destroyed) is destroyed
    if destroyed:
        assert game.result is not None and game.result.winner == "raiders"
        assert game.result.reason == "the mast is destroyed"
        [event] = [e for e in game.log.events if e.kind == "destroyed"]
        assert event.audience is None and event.data == {"target": "mast",
                                                          "device": "demolition"}
    else:
        assert game.result is None and not events(game, "destroyed")


def test_a_satchel_destroys_it_and_a_grenade_does_not() -> None:
    game = demolish()
    blow(game, "frag", Cell(0, 20, 4))
    assert not state(game).destroyed and game.result is None
    game = demolish()
    blow(game, "satchel", Cell(0, 20, 4))
    assert state(game).destroyed == {"mast"}


def test_both_sides_know_the_targets_and_the_first_side_is_drawn_to_them() -> None:
    game = demolish()
    for side in ("raiders", "guards"):
        assert game.view(side)["public"]["mission"] == {
            "kind": "demolish",
            "targets": {"mast": {"cells": [[0, 20, 4], [0, 21, 4]], "destroyed": False}}}
    assert [0, 20, 4] in game.view("raiders")["goals"]
    assert [0, 20, 4] not in game.view("guards")["goals"]


def test_an_elimination_mission_reads_no_targets() -> None:
    game = demolish({"mission": "eliminate"})
    assert game.view("raiders")["public"]["mission"] == {"kind": "eliminate", "targets": {}}


@pytest.mark.parametrize(("old", "new", "message"), [
    ("{mission: demolish, bomb_sites: radar}", "{mission: sabotage, bomb_sites: radar}",
     "objectives.mission: unknown mission 'sabotage'"),
    ("{mission: demolish, bomb_sites: radar}", "{mission: demolish, bomb_sites: mast}",
     "objectives.bomb_sites: no zone 'mast' in map.zones"),
    ("{mission: demolish, bomb_sites: radar}", "{mission: eliminate, bomb_sites: radar}",
     "objectives.bomb_sites: bomb_sites are read by a demolish mission only"),
    ("{mission: demolish, bomb_sites: radar}", "{mission: demolish, rescue_zone: radar}",
     "objectives.rescue_zone: rescue_zone is read by a rescue mission only"),
    ("{mission: demolish, bomb_sites: radar}", "{mission: demolish, entry: radar}",
     "objectives.entry: unknown objective key 'entry'"),
])
def test_bad_objectives_are_one_problem_on_their_line(old: str, new: str, message: str) -> None:
    text = RAID.read_text(encoding="utf-8")
    assert old in text
    line = text[:text.index(old)].count("\n") + 1
    with pytest.raises(ScenarioError) as err:
        loads_scenario(text.replace(old, new), "radar.yaml")
    assert f"radar.yaml:{line}: {message}" in str(err.value)


@pytest.mark.parametrize(("x", "plants"), [(20, True), (19, False)])
def test_the_role_bot_sets_its_charge_on_the_target_only(x: int, plants: bool) -> None:
    from killhouse.ai.roles.commando import bot_for
    from killhouse.core.rng import Rng
    from killhouse.rulesets.base import Action
    from tests.rulesets.commando.arena import activate

    men = [("kane", "raiders", (x, 4), ("m16", "demolition"),
            {"man": "commando", "skills": {"demolitions": 30}}),
           ("g1", "guards", (38, 8), ("pistol",), {})]
    scenario = arena(men, zones={"mast": {Cell(0, 20, 4), Cell(0, 21, 4)}})
    scenario = replace(scenario, objectives={"mission": "demolish", "bomb_sites": "mast"})
    game = Game(scenario, seed=1)
    activate(game, "kane")
    state(game).observed["raiders"] = set()  # nobody to shoot at: the mast is his goal
    bot = bot_for(scenario, "raiders")
    actions = game.legal_actions("raiders")
    assert any(a.kind == "plant" for a in actions)
    pick: Action = bot.choose(game.view("raiders"), actions, Rng(1))
    assert (pick.kind == "plant" and pick.get("timer") == 1) is plants
    if not plants:  # off the target he steps onto it
        assert pick.kind == "step" and pick.hint["to"] == [0, 20, 4]
