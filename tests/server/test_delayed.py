"""A delayed spectator of one side sees that side's view N turns behind and never the present
(ruling W-9): its view, fog and events are exactly those of the game cut where turn now - N
ended, checked against a fresh replay after every action."""

from __future__ import annotations

import bisect
from typing import Any

from killhouse.engine.game import Game
from killhouse.server.store import SqliteStore
from tests.server.helpers import client_for, hello, pass_action, token


def _turn(game: Game) -> int:
    return int(game.state.turn)  # type: ignore[attr-defined]


def _expected(room: Any, side: str, behind: int) -> tuple[Game | None, int]:
    """A fresh replay cut where turn ``now - behind`` ended, and the turn now."""
    fresh = Game(room.scenario, room.record.seed)
    start, turns = _turn(fresh), []
    for action in room.game.actions:
        fresh.apply(action)
        turns.append(_turn(fresh))
    now = _turn(fresh)
    if now - behind < start:
        return None, now
    cut = bisect.bisect_right(turns, now - behind)
    replay = Game(room.scenario, room.record.seed)
    for action in room.game.actions[:cut]:
        replay.apply(action)
    return replay, now


def test_a_delayed_spectator_never_sees_the_present(store: SqliteStore) -> None:
    client = client_for(store)
    behind = 2
    response = client.post("/api/games", json={
        "scenario": "gogogo/hostage.yaml", "seed": 3, "seats": {"ct": "human"},
        "delayed": {"side": "t", "turns": behind}})
    game = response.json()
    assert set(game["delayed"]) == {"t"}
    gid = game["game"]
    room = client.app.state.rooms.get(gid)
    opened = shown_turns = 0
    # The watcher connects afresh after every action: the test client runs each socket on an
    # event loop of its own, and a broadcast from the acting socket's loop to an open
    # watcher's socket can be lost there (a test-client artefact; the server has one loop).
    with client.websocket_connect(f"/ws/{gid}") as ct:
        _, state = hello(ct, token(game["links"]["ct"]))
        for seq in range(1, 200):
            if state["result"] or _turn(room.game) >= 6:
                break
            ct.send_json({"type": "action", "seq": seq, "action": pass_action(state["legal"])})
            assert ct.receive_json()["type"] == "ack"
            state = ct.receive_json()
            with client.websocket_connect(f"/ws/{gid}") as watch:
                _, seen = hello(watch, token(game["delayed"]["t"]))
            events = list(seen["events"])
            expected, now = _expected(room, "t", behind)
            assert seen["pending"] == [] and seen["legal"] == [] and "actions" not in seen
            if expected is None:
                assert seen["view"] == {} and events == [] and not seen["delay"]["open"]
                continue
            opened += 1
            # exactly the side's view at the cut: nothing from the turn now or the one before
            assert seen["view"] == expected.view("t", events_since=None)
            assert seen["view"]["turn"] <= now - behind < now
            assert [e["seq"] for e in events] == list(range(expected.log.count_for("t")))
            assert seen["index"] == expected.log.count_for("t")
            present = room.game.view("t", events_since=None)
            if present["turn"] != seen["view"]["turn"]:
                shown_turns += 1
                assert seen["view"] != present
    assert opened and shown_turns, "the game did not run long enough to open the view"


def test_a_delayed_view_is_at_least_one_turn_behind_and_cannot_act(store: SqliteStore) -> None:
    client = client_for(store)
    for bad in (0, -1, "2", True):
        r = client.post("/api/games", json={
            "scenario": "gogogo/hostage.yaml", "seats": {"ct": "human"},
            "delayed": {"side": "t", "turns": bad}})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad-request"
    r = client.post("/api/games", json={"scenario": "gogogo/hostage.yaml",
                                        "delayed": {"side": "nobody"}})
    assert r.json()["error"]["code"] == "bad-request"
    game = client.post("/api/games", json={
        "scenario": "gogogo/hostage.yaml", "seats": {"ct": "human"},
        "delayed": [{"side": "ct"}, {"side": "t", "turns": 1}]}).json()
    assert set(game["delayed"]) == {"ct", "t"}
    room = client.app.state.rooms.get(game["game"])
    assert room.delay_of("delayed:ct") == ("ct", 2)  # the default
    assert room.delay_of("delayed:t") == ("t", 1)  # the least
    with client.websocket_connect(f"/ws/{game['game']}") as ws:
        hello(ws, token(game["delayed"]["ct"]))
        ws.send_json({"type": "action", "seq": 1, "action": {"kind": "commit"}})
        assert ws.receive_json()["code"] == "not-a-side"
