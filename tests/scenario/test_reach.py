"""The sealed-room warning: a side that can reach no objective, object or other figure."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.scenario import limits
from killhouse.scenario.loader import check_file_with_warnings, loads_scenario
from killhouse.scenario.reach import objective_zones, sealed_sides

#: two rooms; the middle wall cell of row 2 is the symbol under test
TEMPLATE = """name: Two rooms
ruleset: toy
map:
  legend:
    "D": {{terrain: door, state: locked, lock: 9}}
  levels:
    ground: |
      ###########
      #...#.....#
      #...{gap}.....#
      #...#.....#
      ###########
  zones:
    goal: ["ground:8,1-9,3"]
    home: ["ground:1,1-3,3"]
sides:
  - id: fbi
  - id: terrorists
figures:
  - {{id: zach, side: fbi, card: rookie, at: "ground:2,2"}}
{others}objectives:
  mission: sweep
  rescue_zone: {goal}
"""


def _warnings(gap: str, others: str = "", goal: str = "goal") -> list[str]:
    text = TEMPLATE.format(gap=gap, others=others, goal=goal)
    return [str(w) for w in sealed_sides(loads_scenario(text, "s.yaml"))]


SEALED = (
    "s.yaml:17: sides[0]: warning: side 'fbi' can never reach an objective, an object or "
    "another side's figure: its figures at ground:2,2 are sealed in (even with every door open "
    "and every window climbable; the game could only end by its turn limit)"
)


@pytest.mark.parametrize(("gap", "sealed"), [("#", True), ("D", False), ("+", False), ("=", False)])
def test_a_wall_seals_a_room_a_door_or_window_does_not(gap: str, sealed: bool) -> None:
    assert _warnings(gap) == ([SEALED] if sealed else [])


def test_an_enemy_in_reach_is_enough() -> None:
    enemy = '  - {id: gunman, side: terrorists, card: rookie, at: "ground:3,3"}\n'
    # the goal is sealed off, but the gunman shares the fbi's room: neither side is sealed
    assert _warnings("#", enemy) == []


def test_the_zone_a_side_starts_in_is_not_its_goal() -> None:
    enemy = '  - {id: gunman, side: terrorists, card: rookie, at: "ground:7,2"}\n'
    # "home" holds the fbi figure, so it counts for the terrorists only (who cannot reach it)
    sealed_in_too = (
        SEALED.replace("17: sides[0]", "18: sides[1]")
        .replace("side 'fbi'", "side 'terrorists'")
        .replace("ground:2,2", "ground:7,2")
    )
    assert _warnings("#", enemy, goal="home") == [SEALED, sealed_in_too]


def test_nothing_to_reach_is_no_warning() -> None:
    # with no other figure, object or objective zone there is nothing to judge
    assert _warnings("#", goal="home") == []


def test_objective_zones_are_the_zones_the_objectives_name() -> None:
    objectives = {"mission": "sweep", "entry": "street", "extra": ["kerb", 3], "n": 4}
    assert objective_zones(objectives, ["street", "kerb", "hall"]) == {"street", "kerb"}


def test_validate_prints_the_warning_and_exits_0(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from killhouse.cli import app

    path = tmp_path / "s.yaml"
    path.write_text(TEMPLATE.format(gap="#", others="", goal="goal"))
    problems, warnings = check_file_with_warnings(path)
    assert problems == [] and len(warnings) == 1
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0
    assert result.output == SEALED.replace("s.yaml", str(path)) + "\nok\n"


@pytest.mark.parametrize(("turns", "ok"), [(limits.MAX_TURN_LIMIT, True), (201, False)])
def test_turn_limit_maximum(turns: int, ok: bool) -> None:
    text = TEMPLATE.format(gap="+", others="", goal="goal") + f"turn_limit: {turns}\n"
    if ok:
        assert loads_scenario(text).turn_limit == turns
    else:
        with pytest.raises(Exception, match="expected a number of turns from 1 to 200"):
            loads_scenario(text)
