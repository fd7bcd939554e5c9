"""The lab on a few real games: JSON and CSV contents, pictures, report, workers."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from killhouse.cli import app
from killhouse.scenario.loader import load_scenario
from killhouse.sim.batch import play_one
from killhouse.sim.lab.records import GameRecord, LabProbe, as_cell, group_of, shot_of
from killhouse.sim.lab.run import LocalBackend, Plan, chunks
from killhouse.sim.lab.session import LabOutcome, run_lab
from tests.lab.conftest import shortened

GAMES = 4


@pytest.fixture(scope="module")
def labs(short_hostage: Path, tmp_path_factory: pytest.TempPathFactory) -> list[LabOutcome]:
    """The same four games played by one process and by two workers, each with files."""
    out = tmp_path_factory.mktemp("lab")
    outcomes = []
    for workers in (1, 2):
        backend = LocalBackend(workers)
        try:
            outcomes.append(run_lab(short_hostage, 5, Plan(GAMES), backend, out / f"w{workers}"))
        finally:
            backend.close()
    return outcomes


def test_the_json_is_identical_for_one_and_two_workers(labs: list[LabOutcome]) -> None:
    one, two = labs
    assert one.data == two.data
    assert one.files[0].read_bytes() == two.files[0].read_bytes()  # summary.json
    assert one.files[1].read_bytes() == two.files[1].read_bytes()  # games.csv


def test_the_summary_counts_every_game_once(labs: list[LabOutcome], short_hostage: Path) -> None:
    s = json.loads(labs[0].files[0].read_text())
    assert s["games"] == GAMES and s["seed"] == 5 and s["sides"] == ["ct", "t"]
    assert sum(r["count"] for r in s["wins"].values()) + s["draws"]["count"] == GAMES
    for r in [*s["wins"].values(), s["draws"]]:
        assert r["games"] == GAMES and r["low"] <= r["rate"] <= r["high"]
    assert sum(s["end_reasons"].values()) == GAMES
    assert sum(s["turns"]["histogram"].values()) == GAMES and s["turns"]["max"] <= 12
    scenario = load_scenario(short_hostage)
    assert set(s["survival"]) == {f.id for f in scenario.figures}
    assert s["survival"]["h1"]["group"] == "hostage" and s["survival"]["c1"]["group"] == "ct"
    assert sum(
        sum(r["count"] for r in per.values()) for per in s["win_rate_by_end_turn"].values()
    ) == sum(r["count"] for r in s["wins"].values())
    # every fallen figure is on the heatmap once, at a cell of the map
    fallen = sum(GAMES - r["count"] for r in s["survival"].values())
    on_map = sum(
        c[2] for per in s["heatmaps"]["fallen"].values() for cells in per.values() for c in cells
    )
    assert on_map == fallen
    assert s["heatmaps"]["shots_unplaced"] == 0


def test_the_csv_has_one_row_per_game_in_order(labs: list[LabOutcome]) -> None:
    rows = list(csv.DictReader(labs[0].files[1].open()))
    assert [int(r["game"]) for r in rows] == list(range(GAMES))
    assert list(rows[0]) == [
        "game", "seed", "winner", "reason", "turns",
        "casualties.ct", "casualties.t", "shots.ct", "shots.t", "fallen",
    ]  # fmt: skip
    records = labs[0].records
    for row, rec in zip(rows, records, strict=True):
        assert row["winner"] == (rec.winner or "") and int(row["turns"]) == rec.turns
        assert row["fallen"].split() == [f.id for f in rec.fallen()]
        assert int(row["shots.ct"]) + int(row["shots.t"]) == len(rec.shots)


def test_pictures_are_written_and_the_report_shows_each(labs: list[LabOutcome]) -> None:
    pictures = [p for p in labs[0].files if p.suffix == ".png"]
    names = {p.name for p in pictures}
    assert {"win-rate-by-turn.png", "turns.png", "heatmap-ground.png"} <= names
    for p in pictures:
        data = p.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2_000
    page = (labs[0].files[0].parent / "report.html").read_text()
    for name in names:
        assert f"src='{name}'" in page
    assert "95% Wilson" in page and "Survival of each figure" in page


def test_the_probe_does_not_change_the_game(short_hostage: Path) -> None:
    scenario = load_scenario(short_hostage)
    plain = play_one(scenario, 0, 9)
    probed = play_one(scenario, 0, 9, LabProbe)
    assert (plain.winner, plain.reason, plain.turns, plain.casualties) == (
        probed.winner,
        probed.reason,
        probed.turns,
        probed.casualties,
    )
    record = GameRecord.from_summary(probed)
    assert {f.id for f in record.figures} == {f.id for f in scenario.figures}


def test_execute_shots_are_placed_from_their_events(tmp_path: Path) -> None:
    path = shortened(tmp_path, "execute", "bank.yaml", 10)
    outcome = run_lab(path, 2, Plan(1), LocalBackend(1))
    maps = outcome.data["heatmaps"]
    assert maps["shots_unplaced"] == 0
    assert outcome.data["games"] == 1 and set(outcome.data["wins"]) == {"fbi", "robbers"}


def test_the_event_adapter_reads_cells_and_ids_generically() -> None:
    assert as_cell([0, 3, 4]) == (0, 3, 4)
    assert as_cell([0, 3]) is None and as_cell("c1") is None and as_cell([0, True, 1]) is None
    assert shot_of({"firer": "billy", "from": [0, 1, 2], "at": [0, 5, 5]}) == ("billy", (0, 1, 2))
    assert shot_of({"firer": "t3", "target": "c3"}) == ("t3", None)
    assert shot_of({"firer": [1, 2, 3]}) == (None, (1, 2, 3))
    assert group_of({"side": None, "kind": "hostage"}) == "hostage"
    assert group_of({"side": "ct", "kind": "operative"}) == "ct"


def test_ray_tasks_hold_twenty_games_or_all_there_are() -> None:
    assert chunks(0, 6, 2) == [(0, 6)]
    assert chunks(10, 45, 2) == [(10, 20), (30, 20), (50, 5)]
    big = chunks(0, 1_000, 2)
    assert len(big) == 8 and all(n == 125 for _, n in big)
    assert sum(n for _, n in chunks(0, 1_001, 3)) == 1_001


def test_the_command_sweeps_a_value_and_names_the_closest_to_even(
    short_hostage: Path, tmp_path: Path
) -> None:
    result = CliRunner().invoke(
        app,
        [
            "lab",
            str(short_hostage),
            "--games",
            "2",
            "--vary",
            "turn_limit=6,8",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "closest to an even game: turn_limit=" in result.output
    sweep = json.loads((tmp_path / "sweep.json").read_text())
    assert [v["value"] for v in sweep["variants"]] == [6, 8]
    assert all(v["games"] == 2 for v in sweep["variants"])
    assert sweep["closest_to_even"] in (6, 8)
    page = (tmp_path / "report.html").read_text()
    assert "src='sweep.png'" in page and "01-6/report.html" in page
    assert (tmp_path / "02-8" / "summary.json").exists()
    rows = list(csv.DictReader((tmp_path / "sweep.csv").open()))
    assert [r["value"] for r in rows] == ["6", "6", "8", "8"]
    # the same seeds for every value: game i has the same seed in each variant
    assert rows[0]["seed"] == rows[2]["seed"] and rows[1]["seed"] == rows[3]["seed"]
