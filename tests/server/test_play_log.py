"""``killhouse play --log FILE``: a terminal game is kept as a game log (JSONL, as ``sim --log``)
that ``killhouse replay`` checks and the web's replay page opens."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from killhouse.cli import app
from killhouse.server.store import SqliteStore
from tests.server.helpers import client_for, scenario_path, token

runner = CliRunner()
EMBASSY = str(scenario_path("execute/embassy.yaml"))


def _uploaded(store: SqliteStore, log: Path) -> dict[str, object]:
    client = client_for(store)
    res: dict[str, object] = client.post(
        "/api/logs", json={"text": log.read_text(), "name": log.name}).json()
    assert "error" not in res, res
    step = client.post(f"/api/games/{res['game']}/replay",
                       json={"token": token(str(res["replay"])), "step": 1,
                             "perspective": "fbi"}).json()
    assert step["step"] == 1 and "fog" in step
    return res


def test_a_terminal_game_left_when_the_input_ends_is_logged_and_replays(
    tmp_path: Path, store: SqliteStore
) -> None:
    log = tmp_path / "games" / "mine.jsonl"
    # three choices by number (the third ends the negotiation), then the input ends
    result = runner.invoke(app, ["play", EMBASSY, "--as", "fbi", "--seed", "3", "--log", str(log)],
                           input="1\n1\n3\n")
    assert "input ended before the game did" in str(result.exception)
    assert f"log: {log}" in result.output
    lines = log.read_text().splitlines()
    assert sum('"type":"action"' in line for line in lines) >= 3
    replay = runner.invoke(app, ["replay", str(log)])
    assert replay.exit_code == 0 and "identical" in replay.output
    res = _uploaded(store, log)
    assert int(str(res["steps"])) >= 3


def test_an_ai_game_played_in_the_terminal_is_logged_to_its_end(
    tmp_path: Path, store: SqliteStore
) -> None:
    log = tmp_path / "ai.jsonl"
    result = runner.invoke(app, ["play", EMBASSY, "--seed", "2", "--log", str(log)])
    assert result.exit_code == 0, result.output
    assert '"type":"end"' in log.read_text().splitlines()[-1]
    assert "identical" in runner.invoke(app, ["replay", str(log)]).output
    _uploaded(store, log)


def test_a_log_that_cannot_be_written_is_one_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = runner.invoke(app, ["play", EMBASSY, "--seed", "2", "--log", str(blocker / "x.jsonl")])
    assert "cannot write the log" in str(result.exception)
