"""Browser tests: pytest-playwright driving Debian's chromium against a real server process.

Playwright's own browser download does not work on these machines, so the launch points at
the system's chromium (``/usr/bin/chromium`` from Debian's package, found on the PATH).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conformance import ROOT
from tests.live import ServerProcess

#: screenshots of the browser tests (git-ignored)
ARTEFACTS = ROOT / "artefacts" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    exe = chromium()
    if exe is None:
        pytest.skip("Debian's chromium is not installed here (.ci/run installs it with apt)")
    return {**browser_type_launch_args, "executable_path": exe, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 1400, "height": 950}}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("server")
    proc = ServerProcess(folder / "games.sqlite3", folder / "server.log")
    proc.start()
    yield proc
    proc.stop()


@pytest.fixture(scope="session")
def artefacts() -> Path:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    return ARTEFACTS
