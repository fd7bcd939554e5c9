"""Campaign rosters: load, validate with file:line, save, generate, and draw figures from them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from killhouse import rulesets
from killhouse.core.chance import SeededChance
from killhouse.core.events import EventLog
from killhouse.core.rng import Rng
from killhouse.errors import ScenarioError
from killhouse.roster.files import RosterError, dumps_roster, load_roster, loads_roster, save_roster
from killhouse.roster.generate import generate_men, parse_dice
from killhouse.roster.model import Man, Roster
from killhouse.scenario.loader import load_scenario
from tests.scenario.toy_ruleset import ToyRuleset

ROSTER = """roster: Black Dragons
ruleset: toy
men:
  - name: Kane
    characteristics: {strength: 12, dexterity: 14}
    skills: {rifle: 3}
    wounds: {light: 1}
    status: wounded
    games: 2
  - name: Ortiz
    characteristics: {strength: 10, dexterity: 9}
  - name: Webb
    characteristics: {strength: 8, dexterity: 11}
    status: dead
"""


@pytest.fixture(autouse=True)
def toy() -> Iterator[None]:
    rulesets.register("toy", f"{ToyRuleset.__module__}:ToyRuleset")
    yield
    rulesets.REGISTRY.pop("toy", None)
    rulesets._LOADED.pop("toy", None)


def test_a_roster_loads_and_round_trips() -> None:
    roster = loads_roster(ROSTER, "men.yaml")
    assert roster.name == "Black Dragons" and roster.names() == ["Kane", "Ortiz", "Webb"]
    kane = roster.man("Kane")
    assert kane.characteristics == {"strength": 12, "dexterity": 14}
    assert kane.wounds == {"light": 1} and kane.status == "wounded" and kane.games == 2
    again = loads_roster(dumps_roster(roster), "again.yaml")
    assert again == roster


def test_wounds_and_skills_carry_from_game_to_game(tmp_path: Path) -> None:
    roster = loads_roster(ROSTER, "men.yaml")
    kane = roster.man("Kane").after_game(wounds={"light": 1, "serious": 1}, skills={"rifle": 4})
    updated = roster.with_man(kane)
    path = tmp_path / "men.yaml"
    save_roster(updated, path)
    back = load_roster(path)
    assert back.man("Kane").wounds == {"light": 2, "serious": 1}
    assert back.man("Kane").skills == {"rifle": 4} and back.man("Kane").games == 3
    assert back.names() == ["Kane", "Ortiz", "Webb"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            ROSTER.replace("strength: 12", "strength: -1"),
            "men.yaml:5: men[0].characteristics.strength: expected a whole number 0 or more, "
            "found -1",
        ),
        (
            ROSTER.replace("status: wounded", "status: hurt"),
            "men.yaml:8: men[0].status: expected fit, wounded, resting, retired or dead, "
            "found 'hurt'",
        ),
        (
            ROSTER.replace("name: Ortiz", "name: Kane"),
            "men.yaml:10: men[1].name: duplicate name 'Kane': men[0] has it too",
        ),
        (
            ROSTER.replace("    games: 2\n", "    gmaes: 2\n"),
            "men.yaml:9: men[0].gmaes: unknown key",
        ),
        ("roster: x\n", "men.yaml:1: missing required key 'men'"),
    ],
)
def test_bad_rosters_get_one_clear_message_each(text: str, expected: str) -> None:
    with pytest.raises(RosterError) as caught:
        loads_roster(text, "men.yaml")
    messages = [str(p) for p in caught.value.problems]
    assert any(m.startswith(expected) or expected in m for m in messages), messages


def test_generation_is_seeded_and_every_roll_is_an_event() -> None:
    def roll(seed: int) -> tuple[list[Man], EventLog]:
        log = EventLog()
        men = generate_men(
            SeededChance(Rng.from_seed(seed), log),
            ["Able", "Baker"],
            {"strength": "3d6", "dexterity": "2d6+3"},
            {"rifle": "1d4"},
        )
        return men, log

    men, log = roll(11)
    assert men == roll(11)[0]
    assert men != roll(12)[0]
    assert [m.name for m in men] == ["Able", "Baker"]
    for man in men:
        assert 3 <= man.characteristics["strength"] <= 18
        assert 5 <= man.characteristics["dexterity"] <= 15
        assert 1 <= man.skills["rifle"] <= 4
    assert len(log.events) == 6
    assert parse_dice("2d10-1") == (2, 10, -1)
    with pytest.raises(ValueError):
        parse_dice("d6")


def scenario_text(figures: str) -> str:
    return f"""name: Patrol
ruleset: toy
roster: men.yaml
map:
  levels:
    ground: |
      ......
sides:
  - {{id: a, controller: ai}}
  - {{id: b, controller: ai}}
figures:
{figures}
  - {{id: foe, side: b, card: rookie, at: "ground:5,0"}}
"""


def test_scenario_figures_drawn_from_the_roster(tmp_path: Path) -> None:
    (tmp_path / "men.yaml").write_text(ROSTER, encoding="utf-8")
    path = tmp_path / "patrol.yaml"
    path.write_text(
        scenario_text(
            '  - {id: kane, side: a, from_roster: Kane, at: "ground:0,0"}\n'
            '  - {id: second, side: a, from_roster: next, at: "ground:1,0"}\n'
        ),
        encoding="utf-8",
    )
    scen = load_scenario(path)
    kane = scen.figure("kane")
    assert kane.name == "Kane" and kane.stats == {"strength": 12, "dexterity": 14}
    assert kane.extra["wounds"] == {"light": 1} and kane.extra["skills"] == {"rifle": 3}
    # "next" skips the men already drawn and the dead
    assert scen.figure("second").name == "Ortiz"


@pytest.mark.parametrize(
    ("figures", "expected"),
    [
        ('  - {id: w, side: a, from_roster: Webb, at: "ground:0,0"}\n', "'Webb' is dead"),
        ('  - {id: k, side: a, from_roster: Kain, at: "ground:0,0"}\n', "did you mean 'Kane'?"),
        (
            '  - {id: k, side: a, from_roster: Kane, at: "ground:0,0"}\n'
            '  - {id: k2, side: a, from_roster: Kane, at: "ground:1,0"}\n',
            "'Kane' is drawn already by figures[0]",
        ),
        (
            '  - {id: a1, side: a, from_roster: next, at: "ground:0,0"}\n'
            '  - {id: a2, side: a, from_roster: next, at: "ground:1,0"}\n'
            '  - {id: a3, side: a, from_roster: next, at: "ground:2,0"}\n',
            "every man of roster 'Black Dragons' is drawn already",
        ),
    ],
)
def test_bad_roster_picks_are_reported_on_their_line(
    tmp_path: Path, figures: str, expected: str
) -> None:
    (tmp_path / "men.yaml").write_text(ROSTER, encoding="utf-8")
    path = tmp_path / "patrol.yaml"
    path.write_text(scenario_text(figures), encoding="utf-8")
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    messages = [str(p) for p in caught.value.problems]
    assert any(expected in m and "patrol.yaml:1" in m for m in messages), messages


def test_a_broken_roster_file_is_reported_from_the_scenario(tmp_path: Path) -> None:
    (tmp_path / "men.yaml").write_text(ROSTER.replace("strength: 12", "strength: x"), "utf-8")
    path = tmp_path / "patrol.yaml"
    path.write_text(
        scenario_text('  - {id: k, side: a, from_roster: Kane, at: "ground:0,0"}\n'), "utf-8"
    )
    with pytest.raises(ScenarioError) as caught:
        load_scenario(path)
    text = str(caught.value)
    assert "patrol.yaml:3: roster: the roster file has a problem:" in text
    assert "men.yaml:5: men[0].characteristics.strength" in text
    assert Roster("x").men == ()
