"""Cell layers a ruleset declares, set by legend symbols and checked like every field."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import ClassVar

import numpy as np
import pytest

from killhouse import rulesets
from killhouse.core.cells import Cell
from killhouse.core.layers import EDGE_BITS, LayerSpec, LayerValueError, edge_crossed
from killhouse.errors import ScenarioError
from killhouse.scenario.loader import loads_scenario
from tests.scenario.toy_ruleset import ToyRuleset


class LayeredToy(ToyRuleset):
    id: ClassVar[str] = "toy-layers"
    layers: ClassVar[Mapping[str, LayerSpec]] = {
        "elevation": LayerSpec("elevation", "number", 0, 9, help="hill height in levels"),
        "ground": LayerSpec("ground", "name", names=("woods", "road", "rubble")),
        "fence": LayerSpec("fence", "edges"),
    }


@pytest.fixture(autouse=True)
def layered() -> Iterator[None]:
    rulesets.register("toy-layers", f"{__name__}:LayeredToy")
    yield
    rulesets.REGISTRY.pop("toy-layers", None)
    rulesets._LOADED.pop("toy-layers", None)


def scenario(legend: str) -> str:
    return f"""name: Hill
ruleset: toy-layers
map:
  legend:
{legend}
  levels:
    ground: |
      .^^r
      .Tfr
sides:
  - {{id: a, controller: ai}}
  - {{id: b, controller: ai}}
figures:
  - {{id: x, side: a, card: rookie, at: "ground:0,0"}}
  - {{id: y, side: b, card: rookie, at: "ground:0,1"}}
"""


GOOD = """    "^": {terrain: floor, elevation: 2}
    "T": {terrain: floor, ground: woods, elevation: 1}
    "r": {terrain: floor, ground: road}
    "f": {terrain: floor, fence: [e, n]}
"""


def test_legend_sets_the_declared_layers() -> None:
    scen = loads_scenario(scenario(GOOD), "hill.yaml")
    level = scen.board.levels[0]
    assert level.layers["elevation"].tolist() == [[0, 2, 2, 0], [0, 1, 0, 0]]
    spec = LayeredToy.layers["ground"]
    assert [spec.decode(v) for v in level.layers["ground"][1].tolist()] == [
        None,
        "woods",
        None,
        "road",
    ]
    assert level.layers["fence"][1, 2] == EDGE_BITS["e"] | EDGE_BITS["n"]
    fence = level.layers["fence"]
    assert edge_crossed(fence, (2, 1), (3, 1))  # its east edge
    assert edge_crossed(fence, (2, 0), (2, 1))  # its north edge, crossed from the north
    assert not edge_crossed(fence, (1, 1), (2, 1))  # west edge: open


def test_layers_travel_with_copies_and_change_the_fingerprint() -> None:
    board = loads_scenario(scenario(GOOD), "hill.yaml").board
    copy = board.copy()
    assert (
        copy.levels[0].layers["elevation"].tolist() == board.levels[0].layers["elevation"].tolist()
    )
    copy.levels[0].layers["elevation"][0, 0] = 5
    assert board.levels[0].layers["elevation"][0, 0] == 0  # a deep copy
    assert copy.fingerprint() != board.fingerprint()


def test_a_board_without_layers_keeps_its_old_fingerprint() -> None:
    board = loads_scenario(
        scenario(
            '    "^": {terrain: floor}\n    "T": {terrain: floor}\n'
            '    "r": {terrain: floor}\n    "f": {terrain: floor}\n'
        ),
        "flat.yaml",
    ).board
    assert all(len(record) == 2 for record in board.fingerprint())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("legend", "expected"),
    [
        (
            '    "^": {terrain: floor, elevation: 10}\n',
            "hill.yaml:5: map.legend.^.elevation: expected 0 to 9, found 10 (hill height in "
            "levels)",
        ),
        (
            '    "^": {terrain: floor, ground: swamp}\n',
            "hill.yaml:5: map.legend.^.ground: expected one of woods, road, rubble, found 'swamp'",
        ),
        (
            '    "^": {terrain: floor, fence: [up]}\n',
            "hill.yaml:5: map.legend.^.fence: expected a list of sides among n, e, s, w",
        ),
        ('    "^": {terrain: floor, elevaton: 1}\n', "did you mean 'elevation'?"),
    ],
)
def test_bad_layer_values_get_file_line_field_messages(legend: str, expected: str) -> None:
    text = scenario(
        legend + '    "T": {terrain: floor}\n    "r": {terrain: floor}\n    "f": {terrain: floor}\n'
    )
    with pytest.raises(ScenarioError) as caught:
        loads_scenario(text, "hill.yaml")
    messages = [str(p) for p in caught.value.problems]
    assert any(expected in m for m in messages), messages


def test_layer_keys_are_unknown_to_rulesets_that_do_not_declare_them() -> None:
    text = scenario(GOOD).replace("toy-layers", "toy")
    with pytest.raises(ScenarioError) as caught:
        loads_scenario(text, "hill.yaml")
    assert any("unknown key 'elevation'" in str(p) for p in caught.value.problems)


def test_layer_spec_edges() -> None:
    number = LayerSpec("h", "number", 0, 3)
    assert number.encode(3) == 3
    with pytest.raises(LayerValueError):
        number.encode(4)
    with pytest.raises(LayerValueError):
        number.encode(True)
    with pytest.raises(ValueError):
        LayerSpec("k", "name")
    with pytest.raises(ValueError):
        LayerSpec("k", "colour")
    assert LayerSpec("f", "edges").decode(5) == ["n", "s"]
    with pytest.raises(ValueError):
        edge_crossed(np.zeros((2, 2), dtype=np.int16), (0, 0), (1, 1))
    assert Cell(0, 0, 0).level == 0


def drawn(layer: str) -> str:
    return scenario(GOOD).replace(
        "sides:\n", f"  layers:\n    elevation:\n      ground: |\n{layer}sides:\n", 1
    )


def test_a_number_layer_drawn_as_digits_sets_the_whole_level() -> None:
    scen = loads_scenario(drawn("        0123\n        .99.\n"), "hill.yaml")
    assert scen.board.levels[0].layers["elevation"].tolist() == [[0, 1, 2, 3], [0, 9, 9, 0]]


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        (
            "        0123\n        .9x.\n",
            "hill.yaml:18: map.layers.elevation.ground: expected a digit 0 to 9 or '.', "
            "found 'x' at ground:2,1",
        ),
        (
            "        012\n        .99.\n",
            "map.layers.elevation.ground: the drawing must be 4 x 2 like level 'ground'",
        ),
    ],
)
def test_bad_layer_drawings(rows: str, expected: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        loads_scenario(drawn(rows), "hill.yaml")
    messages = [str(p) for p in caught.value.problems]
    assert any(expected in m for m in messages), messages


def test_only_declared_number_layers_can_be_drawn() -> None:
    text = drawn("        0123\n        .99.\n").replace(
        "    elevation:\n      ground", "    ground:\n      ground"
    )
    with pytest.raises(ScenarioError) as caught:
        loads_scenario(text, "hill.yaml")
    assert any("no layer 'ground' of numbers" in str(p) for p in caught.value.problems)
