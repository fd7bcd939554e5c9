"""Game and batch summaries (sim/summary.py) and the text board (sim/boardtext.py)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.rulesets.base import Result
from killhouse.scenario.loader import load_scenario
from killhouse.sim.boardtext import side_board, side_marks, umpire_board
from killhouse.sim.play import play
from killhouse.sim.summary import (
    GameSummary,
    outcome_lines,
    summarize,
    summarize_game,
    summary_lines,
)
from tests.conformance import ROOT

BANK = ROOT / "scenarios" / "execute" / "bank.yaml"
HOSTAGE = ROOT / "scenarios" / "gogogo" / "hostage.yaml"


def test_a_game_summary_reads_the_rulesets_result_and_casualties() -> None:
    scenario = load_scenario(BANK)
    game = play(scenario, 21)
    one = summarize_game(game, 3)
    result = game.result
    assert result is not None
    assert (one.index, one.seed, one.winner, one.reason) == (3, 21, result.winner, result.reason)
    assert set(one.casualties) == set(scenario.side_ids())  # "hostages" is no side
    assert one.outcome["hostages_killed"] == result.details["hostages_killed"]
    assert one.outcome["rescued"] == result.details["rescued"]
    assert one.outcome["bombs_exploded"] == result.details["bombs_exploded"]
    assert one.outcome["bombs_defused"] == result.details["bombs_defused"]


@pytest.mark.parametrize("seed", [1, 2])
def test_gogogo_reports_the_bomb_and_the_hostages(seed: int) -> None:
    destruction = summarize_game(play(load_scenario(HOSTAGE.with_name("destruction.yaml")), seed))
    assert destruction.outcome["bombs_exploded"] + destruction.outcome["bombs_defused"] <= 1
    if destruction.reason == "the bomb detonated":
        assert destruction.outcome["bombs_exploded"] == 1
    hostage = summarize_game(play(load_scenario(HOSTAGE), seed))
    assert hostage.outcome["hostages"] == 4
    assert hostage.outcome["rescued"] + hostage.outcome["hostages_killed"] <= 4


def _fake_game(details: dict[str, Any], casualties: dict[str, int], winner: str | None) -> Any:
    scenario = SimpleNamespace(
        side_ids=lambda: ["blue", "red"],
        sides=[SimpleNamespace(id="blue", name="Blue team"), SimpleNamespace(id="red", name="Red")],
    )
    ruleset = SimpleNamespace(
        casualties=lambda state: casualties, snapshot=lambda state: {"turn": 9}
    )
    result = Result(winner, "the timer bomb exploded", details)
    return SimpleNamespace(scenario=scenario, ruleset=ruleset, state=None, seed=4, result=result)


def test_hostages_killed_falls_back_to_the_casualty_count() -> None:
    game = _fake_game({}, {"blue": 1, "red": 2, "hostages": 3}, "red")
    one = summarize_game(game)
    assert one.casualties == {"blue": 1, "red": 2}
    assert one.outcome == {"hostages_killed": 3}


def test_the_end_of_game_summary() -> None:
    details = {"hostages": 5, "rescued": 2, "hostages_killed": 1, "bombs_exploded": 1}
    game = _fake_game(details, {"blue": 1, "red": 0}, "red")
    assert outcome_lines(game) == [
        "# ---- end of the game ----",
        "# winner: Red, after 9 turns",
        "# why: the timer bomb exploded",
        "# out of the fight: Blue team 1, Red 0",
        "# hostages: 2 of 5 rescued, 1 killed",
        "# bombs: the bomb went off",
    ]
    draw = _fake_game({"bombs_exploded": 0, "bombs_defused": 2}, {"blue": 0, "red": 0}, None)
    assert outcome_lines(draw) == [
        "# ---- end of the game ----",
        "# winner: nobody (a draw), after 9 turns",
        "# why: the timer bomb exploded",
        "# out of the fight: Blue team 0, Red 0",
        "# bombs: 2 defused",
    ]


def _summary(winner: str | None, reason: str, outcome: dict[str, int], red: int) -> GameSummary:
    return GameSummary(0, 1, winner, reason, 10, {"blue": 1, "red": red}, outcome)


def test_sim_text_shows_draws_casualties_hostages_bombs_and_reasons() -> None:
    scenario = SimpleNamespace(name="Yard", ruleset="toy", side_ids=lambda: ["blue", "red"])
    results = [
        _summary("red", "the timer bomb exploded", {"hostages_killed": 2, "bombs_exploded": 1}, 0),
        _summary(
            None, "the turn limit was reached", {"hostages_killed": 0, "bombs_exploded": 0}, 2
        ),
        _summary("blue", "all terrorists are out of action", {"hostages_killed": 1}, 3),
        _summary("red", "the timer bomb exploded", {"hostages_killed": 0, "bombs_exploded": 1}, 1),
    ]
    summary = summarize(scenario, 7, results)  # type: ignore[arg-type]
    assert summary["draws"] == 1
    # bombs_exploded is missing from one game, so no game is counted for it
    assert set(summary["outcomes"]) == {"hostages_killed"}
    assert summary_lines(summary) == [
        "Yard (toy), 4 games, seed 7",
        "  blue         wins      1  (25.0%)",
        "  red          wins      2  (50.0%)",
        "  draws                  1  (25.0%)",
        "  turns: mean 10.0, min 10, max 10",
        "  casualties per game: blue 1.0 (total 4), red 1.5 (total 6)",
        "  hostages: killed 0.75 per game (total 3)",
        "  how the games ended:",
        "         1  all terrorists are out of action",
        "         2  the timer bomb exploded",
        "         1  the turn limit was reached",
    ]
    results[2] = _summary("blue", "all out", {"hostages_killed": 1, "bombs_exploded": 0}, 3)
    lines = summary_lines(summarize(scenario, 7, results))  # type: ignore[arg-type]
    assert "  bombs went off in 2 of 4 games (50.0%)" in lines


def test_sim_log_and_batch_give_the_same_summary(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from killhouse.cli import app

    runner = CliRunner()
    batch = runner.invoke(app, ["sim", str(HOSTAGE), "--games", "1", "--seed", "2", "--json"])
    log = tmp_path / "g.jsonl"
    logged = runner.invoke(
        app, ["sim", str(HOSTAGE), "--games", "1", "--seed", "2", "--json", "--log", str(log)]
    )
    one, two = json.loads(batch.output), json.loads(logged.output)
    assert two.pop("log") == str(log)
    assert one == two and "outcomes" in one


def test_umpire_board_draws_figures_by_side_and_doors_as_they_are() -> None:
    scenario = load_scenario(HOSTAGE)
    game = play(scenario, 1)
    snapshot = game.ruleset.snapshot(game.state)
    marks = side_marks(scenario)
    assert marks == {"ct": "C", "t": "T"}
    lines = umpire_board(scenario, snapshot)
    assert lines[0] == f"== turn {snapshot['turn']}, umpire =="
    assert lines[-1] == "key: C ct, T t, h hostage, x out of the fight"
    rows = lines[1:-1]
    for figure in snapshot["figures"]:
        if figure["at"] is None:
            continue
        _, x, y = figure["at"]
        expected = "x" if figure["status"] != "active" else marks.get(figure["side"] or "", "h")
        if expected != "x":  # a standing figure is never hidden under a fallen one
            assert rows[y][x] == expected, (figure["id"], rows[y])
    # a door opened in play shows open: the door at ground:10,5 starts closed
    assert scenario.board.levels[0].terrain[5, 10] == Terrain.DOOR_CLOSED
    opened = np.frombuffer(bytes.fromhex(snapshot["board"][0][0]), dtype=np.uint8)
    shape = scenario.board.levels[0].terrain.shape
    if opened.reshape(shape)[5, 10] == Terrain.DOOR_OPEN:
        assert rows[5][10] == "'"


def test_side_board_draws_only_what_the_view_holds() -> None:
    scenario = load_scenario(HOSTAGE)
    view = {
        "side": "ct",
        "turn": 4,
        "figures": [{"id": "c1", "side": "ct", "at": [0, 2, 2], "status": "active"}],
        "seen": [{"id": "t9", "side": "t", "at": [0, 3, 2]}],
        "remembered": [{"id": "t8", "at": [0, 4, 2]}],
        "doors": [{"at": [0, 10, 5], "state": "open"}],
    }
    lines = side_board(scenario, view)
    assert lines[0] == "== turn 4, as side ct knows it (?: last seen there) =="
    assert lines[3] == "#.CT?.....#..........#...........#"
    assert lines[6][10] == "'"
    # nothing else of the true state: every other floor cell is empty
    body = "".join(lines[1:-1])
    assert body.count("C") == 1 and body.count("T") == 1 and body.count("h") == 0


def test_boards_draw_vehicle_footprints_in_their_sides_lower_case_letter() -> None:
    """Firewall vehicles (F-141) on the text boards: each footprint square in the owner's
    letter in lower case, a wreck as %, figures on top; a side draws only the vehicles its
    view lists."""
    from tests.server.test_replay import _played

    game = _played("firewall/escape_from_ash_end.yaml", 3, 40)
    scenario = game.scenario
    apc = game.state.vehicles["apc"]
    assert apc.on_table and apc.status == "active"
    marks = side_marks(scenario)
    lines = umpire_board(scenario, game.ruleset.snapshot(game.state))
    rows = lines[1:-1]
    for x, y in apc.squares():  # a footprint is a wall (F-141): no figure stands on it
        assert rows[y][x] == marks["gang"].lower(), (x, y, rows[y])
    assert lines[-1].endswith("x out of the fight, lower case: that side's vehicle")
    view = game.ruleset.view(game.state, "mayor")
    mayor = side_board(scenario, view)
    seen = any(v["id"] == "apc" for v in view.get("vehicles", []))
    drawn = sum(row.count(marks["gang"].lower()) for row in mayor[1:-1])
    assert (drawn > 0) is seen
    wreck = {"at": [0, 2, 2], "side": "gang", "status": "destroyed", "squares": [[2, 2], [3, 2]]}
    board = side_board(scenario, {"side": "mayor", "turn": 1, "vehicles": [wreck]})
    assert board[3][2:4] == "%%" and board[-1].endswith(", % wreck")


@pytest.mark.parametrize("side", ["fbi", "robbers", None])
def test_play_board_as_a_side_or_the_umpire(side: str | None) -> None:
    from typer.testing import CliRunner

    from killhouse.cli import app

    args = ["play", str(BANK), "--board"] + (["--view", side] if side else [])
    out = CliRunner().invoke(app, args).output
    if side is None:
        assert "== turn 1, umpire ==" in out and "knows it" not in out
    else:
        assert f"as side {side} knows it" in out and "umpire" not in out
    assert "# ---- end of the game ----" in out
    # one board per turn (and one for the set-up before turn 1, and the final position)
    turns = int(out.split("# winner: ")[1].split(" after ")[1].split()[0])
    assert turns <= out.count("key: ") <= turns + 2


def test_play_board_refuses_an_unknown_side() -> None:
    from typer.testing import CliRunner

    from killhouse.cli import app
    from killhouse.errors import KillhouseError

    result = CliRunner().invoke(app, ["play", str(BANK), "--board", "--view", "fbb"])
    assert isinstance(result.exception, KillhouseError)
    assert str(result.exception) == "--view: no side 'fbb' in this scenario (did you mean 'fbi'?)"


EMBASSY = ROOT / "scenarios" / "commando" / "embassy_rescue.yaml"


def _level_rows(lines: list[str], name: str) -> list[str]:
    """The rows of one level of a drawn board (a board of several levels heads each)."""
    start = lines.index(f"-- {name} --") + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith(("--", "key:")))
    return lines[start:end]


def test_side_board_draws_the_hostages_and_weapons_its_view_holds() -> None:
    """Commando hostages (C-171) and weapons on the ground (C-179) on a side's board: a
    hostage seen now as h, one last seen as *, a rescued one not at all; weapons as /, under a
    man standing on them; the key names only what is drawn."""
    scenario = load_scenario(EMBASSY)
    view = {
        "side": "raiders", "turn": 5,
        "figures": [{"id": "vale", "side": "raiders", "at": [0, 2, 7], "status": "active"}],
        "seen": [{"id": "k1", "side": "gunmen", "at": [0, 3, 2], "status": "dead"}],
        "remembered": [],
        "hostages": [{"id": "h1", "at": [0, 18, 5], "status": "held", "seen": True},
                     {"id": "h2", "at": [1, 17, 10], "status": "held", "turn": 3, "seen": False},
                     {"id": "h3", "status": "rescued"}],
        "weapons": [{"at": [0, 3, 2], "weapons": ["pistol"]},
                    {"at": [0, 2, 7], "weapons": ["ak47"]}],
    }
    lines = side_board(scenario, view)
    ground, upper = _level_rows(lines, "ground"), _level_rows(lines, "upper")
    assert ground[5][18] == "h" and upper[10][17] == "*"
    assert ground[2][3] == "/"  # the weapons lie over the fallen man
    assert ground[7][2] == "R"  # Vale stands on the AK47
    body = "".join(ground + upper)
    assert body.count("h") == 1 and body.count("*") == 1 and body.count("/") == 1
    assert lines[-1] == ("key: R raiders, G gunmen, h hostage, * hostage last seen there, "
                         "x out of the fight, / weapons on the ground")
    bare = side_board(scenario, {"side": "raiders", "turn": 1, "hostages": [], "weapons": []})
    assert bare[-1] == "key: R raiders, G gunmen, h hostage, x out of the fight"


def test_the_umpire_draws_every_hostage_and_weapon_a_side_only_those_it_knows() -> None:
    """The umpire's board draws the hostages from the snapshot and every weapon on the ground
    (the ruleset's umpire extras); the raiders' board at the start draws neither, as their
    view holds neither."""
    from killhouse.engine.game import Game

    scenario = load_scenario(EMBASSY)
    game = Game(scenario, seed=1)
    game.state.men["k4"].kill()  # upstairs, out of the raiders' sight
    extras = game.ruleset.umpire_extras(game.state)
    assert extras == {"weapons": [{"at": [1, 18, 9], "weapons": ["rifle"]}]}
    lines = umpire_board(scenario, game.ruleset.snapshot(game.state), extras)
    ground, upper = _level_rows(lines, "ground"), _level_rows(lines, "upper")
    assert ground[5][18] == "h" and upper[10][17] == "h" and upper[9][18] == "/"
    assert lines[-1].endswith("x out of the fight, / weapons on the ground")
    assert "/" not in "".join(umpire_board(scenario, game.ruleset.snapshot(game.state)))
    view = game.view("raiders", events_since=None)
    assert "weapons" not in view and not view.get("hostages")
    mine = "".join(side_board(scenario, view)[1:-1])
    assert "h" not in mine and "/" not in mine and "*" not in mine
    game.state.pos["k1"] = Cell(0, 4, 7)  # k1 falls in the garden, in Vale's sight
    game.state.men["k1"].kill()
    view = game.view("raiders", events_since=None)
    assert view["weapons"] == [{"at": [0, 4, 7], "weapons": ["pistol"]}]
    mine = "".join(side_board(scenario, view)[1:-1])
    assert _level_rows(side_board(scenario, view), "ground")[7][4] == "/"
    assert mine.count("/") == 1 and "h" not in mine


def test_play_board_draws_the_weapons_on_the_ground() -> None:
    from typer.testing import CliRunner

    from killhouse.cli import app

    out = CliRunner().invoke(app, ["play", str(EMBASSY), "--board", "--seed", "1"]).output
    assert ", / weapons on the ground" in out and "# ---- end of the game ----" in out
