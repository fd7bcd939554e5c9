"""Fixtures of the server tests: a SQLite store in a temporary folder; test-client sockets
whose receive fails clearly after a timeout instead of waiting for ever."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from killhouse.server.store import SqliteStore

#: how long a test-client socket waits for the server's next message (seconds)
RECEIVE_TIMEOUT = 60.0


@pytest.fixture(autouse=True)
def socket_receive_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """Starlette's test client runs each socket on an event loop of its own, and its
    ``receive`` waits without end: a message that never comes (a broadcast lost between two
    sockets' loops, or a push the server never sends) hung the run instead of failing. Here it
    fails after ``RECEIVE_TIMEOUT`` seconds with a message that says so."""
    import anyio
    from starlette.testclient import WebSocketTestSession

    def receive(self: WebSocketTestSession) -> Any:
        async def within() -> Any:
            with anyio.fail_after(RECEIVE_TIMEOUT):
                return await self._send_rx.receive()

        try:
            return self.portal.call(within)
        except TimeoutError:
            raise AssertionError(
                f"no message from the server within {RECEIVE_TIMEOUT:g} s (a push that never "
                "came: lost between the test client's event loops, or never sent)"
            ) from None

    monkeypatch.setattr(WebSocketTestSession, "receive", receive)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@pytest.fixture
def store(db_path: Path) -> Iterator[SqliteStore]:
    s = SqliteStore(db_path)
    yield s
    s.close()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[str]:
    from tests.server.pg import cluster, pg_bin

    if pg_bin() is None:
        pytest.skip(
            "PostgreSQL server binaries are not installed here (Debian package postgresql; "
            ".ci/run installs it)"
        )
    with cluster() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database URL of each back end: a SQLite file, and a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    from tests.server.pg import fresh_database

    return fresh_database(request.getfixturevalue("pg_cluster"))


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """``killhouse serve`` in a child process over a fresh SQLite file."""
    from tests.live import ServerProcess

    folder = tmp_path_factory.mktemp("live")
    server = ServerProcess(folder / "games.sqlite3", folder / "server.log")
    server.start()
    yield server
    server.stop()
