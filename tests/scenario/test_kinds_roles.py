"""Figure kinds a ruleset declares and umpire sides, checked like every other field."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import ClassVar

import pytest

from killhouse import rulesets
from killhouse.errors import ScenarioError
from killhouse.scenario.loader import loads_scenario
from tests.scenario.toy_ruleset import ToyRuleset


class KennelToy(ToyRuleset):
    id: ClassVar[str] = "toy-kennel"
    scenario_keys: ClassVar[Mapping[str, frozenset[str]]] = {
        **ToyRuleset.scenario_keys,
        "kind": frozenset({"dog", "vehicle"}),
    }


@pytest.fixture(autouse=True)
def kennel() -> Iterator[None]:
    rulesets.register("toy-kennel", f"{__name__}:KennelToy")
    yield
    rulesets.REGISTRY.pop("toy-kennel", None)
    rulesets._LOADED.pop("toy-kennel", None)


def text(ruleset: str, kind: str, umpire: str = "true") -> str:
    return f"""name: Kennel
ruleset: {ruleset}
map:
  levels:
    ground: |
      ....
sides:
  - {{id: a, controller: ai}}
  - {{id: b, controller: ai}}
  - {{id: c, controller: ai}}
  - {{id: gm, controller: human, umpire: {umpire}}}
figures:
  - {{id: rex, side: a, kind: {kind}, card: rookie, at: "ground:0,0"}}
"""


def test_declared_kinds_and_an_umpire_side_load() -> None:
    scen = loads_scenario(text("toy-kennel", "dog"), "k.yaml")
    assert scen.figure("rex").kind == "dog"
    assert [s.role for s in scen.sides] == ["player", "player", "player", "umpire"]
    assert scen.player_sides() == ["a", "b", "c"]


def test_a_kind_the_ruleset_does_not_declare_is_refused_with_its_line() -> None:
    with pytest.raises(ScenarioError) as caught:
        loads_scenario(text("toy", "dog"), "k.yaml")
    (problem,) = caught.value.problems
    assert str(problem).startswith("k.yaml:13: figures[0].kind: expected operative, hostage or vip")


def test_a_bad_umpire_flag_is_refused() -> None:
    with pytest.raises(ScenarioError) as caught:
        loads_scenario(text("toy-kennel", "dog", umpire="referee"), "k.yaml")
    assert any("sides[3].umpire: expected true or false" in str(p) for p in caught.value.problems)
