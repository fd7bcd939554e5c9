"""Helpers of the server tests: an app over a throwaway store, games opened through the API."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from killhouse.engine.game import Game
from killhouse.scenario.loader import load_scenario
from killhouse.server.app import create_app
from killhouse.server.store import Store
from killhouse.sim.seats import Seats
from tests.conformance import SCENARIO_DIR


def client_for(store: Store) -> TestClient:
    return TestClient(create_app(store, SCENARIO_DIR))


def token(link: str) -> str:
    """The secret token of a link (it travels in the fragment)."""
    return link.split("#token=", 1)[1]


def open_game(
    client: TestClient, scenario: str, seats: dict[str, str], seed: int = 5
) -> dict[str, Any]:
    response = client.post("/api/games", json={"scenario": scenario, "seed": seed,
                                               "seats": seats})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def hello(ws: Any, tok: str, index: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """Say hello; return the board message and the first state."""
    ws.send_json({"type": "hello", "token": tok, "index": index})
    board = ws.receive_json()
    assert board["type"] == "board", board
    state = ws.receive_json()
    assert state["type"] == "state", state
    return board, state


def pass_action(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """A legal action that moves the game on (a pass-like one if there is one)."""
    for kind in ("end_negotiation", "commit", "done", "continue", "ready", "hold"):
        for action in legal:
            if action["kind"] == kind:
                return {k: v for k, v in action.items() if k != "hint"}
    return {k: v for k, v in legal[-1].items() if k != "hint"}


def scenario_path(name: str) -> Path:
    return SCENARIO_DIR / name


def played_until_a_weapon_lies_unseen(name: str, seed: int, side: str,
                                      limit: int = 600) -> Game:
    """A game of the shipped scenario ``name`` played by the role AI on every side (as an
    all-AI game is played) until a weapon lies on the ground that ``side`` does not see:
    one the umpire's extras hold and ``side``'s view does not (ruling C-179)."""
    game = Game(load_scenario(scenario_path(name)), seed)
    seats = Seats(game, [])
    for _ in range(limit):
        if game.over or seats.ai_step() is None:
            break
        lying = game.ruleset.umpire_extras(game.state).get("weapons")
        seen = game.view(side, events_since=None).get("weapons") or []
        if isinstance(lying, list) and any(w not in seen for w in lying):
            return game
    raise AssertionError(f"no weapon lay unseen by {side} within {limit} actions")
