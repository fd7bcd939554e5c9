"""A seat's sequence numbers across browsers: the board message tells a seat the highest
number it has been answered under, so a page that lost its count (a new tab, another
machine) numbers on from there instead of having its new actions taken for resends."""

from __future__ import annotations

from killhouse.server.store import SqliteStore
from tests.server.helpers import client_for, hello, open_game, pass_action, token

EMBASSY = "execute/embassy.yaml"


def test_a_seat_is_told_its_last_sequence_number_on_hello(store: SqliteStore) -> None:
    client = client_for(store)
    game = open_game(client, EMBASSY, {"fbi": "human"})
    fbi = token(game["links"]["fbi"])
    with client.websocket_connect(f"/ws/{game['game']}") as ws:
        board, state = hello(ws, fbi)
        assert board["seq"] == 0
        ws.send_json({"type": "action", "seq": 1, "action": pass_action(state["legal"])})
        assert ws.receive_json()["type"] == "ack"
        state = ws.receive_json()
        # a refused action counts too: its answer is kept under its number (W-5)
        ws.send_json({"type": "action", "seq": 2, "action": {"kind": "no-such-kind"}})
        assert ws.receive_json()["code"] == "unknown-action-kind"
    with client.websocket_connect(f"/ws/{game['game']}") as ws:
        board, state = hello(ws, fbi)
        assert board["seq"] == 2
        ws.send_json({"type": "action", "seq": board["seq"] + 1,
                      "action": pass_action(state["legal"])})
        ack = ws.receive_json()
        assert ack["type"] == "ack" and "resent" not in ack
    with client.websocket_connect(f"/ws/{game['game']}") as ws:
        board, _ = hello(ws, token(game["umpire"]))
        assert "seq" not in board  # the umpire takes no actions and has no numbers
