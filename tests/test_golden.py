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
from tests.conformance import (
    ROOT,
    TOYS,
    first_scenario,
    registered,
    shipped_scenarios,
    toys_registered,
)

GOLDEN_DIR = ROOT / "tests" / "golden"
GOLDEN_TURNS = 4
SEEDS = (1, 2)
#: more shipped scenarios with golden games, and their length in turns: the vehicle scenario
#: runs 8 turns so both sides' vehicles arrive (issue 17)
EXTRA: dict[str, int] = {"firewall/escape_from_ash_end.yaml": 8}


#: a shipped scenario's path, or the id of a toy ruleset whose scenario is built in code
Source = Path | str


def cases() -> list[tuple[str, Source, int]]:
    """Each registered ruleset's first shipped scenario, and the toy rulesets (the reaction
    window of ``patrol``; three sides and an umpire in ``melee``)."""
    out: list[tuple[str, Source, int]] = []
    for ruleset in registered():
        path = shipped_scenarios(ruleset)[0]
        for seed in SEEDS:
            out.append((f"{ruleset}-{path.stem}-seed{seed}.txt", path, seed))
    for rel in EXTRA:
        path = ROOT / "scenarios" / rel
        for seed in SEEDS:
            out.append((f"{path.parent.name}-{path.stem}-seed{seed}.txt", path, seed))
    for toy in TOYS:
        for seed in SEEDS:
            out.append((f"{toy}-toy-seed{seed}.txt", toy, seed))
    return out


def short(source: Source) -> Scenario:
    scenario = load_scenario(source) if isinstance(source, Path) else first_scenario(source)
    turns = GOLDEN_TURNS
    if isinstance(source, Path):
        turns = EXTRA.get(f"{source.parent.name}/{source.name}", GOLDEN_TURNS)
    return dataclasses.replace(scenario, turn_limit=turns)


def render(source: Source, seed: int) -> str:
    """The umpire's narration of the short game."""
    with toys_registered():
        return transcript(short(source), seed)


def render_views(source: Source, seed: int) -> str:
    """Each side's final view of the short game (no events), as stable JSON."""
    with toys_registered():
        scenario = short(source)
        game = play(scenario, seed)
        views = {side: game.view(side, events_since=None) for side in scenario.side_ids()}
    return json.dumps(views, indent=1, sort_keys=True) + "\n"


def views_name(name: str) -> str:
    return name.removesuffix(".txt") + ".views.json"


@pytest.mark.parametrize(("name", "path", "seed"), cases(), ids=[c[0] for c in cases()])
def test_golden_playthrough(name: str, path: Source, seed: int) -> None:
    golden = GOLDEN_DIR / name
    assert golden.exists(), f"missing {golden.name}: run python scripts/update_golden.py"
    assert render(path, seed) == golden.read_text(), (
        f"{name} changed: run python scripts/update_golden.py and review the diff"
    )


@pytest.mark.parametrize(("name", "path", "seed"), cases(), ids=[c[0] for c in cases()])
def test_golden_views(name: str, path: Source, seed: int) -> None:
    golden = GOLDEN_DIR / views_name(name)
    assert golden.exists(), f"missing {golden.name}: run python scripts/update_golden.py"
    assert render_views(path, seed) == golden.read_text(), (
        f"{golden.name} changed: run python scripts/update_golden.py and review the diff"
    )
