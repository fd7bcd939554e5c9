"""The store, on SQLite and on a throwaway PostgreSQL cluster: the same schema and answers."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from killhouse.server.store import GameRecord, SqliteStore, StoreError, Write, open_store
from tests.server.helpers import client_for, hello, open_game, pass_action, token


def _record(game_id: str = "g1") -> GameRecord:
    return GameRecord(game_id, "name: x", "x.yaml", 7, {"a": "human"}, {"h": "a"}, {}, 1.0)


def test_games_actions_and_answers_round_trip(db_url: str) -> None:
    store = open_store(db_url)
    try:
        store.create_game(_record())
        assert store.game("g1") == _record()
        assert store.game("nope") is None
        store.append("g1", [Write(0, "a", {"kind": "go"}, 3, {"type": "ack", "seq": 3}),
                            Write(1, "b", {"kind": "wait", "to": [0, 1, 2]})])
        assert [(a.index, a.side, a.action) for a in store.actions("g1")] == [
            (0, "a", {"kind": "go"}), (1, "b", {"kind": "wait", "to": [0, 1, 2]})]
        assert store.actions("g1", 1)[0].index == 1
        assert store.action_count("g1") == 2
        assert store.answer("g1", "a", 3) == {"type": "ack", "seq": 3}
        assert store.answer("g1", "a", 4) is None
        # a taken slot is refused whole: neither action of the batch is stored
        with pytest.raises(StoreError):
            store.append("g1", [Write(2, "a", {"kind": "x"}), Write(1, "a", {"kind": "y"})])
        assert store.action_count("g1") == 2
        store.remember_answer("g1", "a", 9, {"type": "error", "code": "illegal-action"})
        store.remember_answer("g1", "a", 9, {"type": "error", "code": "other"})
        assert store.answer("g1", "a", 9) == {"type": "error", "code": "illegal-action"}
        assert store.game_ids() == ["g1"]
    finally:
        store.close()


def test_a_game_survives_a_restart_on_either_back_end(db_url: str) -> None:
    store = open_store(db_url)
    client = client_for(store)
    game = open_game(client, "gogogo/hostage.yaml", {"ct": "human"})
    with client.websocket_connect(f"/ws/{game['game']}") as ws:
        _, state = hello(ws, token(game["links"]["ct"]))
        for seq in range(1, 4):
            ws.send_json({"type": "action", "seq": seq, "action": pass_action(state["legal"])})
            assert ws.receive_json()["type"] == "ack"
            state = ws.receive_json()
    room = client.app.state.rooms.get(game["game"])
    expected = (len(room.game.actions), room.game.state_hash())
    store.close()
    again = open_store(db_url)
    try:
        room2 = client_for(again).app.state.rooms.get(game["game"])
        assert (len(room2.game.actions), room2.game.state_hash()) == expected
    finally:
        again.close()


def test_sqlite_appends_at_the_same_time_share_one_commit(tmp_path: Path) -> None:
    """Group commit (ruling W-14): appends queued while a commit is being written are
    committed together in the next one; each returns only once its rows are committed, and a
    taken slot fails its own append alone."""
    store = SqliteStore(tmp_path / "g.sqlite3")
    try:
        for n in range(6):
            store.create_game(_record(f"g{n}"))
        store.append("g0", [Write(0, "a", {"kind": "first"})])
        assert store.commits == 1
        returned: list[str] = []
        errors: list[Exception] = []

        def append(game: str, index: int) -> None:
            try:
                store.append(game, [Write(index, "a", {"kind": "go"})])
                returned.append(game)
            except StoreError as exc:
                errors.append(exc)

        # hold the database while the writer has taken the first append: the others queue
        with store._lock:
            first = threading.Thread(target=append, args=("g1", 0))
            first.start()
            deadline = time.monotonic() + 10
            while store._queue and time.monotonic() < deadline:
                time.sleep(0.01)
            rest = [threading.Thread(target=append, args=(f"g{n}", 0)) for n in (2, 3, 4, 5)]
            rest.append(threading.Thread(target=append, args=("g0", 0)))  # a taken slot
            for t in rest:
                t.start()
            while len(store._queue) < 5 and time.monotonic() < deadline:
                time.sleep(0.01)
            assert len(store._queue) == 5 and not returned  # nobody answered before a commit
        for t in [first, *rest]:
            t.join(10)
        assert store.commits == 3  # the first append's, then the five queued ones together
        assert sorted(returned) == ["g1", "g2", "g3", "g4", "g5"]
        assert len(errors) == 1
        assert [a.action for a in store.actions("g0")] == [{"kind": "first"}]
    finally:
        store.close()
    # what was acknowledged is on disk for the next process
    again = SqliteStore(tmp_path / "g.sqlite3")
    try:
        assert [again.action_count(f"g{n}") for n in range(6)] == [1] * 6
    finally:
        again.close()
