"""``killhouse serve`` in a child process on a free loopback port, for browser and crash tests."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.conformance import SCENARIO_DIR


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``killhouse serve`` in a child process on a free loopback port."""

    def __init__(self, db: str | Path, log: Path) -> None:
        self.db = db
        self.log_path = log
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        out = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "killhouse.cli", "serve", "--port", str(self.port),
             "--db", str(self.db), "--scenarios", str(SCENARIO_DIR)],
            stdout=out, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {self.log_path.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash or a power cut of the process."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(10)
            self.proc = None
