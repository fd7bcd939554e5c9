"""Hostages on the map and the rescue mission in play: taking charge (5 TP, on or next to
him), walking him out to the rescue zone, seeing him like any man, losing him when the escort
falls, a defender's fire at a held hostage, and who wins (rulings C-170 … C-176)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from killhouse.core.cells import Cell
from killhouse.engine.game import Game
from killhouse.errors import ScenarioError
from killhouse.rulesets.base import Action
from killhouse.scenario.loader import loads_scenario
from killhouse.scenario.model import FigureSpec
from tests.rulesets.commando.arena import (
    activate,
    arena,
    events,
    hold_windows,
    kinds,
    registered,
    state,
)
from tests.rulesets.commando.test_ordnance import finish_turn

pytestmark = pytest.mark.usefixtures(registered.__name__)

EMBASSY = Path(__file__).parents[3] / "scenarios" / "commando" / "embassy_rescue.yaml"
#: the rescue zone: the first two columns of the arena
OUT = {Cell(0, x, y) for x in (0, 1) for y in range(9)}


def rescue(hostages: dict[str, tuple[int, int]], *, kane: tuple[int, int] = (5, 4),
           guard: tuple[int, int] = (38, 8), light: str = "day",
           walls: tuple[tuple[int, int], ...] = ()) -> Game:
    """Kane (raider) and one guard on the open arena; hostages where given."""
    men = [("kane", "raiders", kane, ("m16",), {"man": "commando"}),
           ("g1", "guards", guard, ("pistol",), {})]
    scenario = arena(men, zones={"out": OUT}, light=light, walls=walls, turn_limit=6)
    figures = [*scenario.figures, *(
        FigureSpec(h, None, "hostage", f"figures[{9 + i}]", at=Cell(0, x, y))
        for i, (h, (x, y)) in enumerate(sorted(hostages.items())))]
    scenario = replace(scenario, figures=figures,
                       objectives={"mission": "rescue", "rescue_zone": "out"})
    return Game(scenario, seed=1)


def step(game: Game, figure: str, direction: str) -> None:
    side = state(game).men[figure].side
    game.apply(Action.make(side, "step", figure=figure, dir=direction))
    hold_windows(game)


@pytest.mark.parametrize(("at", "offered"), [((5, 4), True), ((6, 4), True), ((6, 5), True),
                                             ((7, 4), False), ((7, 6), False)])
def test_a_raider_takes_charge_of_a_hostage_on_or_next_to_his_square(
        at: tuple[int, int], offered: bool) -> None:
    game = rescue({"h1": at})
    activate(game, "kane")
    assert bool(kinds(game, "raiders").get("lead")) is offered
    assert not kinds(game, "guards").get("lead")


@pytest.mark.parametrize(("tp", "offered"), [(5, True), (4, False)])
def test_taking_charge_costs_five_tp(tp: int, offered: bool) -> None:
    game = rescue({"h1": (6, 4)})
    activate(game, "kane")
    state(game).men["kane"].tp = tp
    assert bool(kinds(game, "raiders").get("lead")) is offered
    if offered:
        game.apply(Action.make("raiders", "lead", figure="kane", hostage="h1"))
        assert state(game).men["kane"].tp == 0
        assert state(game).hostages["h1"].status == "led"


def test_not_with_an_enemy_in_action_on_his_square() -> None:
    game = rescue({"h1": (6, 4)}, guard=(6, 4))
    activate(game, "kane")
    assert not kinds(game, "raiders").get("lead")
    state(game).men["g1"].kill()
    assert kinds(game, "raiders").get("lead")


def test_a_led_hostage_walks_with_him_and_is_rescued_in_the_zone() -> None:
    game = rescue({"h1": (3, 4), "h2": (30, 4)}, kane=(3, 4))
    s = state(game)
    activate(game, "kane")
    game.apply(Action.make("raiders", "lead", figure="kane", hostage="h1"))
    hold_windows(game)
    step(game, "kane", "w")
    assert s.hostages["h1"].at == Cell(0, 2, 4) and s.hostages["h1"].status == "led"
    assert not events(game, "rescued")
    step(game, "kane", "w")  # (1, 4): inside the zone
    assert s.hostages["h1"].status == "rescued"
    [event] = [e for e in game.log.events if e.kind == "rescued"]
    assert event.audience is None and event.data == {"hostage": "h1"}
    assert game.result is None  # h2 is still held


def test_every_hostage_out_wins_and_the_captors_down_do_not() -> None:
    game = rescue({"h1": (3, 4)}, kane=(3, 4))
    s = state(game)
    s.men["g1"].kill()
    activate(game, "kane")
    assert game.result is None  # ruling C-175: the hostage is not out yet
    game.apply(Action.make("raiders", "lead", figure="kane", hostage="h1"))
    hold_windows(game)
    step(game, "kane", "w")
    assert game.result is None
    step(game, "kane", "w")
    assert game.result is not None and game.result.winner == "raiders"
    assert game.result.reason == "1 of 1 hostages rescued"


def test_an_escort_who_falls_lets_go_of_his_hostage() -> None:
    game = rescue({"h1": (5, 4)})
    s = state(game)
    activate(game, "kane")
    game.apply(Action.make("raiders", "lead", figure="kane", hostage="h1"))
    hold_windows(game)
    step(game, "kane", "w")
    s.men["kane"].damage = s.men["kane"].end0()  # incapacitated
    finish_turn(game)
    h = s.hostages["h1"]
    assert (h.status, h.escort, h.at) == ("held", None, Cell(0, 4, 4))
    assert events(game, "let-go") == [{"hostage": "h1", "at": [0, 4, 4]}]


@pytest.mark.parametrize(("dx", "seen"), [(25, True), (26, False)])
def test_a_hostage_is_seen_within_observation_range_only(dx: int, seen: bool) -> None:
    # Clear weather at dusk: observation range 25 (digest 6.1, ruling C-171)
    game = rescue({"h1": (5 + dx, 4)}, light="dusk")
    view = game.view("raiders")["hostages"]
    assert bool(view) is seen
    if seen:
        assert view == [{"id": "h1", "at": [0, 5 + dx, 4], "status": "held", "escort": None,
                         "seen": True}]


def test_a_wall_hides_a_hostage_and_the_last_sighting_is_remembered() -> None:
    from killhouse.rulesets.commando.flow import note_sightings

    wall = tuple((8, y) for y in range(9))
    game = rescue({"h1": (10, 4)}, walls=wall, guard=(12, 4))
    s = state(game)
    assert game.view("raiders")["hostages"] == []
    assert game.view("guards")["hostages"][0]["at"] == [0, 10, 4]
    s.pos["kane"] = Cell(0, 9, 1)  # on the hostage's side of the wall
    note_sightings(s)
    assert game.view("raiders")["hostages"][0]["seen"] is True
    s.pos["kane"] = Cell(0, 5, 4)  # behind it again
    note_sightings(s)
    assert game.view("raiders")["hostages"] == [
        {"id": "h1", "at": [0, 10, 4], "status": "held", "turn": 1, "seen": False}]


@pytest.mark.parametrize(("at", "offered"), [((37, 8), True), ((36, 8), False)])
def test_a_guard_may_fire_at_a_held_hostage_next_to_him(at: tuple[int, int],
                                                       offered: bool) -> None:
    game = rescue({"h1": at})
    activate(game, "g1")
    assert bool(kinds(game, "guards").get("execute")) is offered
    assert not kinds(game, "raiders").get("execute")


@pytest.mark.parametrize(("tp", "offered"), [(7, True), (6, False)])
def test_the_guard_pays_his_weapons_fire_cost(tp: int, offered: bool) -> None:
    game = rescue({"h1": (37, 8)})
    activate(game, "g1")
    state(game).men["g1"].tp = tp
    assert bool(kinds(game, "guards").get("execute")) is offered


def test_the_shot_is_one_d100_against_the_range_one_band_and_every_death_loses() -> None:
    game = rescue({"h1": (37, 8)}, light="night")
    s = state(game)
    activate(game, "g1")
    game.apply(Action.make("guards", "execute", figure="g1", hostage="h1"))
    hold_windows(game)
    [shot] = events(game, "execute")
    assert shot["chance"] == 90  # pistol, range 0-1
    assert shot["killed"] is (shot["roll"] <= 90)
    assert s.hostages["h1"].status == ("dead" if shot["killed"] else "held")
    # at night, 32 squares out of the raiders' sight: the shot is the guards' alone
    [event] = [e for e in game.log.events if e.kind == "execute"]
    assert event.audience == frozenset({"guards"})
    if shot["killed"]:
        assert game.result is not None and game.result.winner == "guards"
        assert game.result.reason == "every hostage is dead"


def test_a_led_hostage_is_not_fired_at() -> None:
    game = rescue({"h1": (6, 4)}, guard=(7, 4))
    activate(game, "kane")
    game.apply(Action.make("raiders", "lead", figure="kane", hostage="h1"))
    hold_windows(game)
    game.apply(Action.make("raiders", "end"))
    hold_windows(game)
    activate(game, "g1")
    assert not kinds(game, "guards").get("execute")


@pytest.mark.parametrize(("old", "new", "message"), [
    ("objectives: {mission: rescue, rescue_zone: garden_gate, hostage_location: delegation}",
     "objectives: {mission: rescue, hostage_location: delegation}",
     "objectives: a rescue mission names its rescue_zone"),
    ("objectives: {mission: rescue, rescue_zone: garden_gate, hostage_location: delegation}",
     "objectives: {mission: eliminate}",
     "figures[9]: hostages play in a rescue mission only"),
    ("objectives: {mission: rescue, rescue_zone: garden_gate, hostage_location: delegation}",
     "objectives: {mission: rescue, rescue_zone: gate, hostage_location: delegation}",
     "objectives.rescue_zone: no zone 'gate' in map.zones"),
    ("objectives: {mission: rescue, rescue_zone: garden_gate, hostage_location: delegation}",
     "objectives: {mission: eliminate, rescue_zone: garden_gate}",
     "objectives.rescue_zone: rescue_zone is read by a rescue mission only"),
])
def test_bad_rescue_objectives_are_one_problem(old: str, new: str, message: str) -> None:
    text = EMBASSY.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(ScenarioError) as err:
        loads_scenario(text.replace(old, new), "embassy.yaml")
    assert message in str(err.value)


def test_a_rescue_needs_hostages() -> None:
    text = EMBASSY.read_text(encoding="utf-8")
    cut = text[:text.index("  - {id: h1, kind: hostage")]
    with pytest.raises(ScenarioError) as err:
        loads_scenario(cut, "embassy.yaml")
    assert "figures: a rescue mission needs hostages" in str(err.value)


def test_the_role_ai_leads_the_hostages_out_of_the_embassy() -> None:
    from killhouse.ai.registry import bot_for
    from killhouse.core.rng import Rng
    from killhouse.scenario.loader import load_scenario

    scenario = load_scenario(EMBASSY)
    rescued = 0
    for seed in (1, 2):
        game = Game(scenario, seed)
        bots = {s: bot_for(scenario, s) for s in scenario.side_ids()}
        rng = Rng.from_seed(seed)
        while game.pending():
            side = game.pending()[0].side
            game.apply(bots[side].choose(game.view(side), game.legal_actions(side), rng))
        assert game.result is not None and game.result.reason
        rescued += len(events(game, "rescued"))
        assert events(game, "lead")
    assert rescued >= 2


# -- captors lead hostages too (ruling C-192) ----------------------------------------------


@pytest.mark.parametrize(("at", "offered"), [((38, 8), True), ((37, 7), True),
                                             ((36, 8), False)])
def test_a_captor_takes_charge_of_a_held_hostage_on_or_next_to_him(
        at: tuple[int, int], offered: bool) -> None:
    game = rescue({"h1": at})
    activate(game, "g1")
    assert bool(kinds(game, "guards").get("lead")) is offered
    assert not kinds(game, "raiders").get("lead")


@pytest.mark.parametrize(("tp", "offered"), [(5, True), (4, False)])
def test_a_captor_pays_five_tp(tp: int, offered: bool) -> None:
    game = rescue({"h1": (37, 8)})
    activate(game, "g1")
    state(game).men["g1"].tp = tp
    assert bool(kinds(game, "guards").get("lead")) is offered


def test_a_captor_walks_his_hostage_away_and_the_raiders_cannot_take_him() -> None:
    game = rescue({"h1": (6, 4)}, guard=(7, 4))
    s = state(game)
    activate(game, "g1")
    game.apply(Action.make("guards", "lead", figure="g1", hostage="h1"))
    hold_windows(game)
    assert (s.hostages["h1"].status, s.hostages["h1"].escort) == ("led", "g1")
    step(game, "g1", "e")
    assert s.hostages["h1"].at == Cell(0, 8, 4)
    # the raiders see him led, not by whom (C-171)
    [seen] = game.view("raiders")["hostages"]
    assert seen["status"] == "led" and seen["escort"] is None
    assert game.view("guards")["hostages"][0]["escort"] == "g1"
    # he may still be shot by his own captor (C-173, C-192)
    assert [a.get("hostage") for a in kinds(game, "guards")["execute"]] == ["h1"]
    game.apply(Action.make("guards", "end"))
    hold_windows(game)
    activate(game, "kane")
    assert not kinds(game, "raiders").get("lead")


def test_a_captor_in_the_rescue_zone_rescues_nobody() -> None:
    game = rescue({"h1": (3, 4)}, guard=(3, 5))
    s = state(game)
    activate(game, "g1")
    game.apply(Action.make("guards", "lead", figure="g1", hostage="h1"))
    hold_windows(game)
    step(game, "g1", "w")
    step(game, "g1", "w")  # (1, 5): in the zone
    assert s.hostages["h1"].status == "led" and game.result is None
    assert not events(game, "rescued")


def test_a_captor_caught_in_hand_to_hand_lets_go() -> None:
    game = rescue({"h1": (6, 4)}, guard=(7, 4))
    s = state(game)
    activate(game, "g1")
    game.apply(Action.make("guards", "lead", figure="g1", hostage="h1"))
    hold_windows(game)
    game.apply(Action.make("guards", "end"))
    hold_windows(game)
    activate(game, "kane")
    step(game, "kane", "e")
    step(game, "kane", "e")  # into g1's square: engaged (C-37)
    assert s.men["g1"].engaged
    h = s.hostages["h1"]
    assert (h.status, h.escort, h.at) == ("held", None, Cell(0, 7, 4))


def test_the_role_ai_of_the_captors_leads_nobody() -> None:
    from killhouse.ai.registry import bot_for
    from killhouse.core.rng import Rng

    game = rescue({"h1": (37, 8)})
    activate(game, "g1")
    actions = game.legal_actions("guards")
    assert any(a.kind == "lead" for a in actions)
    bot = bot_for(game.scenario, "guards")
    assert bot.choose(game.view("guards"), actions, Rng.from_seed(1)).kind != "lead"
