"""The joke auxiliary abilities (digest 12.3, ruling C-47): rolled at creation only when the
player asks, 1d5 in chart order; Dry Humour counts in play only with ``options.joke_abilities``."""

from __future__ import annotations

import dataclasses
import math
from collections import Counter

import pytest

from killhouse.core.chance import SeededChance
from killhouse.core.events import EventLog
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.errors import ScenarioError
from killhouse.roster.model import Man
from killhouse.roster.rules import NewMen
from killhouse.rulesets.commando import morale, panic
from killhouse.rulesets.commando.campaign.rules import CommandoCampaign
from killhouse.rulesets.commando.tables import tables
from killhouse.scenario.loader import loads_scenario

CHART = ("chest_pounding", "dry_humour", "battle_yelling", "beret_wearing", "cigar_chomping")


def roll(seed: int, jokes: bool, commandos: int = 2, grunts: int = 2) -> tuple[list[Man], EventLog]:
    log = EventLog()
    men = CommandoCampaign().new_men(SeededChance(Rng.from_seed(seed), log),
                                     NewMen({"commando": commandos, "grunt": grunts},
                                            jokes=jokes))
    return list(men), log


def test_the_chart_is_the_digests_in_its_order() -> None:
    assert tables().auxiliary == CHART


def test_no_joke_unless_the_player_asks() -> None:
    men, log = roll(3, jokes=False)
    assert all("auxiliary" not in m.figure for m in men)
    assert not any("auxiliary" in str(e.to_json()) for e in log.events)


def test_each_commando_rolls_one_and_no_grunt_does() -> None:
    men, log = roll(3, jokes=True)
    commandos = [m for m in men if m.figure["man"] == "commando"]
    grunts = [m for m in men if m.figure["man"] == "grunt"]
    assert len(commandos) == 2 and len(grunts) == 2
    assert all(m.figure["auxiliary"] in CHART for m in commandos)
    assert all("auxiliary" not in m.figure for m in grunts)
    rolls = [e for e in log.events if "auxiliary" in str(e.to_json())]
    assert len(rolls) == 2  # every roll an event
    again, _ = roll(3, jokes=True)
    assert [m.figure for m in again] == [m.figure for m in men]  # same seed, same men


def test_the_d5_is_uniform_over_the_chart() -> None:
    counts: Counter[str] = Counter()
    n = 2000
    for seed in range(n // 4):
        men, _ = roll(seed, jokes=True, commandos=4, grunts=0)
        counts.update(m.figure["auxiliary"] for m in men)
    assert set(counts) == set(CHART)
    sd = math.sqrt(n * 0.2 * 0.8)
    for name in CHART:
        assert abs(counts[name] - n / 5) < 4 * sd, (name, counts)


def scenario(jokes: str, aux: str) -> str:
    return f"""
name: jokes
ruleset: commando
{jokes}
map:
  levels:
    ground: |
      ..............................
      ..............................
sides:
  - {{id: raiders, name: R, controller: ai}}
  - {{id: guards, name: G, controller: ai}}
figures:
  - {{id: kane, side: raiders, at: "ground:0,1", equipment: [m16], man: commando, {aux}
     stats: {{st: 17, mk: 22, dex: 18, end: 19, lead: 12, hero: 22}}}}
  - {{id: bird, side: raiders, at: "ground:5,1", equipment: [m16], man: grunt, leader: kane,
     stats: {{st: 15, mk: 18, dex: 15, end: 16}}}}
  - {{id: g1, side: guards, at: "ground:28,1", equipment: [pistol],
     stats: {{st: 13, mk: 13, dex: 13, end: 13}}}}
"""


@pytest.mark.parametrize(("jokes", "aux", "humour"), [
    ("options: {joke_abilities: true}", "auxiliary: dry_humour,", True),
    ("options: {joke_abilities: false}", "auxiliary: dry_humour,", False),
    ("", "auxiliary: dry_humour,", False),
    ("options: {joke_abilities: true}", "auxiliary: battle_yelling,", False),
    ("options: {joke_abilities: true}", "", False),
])
def test_dry_humour_takes_2_off_his_grunts_panic(jokes: str, aux: str, humour: bool) -> None:
    game = Game(loads_scenario(scenario(jokes, aux), "jokes.yaml"), seed=1)
    state = game.state
    bird = state.men["bird"]
    situation = morale.panic_situation(state, bird)
    assert situation.dry_humour is humour
    plain = panic.panic_chance(dataclasses.replace(situation, dry_humour=False))
    assert panic.panic_chance(situation) == plain - (2 if humour else 0)
    # never the man himself: a Commando's own panic is not eased by his own joke
    assert morale.panic_situation(state, state.men["kane"]).dry_humour is False


def test_a_joke_option_that_is_not_true_or_false_is_one_problem_on_its_line() -> None:
    text = scenario("options: {joke_abilities: 3}", "auxiliary: dry_humour,")
    with pytest.raises(ScenarioError) as err:
        Game(loads_scenario(text, "jokes.yaml"), seed=1)
    assert "options.joke_abilities" in str(err.value)
    assert "jokes.yaml:4" in str(err.value)


def test_an_unknown_auxiliary_ability_gets_a_hint() -> None:
    text = scenario("", "auxiliary: dry_humor,")
    with pytest.raises(ScenarioError) as err:
        Game(loads_scenario(text, "jokes.yaml"), seed=1)
    assert "unknown auxiliary ability 'dry_humor'" in str(err.value)
    assert "dry_humour" in str(err.value)
