"""What runs between receiving an action and acknowledging it: with SQLite no read waits for
another game's commit (reads have a connection of their own), and a new sequence number
needs no read of the stored answers at all; a resent one still gets its first answer."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from killhouse.server.rooms import Rooms
from killhouse.server.store import SqliteStore
from tests.server.helpers import pass_action, scenario_path


def test_a_read_does_not_wait_for_the_writers_commit(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "g.sqlite3")
    try:
        held = threading.Event()
        release = threading.Event()

        def writer_mid_fsync() -> None:
            with store._lock:  # as the writer thread holds it through COMMIT and its fsync
                held.set()
                release.wait(10)

        thread = threading.Thread(target=writer_mid_fsync)
        thread.start()
        held.wait(5)
        started = time.monotonic()
        assert store.answer("no-game", "a", 1) is None
        assert store.actions("no-game") == []
        assert store.last_seq("no-game", "a") == 0
        waited = time.monotonic() - started
        release.set()
        thread.join()
        assert waited < 2.0, f"a read waited {waited:.1f} s for the writer"
    finally:
        store.close()


def test_a_new_sequence_number_reads_nothing_and_a_resent_one_gets_its_answer(
    tmp_path: Path
) -> None:
    store = SqliteStore(tmp_path / "g.sqlite3")
    reads: list[str] = []
    for name in ("answer", "actions", "last_seq"):
        original = getattr(store, name)

        def counted(*args: Any, _name: str = name, _f: Any = original) -> Any:
            reads.append(_name)
            return _f(*args)

        setattr(store, name, counted)
    try:
        text = scenario_path("execute/embassy.yaml").read_text()
        room, _ = Rooms(store).create(text, "execute/embassy.yaml", 3, {"fbi": "human"})
        legal = [{**a.to_json(), "hint": {}} for a in room.legal("fbi")]
        reads.clear()
        first, changed = room.submit("fbi", 1, pass_action(legal))
        assert changed and first["type"] == "ack"
        assert reads == ["last_seq"]  # once per side and room: where its numbers stand
        reads.clear()
        room.play_ai()
        legal = [{**a.to_json(), "hint": {}} for a in room.legal("fbi")]
        second, _ = room.submit("fbi", 2, pass_action(legal))
        assert second["type"] == "ack" and reads == []
        again, changed = room.submit("fbi", 1, {"kind": "anything"})
        assert not changed and again == {**first, "resent": True}
        assert reads == ["answer"]
        # a room loaded afresh (after a restart) knows the numbers from the store
        fresh = Rooms(store).get(room.id)
        replayed, changed = fresh.submit("fbi", 2, {"kind": "anything"})
        assert not changed and replayed == {**second, "resent": True}
    finally:
        store.close()
