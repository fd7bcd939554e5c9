"""Right Place at Right Time (digest 12.2; ruling C-193): once a mission a Commando with the
ability reveals to his side alone where a hostage the scenario names is now, for no TP."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from killhouse.core.cells import Cell
from killhouse.engine.game import Game
from killhouse.errors import ScenarioError
from killhouse.rulesets.base import Action
from killhouse.scenario.loader import loads_scenario
from killhouse.scenario.model import FigureSpec
from tests.rulesets.commando.arena import activate, arena, kinds, registered, state

pytestmark = pytest.mark.usefixtures(registered.__name__)

EMBASSY = Path(__file__).parents[3] / "scenarios" / "commando" / "embassy_rescue.yaml"
OUT = {Cell(0, x, y) for x in (0, 1) for y in range(9)}
GIFTED = {"man": "commando", "stats": {"hero": 25}, "abilities": ["right_place_right_time"]}


def game_of(held: dict[str, tuple[int, int]], reveals: Any = ("h1",), *,
            gifted: bool = True) -> Game:
    """Kane (with the ability) and a guard at night (observation range 12)."""
    men = [("kane", "raiders", (2, 4), ("m16",), GIFTED if gifted else {"man": "commando"}),
           ("g1", "guards", (38, 8), ("pistol",), {})]
    options = {} if reveals is None else {"right_place": list(reveals)}
    scenario = arena(men, zones={"out": OUT}, light="night", turn_limit=6, options=options)
    figures = [*scenario.figures, *(
        FigureSpec(h, None, "hostage", f"figures[{9 + i}]", at=Cell(0, x, y))
        for i, (h, (x, y)) in enumerate(sorted(held.items())))]
    scenario = replace(scenario, figures=figures,
                       objectives={"mission": "rescue", "rescue_zone": "out"})
    return Game(scenario, seed=1)


def test_it_reveals_the_hostage_to_his_side_alone_for_no_tp() -> None:
    game = game_of({"h1": (30, 4)})
    s = state(game)
    assert game.view("raiders")["hostages"] == []
    guards_before = game.view("guards")
    activate(game, "kane")
    tp = s.men["kane"].tp
    [offer] = kinds(game, "raiders")["right_place"]
    start = len(game.log.events)
    game.apply(offer)
    assert s.men["kane"].tp == tp and s.tasks_done == 0  # no TP, no task
    assert game.view("raiders")["hostages"] == [
        {"id": "h1", "at": [0, 30, 4], "status": "held", "turn": 1, "seen": False}]
    [event] = [e for e in game.log.events[start:] if e.kind == "right-place"]
    assert event.audience == frozenset({"raiders"})
    assert event.data == {"figure": "kane", "hostage": "h1", "at": [0, 30, 4],
                          "status": "held"}
    # leak check: the guards learn nothing of it, in their events or their view
    assert all(e.for_side("guards") is None for e in game.log.events[start:])
    after = game.view("guards")
    assert after["hostages"] == guards_before["hostages"]
    assert "right_place" not in kinds(game, "raiders")  # once a mission
    assert "right_place" not in kinds(game, "guards")


def test_it_reveals_the_first_named_hostage_his_side_does_not_see() -> None:
    game = game_of({"h1": (5, 4), "h2": (30, 4)}, reveals=("h1", "h2"))
    activate(game, "kane")
    game.apply(Action.make("raiders", "right_place", figure="kane"))
    [event] = [e for e in game.log.events if e.kind == "right-place"]
    assert event.data["hostage"] == "h2"  # h1 is in sight already


def test_a_led_hostage_is_shown_where_he_is_now() -> None:
    game = game_of({"h1": (30, 4)})
    s = state(game)
    s.pos["g1"] = Cell(0, 31, 4)
    s.hostages["h1"].status, s.hostages["h1"].escort = "led", "g1"
    activate(game, "kane")
    game.apply(Action.make("raiders", "right_place", figure="kane"))
    [seen] = game.view("raiders")["hostages"]
    assert seen["at"] == [0, 31, 4] and seen["status"] == "led"
    assert "escort" not in seen


def test_not_offered_without_the_ability_or_the_scenarios_object() -> None:
    for game in (game_of({"h1": (30, 4)}, gifted=False), game_of({"h1": (30, 4)}, None)):
        activate(game, "kane")
        assert "right_place" not in kinds(game, "raiders")
        with pytest.raises(Exception, match="not"):
            game.apply(Action.make("raiders", "right_place", figure="kane"))


def test_not_offered_once_every_named_hostage_is_rescued() -> None:
    game = game_of({"h1": (30, 4), "h2": (31, 4)})
    state(game).hostages["h1"].status = "rescued"
    activate(game, "kane")
    assert "right_place" not in kinds(game, "raiders")


@pytest.mark.parametrize(("value", "message"), [
    ("h9", "options.right_place: no hostage 'h9' among the figures"),
    ("[h1, k9]", "options.right_place: no hostage 'k9' among the figures"),
    ("[]", "options.right_place: must name the hidden objects it reveals"),
    ("{h1: 1}", "options.right_place: must name the hidden objects it reveals"),
])
def test_a_bad_right_place_key_is_one_problem(value: str, message: str) -> None:
    text = EMBASSY.read_text(encoding="utf-8")
    old = "options: {weather: clear, light: dusk,"
    assert old in text
    with pytest.raises(ScenarioError) as err:
        loads_scenario(text.replace(old, old + f" right_place: {value},"), "embassy.yaml")
    assert message in str(err.value)
    assert len(str(err.value).strip().splitlines()) == 1
    good = loads_scenario(text.replace(old, old + " right_place: [h2, h1],"), "embassy.yaml")
    assert good.options["right_place"] == ["h2", "h1"]
