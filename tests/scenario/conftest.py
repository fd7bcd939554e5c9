"""Fixtures for scenario loader tests: the toy ruleset registered for each test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from killhouse import rulesets
from tests.scenario.toy_ruleset import ToyRuleset


@pytest.fixture(autouse=True)
def toy_ruleset() -> Iterator[None]:
    """Register ``toy`` for the test only, so other tests never see it in the registry."""
    rulesets.register("toy", f"{ToyRuleset.__module__}:ToyRuleset")
    yield
    rulesets.REGISTRY.pop("toy", None)
    rulesets._LOADED.pop("toy", None)
