"""Golden playthroughs: short seeded games per ruleset, compared line by line with files."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from killhouse.scenario.loader import load_scenario
from killhouse.sim.transcript import transcript
from tests.conformance import ROOT, registered, shipped_scenarios

GOLDEN_DIR = ROOT / "tests" / "golden"
GOLDEN_TURNS = 4
SEEDS = (1, 2)


def cases() -> list[tuple[str, Path, int]]:
    out = []
    for ruleset in registered():
        path = shipped_scenarios(ruleset)[0]
        for seed in SEEDS:
            out.append((f"{ruleset}-{path.stem}-seed{seed}.txt", path, seed))
    return out


def render(path: Path, seed: int) -> str:
    scenario = dataclasses.replace(load_scenario(path), turn_limit=GOLDEN_TURNS)
    return transcript(scenario, seed)


@pytest.mark.parametrize(("name", "path", "seed"), cases(), ids=[c[0] for c in cases()])
def test_golden_playthrough(name: str, path: Path, seed: int) -> None:
    golden = GOLDEN_DIR / name
    assert golden.exists(), f"missing {golden.name}: run python scripts/update_golden.py"
    assert render(path, seed) == golden.read_text(), (
        f"{name} changed: run python scripts/update_golden.py and review the diff"
    )
