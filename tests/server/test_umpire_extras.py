"""The umpire's extras (ruling W-19): what the ruleset's ``umpire_extras`` adds to the true
state (commando: every weapon on the ground, C-179) reaches the umpire's seat and its replay,
and never a side's socket or a spectator's, which get only the weapons their view holds."""

from __future__ import annotations

import json
import urllib.request
from contextlib import ExitStack
from typing import Any

from websockets.sync.client import connect

from killhouse.engine.game import Game
from tests.live import ServerProcess
from tests.server.helpers import played_until_a_weapon_lies_unseen

EMBASSY = "commando/embassy_rescue.yaml"
#: the role AI on both sides; a gunman falls where the raiders see him and his own side
#: does not (after some 116 actions, in turn 3)
SEED = 2
ROLES = ("raiders", "gunmen", "spectator", "umpire")


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, json.dumps(body).encode(),
                                 {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        data: dict[str, Any] = json.loads(r.read())
    return data


def _lying(value: Any) -> list[Any]:
    """Every entry of a weapons-on-the-ground list (``{"at", "weapons"}``) in a JSON value."""
    out: list[Any] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if set(item) == {"at", "weapons"}:
                out.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


def _keys(value: Any) -> set[str]:
    """Every key of every object in a JSON value."""
    out: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out.update(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


def _check(role: str, message: dict[str, Any], replica: Game) -> None:
    """The umpire's state carries the true extras beside the unchanged snapshot; any other
    seat's message carries no extras and exactly the weapons its own view holds."""
    rules = replica.ruleset
    if role == "umpire":
        if message["type"] == "state":
            assert message["extras"] == rules.umpire_extras(replica.state)
            assert message["view"] == rules.snapshot(replica.state)
            assert message["state_hash"] == replica.state_hash()  # the hash is untouched
        return
    assert "extras" not in _keys(message), (role, message["type"])
    own = replica.view(role, events_since=None).get("weapons", []) if role != "spectator" else []
    assert sorted(map(json.dumps, _lying(message))) == sorted(map(json.dumps, own)), role


def test_only_the_umpire_seat_is_sent_the_weapons_on_the_ground(
    live_server: ServerProcess,
) -> None:
    played = played_until_a_weapon_lies_unseen(EMBASSY, SEED, "gunmen")
    truth = played.ruleset.umpire_extras(played.state)["weapons"]
    unseen = [w for w in truth if w not in played.view("gunmen", events_since=None)
              .get("weapons", [])]
    assert unseen and truth  # the case the test is for: the umpire knows what a side does not
    game = _post(live_server.url + "/api/games", {
        "scenario": EMBASSY, "seed": SEED, "seats": {"raiders": "human", "gunmen": "human"}})
    links = {**game["links"], "spectator": game["spectator"], "umpire": game["umpire"]}
    replica = Game(played.scenario, SEED)
    url = f"ws://127.0.0.1:{live_server.port}/ws/{game['game']}"
    last: dict[str, dict[str, Any]] = {}
    with ExitStack() as stack:
        sockets = {role: stack.enter_context(connect(url, max_size=None)) for role in ROLES}
        for role, ws in sockets.items():
            ws.send(json.dumps({"type": "hello", "index": 0,
                                "token": links[role].split("#token=")[1]}))
            for _ in range(2):  # the board, then the state
                last[role] = json.loads(ws.recv(timeout=30))
                _check(role, last[role], replica)
        for seq, action in enumerate(played.actions, 1):
            args = {k: v for k, v in action.to_json().items() if k != "side"}
            sockets[action.side].send(json.dumps({"type": "action", "seq": seq,
                                                  "action": args}))
            answer = json.loads(sockets[action.side].recv(timeout=30))
            assert answer["type"] == "ack", answer
            replica.apply(action)
            for role, ws in sockets.items():  # every seat is pushed its new state
                last[role] = json.loads(ws.recv(timeout=30))
                assert last[role]["type"] == "state"
                _check(role, last[role], replica)
    # at the end: the umpire's board has the weapon the gunmen do not see; theirs has not
    assert last["umpire"]["extras"] == {"weapons": truth}
    assert "weapons" not in last["umpire"]["view"]
    assert not [w for w in unseen if w in last["gunmen"]["view"].get("weapons", [])]
    assert last["raiders"]["view"]["weapons"] == truth  # the raiders see where he fell
    # the replay as the umpire carries them too; as the gunmen, their own view alone
    umpire = links["umpire"].split("#token=")[1]
    replay = f"{live_server.url}/api/games/{game['game']}/replay"
    ruled = _post(replay, {"token": umpire})
    assert ruled["extras"] == {"weapons": truth} and "weapons" not in ruled["view"]
    theirs = _post(replay, {"token": umpire, "perspective": "gunmen"})
    assert "extras" not in _keys(theirs)
    assert not [w for w in unseen if w in _lying(theirs)]


def test_the_umpire_is_sent_empty_extras_where_nothing_lies_about(
    live_server: ServerProcess,
) -> None:
    """Before anybody falls, and in a ruleset without extras, the umpire's ``extras`` is
    ``{}``, so the board draws no weapon."""
    for scenario, seats in ((EMBASSY, {"raiders": "human", "gunmen": "ai"}),
                            ("execute/embassy.yaml", {"fbi": "human"})):
        game = _post(live_server.url + "/api/games",
                     {"scenario": scenario, "seed": SEED, "seats": seats})
        url = f"ws://127.0.0.1:{live_server.port}/ws/{game['game']}"
        with connect(url, max_size=None) as ws:
            ws.send(json.dumps({"type": "hello", "index": 0,
                                "token": game["umpire"].split("#token=")[1]}))
            assert json.loads(ws.recv(timeout=30))["type"] == "board"
            state = json.loads(ws.recv(timeout=30))
        assert state["type"] == "state" and state["extras"] == {}, scenario
