"""Replays: jump to a turn, and a ``killhouse`` game log uploaded and replayed, refused with the
one line ``killhouse replay`` prints for it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from killhouse.cli import app as cli
from killhouse.engine.game import Game, canonical_json
from killhouse.engine.record import log_lines
from killhouse.scenario.loader import load_scenario
from killhouse.server.store import SqliteStore
from tests.server.helpers import client_for, hello, open_game, pass_action, scenario_path, token

PASSES = ("end_negotiation", "ready", "continue", "done", "commit")


def _played(name: str, seed: int, steps: int) -> Game:
    game = Game(load_scenario(scenario_path(name)), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        side = game.pending()[0].side
        legal = [a for a in game.legal_actions(side)
                 if a.kind not in ("concede", "meet_demands", "release", "detonate")]
        passes = [a for a in legal if a.kind in PASSES]
        game.apply(rng.choice(passes if passes and rng.random() < 0.6 else legal))
    return game


def _log_text(game: Game) -> str:
    return "".join(canonical_json(r) + "\n" for r in log_lines(game))


def test_jump_to_a_turn_lands_where_it_begins(store: SqliteStore) -> None:
    client = client_for(store)
    game = open_game(client, "gogogo/hostage.yaml", {"ct": "human"})
    gid, umpire = game["game"], token(game["umpire"])
    with client.websocket_connect(f"/ws/{gid}") as ws:
        _, state = hello(ws, token(game["links"]["ct"]))
        for seq in range(1, 40):
            if state["result"] or state["view"]["turn"] >= 4:
                break
            ws.send_json({"type": "action", "seq": seq, "action": pass_action(state["legal"])})
            assert ws.receive_json()["type"] == "ack"
            state = ws.receive_json()

    def at(**ask: int) -> dict[str, object]:
        out: dict[str, object] = client.post(f"/api/games/{gid}/replay",
                                             json={"token": umpire, **ask}).json()
        return out

    first, last = at(step=0)["turns"]  # type: ignore[misc]
    assert last >= first + 2
    for turn in range(first + 1, last + 1):
        landed = at(turn=turn)
        assert landed["turn"] == turn
        assert at(step=int(landed["step"]) - 1)["turn"] == turn - 1  # type: ignore[call-overload]
    assert at(turn=first)["step"] == 0
    for bad in (first - 1, last + 1):
        assert at(turn=bad)["error"]["code"] == "bad-index"  # type: ignore[index]


def test_an_uploaded_log_is_replayed_from_any_step(store: SqliteStore) -> None:
    client = client_for(store)
    played = _played("execute/embassy.yaml", 4, 60)
    res = client.post("/api/logs", json={"text": _log_text(played), "name": "game.jsonl"}).json()
    assert res["steps"] == len(played.actions) > 5
    umpire = token(res["replay"])
    end = client.post(f"/api/games/{res['game']}/replay", json={"token": umpire}).json()
    assert end["step"] == len(played.actions)
    assert end["view"] == played.ruleset.snapshot(played.state)
    room = client.app.state.rooms.get(res["game"])
    assert room.game.state_hash() == played.state_hash()
    assert not room.game.over or room.game.result == played.result
    mid = client.post(f"/api/games/{res['game']}/replay",
                      json={"token": umpire, "step": 5, "perspective": "fbi"}).json()
    assert mid["step"] == 5 and "fog" in mid


def _cases(played: Game) -> list[tuple[str, str]]:
    good = _log_text(played).splitlines()
    action = json.loads(good[3])
    action["events"] = [*action["events"], {"seq": 999, "kind": "forged"}]
    forged = [*good[:3], canonical_json(action), *good[4:]]
    header = json.loads(good[0])
    header["scenario_text"] += "\n# edited\n"
    edited = [canonical_json(header), *good[1:]]
    return [
        ("garbage.jsonl", "this is not a log\n"),
        ("empty.jsonl", ""),
        ("noheader.jsonl", good[1] + "\n"),
        ("forged.jsonl", "\n".join(forged) + "\n"),
        ("edited.jsonl", "\n".join(edited) + "\n"),
        ("cut.jsonl", "\n".join([*good[:-1], good[-1][:20]]) + "\n"),
    ]


def test_a_bad_log_gets_the_line_killhouse_replay_prints(
    store: SqliteStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = client_for(store)
    played = _played("execute/embassy.yaml", 4, 20)
    monkeypatch.chdir(tmp_path)
    games = store.game_ids()
    for name, text in _cases(played):
        Path(name).write_text(text, encoding="utf-8")
        printed = CliRunner().invoke(cli, ["replay", name]).output.strip()
        assert printed.startswith(("error:", "diverged:")), printed
        r = client.post("/api/logs", json={"text": text, "name": name})
        assert r.status_code == 400, (name, r.text)
        error = r.json()["error"]
        assert error["code"] == "bad-log" and error["message"] == printed, name
        assert "\n" not in error["message"] and "Traceback" not in error["message"]
    assert store.game_ids() == games  # nothing was kept
