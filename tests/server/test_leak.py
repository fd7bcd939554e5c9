"""Nothing a side's socket carries names a hidden id: for random games of every ruleset, no
message to a side contains an id of its ``secret_ids`` that its ``known_ids`` does not hold.

The server runs in its own process; the test keeps a replica of each game (same scenario,
seed and acknowledged actions) to know, at every message, what each side may know.
"""

from __future__ import annotations

import json
import random
import urllib.request
from contextlib import ExitStack
from typing import Any

import pytest
from websockets.sync.client import connect

from killhouse.engine.game import Game
from killhouse.rulesets.base import Action
from killhouse.scenario.loader import load_scenario
from tests.conformance import SCENARIO_DIR, registered, shipped_scenarios
from tests.live import ServerProcess

STEPS = 40


def _strings(value: Any) -> set[str]:
    """Every string in a JSON value, keys included."""
    out: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.add(item)
        elif isinstance(item, dict):
            out.update(str(k) for k in item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, json.dumps(body).encode(),
                                 {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        data: dict[str, Any] = json.loads(r.read())
    return data


@pytest.mark.parametrize("ruleset", registered())
def test_no_socket_message_names_a_secret_the_side_does_not_know(
    ruleset: str, live_server: ServerProcess
) -> None:
    rng = random.Random(ruleset)
    checked = 0
    for path in shipped_scenarios(ruleset):
        scenario = load_scenario(path)
        sides = scenario.side_ids()
        seed = rng.randrange(1 << 30)
        game = _post(live_server.url + "/api/games", {
            "scenario": path.relative_to(SCENARIO_DIR).as_posix(), "seed": seed,
            "seats": dict.fromkeys(sides, "human")})
        replica = Game(scenario, seed)

        def check(side: str, message: dict[str, Any], replica: Game = replica,
                  name: str = path.name) -> None:
            nonlocal checked
            rules = replica.ruleset
            hidden = rules.secret_ids(replica.state, side) - rules.known_ids(replica.state, side)
            # the umpire's extras (every weapon on the ground in commando) are his alone (W-19)
            assert "extras" not in message, (name, side, message.get("type"))
            leaked = hidden & _strings(message)
            assert not leaked, (name, side, message.get("type"), sorted(leaked))
            checked += bool(hidden)

        url = f"ws://127.0.0.1:{live_server.port}/ws/{game['game']}"
        states: dict[str, dict[str, Any]] = {}
        numbers: dict[str, list[int]] = {}
        with ExitStack() as stack:
            sockets = {side: stack.enter_context(connect(url, max_size=None)) for side in sides}
            for side, ws in sockets.items():
                tok = game["links"][side].split("#token=")[1]
                ws.send(json.dumps({"type": "hello", "token": tok, "index": 0}))
                for _ in range(2):  # the board, then the state
                    message = json.loads(ws.recv(timeout=30))
                    check(side, message)
                states[side] = message
                numbers[side] = [e["seq"] for e in message["events"]]
            for seq in range(1, STEPS + 1):
                due = [s for s, st in states.items() if st["legal"]]
                if not due or replica.over:
                    break
                side = due[0]
                pick = rng.choice(states[side]["legal"])
                action = {k: v for k, v in pick.items() if k != "hint"}
                sockets[side].send(json.dumps({"type": "action", "seq": seq, "action": action}))
                answer = json.loads(sockets[side].recv(timeout=30))
                check(side, answer)
                assert answer["type"] == "ack", answer
                replica.apply(Action.from_json({**action, "side": side}))
                # every open seat is pushed its new state
                for other, ws in sockets.items():
                    state = json.loads(ws.recv(timeout=30))
                    assert state["type"] == "state"
                    check(other, state)
                    # a side's events are numbered 0, 1, … in its own sequence: no number
                    # counts the events hidden from it
                    numbers[other] += [e["seq"] for e in state["events"]]
                    assert numbers[other] == list(range(len(numbers[other])))
                    assert state["index"] == len(numbers[other]) == replica.log.count_for(other)
                    states[other] = state
        tokens = [link.split("#token=")[1] for link in
                  [*game["links"].values(), game["spectator"], game["umpire"]]]
        log = live_server.log_path.read_text()
        assert "/ws/" in log or "/api/games" in log  # the access log is on
        assert not [t for t in tokens if t in log], "a secret token reached the server's log"
    assert checked > 0, "no message was sent while a side had secrets to keep"
