"""Sound scenario files load into exactly the scenario they describe."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from killhouse.core.cells import Cell
from killhouse.core.terrain import Cover, Terrain
from killhouse.errors import ScenarioError
from killhouse.scenario.loader import check_file, load_scenario, loads_scenario
from killhouse.scenario.model import Scenario

GOOD = Path(__file__).parent / "good"
FORMAT_EXAMPLE = GOOD / "embassy.yaml"
TOWER = GOOD / "tower.yaml"


def _line(path: Path, text: str) -> int:
    """The 1-based line of the first line of ``path`` that contains ``text``."""
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if text in line:
            return number
    raise AssertionError(f"{text!r} not in {path}")


@pytest.fixture
def embassy() -> Scenario:
    return load_scenario(FORMAT_EXAMPLE)


def test_format_example_loads(embassy: Scenario) -> None:
    assert check_file(FORMAT_EXAMPLE) == []
    assert embassy.name == "Embassy Siege"
    assert embassy.ruleset == "toy"
    assert embassy.description == "Five gunmen hold four staff on the upper floor."
    assert (embassy.turn_limit, embassy.seed) == (30, 7)
    assert embassy.file == str(FORMAT_EXAMPLE)
    assert embassy.content_hash == hashlib.sha256(FORMAT_EXAMPLE.read_bytes()).hexdigest()
    assert embassy.objectives == {"mission": "hostage-rescue", "rescue_zone": "rescue"}


def test_format_example_map(embassy: Scenario) -> None:
    board = embassy.board
    assert [(lv.name, lv.width, lv.height) for lv in board.levels] == [
        ("ground", 10, 5),
        ("upper", 10, 4),
    ]
    ground = board.levels[0]
    assert ground.terrain[3, 7] == Terrain.STAIRS_UP
    assert ground.terrain[2, 5] == Terrain.DOOR_CLOSED
    assert ground.terrain[4, 3] == Terrain.WINDOW
    assert ground.terrain[4, 8] == Terrain.DOOR_CLOSED
    assert int(np.count_nonzero(ground.terrain == Terrain.FLOOR)) == 20
    assert not ground.smoke.any()
    # the stairs: '>' at ground:7,3 with '<' at upper:6,2, both ways
    assert board.stairs == {Cell(0, 7, 3): Cell(1, 6, 2), Cell(1, 6, 2): Cell(0, 7, 3)}
    assert board.zones["rescue"] == frozenset(Cell(0, x, 4) for x in range(10))
    assert board.zones["vault"] == frozenset(Cell(0, x, y) for x in (6, 7, 8) for y in (1, 2))


def test_format_example_stairs_pair_without_the_stairs_entry() -> None:
    text = FORMAT_EXAMPLE.read_text().replace(
        '  stairs:\n    - {from: "ground:7,3", to: "upper:6,2"}\n', ""
    )
    assert "stairs:" not in text
    board = loads_scenario(text).board
    assert board.stairs == {Cell(0, 7, 3): Cell(1, 6, 2), Cell(1, 6, 2): Cell(0, 7, 3)}


def test_format_example_figures_and_objects(embassy: Scenario) -> None:
    zach, gunman, clerk = embassy.figures
    assert (zach.id, zach.side, zach.kind, zach.card) == ("zach", "fbi", "operative", "zach_dante")
    assert zach.at == Cell(0, 1, 1)
    assert zach.facing == "e"
    assert zach.equipment == ("smg", "armor-2", "grenade", "grenade")
    assert not zach.hidden
    assert gunman.stats == {
        "movement": 6,
        "firearms": 7,
        "grenades": 3,
        "electronics": 2,
        "evasion": 4,
        "vitality": 3,
    }
    assert gunman.card is None and gunman.hidden and gunman.at == Cell(1, 3, 1)
    assert (clerk.kind, clerk.side, clerk.card, clerk.hidden) == (
        "hostage",
        None,
        "hostage_female",
        True,
    )
    assert [f.path for f in embassy.figures] == ["figures[0]", "figures[1]", "figures[2]"]
    (bomb,) = embassy.objects
    assert (bomb.id, bomb.type, bomb.at, bomb.path) == (
        "bomb-1",
        "bomb",
        Cell(1, 8, 1),
        "objects[0]",
    )
    assert bomb.extra == {"skill": 6, "timer": 8}
    assert [(s.id, s.name, s.controller) for s in embassy.sides] == [
        ("fbi", "FBI Hostage Rescue Unit", "human"),
        ("terrorists", "terrorists", "ai"),
    ]


def test_format_example_line_of(embassy: Scenario) -> None:
    assert embassy.line_of("figures[2].card") == _line(FORMAT_EXAMPLE, "card: hostage_female")
    assert embassy.line_of("figures[2]") == _line(FORMAT_EXAMPLE, "id: clerk")
    assert embassy.line_of("map.levels.upper") == _line(FORMAT_EXAMPLE, "upper: |")
    assert embassy.line_of("objectives.rescue_zone") == _line(FORMAT_EXAMPLE, "rescue_zone:")
    assert embassy.line_of("objects[0].timer") == _line(FORMAT_EXAMPLE, "id: bomb-1")
    # an unwritten field falls back to the nearest written one
    assert embassy.line_of("figures[1].stats.luck") == _line(FORMAT_EXAMPLE, "stats: {movement")
    assert embassy.line_of("figures[1].card") == _line(FORMAT_EXAMPLE, "id: gunman-1")
    assert embassy.line_of("no_such_section") == 1


def test_multi_level_map() -> None:
    tower = load_scenario(TOWER)
    basement, ground, roof = tower.board.levels
    assert [(lv.width, lv.height) for lv in (basement, ground, roof)] == [(6, 4), (7, 6), (7, 4)]
    # basement '>' (3,1) and ground '<' (2,1) are a lone pair; ground '>' and roof '<' share 5,1
    assert tower.board.stairs == {
        Cell(0, 3, 1): Cell(1, 2, 1),
        Cell(1, 2, 1): Cell(0, 3, 1),
        Cell(1, 5, 1): Cell(2, 5, 1),
        Cell(2, 5, 1): Cell(1, 5, 1),
    }
    assert ground.terrain[3, 1] == Terrain.DOOR_LOCKED and ground.lock[3, 1] == 5
    assert ground.terrain[3, 3] == Terrain.DOOR_OPEN
    assert ground.clutter[2, 3] == 3 and ground.terrain[2, 3] == Terrain.FLOOR
    assert int(ground.lock.sum()) == 5
    assert basement.cover[1, 1] == Cover.HEAVY and basement.cover[1, 2] == Cover.NONE
    assert [int(c) for c in roof.cover[2, 1:4]] == [Cover.LIGHT, Cover.MEDIUM, Cover.HEAVY]
    assert [Terrain(int(t)) for t in roof.terrain[2]] == [
        Terrain.OUTSIDE,
        *[Terrain.FLOOR] * 4,
        Terrain.OUTSIDE,
        Terrain.OUTSIDE,
    ]
    zones = tower.board.zones
    assert zones["cache"] == frozenset({Cell(0, 1, 1), Cell(0, 1, 2)})
    assert zones["exits"] == frozenset({Cell(1, 3, 3), Cell(1, 1, 4)})
    assert zones["roof_edge"] == frozenset({Cell(2, x, 2) for x in range(1, 5)} | {Cell(2, 0, 0)})


def test_multi_level_pieces_and_ruleset_keys() -> None:
    tower = load_scenario(TOWER)
    assert tower.options == {"night": True}
    red, blue = tower.sides
    assert (red.controller, red.extra, red.path) == ("ai:random", {"points": 100}, "sides[0]")
    assert (blue.name, blue.controller) == ("Blue Team", "human")
    alpha, bravo, vip = tower.figures
    assert (alpha.facing, alpha.extra) == ("e", {"morale": 3})
    assert bravo.at is None and bravo.name == "Bravo Two"
    assert (vip.kind, vip.facing, vip.at) == ("vip", "sw", Cell(2, 4, 2))
    assert tower.objects[0].at == Cell(2, 0, 0)  # objects may sit anywhere on the map


def test_ruleset_issues_land_on_their_lines() -> None:
    text = TOWER.read_text().replace("rescue_zone: cache", "rescue_zone: vault")
    text = text.replace("mission: sweep", "mission: loot")
    with pytest.raises(ScenarioError) as caught:
        loads_scenario(text, "tower.yaml")
    assert [str(p) for p in caught.value.problems] == [
        f"tower.yaml:{_line(TOWER, 'mission: sweep')}: objectives.mission: unknown mission 'loot'",
        f"tower.yaml:{_line(TOWER, 'rescue_zone:')}: objectives.rescue_zone: "
        "no zone 'vault' on the map",
    ]


def test_ruleset_checks_wait_for_the_core_checks() -> None:
    # a misspelt card (a ruleset issue) is not reported while a core problem stands
    text = FORMAT_EXAMPLE.read_text().replace("card: zach_dante", "card: zach_dant")
    text = text.replace("turn_limit: 30", "turn_limit: -1")
    with pytest.raises(ScenarioError) as caught:
        loads_scenario(text, "e.yaml")
    assert [p.field for p in caught.value.problems] == ["turn_limit"]
    fixed = text.replace("turn_limit: -1", "turn_limit: 3")
    with pytest.raises(ScenarioError) as caught:
        loads_scenario(fixed, "e.yaml")
    assert [str(p) for p in caught.value.problems] == [
        f"e.yaml:{_line(FORMAT_EXAMPLE, 'card: zach_dante')}: figures[0].card: "
        "no stat card 'zach_dant' in ruleset 'toy' (did you mean 'zach_dante'?)"
    ]


def test_loads_and_load_agree(embassy: Scenario) -> None:
    again = loads_scenario(FORMAT_EXAMPLE.read_bytes(), str(FORMAT_EXAMPLE))
    assert again.content_hash == embassy.content_hash
    assert again.figures == embassy.figures
    assert again.board.stairs == embassy.board.stairs
