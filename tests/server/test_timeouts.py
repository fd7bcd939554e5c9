"""A test-client socket that waits for a message the server never sends fails with a clear
message after a timeout (conftest's ``socket_receive_timeout``) instead of hanging the run."""

from __future__ import annotations

import time

import pytest

from killhouse.server.store import SqliteStore
from tests.server import conftest
from tests.server.helpers import client_for, hello, open_game, token


def test_a_message_that_never_comes_fails_clearly(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(conftest, "RECEIVE_TIMEOUT", 0.5)
    client = client_for(store)
    game = open_game(client, "execute/embassy.yaml", {"fbi": "human"})
    with client.websocket_connect(f"/ws/{game['game']}") as ws:
        hello(ws, token(game["links"]["fbi"]))
        started = time.monotonic()
        with pytest.raises(AssertionError, match=r"no message from the server within 0\.5 s"):
            ws.receive_json()  # nothing is pending for the seat: the server sends nothing
        assert time.monotonic() - started < 10
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}  # the socket still works after it
