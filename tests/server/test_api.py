"""The HTTP API and the seat socket: games open, actions are acknowledged once, errors are
clear, carry a stable code and change nothing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from killhouse.server.store import SqliteStore
from tests.server.helpers import client_for, hello, open_game, pass_action, token

EMBASSY = "execute/embassy.yaml"


def _fingerprint(client: Any, game: str) -> tuple[int, int, str]:
    room = client.app.state.rooms.get(game)
    store = client.app.state.store
    return store.action_count(game), len(room.game.log), room.game.state_hash()


def test_store_runs_wal_with_full_sync(store: SqliteStore) -> None:
    assert store.pragma("journal_mode") == "wal"
    assert store.pragma("synchronous") == 2  # FULL


def test_scenarios_are_listed_per_ruleset_with_map_and_description(store: SqliteStore) -> None:
    data = client_for(store).get("/api/scenarios").json()
    ids = [r["id"] for r in data["rulesets"]]
    assert {"execute", "gogogo"} <= set(ids)
    for ruleset in data["rulesets"]:
        assert ruleset["scenarios"]
        for scn in ruleset["scenarios"]:
            assert scn["description"] and scn["sides"] and scn["board"]["levels"]


def test_a_game_against_the_ai_acks_once_and_the_ai_answers(store: SqliteStore) -> None:
    client = client_for(store)
    game = open_game(client, EMBASSY, {"fbi": "human"})
    assert set(game["links"]) == {"fbi"} and game["spectator"] and game["umpire"]
    assert len(token(game["links"]["fbi"])) >= 43  # token_urlsafe(32)
    with client.websocket_connect(f"/ws/{game['game']}") as ws:
        board, state = hello(ws, token(game["links"]["fbi"]))
        assert board["scenario"]["name"] == "Embassy Siege"
        # the AI (terrorists) set up on its own before the human's first decision
        assert [p["side"] for p in state["pending"]] == ["fbi"]
        assert state["legal"] and state["fog"]
        before = _fingerprint(client, game["game"])
        action = pass_action(state["legal"])
        ws.send_json({"type": "action", "seq": 1, "action": action})
        ack = ws.receive_json()
        assert ack["type"] == "ack" and ack["seq"] == 1
        pushed = ws.receive_json()
        assert pushed["type"] == "state" and pushed["index"] > state["index"]
        after = _fingerprint(client, game["game"])
        assert after[0] > before[0]
        # the same sequence number again: the first answer, nothing applied twice
        ws.send_json({"type": "action", "seq": 1, "action": action})
        again = ws.receive_json()
        assert again["resent"] is True
        assert {k: v for k, v in again.items() if k != "resent"} == ack
        assert _fingerprint(client, game["game"]) == after


def test_a_restarted_server_rebuilds_the_game_by_replay(db_path: Path) -> None:
    first = SqliteStore(db_path)
    client = client_for(first)
    game = open_game(client, "gogogo/hostage.yaml", {"ct": "human"})
    with client.websocket_connect(f"/ws/{game['game']}") as ws:
        _, state = hello(ws, token(game["links"]["ct"]))
        ws.send_json({"type": "action", "seq": 7, "action": pass_action(state["legal"])})
        assert ws.receive_json()["type"] == "ack"
        # the AI answers after the ack (W-6), in a worker thread (W-14): the state pushed
        # after the ack comes once its actions are committed too
        assert ws.receive_json()["type"] == "state"
    expected = _fingerprint(client, game["game"])
    first.close()
    second = SqliteStore(db_path)
    client2 = client_for(second)
    assert _fingerprint(client2, game["game"]) == expected
    held = client2.app.state.rooms.get(game["game"]).event_count("ct")
    with client2.websocket_connect(f"/ws/{game['game']}") as ws:
        _, state = hello(ws, token(game["links"]["ct"]), index=held)
        assert state["events"] == [] and state["index"] == held
    second.close()


def _errors(ws: Any, message: str | dict[str, Any]) -> dict[str, Any]:
    ws.send_text(message if isinstance(message, str) else json.dumps(message))
    answer: dict[str, Any] = ws.receive_json()
    assert answer["type"] == "error", answer
    assert answer["message"] and "Traceback" not in answer["message"]
    return answer


def test_socket_errors_have_stable_codes_and_change_nothing(store: SqliteStore) -> None:
    client = client_for(store)
    game = open_game(client, EMBASSY, {"fbi": "human"})
    gid = game["game"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        _, state = hello(ws, token(game["links"]["fbi"]))
        before = _fingerprint(client, gid)
        assert _errors(ws, "{not json")["code"] == "bad-json"
        assert _errors(ws, "[1, 2]")["code"] == "bad-json"
        big = json.dumps({"type": "action", "seq": 2, "action": {"kind": "x" * 20_000}})
        assert _errors(ws, big)["code"] == "too-large"
        bad_kind = {"type": "action", "seq": 3, "action": {"kind": "teleport"}}
        answer = _errors(ws, bad_kind)
        assert answer["code"] == "unknown-action-kind" and answer["seq"] == 3
        assert "teleport" in answer["message"]
        assert _errors(ws, {"type": "sync", "index": 10**9})["code"] == "bad-index"
        assert _errors(ws, {"type": "sync", "index": -1})["code"] == "bad-index"
        assert _errors(ws, {"type": "action", "seq": "one", "action": {}})["code"] == "bad-message"
        assert _errors(ws, {"type": "dance"})["code"] == "bad-message"
        # an illegal action of a kind that is open: the engine's reason
        assert any(a["kind"] == "talk" for a in state["legal"])
        wrong = {"type": "action", "seq": 4, "action": {"kind": "talk", "text": 5}}
        answer = _errors(ws, wrong)
        assert answer["code"] == "malformed-action" and "'text' must be text" in answer["message"]
        # resending a refused sequence number gets the same refusal, even with other content
        again = _errors(ws, {**wrong, "action": {"kind": "talk", "text": "hello"}})
        assert again["resent"] is True
        assert {k: v for k, v in again.items() if k != "resent"} == answer
        assert _fingerprint(client, gid) == before


def test_unknown_game_and_wrong_token_close_the_socket(store: SqliteStore) -> None:
    client = client_for(store)
    game = open_game(client, EMBASSY, {"fbi": "human"})
    with client.websocket_connect("/ws/no-such-game") as ws:
        ws.send_json({"type": "hello", "token": "x"})
        assert ws.receive_json()["code"] == "unknown-game"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4404
    with client.websocket_connect(f"/ws/{game['game']}") as ws:
        ws.send_json({"type": "hello", "token": "not-the-token"})
        assert ws.receive_json()["code"] == "bad-token"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(f"/ws/{game['game']}") as ws:
        ws.send_json({"type": "hello", "token": token(game["links"]["fbi"]), "index": 10**6})
        assert ws.receive_json()["code"] == "bad-index"


def test_spectators_and_the_umpire_cannot_act(store: SqliteStore) -> None:
    client = client_for(store)
    game = open_game(client, EMBASSY, {"fbi": "human"})
    for link in (game["spectator"], game["umpire"]):
        with client.websocket_connect(f"/ws/{game['game']}") as ws:
            _, state = hello(ws, token(link))
            assert state["legal"] == []
            answer = _errors(ws, {"type": "action", "seq": 1, "action": {"kind": "done"}})
            assert answer["code"] == "not-a-side"


def test_http_errors_are_json_with_codes(store: SqliteStore) -> None:
    client = client_for(store)
    r = client.get("/api/games/nope/board")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown-game"
    r = client.post("/api/games", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad-json"
    r = client.post("/api/games", json={"scenario": "../../etc/passwd"})
    assert r.json()["error"]["code"] == "unknown-scenario"
    r = client.post("/api/games", json={"scenario": EMBASSY, "seats": {"swat": "human"}})
    assert r.json()["error"]["code"] == "bad-seats"
    r = client.post("/api/games", json={"text": "x" * 600_000})
    assert r.status_code == 413 and r.json()["error"]["code"] == "too-large"
    game = open_game(client, EMBASSY, {"fbi": "human"})
    r = client.post(f"/api/games/{game['game']}/replay", json={"token": "wrong"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad-token"
    assert store.game_ids() == [game["game"]]


def test_an_uploaded_scenario_is_validated_as_killhouse_validate_prints(
    store: SqliteStore,
) -> None:
    client = client_for(store)
    r = client.post("/api/validate", json={"text": "name: x\nruleset: exeucte\n",
                                           "name": "mine.yaml"})
    data = r.json()
    assert data["ok"] is False
    assert any(p.startswith("mine.yaml:2: ruleset") for p in data["problems"])
    r = client.post("/api/games", json={"text": "name: x\nruleset: exeucte\n",
                                        "name": "mine.yaml"})
    assert r.json()["error"]["code"] == "bad-scenario"
    assert "mine.yaml:2: ruleset" in r.json()["error"]["message"]


def test_replay_steps_and_play_on_from_a_step(store: SqliteStore) -> None:
    client = client_for(store)
    game = open_game(client, EMBASSY, {"fbi": "human"})
    gid, umpire = game["game"], token(game["umpire"])
    with client.websocket_connect(f"/ws/{gid}") as ws:
        _, state = hello(ws, token(game["links"]["fbi"]))
        for seq in (1, 2):
            ws.send_json({"type": "action", "seq": seq, "action": pass_action(state["legal"])})
            assert ws.receive_json()["type"] == "ack"
            state = ws.receive_json()
    total = len(client.app.state.rooms.get(gid).game.actions)
    # before the end only the umpire may replay
    r = client.post(f"/api/games/{gid}/replay", json={"token": token(game["links"]["fbi"])})
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    last = client.post(f"/api/games/{gid}/replay", json={"token": umpire}).json()
    assert last["step"] == last["steps"] == total
    back = client.post(f"/api/games/{gid}/replay",
                       json={"token": umpire, "step": total - 1, "perspective": "fbi"}).json()
    assert back["step"] == total - 1 and back["perspective"] == "fbi" and "fog" in back
    assert len(back["events"]) < len(last["events"])
    r = client.post(f"/api/games/{gid}/replay", json={"token": umpire, "step": total + 1})
    assert r.json()["error"]["code"] == "bad-index"
    # play on from step 1: same scenario and seed, the first action, new seats and tokens
    new = client.post("/api/games", json={"from_game": gid, "token": umpire, "step": 1,
                                          "seats": {"fbi": "human"}}).json()
    assert new["game"] != gid and new["seed"] == client.app.state.rooms.get(gid).record.seed
    room = client.app.state.rooms.get(new["game"])
    old = client.app.state.rooms.get(gid)
    assert room.game.actions[0] == old.game.actions[0]
    assert token(new["links"]["fbi"]) != token(game["links"]["fbi"])


def test_a_narrator_that_fails_on_a_copy_never_keeps_a_seat_from_its_state(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    from killhouse.rulesets.execute.ruleset import ExecuteRuleset

    def broken(self: object, event: object) -> str:
        raise KeyError("range")

    monkeypatch.setattr(ExecuteRuleset, "narrate", broken)
    client = client_for(store)
    game = open_game(client, EMBASSY, {"fbi": "human"})
    with client.websocket_connect(f"/ws/{game['game']}") as ws:
        _, state = hello(ws, token(game["links"]["fbi"]))
        assert state["events"] and all(e["text"] == "" for e in state["events"])
        assert state["legal"]


def _numbers(ws: Any, tok: str, legal_side: bool, steps: int) -> tuple[list[int], int]:
    """The event numbers a seat receives over ``steps`` actions, and its last index."""
    _, state = hello(ws, tok)
    seen = [e["seq"] for e in state["events"]]
    for seq in range(1, steps + 1):
        if not legal_side or not state["legal"] or state["result"]:
            break
        ws.send_json({"type": "action", "seq": seq, "action": pass_action(state["legal"])})
        assert ws.receive_json()["type"] == "ack"
        state = ws.receive_json()
        seen += [e["seq"] for e in state["events"]]
    return seen, state["index"]


def test_a_seats_event_numbers_count_no_event_hidden_from_it(store: SqliteStore) -> None:
    client = client_for(store)
    game = open_game(client, "gogogo/hostage.yaml", {"ct": "human"})
    gid = game["game"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        seen, index = _numbers(ws, token(game["links"]["ct"]), True, 6)
    log = client.app.state.rooms.get(gid).game.log
    assert len(log) > index, "the test needs events hidden from ct"
    assert seen == list(range(index)) and index == log.count_for("ct")
    with client.websocket_connect(f"/ws/{gid}") as ws:
        public, index = _numbers(ws, token(game["spectator"]), False, 0)
    assert public == list(range(index)) and index == log.public_count() < len(log)
    # a resync counts in the seat's own numbers; the game's total is out of range for it
    with client.websocket_connect(f"/ws/{gid}") as ws:
        hello(ws, token(game["links"]["ct"]), index=log.count_for("ct"))
        assert _errors(ws, {"type": "sync", "index": len(log)})["code"] == "bad-index"
        ws.send_json({"type": "sync", "index": 2})
        state = ws.receive_json()
        assert [e["seq"] for e in state["events"]] == list(range(2, log.count_for("ct")))


def test_an_action_is_checked_against_its_schema_and_refused_with_the_reason(
    store: SqliteStore,
) -> None:
    client = client_for(store)
    game = open_game(client, EMBASSY, {"fbi": "human"})
    gid = game["game"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        _, state = hello(ws, token(game["links"]["fbi"]))
        schemas = client.get("/api/rulesets/execute/schemas").json()["schemas"]
        assert client.get("/api/rulesets/nope/schemas").status_code == 404
        assert schemas["talk"]["properties"]["text"]["type"] == "string"
        open_kinds = {a["kind"] for a in state["legal"]}
        assert "talk" in open_kinds
        limit = schemas["talk"]["properties"]["text"]["maxLength"]
        from killhouse.server.schema import action_problem

        at_edge = {"kind": "talk", "side": "fbi", "text": "x" * limit}
        assert action_problem(schemas, at_edge) == ""
        before = _fingerprint(client, gid)
        cases = [
            ({"kind": "talk"}, "needs the argument 'text'"),
            ({"kind": "talk", "text": "hi", "volume": 3}, "does not take volume"),
            ({"kind": "talk", "text": ["hi"]}, "'text' must be text, got a list"),
            ({"kind": "talk", "text": "x" * (limit + 1)}, f"longer than {limit} characters"),
        ]
        for seq, (action, reason) in enumerate(cases, 10):
            answer = _errors(ws, {"type": "action", "seq": seq, "action": action})
            assert answer["code"] == "malformed-action", answer
            assert reason in answer["message"] and answer["message"].startswith("'talk'")
        assert _fingerprint(client, gid) == before
        # well formed but against the rules: the engine's reason, as illegal-action
        figure_kind = next(
            (a for a in state["legal"] if isinstance(a.get("figure"), str) and "to" in a), None
        )
        if figure_kind is not None:
            wrong = {k: v for k, v in figure_kind.items() if k != "hint"}
            wrong["figure"] = "nobody"
            answer = _errors(ws, {"type": "action", "seq": 30, "action": wrong})
            assert answer["code"] == "illegal-action"
        assert _fingerprint(client, gid) == before


def test_the_schema_check_words_each_bound() -> None:
    from killhouse.server.schema import action_problem, problem

    cell = {"type": "array", "items": {"type": "integer"}, "minItems": 3, "maxItems": 3,
            "description": "[level, x, y]"}
    assert problem(cell, [0, 1, 2]) == ""
    assert "at least 3" in problem(cell, [0, 1])
    assert "at most 3" in problem(cell, [0, 1, 2, 3])
    assert problem(cell, [0, 1, True]) == "item 2 must be a whole number, got true or false"
    count = {"type": "integer", "minimum": 1, "maximum": 3}
    assert problem(count, 1) == problem(count, 3) == ""
    assert problem(count, 0) == "is 0; the least is 1"
    assert problem(count, 4) == "is 4; the most is 3"
    assert problem({"type": "boolean"}, 1) == "must be true or false, got a whole number"
    assert "one of he, smoke" in problem({"type": "string", "enum": ["he", "smoke"]}, "stun")
    assert action_problem({}, {"kind": "x"}) == ""  # no schema declared: the engine decides


def test_a_game_no_socket_holds_is_let_go_and_loaded_again_on_hello(store: SqliteStore) -> None:
    """Ruling W-15: memory holds the games being played; an idle one is replayed on demand."""
    client = client_for(store)
    rooms = client.app.state.rooms
    hub = client.app.state.hub
    game = open_game(client, EMBASSY, {"fbi": "human"})
    gid = game["game"]
    with client.websocket_connect(f"/ws/{gid}") as ws:
        _, state = hello(ws, token(game["links"]["fbi"]))
        ws.send_json({"type": "action", "seq": 1, "action": pass_action(state["legal"])})
        assert ws.receive_json()["type"] == "ack"
        played = ws.receive_json()
        # a socket is open: never let go, however long ago anything happened
        assert hub.sweep(rooms, 0.0) == []
        assert rooms.loaded(gid) is not None
    now = hub.idle_since[gid]
    assert hub.sweep(rooms, 60.0, now + 59.9) == []  # one step short of idle: kept
    assert hub.sweep(rooms, 60.0, now + 60.0) == [gid]
    assert rooms.loaded(gid) is None
    with client.websocket_connect(f"/ws/{gid}") as ws:
        _, again = hello(ws, token(game["links"]["fbi"]))
    assert rooms.loaded(gid) is not None
    assert again["view"] == played["view"] and again["index"] == played["index"]
    assert again["legal"] == played["legal"]


def test_the_commando_hold_scenario_is_listed(store: SqliteStore) -> None:
    """The shipped hold mission (C-177) is offered with the other commando scenarios."""
    data = client_for(store).get("/api/scenarios").json()
    commando = next(r for r in data["rulesets"] if r["id"] == "commando")
    by_file = {s["file"]: s for s in commando["scenarios"]}
    kessel = by_file["commando/kessel_crossroads.yaml"]
    assert [s["id"] for s in kessel["sides"]] == ["raiders", "guards"]
