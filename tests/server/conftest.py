"""Fixtures of the server tests: a SQLite store in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

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
