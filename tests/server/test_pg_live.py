"""Several ``killhouse serve`` processes on one PostgreSQL database: a seat open on process A
is pushed an action committed through process B at once, without a reload (LISTEN/NOTIFY)."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from tests.live import ServerProcess
from tests.server.helpers import pass_action


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, json.dumps(body).encode(),
                                 {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        data: dict[str, Any] = json.loads(r.read())
    return data


def _first_state(ws: Any, token: str) -> dict[str, Any]:
    ws.send(json.dumps({"type": "hello", "token": token, "index": 0}))
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=30))
        if msg["type"] == "state":
            return msg


def test_a_seat_on_one_process_sees_an_action_taken_through_another(
    tmp_path: Path, pg_cluster: str
) -> None:
    from tests.server.pg import fresh_database

    db = fresh_database(pg_cluster)
    a = ServerProcess(db, tmp_path / "a.log")
    b = ServerProcess(db, tmp_path / "b.log")
    a.start()
    b.start()
    try:
        game = _post(a.url + "/api/games", {"scenario": "gogogo/hostage.yaml", "seed": 9,
                                            "seats": {"ct": "human", "t": "human"}})
        ct_token = game["links"]["ct"].split("#token=")[1]
        t_token = game["links"]["t"].split("#token=")[1]
        gid = game["game"]
        with connect(f"ws://127.0.0.1:{a.port}/ws/{gid}") as on_a, \
                connect(f"ws://127.0.0.1:{b.port}/ws/{gid}") as on_b:
            ct = _first_state(on_a, ct_token)
            t = _first_state(on_b, t_token)
            for seq in range(1, 4):
                # t acts through B; ct's socket on A is pushed the change, asking nothing
                sent = time.monotonic()
                on_b.send(json.dumps({"type": "action", "seq": seq,
                                      "action": pass_action(t["legal"])}))
                answer = json.loads(on_b.recv(timeout=30))
                assert answer["type"] == "ack", answer
                t = json.loads(on_b.recv(timeout=30))
                pushed = json.loads(on_a.recv(timeout=10))
                assert pushed["type"] == "state"
                assert pushed["from"] == ct["index"] and pushed["index"] > ct["index"]
                assert time.monotonic() - sent < 10
                ct = pushed
                if not t["legal"]:
                    # now ct must decide: it acts through A and t's seat on B is pushed
                    assert ct["legal"]
                    on_a.send(json.dumps({"type": "action", "seq": seq,
                                          "action": pass_action(ct["legal"])}))
                    assert json.loads(on_a.recv(timeout=30))["type"] == "ack"
                    ct = json.loads(on_a.recv(timeout=30))
                    t = json.loads(on_b.recv(timeout=10))
                    assert t["type"] == "state" and t["legal"]
    finally:
        a.stop()
        b.stop()
