"""``killhouse roster`` and the campaign odds as a user types them (issue 15)."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from killhouse.cli import app, main
from killhouse.engine.record import read_log, replay, write_log
from killhouse.roster.files import load_roster
from killhouse.scenario.loader import load_scenario, loads_scenario
from killhouse.sim.play import play
from tests.conformance import ROOT

runner = CliRunner()
SCENARIO = ROOT / "scenarios" / "commando" / "campaign" / "farmhouse_raid.yaml"


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def user(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """The command through ``main()``, as the shell runs it: errors are one line, exit 2."""
    old = sys.argv
    sys.argv = ["killhouse", *args]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        sys.argv = old
    out = capsys.readouterr()
    return code, out.out + out.err


def test_new_rolls_the_same_roster_for_the_same_seed(tmp_path: Path) -> None:
    args = ["--commandos", "2", "--grunts", "3", "--seed", "9", "--names", "Kane,Webb",
            "--skills", "sniping,demolitions,night_fighting,grenade_toss",
            "--wps", "m16,smg,rifle,lmg", "--grunt-wps", "shotgun"]
    code, out = run("roster", "new", str(tmp_path / "a.yaml"), *args)
    assert code == 0 and "wrote" in out and "Kane" in out
    run("roster", "new", str(tmp_path / "b.yaml"), *args)
    a, b = (tmp_path / "a.yaml").read_text(), (tmp_path / "b.yaml").read_text()
    assert a.replace("roster: a", "") == b.replace("roster: b", "")
    men = load_roster(tmp_path / "a.yaml").men
    assert [m.figure["man"] for m in men] == ["commando"] * 2 + ["grunt"] * 3
    assert all(m.figure["wps"].get("shotgun") == 0 for m in men[2:])
    assert [m.figure.get("squad") for m in men[2:]] == ["Kane", "Webb", "Kane"]
    rolls = [json.loads(line) for line in (tmp_path / "a.rolls.jsonl").read_text().splitlines()]
    assert rolls[0]["op"] == "new" and rolls[0]["seed"] == 9 and rolls[0]["events"]
    code, out = run("roster", "show", str(tmp_path / "a.yaml"), "--json")
    assert json.loads(out)["men"][0]["name"] == "Kane"
    code, out = run("roster", "show", str(tmp_path / "a.yaml"))
    assert (code == 0 and "Average Joe" in out) or "Hero" in out


def test_new_refuses_to_overwrite_and_recruits_with_add(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(tmp_path / "men.yaml")
    assert user(capsys, "roster", "new", path, "--seed", "1")[0] == 0
    code, out = user(capsys, "roster", "new", path, "--seed", "2")
    assert code == 2 and "the file exists" in out and "Traceback" not in out
    code, out = user(capsys, "roster", "new", path, "--seed", "2", "--grunts", "2",
                     "--commandos", "0", "--add")
    assert code == 0 and len(load_roster(path).men) == 3
    code, out = user(capsys, "roster", "new", path, "--skills", "snipping", "--force")
    assert code == 2 and "did you mean 'sniping'?" in out


def test_choose_fills_open_choices(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "men.yaml")
    user(capsys, "roster", "new", path, "--seed", "3", "--names", "Kane")
    assert load_roster(path).man("Kane").record["to_choose"]["skills"] >= 3
    code, out = user(capsys, "roster", "choose", path, "Kane", "--skills",
                     "sniping,demolitions,grenade_toss,night_fighting,personal_combat,"
                     "mobile_overwatch", "--wps", "m16,smg,rifle,lmg,shotgun,carbine",
                     "--abilities", "luck_of_the_irish,sixth_sense,mind_over_matter,move_swiftly")
    assert code == 0, out
    kane = load_roster(path).man("Kane")
    assert len(kane.skills) >= 3 and "to_choose" not in kane.record
    code, out = user(capsys, "roster", "choose", path, "Kane", "--skills", "sniping")
    assert code == 2 and "nothing left to choose" in out


def test_a_broken_roster_is_one_line_per_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "men.yaml"
    user(capsys, "roster", "new", str(path), "--seed", "3", "--names", "Kane",
         "--wps", "m16,smg,rifle")
    path.write_text(path.read_text().replace("m16: 0", "m16: 9"))
    code, out = user(capsys, "roster", "show", str(path))
    assert code == 2 and "Traceback" not in out
    assert f"{path}:" in out and "figure.wps.m16: WP +9 is impossible after 0 mission(s)" in out


def _campaign(tmp_path: Path) -> Path:
    shutil.copy(SCENARIO, tmp_path / SCENARIO.name)
    shutil.copytree(SCENARIO.parent / "rosters", tmp_path / "rosters")
    return tmp_path / "rosters" / "black_dragons.yaml"


def test_after_applies_a_logged_game_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roster = _campaign(tmp_path)
    log = tmp_path / "g.jsonl"
    code, out = user(capsys, "sim", str(tmp_path / SCENARIO.name), "--games", "1", "--seed",
                     "4", "--log", str(log))
    assert code == 0, out
    before = load_roster(roster)
    code, out = user(capsys, "roster", "after", str(roster), str(log))
    assert code == 0 and "weeks until the next mission" in out, out
    after = load_roster(roster)
    assert len(after.applied) == 1 and after != before
    # the same game again: refused, nothing written
    code, out = user(capsys, "roster", "after", str(roster), str(log))
    assert code == 2 and "is in the roster already" in out
    assert load_roster(roster) == after
    # the log still replays, from its own roster text, though the file moved on
    records = read_log(log)
    assert "roster_text" in records[0]
    from killhouse.engine.record import logged_scenario

    scenario = logged_scenario(records, loads_scenario)
    assert scenario is not None and replay(records, scenario).identical
    # a game played with an older version of the roster is refused
    old = tmp_path / "old"
    old.mkdir()
    roster2 = _campaign(old)
    game = play(load_scenario(old / SCENARIO.name), 6)
    write_log(game, old / "g6.jsonl")
    code, out = user(capsys, "roster", "after", str(roster), str(old / "g6.jsonl"))
    assert code == 2 and "another version of roster" in out
    del roster2


def test_a_dead_man_is_never_drawn_again(tmp_path: Path) -> None:
    roster = _campaign(tmp_path)
    text = roster.read_text().replace("- name: Vale\n", "- name: Vale\n  status: dead\n", 1)
    roster.write_text(text)
    scenario = load_scenario(tmp_path / SCENARIO.name)
    assert scenario.figure("r1").name == "Orme"
    text = text.replace("- name: Orme\n", "- name: Orme\n  status: dead\n", 1)
    roster.write_text(text)
    from killhouse.errors import ScenarioError

    with pytest.raises(ScenarioError, match="every man with man=commando of roster 'Black "
                       "Dragons' is drawn already \\(2 more resting, retired or dead\\)"):
        load_scenario(tmp_path / SCENARIO.name)


def test_roster_men_play_with_their_ratings(tmp_path: Path) -> None:
    roster = _campaign(tmp_path)
    scenario = load_scenario(tmp_path / SCENARIO.name)
    vale = load_roster(roster).man("Vale")
    r1 = scenario.figure("r1")
    assert r1.name == "Vale" and r1.stats == dict(vale.characteristics)
    assert r1.extra["man"] == "commando" and r1.extra["wps"] == vale.figure["wps"]
    from killhouse.rulesets.commando.roster import read_roster

    men, issues = read_roster(scenario.figures)
    assert not issues
    assert men["r1"].ratings.hero == vale.characteristics["hero"]
    assert men["r1"].ratings.skills["sniping"].rating == vale.skills["sniping"]
    assert {men[f].leader for f in ("r2", "r3", "r4")} == {"r1"}  # ruling C-138


@pytest.mark.parametrize(("args", "expected"), [
    (("wp-improve", "--addition", "0"), "improves"),
    (("heal", "--wound", "serious", "--points", "6", "--end", "10"), "heals 17 wk"),
    (("characteristic",), "24"),
    (("generated", "--which", "end", "--rolled", "24"), "29"),
])
def test_campaign_odds(args: tuple[str, ...], expected: str) -> None:
    code, out = run("odds", "commando", *args)
    assert code == 0 and expected in out, out
    code, out = run("odds", "commando", "--list")
    assert "wp-improve" in out and "heal" in out and "characteristic" in out


def test_heal_odds_against_the_weeks_until_the_next_mission() -> None:
    code, out = run("odds", "commando", "heal", "--wound", "serious", "--points", "6",
                    "--end", "10", "--json")
    assert code == 0
    exact = json.loads(out)["exact"]
    # 17 weeks against 4 x (1d6 + 1): 8, 12, 16 miss it; 20 leaves 0 months, 24 one, 28 two
    assert exact == pytest.approx({
        "heals 17 wk: misses the next mission": 0.5,
        "heals 17 wk: 0 months free": 1 / 6,
        "heals 17 wk: 1 months free": 1 / 6,
        "heals 17 wk: 2 months free": 1 / 6,
    })
