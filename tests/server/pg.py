"""A throwaway PostgreSQL cluster from Debian's ``postgresql`` package, for the store tests.

``initdb`` runs as the ``postgres`` user when the tests run as root (PostgreSQL refuses to run
as root); the server listens on a free port of 127.0.0.1 only and is stopped afterwards.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: where Debian's postgresql package puts its server binaries (one folder per major version)
DEBIAN_GLOB = "/usr/lib/postgresql/*/bin"


def pg_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``, or ``None`` if PostgreSQL is absent."""
    for folder in sorted(glob.glob(DEBIAN_GLOB), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    found = shutil.which("pg_ctl")
    if found and (Path(found).parent / "initdb").exists():
        return Path(found).parent
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(args: list[str]) -> list[str]:
    if os.geteuid() != 0:
        return args
    return ["runuser", "-u", "postgres", "--", *args]


@contextmanager
def cluster() -> Iterator[str]:
    """Start a cluster; yield its URL (``postgresql://postgres@127.0.0.1:PORT/postgres``)."""
    bin_dir = pg_bin()
    assert bin_dir is not None
    root = Path(tempfile.mkdtemp(prefix="killhouse-pg-"))
    data = root / "data"
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
    port = free_port()
    run = {"check": True, "capture_output": True, "text": True}
    subprocess.run(
        _as_postgres([str(bin_dir / "initdb"), "-D", str(data), "-A", "trust", "-U",
                      "postgres", "--no-sync"]),
        **run,  # type: ignore[call-overload]
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=on"
    subprocess.run(
        _as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-o", options, "-w",
                      "-l", str(root / "log"), "start"]),
        **run,  # type: ignore[call-overload]
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres([str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w",
                          "stop"]),
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


def fresh_database(url: str) -> str:
    """A new empty database in the cluster at ``url``; returns its URL."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name
