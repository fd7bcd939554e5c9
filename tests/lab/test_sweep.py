"""Sweep variants: values set by dotted path, re-checked by the loader; clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.errors import KillhouseError, ScenarioError
from killhouse.sim.lab.sweep import closest_to_even, parse_vary, set_path, variant
from tests.conformance import ROOT

HOSTAGE = ROOT / "scenarios" / "gogogo" / "hostage.yaml"
EMBASSY = ROOT / "scenarios" / "execute" / "embassy.yaml"


def test_parse_vary_reads_values_as_yaml() -> None:
    vary = parse_vary("turn_limit=15, 20,25")
    assert vary.steps == ("turn_limit",)
    assert vary.values == (15, 20, 25)
    assert parse_vary("options.allow_printed_cards=true,false").values == (True, False)
    assert parse_vary("figures.c5.equipment=[[sniper], [smg]]").values == (["sniper"], ["smg"])
    listed = parse_vary('figures.c1.at=["ground:2,2", "ground:3,3"]')
    assert listed.values == ("ground:2,2", "ground:3,3")


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("turn_limit", "expected PATH=v1,v2"),
        ("=1,2", "expected PATH=v1,v2"),
        ("figures..at=1", "empty step"),
        ("turn_limit=10,,20", "a value is empty"),
        ("turn_limit=10,10", "given twice"),
    ],
)
def test_parse_vary_refuses_malformed_specs(spec: str, words: str) -> None:
    with pytest.raises(KillhouseError, match=words):
        parse_vary(spec)


def test_set_path_walks_mappings_and_lists_by_id_or_index() -> None:
    data = {"turn_limit": 30, "figures": [{"id": "a", "stats": {"firearms": 5}}, {"id": "b"}]}
    set_path(data, ["figures", "a", "stats", "firearms"], 7)
    set_path(data, ["figures", "1", "at"], "ground:1,1")  # a missing last key is added
    set_path(data, ["turn_limit"], 20)
    assert data == {
        "turn_limit": 20,
        "figures": [{"id": "a", "stats": {"firearms": 7}}, {"id": "b", "at": "ground:1,1"}],
    }


@pytest.mark.parametrize(
    ("steps", "words"),
    [
        (["figures", "zz", "at"], "no item 'zz' in figures \\(ids: a, b; indexes 0 to 1\\)"),
        (["figures", "2", "at"], "no item '2' in figures"),
        (
            ["options", "x", "y"],
            "no key 'options' in the top level \\(keys: turn_limit, figures\\)",
        ),
        (["turn_limit", "x"], "turn_limit is a single value \\(30\\)"),
    ],
)
def test_set_path_names_what_is_missing(steps: list[str], words: str) -> None:
    data = {"turn_limit": 30, "figures": [{"id": "a"}, {"id": "b"}]}
    with pytest.raises(KillhouseError, match=words):
        set_path(data, steps, 1)


def test_a_variant_is_the_scenario_with_one_value_changed() -> None:
    vary = parse_vary("turn_limit=12,20")
    v = variant(HOSTAGE, vary, 0)
    assert v.scenario.turn_limit == 12
    assert v.label == "turn_limit=12"
    assert "turn_limit=12" in v.scenario.file
    moved = variant(HOSTAGE, parse_vary('figures.c1.at=["ground:3,3"]'), 0)
    assert moved.scenario.figure("c1").at is not None
    assert (moved.scenario.figure("c1").at.x, moved.scenario.figure("c1").at.y) == (3, 3)
    option = variant(EMBASSY, parse_vary("options.grenades_per_figure=0"), 0)
    assert option.scenario.options["grenades_per_figure"] == 0
    # everything else is unchanged: the map and the other figures
    base = variant(HOSTAGE, parse_vary("turn_limit=30"), 0).scenario
    assert base.board.fingerprint() == v.scenario.board.fingerprint()
    assert [f.id for f in base.figures] == [f.id for f in v.scenario.figures]


def test_a_bad_value_gets_the_loaders_message_on_the_right_line() -> None:
    with pytest.raises(ScenarioError) as caught:
        variant(HOSTAGE, parse_vary("turn_limit=0"), 0)
    text = str(caught.value.problems[0])
    line = HOSTAGE.read_text().splitlines().index("turn_limit: 30") + 1
    assert text.startswith(f"{HOSTAGE} [turn_limit=0]:{line}: turn_limit: expected a number")


def test_a_key_the_format_does_not_know_is_refused_by_the_loader() -> None:
    with pytest.raises(ScenarioError, match="unknown key 'firearms' in a figure"):
        variant(HOSTAGE, parse_vary("figures.c1.firearms=5"), 0)


def test_a_bad_path_is_refused_before_any_game(tmp_path: Path) -> None:
    with pytest.raises(KillhouseError, match="no item 'gunman-9' in figures"):
        variant(HOSTAGE, parse_vary("figures.gunman-9.firearms=5"), 0)


def test_closest_to_even_takes_the_smallest_gap_between_the_sides() -> None:
    rows = [(15, {"a": 0.8, "b": 0.1}), (20, {"a": 0.55, "b": 0.4}), (25, {"a": 0.3, "b": 0.6})]
    assert closest_to_even(rows) == 20
    assert closest_to_even([(1, {"a": 0.5, "b": 0.4}), (2, {"a": 0.4, "b": 0.5})]) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--vary", "figures.gunman-9.stats.firearms=5,6"], "error: --vary: no item 'gunman-9'"),
        (["--vary", "turn_limit=0,10"], "turn_limit: expected a number of turns"),
        (["--address", "localhost:6379"], "error: --address is for --backend ray"),
        (["--backend", "slurm"], "error: unknown backend 'slurm': expected local or ray"),
    ],
)
def test_the_command_reports_bad_sweeps_and_backends_in_one_line(
    args: list[str],
    message: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from killhouse.cli import main

    monkeypatch.setattr("sys.argv", ["killhouse", "lab", str(HOSTAGE), "--games", "1", *args])
    with pytest.raises(SystemExit) as caught:
        main()
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
