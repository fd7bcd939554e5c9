"""One sight setting: ``GameInfo.sight`` names a ruleset's line-of-sight rule, nothing else."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from killhouse.core import geometry
from killhouse.core.chance import SeededChance
from killhouse.core.events import EventLog
from killhouse.core.geometry import SIGHT_MODES
from killhouse.core.rng import Rng
from killhouse.rulesets import get_ruleset, ruleset_ids
from killhouse.rulesets.base import Ruleset
from killhouse.rulesets.gogogo import geom, vision
from killhouse.rulesets.gogogo.ruleset import GoGoGoRuleset
from killhouse.scenario.loader import load_scenario

SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"


def test_the_protocol_has_one_sight_setting() -> None:
    assert not hasattr(Ruleset, "sight")
    for rid in ruleset_ids():
        rules = get_ruleset(rid)
        assert not hasattr(type(rules), "sight"), rid
        if rules.info is not None:
            assert rules.info.sight in SIGHT_MODES
            assert rules.describe()["info"]["sight"] == rules.info.sight


def test_gogogo_sight_tests_read_its_game_info(monkeypatch: pytest.MonkeyPatch) -> None:
    assert GoGoGoRuleset.info is not None and GoGoGoRuleset.info.sight == geom.SIGHT
    modes: list[str] = []
    real = geometry.los_pairs

    def spy(*args: Any, **kwargs: Any) -> Any:
        modes.append(kwargs.get("mode", "default"))
        return real(*args, **kwargs)

    monkeypatch.setattr(vision, "los_pairs", spy)
    log = EventLog()
    rules = GoGoGoRuleset()
    scenario = load_scenario(SCENARIOS / "gogogo/hostage.yaml")
    rules.new_state(scenario, SeededChance(Rng(1), log), log)
    assert modes and set(modes) == {GoGoGoRuleset.info.sight}
