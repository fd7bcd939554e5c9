"""Golden playthroughs: short seeded games per ruleset, compared line by line with files."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from killhouse.scenario.loader import load_scenario
from killhouse.scenario.model import Scenario
from killhouse.sim.play import play
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


def short(path: Path) -> Scenario:
    return dataclasses.replace(load_scenario(path), turn_limit=GOLDEN_TURNS)


def render(path: Path, seed: int) -> str:
    """The umpire's narration of the short game."""
    return transcript(short(path), seed)


def render_views(path: Path, seed: int) -> str:
    """Each side's final view of the short game (no events), as stable JSON."""
    scenario = short(path)
    game = play(scenario, seed)
    views = {side: game.view(side, events_since=None) for side in scenario.side_ids()}
    return json.dumps(views, indent=1, sort_keys=True) + "\n"


def views_name(name: str) -> str:
    return name.removesuffix(".txt") + ".views.json"


@pytest.mark.parametrize(("name", "path", "seed"), cases(), ids=[c[0] for c in cases()])
def test_golden_playthrough(name: str, path: Path, seed: int) -> None:
    golden = GOLDEN_DIR / name
    assert golden.exists(), f"missing {golden.name}: run python scripts/update_golden.py"
    assert render(path, seed) == golden.read_text(), (
        f"{name} changed: run python scripts/update_golden.py and review the diff"
    )


@pytest.mark.parametrize(("name", "path", "seed"), cases(), ids=[c[0] for c in cases()])
def test_golden_views(name: str, path: Path, seed: int) -> None:
    golden = GOLDEN_DIR / views_name(name)
    assert golden.exists(), f"missing {golden.name}: run python scripts/update_golden.py"
    assert render_views(path, seed) == golden.read_text(), (
        f"{golden.name} changed: run python scripts/update_golden.py and review the diff"
    )
