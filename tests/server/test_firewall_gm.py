"""Firewall's game master is a seat in the web and the API like any side (issue 16, ruling
F-195): a person at the GM seat of "Triple-Cross at the Thames" is asked for the spike
first, sees only the GM's choices, and the AI teams play on once it has chosen."""

from __future__ import annotations

from killhouse.server.store import SqliteStore
from tests.server.helpers import client_for, hello, open_game, token


def test_a_human_game_master_chooses_the_spike_through_the_socket(store: SqliteStore) -> None:
    client = client_for(store)
    game = open_game(client, "firewall/triple_cross.yaml", {"gm": "human"})
    assert set(game["links"]) == {"gm"}
    with client.websocket_connect(f"/ws/{game['game']}") as ws:
        _, state = hello(ws, token(game["links"]["gm"]))
        assert [p["side"] for p in state["pending"]] == ["gm"]
        for seq in range(1, 8):  # six counters on the file's squares (F-214), then the spike
            kinds = {a["kind"] for a in state["legal"]}
            assert kinds == ({"place-counter"} if seq <= 6 else {"spike"})
            choice = state["legal"][0] if seq <= 6 else next(
                a for a in state["legal"] if a["counter"] == "c3")
            action = {k: v for k, v in choice.items() if k != "hint"}
            ws.send_json({"type": "action", "seq": seq, "action": action})
            ack = ws.receive_json()
            assert ack["type"] == "ack" and ack["seq"] == seq, ack
            pushed = ws.receive_json()
            assert pushed["type"] == "state" and pushed["index"] > state["index"]
            state = pushed
