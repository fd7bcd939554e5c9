"""The ``killhouse`` command as a user types it (run in-process through typer's runner)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from killhouse.cli import app
from tests.conformance import ROOT, registered, shipped_scenarios

runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def test_rulesets_json_lists_every_registered_ruleset() -> None:
    code, out = run("rulesets", "--json")
    assert code == 0
    rows = json.loads(out)
    assert [r["id"] for r in rows] == registered()
    assert all(r["source"] for r in rows)


@pytest.mark.parametrize("path", shipped_scenarios(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_shipped_scenario_validates(path: Path) -> None:
    code, out = run("validate", str(path))
    assert (code, out.strip()) == (0, "ok")


def test_validate_reports_problems_and_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\nruleset: exeucte\n")
    code, out = run("validate", str(bad))
    assert code == 2
    assert "bad.yaml:2: ruleset" in out and "execute" in out


def test_sim_json_is_identical_for_one_and_two_workers() -> None:
    path = shipped_scenarios(registered()[0])[0]
    outs = []
    for workers in ("1", "2"):
        code, out = run(
            "sim", str(path), "--games", "6", "--seed", "3", "--workers", workers, "--json"
        )
        assert code == 0
        outs.append(json.loads(out))
    assert outs[0] == outs[1]
    summary = outs[0]
    assert summary["games"] == 6
    assert sum(summary["wins"].values()) + summary["draws"] == 6
    assert sum(summary["end_reasons"].values()) == 6
    assert set(summary["casualties"]) == set(summary["wins"])


def test_sim_log_then_replay_is_identical(tmp_path: Path) -> None:
    path = shipped_scenarios(registered()[0])[0]
    log = tmp_path / "game.jsonl"
    code, _ = run("sim", str(path), "--games", "1", "--seed", "5", "--log", str(log), "--json")
    assert code == 0 and log.exists()
    code, out = run("replay", str(log))
    assert code == 0 and out.startswith("identical ")


def test_replay_of_a_tampered_log_exits_nonzero(tmp_path: Path) -> None:
    path = shipped_scenarios(registered()[0])[0]
    log = tmp_path / "game.jsonl"
    run("sim", str(path), "--games", "1", "--seed", "5", "--log", str(log))
    lines = log.read_text().splitlines()
    end = json.loads(lines[-1])
    end["state_hash"] = "0" * 64
    lines[-1] = json.dumps(end)
    log.write_text("\n".join(lines) + "\n")
    code, out = run("replay", str(log))
    assert code == 1 and "diverged" in out


@pytest.mark.parametrize("ruleset", registered())
def test_odds_list_and_every_roll_sums_to_one(ruleset: str) -> None:
    code, out = run("odds", ruleset, "--list", "--json")
    assert code == 0
    rolls = json.loads(out)
    assert rolls
    for roll in rolls:
        args = []
        for p in roll["params"]:
            if p["default"] is None:
                value = p["choices"][0] if p.get("choices") else "3"
                args += [f"--{p['name']}", value]
        code, out = run(
            "odds", ruleset, roll["roll"], *args, "--json", "--empirical", "2000", "--seed", "4"
        )
        assert code == 0, out
        report = json.loads(out)
        assert set(report) >= {"ruleset", "roll", "params", "exact", "empirical", "trials"}
        assert abs(sum(report["exact"].values()) - 1.0) < 1e-9
        assert set(report["empirical"]) <= set(report["exact"])


def test_odds_unknown_roll_is_a_clear_error() -> None:
    from killhouse.errors import UnknownRollError
    from killhouse.sim.odds import roll_spec

    with pytest.raises(UnknownRollError, match="no roll"):
        roll_spec(registered()[0], "no-such-roll")


def test_readme_names_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text()
    assert "make demo" in text and "make test" in text
    assert "make test" in (ROOT / ".ci" / "run").read_text()


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The lines of one logged game, written into a folder that did not exist."""
    path = shipped_scenarios(registered()[0])[0]
    log = tmp_path_factory.mktemp("logs") / "new" / "deeper" / "game.jsonl"
    code, _ = run("sim", str(path), "--games", "1", "--seed", "5", "--log", str(log))
    assert code == 0 and log.exists()
    return log.read_text().splitlines()


def _replay(tmp_path: Path, lines: list[str] | bytes, *extra: str) -> tuple[int, str]:
    log = tmp_path / "game.jsonl"
    if isinstance(lines, bytes):
        log.write_bytes(lines)
    else:
        log.write_text("\n".join(lines) + "\n")
    return run("replay", str(log), *extra)


def _edit(line: str, **changes: object) -> str:
    record = json.loads(line)
    for key, value in changes.items():
        if value is None:
            record.pop(key, None)
        else:
            record[key] = value
    return json.dumps(record)


def test_a_log_replays_from_any_folder(
    logged: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    header = json.loads(logged[0])
    assert header["scenario_text"] and header["scenario_hash"]
    monkeypatch.chdir(tmp_path)
    moved = [_edit(logged[0], scenario="gone/elsewhere.yaml"), *logged[1:]]
    code, out = _replay(tmp_path, moved)
    assert code == 0 and out.startswith("identical "), out


def test_an_old_log_without_the_text_replays_from_its_path(
    logged: list[str], tmp_path: Path
) -> None:
    code, out = _replay(tmp_path, [_edit(logged[0], scenario_text=None), *logged[1:]])
    assert code == 0 and out.startswith("identical "), out
    missing = [_edit(logged[0], scenario_text=None, scenario="gone.yaml"), *logged[1:]]
    code, out = _replay(tmp_path, missing)
    assert code == 1 and out.count("\n") == 1 and "gone.yaml: no such file" in out, out


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("binary", "game.jsonl:1: not a killhouse game log (byte 0x89 at offset 0 is not UTF-8"),
        ("not json", "game.jsonl:1: not a killhouse game log (not JSON: Expecting property name"),
        ("no seed", "game.jsonl:1: the header has no seed"),
        ("text edited", "the scenario text in the log does not match its scenario_hash"),
        ("forged result", 'diverged: the logged result {"reason":"forged","winner":"nobody"}'),
        ("after the end", "comes after the end of the game"),
        ("bad action", "the action record has no action with a side and a kind"),
        ("empty", "game.jsonl: the log is empty"),
    ],
)
def test_a_bad_log_is_one_line_and_exit_1(
    logged: list[str], tmp_path: Path, case: str, expected: str
) -> None:
    lines: list[str] | bytes
    if case == "binary":
        lines = b"\x89PNG\r\n\x1a\n\x00\x00"
    elif case == "not json":
        lines = ["{'a': 1", *logged[1:]]
    elif case == "no seed":
        lines = [_edit(logged[0], seed=None), *logged[1:]]
    elif case == "text edited":
        text = json.loads(logged[0])["scenario_text"] + "# edited\n"
        lines = [_edit(logged[0], scenario_text=text), *logged[1:]]
    elif case == "forged result":
        lines = [*logged[:-1], _edit(logged[-1], result={"winner": "nobody", "reason": "forged"})]
    elif case == "after the end":
        lines = [*logged, logged[-2]]
    elif case == "bad action":
        lines = [*logged[:2], _edit(logged[2], action=[1, 2]), *logged[3:]]
    else:
        lines = b"\n\n"
    code, out = _replay(tmp_path, lines)
    assert code == 1, out
    assert out.count("\n") == 1, out
    assert expected in out, out


def test_play_defaults_to_the_scenarios_own_seed() -> None:
    path = ROOT / "scenarios" / "execute" / "bank.yaml"
    code, out = run("play", str(path))
    assert code == 0 and out.splitlines()[0].endswith("seed 21"), out.splitlines()[0]
    code, given = run("play", str(path), "--seed", "21")
    assert code == 0 and given == out
    code, other = run("play", str(path), "--seed", "1")
    assert other.splitlines()[0].endswith("seed 1")


class _FakePool:
    """A stand-in for a process pool: runs the tasks in this process, records its size."""

    sizes: ClassVar[list[int]] = []

    def __init__(self, size: int, initializer: Any, initargs: tuple[Any, ...]) -> None:
        _FakePool.sizes.append(size)
        initializer(*initargs)

    def __enter__(self) -> _FakePool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, func: Any, tasks: list[Any], chunksize: int = 1) -> Any:
        return map(func, tasks)


@pytest.mark.parametrize(("games", "workers", "pool"), [(1, 4, None), (3, 8, 3), (4, 2, 2)])
def test_workers_never_exceed_games(
    games: int, workers: int, pool: int | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    import multiprocessing
    import types

    from killhouse.sim import batch

    _FakePool.sizes = []
    fake = types.SimpleNamespace(Pool=_FakePool)
    monkeypatch.setattr(multiprocessing, "get_context", lambda method: fake)
    path = ROOT / "scenarios" / "gogogo" / "hostage.yaml"
    results = list(batch.run_games(path, games, 3, workers))
    assert [r.index for r in results] == list(range(games))
    assert _FakePool.sizes == ([] if pool is None else [pool])


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["execute", "shot", "--firearms", "10"], None),
        (
            ["execute", "shot", "--firearms", "11"],
            "--firearms: 11 is outside the rules' range, 1 to 10",
        ),
        (
            ["execute", "shot", "--firearms", "99"],
            "--firearms: 99 is outside the rules' range, 1 to 10",
        ),
        (["execute", "shot", "--firearms", "1"], None),
        (["execute", "shot", "--firearms", "0"], "--firearms: 0 is outside"),
        (["execute", "shot", "--evasion", "8"], None),
        (["execute", "shot", "--evasion", "9"], "--evasion: 9 is outside the rules' range, 1 to 8"),
        (["execute", "device", "--level", "10"], None),
        (
            ["execute", "device", "--level", "11"],
            "--level: 11 is outside the rules' range, 1 to 10",
        ),
        (["execute", "grenade", "--distance", "15"], None),
        (["execute", "grenade", "--distance", "16"], "--distance: 16 is outside"),
        (["execute", "shot", "--damage", "9"], None),
        (["execute", "shot", "--damage", "10"], "--damage: 10 is outside the rules' range, 0 to 9"),
        (["gogogo", "grenade-radius", "--distance", "10"], None),
        (["gogogo", "grenade-radius", "--distance", "11"], "--distance: 11 is outside"),
        (["gogogo", "fire", "--range", "1"], None),
        (["gogogo", "fire", "--range", "0"], "--range: 0 is outside the rules' range, 1 or more"),
        (
            ["gogogo", "fire", "--wounds", "-1"],
            "--wounds: -1 is outside the rules' range, 0 or more",
        ),
        (["gogogo", "fire", "--aim", "9" * 30], "--aim: expected a whole number, found '999"),
    ],
)
def test_odds_refuses_parameters_outside_the_rules(args: list[str], expected: str | None) -> None:
    from killhouse.errors import UnknownRollError
    from killhouse.sim.odds import odds_report

    if expected is None:
        report = odds_report(args[0], args[1], args[2:])
        assert abs(sum(report["exact"].values()) - 1.0) < 1e-9
    else:
        with pytest.raises(UnknownRollError) as caught:
            odds_report(args[0], args[1], args[2:])
        assert str(caught.value).startswith(expected), str(caught.value)


def test_odds_list_shows_the_ranges() -> None:
    code, out = run("odds", "execute", "--list")
    assert code == 0 and "--firearms <int 1-10>" in out and "--evasion <int 1-8>" in out


def test_replay_reads_no_more_than_the_log_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from killhouse.engine import record

    monkeypatch.setattr(record, "MAX_LOG_BYTES", 1 << 20)
    log = tmp_path / "big.jsonl"
    log.write_bytes(b"\0" * ((1 << 20) + 1))
    code, out = run("replay", str(log))
    assert code == 1 and out == f"error: {log}: not a killhouse game log (larger than 1 MiB)\n"


def test_replay_of_a_directory_is_one_line(tmp_path: Path) -> None:
    code, out = run("replay", str(tmp_path))
    assert (
        code == 1
        and out.startswith(f"error: {tmp_path}: cannot read the log")
        and (out.count("\n") == 1)
    )


@pytest.mark.parametrize(("trials", "accepted"), [(1_000_000, True), (1_000_001, False)])
def test_odds_empirical_is_capped(
    trials: int, accepted: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from killhouse.sim import odds as odds_mod

    asked: list[int] = []

    def fake(ruleset: str, roll: str, args: list[str], empirical: int, seed: int) -> Any:
        asked.append(empirical)
        return {"params": {}, "exact": {"hit": 1.0}, "exact_fractions": {"hit": "1"}}

    monkeypatch.setattr(odds_mod, "odds_report", fake)
    result = runner.invoke(app, ["odds", "execute", "shot", "--empirical", str(trials)])
    if accepted:
        assert result.exit_code == 0 and asked == [trials]
    else:
        assert result.exit_code == 2 and asked == [] and "less than or equal to" in result.output


_JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 2**70), st.text(max_size=5), st.just([1, "a"])
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mutated_log_is_a_report_or_one_error(data: st.DataObject, tmp_path_factory: Any) -> None:
    """Whatever is changed in a log, replay ends in a verdict or one ReplayError line."""
    from killhouse.engine.record import read_log
    from killhouse.engine.record import replay as run_replay
    from killhouse.errors import KillhouseError
    from killhouse.scenario.loader import loads_scenario

    lines = _fuzz_log()
    index = data.draw(st.integers(0, min(len(lines) - 1, 4)))
    record = json.loads(lines[index])
    action = data.draw(st.sampled_from(["drop", "set", "truncate", "garbage"]))
    if action == "garbage":
        lines[index] = data.draw(st.text(max_size=30))
    elif action == "truncate":
        lines[index] = lines[index][: data.draw(st.integers(0, len(lines[index])))]
    else:
        key = data.draw(st.sampled_from(sorted(record)))
        if action == "drop":
            del record[key]
        else:
            record[key] = data.draw(_JSON_VALUES)
        lines[index] = json.dumps(record)
    log = tmp_path_factory.mktemp("fuzz") / "game.jsonl"
    log.write_text("\n".join(lines) + "\n")
    try:
        records = read_log(log)
        from killhouse.engine.record import logged_scenario

        scenario = logged_scenario(records, loads_scenario)
        if scenario is not None:
            run_replay(records, scenario)
    except KillhouseError as exc:
        assert str(exc) and "\n" not in str(exc)


_FUZZ_LOG: list[str] = []


def _fuzz_log() -> list[str]:
    """One short logged game (the assassination scenario ends in about a dozen turns)."""
    if not _FUZZ_LOG:
        from killhouse.engine.game import canonical_json
        from killhouse.engine.record import log_lines
        from killhouse.scenario.loader import load_scenario
        from killhouse.sim.play import play

        game = play(load_scenario(ROOT / "scenarios" / "gogogo" / "assassination.yaml"), 2)
        _FUZZ_LOG.extend(canonical_json(r) for r in log_lines(game))
    return list(_FUZZ_LOG)
