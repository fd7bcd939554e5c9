"""Fixtures of the server tests: a SQLite store in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from killhouse.server.store import SqliteStore


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
