"""Game server benchmark, on loopback (127.0.0.1) only.

1. Action round trip over the WebSocket with SQLite persistence on (send an action, wait for
   its acknowledgement, which comes after the commit), median and p99, against a bare FastAPI
   WebSocket echo of a message of the same size measured in the same run.
2. Many concurrent games (each a scripted client playing one side against the server's AI)
   for a bounded time: errors, acknowledged actions per second, the server's memory.

    python benchmarks/bench_server.py [--rounds 300] [--games 50] [--seconds 120]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from fastapi import FastAPI, WebSocket, WebSocketDisconnect  # noqa: E402

from tests.live import ServerProcess  # noqa: E402

PASSES = ("commit", "done", "continue", "ready", "end_negotiation")


def echo_app() -> Any:
    """The baseline: a FastAPI WebSocket that sends every text message straight back."""
    app = FastAPI()

    @app.websocket("/echo")
    async def echo(ws: WebSocket) -> None:
        await ws.accept()
        try:
            while True:
                await ws.send_text(await ws.receive_text())
        except WebSocketDisconnect:
            pass

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    return app


def run_echo(port: int) -> None:
    import uvicorn

    uvicorn.run(echo_app(), host="127.0.0.1", port=port, log_level="warning")


class EchoProcess(ServerProcess):
    """The echo app in a child process, started like the game server."""

    def start(self) -> None:
        import subprocess
        import urllib.request

        out = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--echo-server", str(self.port)],
            stdout=out, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the echo server did not start")


async def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    def call() -> dict[str, Any]:
        import urllib.request

        req = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            data: dict[str, Any] = json.loads(r.read())
        return data

    return await asyncio.to_thread(call)


def commit_cost(folder: Path, rounds: int) -> tuple[float, float]:
    """Median and p99 milliseconds of one bare SQLite commit (WAL, synchronous=FULL) on this
    disk: the floor of an acknowledged action's round trip."""
    import sqlite3

    db = sqlite3.connect(folder / "fsync.sqlite3", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE t (i INTEGER)")
    times = []
    for i in range(rounds):
        start = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t VALUES (?)", (i,))
        db.execute("COMMIT")
        times.append(time.perf_counter() - start)
    db.close()
    return statistics.median(times) * 1000.0, pct(times, 0.99) * 1000.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def round_trips(server: ServerProcess, echo: EchoProcess, rounds: int) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    game = await post(server.url + "/api/games", {
        "scenario": "gogogo/hostage.yaml", "seed": 1, "seats": {"ct": "human", "t": "ai"}})
    token = game["links"]["ct"].split("#token=")[1]
    times: list[float] = []
    ping_times: list[float] = []
    size = 0
    async with connect(f"ws://127.0.0.1:{server.port}/ws/{game['game']}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token, "index": 0}))
        state: dict[str, Any] = {}
        while state.get("type") != "state":
            state = json.loads(await ws.recv())
        # orders and facings, one after another: each is a real action the engine applies and
        # the store commits before the ack. Only these are timed; when every figure has its
        # orders the side commits (untimed: the AI side then plays its part of the turn).
        seq = 0
        while len(times) < rounds:
            if state.get("result"):
                raise RuntimeError("the benchmark game ended; use more turns")
            choices = [a for a in state["legal"] if a["kind"] in ("order", "face")]
            timed = bool(choices)
            passes = [a for a in state["legal"] if a["kind"] in (*PASSES, "hold")]
            pick = choices[seq % len(choices)] if choices else (passes or state["legal"])[0]
            seq += 1
            action = {k: v for k, v in pick.items() if k != "hint"}
            message = json.dumps({"type": "action", "seq": seq, "action": action})
            size = max(size, len(message))
            start = time.perf_counter()
            await ws.send(message)
            while True:
                reply = json.loads(await ws.recv())
                if reply["type"] in ("ack", "error"):
                    break
            if timed:
                times.append(time.perf_counter() - start)
            if reply["type"] != "ack":
                raise RuntimeError(f"action {seq}: {reply}")
            state = json.loads(await ws.recv())  # the state pushed after the action
            while not state["legal"] and not state["result"]:
                state = json.loads(await ws.recv())
        # the same socket's own echo: a ping answered by the game server's socket loop, with
        # no engine and no store behind it
        ping = json.dumps({"type": "ping"})
        for _ in range(rounds):
            start = time.perf_counter()
            await ws.send(ping)
            reply = json.loads(await ws.recv())
            if reply["type"] != "pong":
                raise RuntimeError(f"ping: {reply}")
            ping_times.append(time.perf_counter() - start)
    echo_times: list[float] = []
    async with connect(f"ws://127.0.0.1:{echo.port}/echo") as ws:
        payload = "x" * size
        for _ in range(rounds):
            start = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            echo_times.append(time.perf_counter() - start)
    ms = 1000.0
    out = {
        "rounds": rounds,
        "action_median_ms": statistics.median(times) * ms,
        "action_p99_ms": pct(times, 0.99) * ms,
        "echo_median_ms": statistics.median(echo_times) * ms,
        "echo_p99_ms": pct(echo_times, 0.99) * ms,
        "ping_median_ms": statistics.median(ping_times) * ms,
        "ping_p99_ms": pct(ping_times, 0.99) * ms,
    }
    out["p99_ratio"] = out["action_p99_ms"] / out["echo_p99_ms"]
    return out


async def one_player(server: ServerProcess, n: int, until: float, stats: dict[str, Any]) -> None:
    """Play one side against the server's AI, game after game, until the time is up."""
    from websockets.asyncio.client import connect

    rng = random.Random(n)
    scenario, side = [("gogogo/hostage.yaml", "ct"), ("execute/bank.yaml", "fbi"),
                      ("gogogo/assassination.yaml", "t"), ("execute/embassy.yaml", "fbi")][n % 4]
    while time.monotonic() < until:
        try:
            seats = {side: "human"}
            game = await post(server.url + "/api/games",
                              {"scenario": scenario, "seed": rng.randrange(1 << 30),
                               "seats": seats})
            stats["games"] += 1
            token = game["links"][side].split("#token=")[1]
            url = f"ws://127.0.0.1:{server.port}/ws/{game['game']}"
            async with connect(url, max_size=None, open_timeout=60) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "index": 0}))
                seq = 0
                waiting = False
                while time.monotonic() < until:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 120))
                    if msg["type"] == "state":
                        if msg["result"]:
                            stats["finished"] += 1
                            break
                        if msg["legal"] and not waiting:
                            legal = msg["legal"]
                            passes = [a for a in legal if a["kind"] in PASSES]
                            pick = (passes[0] if passes and rng.random() < 0.5
                                    else rng.choice(legal))
                            seq += 1
                            await ws.send(json.dumps({"type": "action", "seq": seq, "action": {
                                k: v for k, v in pick.items() if k != "hint"}}))
                            waiting = True
                    elif msg["type"] == "ack":
                        stats["actions"] += 1
                        waiting = False
                    elif msg["type"] == "error":
                        stats["errors"] += 1
                        stats["error_codes"][msg["code"]] = stats["error_codes"].get(
                            msg["code"], 0) + 1
                        waiting = False
                        await ws.send(json.dumps({"type": "sync", "index": 0}))
        except Exception as exc:
            stats["errors"] += 1
            key = type(exc).__name__
            stats["error_codes"][key] = stats["error_codes"].get(key, 0) + 1
            await asyncio.sleep(0.5)


def rss_kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


async def concurrent(server: ServerProcess, games: int, seconds: float) -> dict[str, Any]:
    stats: dict[str, Any] = {"actions": 0, "errors": 0, "games": 0, "finished": 0,
                             "error_codes": {}}
    assert server.proc is not None
    start = time.monotonic()
    until = start + seconds
    memory: list[int] = []

    async def sample() -> None:
        assert server.proc is not None
        while time.monotonic() < until:
            memory.append(rss_kb(server.proc.pid, "VmRSS"))
            await asyncio.sleep(1.0)

    await asyncio.gather(sample(), *(one_player(server, n, until, stats) for n in range(games)))
    elapsed = time.monotonic() - start
    stats.update({
        "clients": games,
        "seconds": round(elapsed, 1),
        "actions_per_s": round(stats["actions"] / elapsed, 1),
        "server_rss_mb_last": round(memory[-1] / 1024, 1) if memory else None,
        "server_rss_mb_peak": round(rss_kb(server.proc.pid, "VmHWM") / 1024, 1),
    })
    return stats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--echo-server", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo_server:
        run_echo(args.echo_server)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = ServerProcess(folder / "bench.sqlite3", folder / "server.log")
        server.start()  # first: a port is only taken once its server listens on it
        echo = EchoProcess(folder / "unused", folder / "echo.log")
        echo.start()
        try:
            trips = asyncio.run(round_trips(server, echo, args.rounds))
            print(
                f"round trip, {trips['rounds']} actions, SQLite WAL synchronous=FULL: "
                f"median {trips['action_median_ms']:.2f} ms, p99 {trips['action_p99_ms']:.2f} ms"
            )
            print(
                f"bare FastAPI WebSocket echo, same size:  "
                f"median {trips['echo_median_ms']:.2f} ms, p99 {trips['echo_p99_ms']:.2f} ms"
            )
            print(
                f"ping / pong over the game's own socket:  "
                f"median {trips['ping_median_ms']:.2f} ms, p99 {trips['ping_p99_ms']:.2f} ms"
            )
            print(f"p99 ratio (action / echo): {trips['p99_ratio']:.2f}")
            commit_median, commit_p99 = commit_cost(folder, min(args.rounds, 300))
            print(
                f"one bare SQLite commit (WAL, synchronous=FULL) on this disk: median "
                f"{commit_median:.2f} ms, p99 {commit_p99:.2f} ms"
            )
            print(
                f"action / bare commit: median {trips['action_median_ms'] / commit_median:.2f}, "
                f"p99 {trips['action_p99_ms'] / commit_p99:.2f}"
            )
            load = asyncio.run(concurrent(server, args.games, args.seconds))
            print(
                f"{load['clients']} concurrent games for {load['seconds']} s: "
                f"{load['actions']} actions acked ({load['actions_per_s']}/s), "
                f"{load['games']} games opened, {load['finished']} finished, "
                f"errors {load['errors']} {load['error_codes'] or ''}"
            )
            print(
                f"server memory: RSS {load['server_rss_mb_last']} MB at the end, "
                f"peak {load['server_rss_mb_peak']} MB"
            )
        finally:
            server.stop()
            echo.stop()


if __name__ == "__main__":
    main()
