"""The seat socket protocol: one open socket per seat, its messages and the hub that pushes state.

A socket's first message is ``hello`` with the seat's token; then ``action``, ``sync`` and
``ping``. Every client error is answered ``{"type": "error", "code", "message"}`` with a
stable code and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from killhouse.server import present
from killhouse.server.rooms import ApiError, Room, Rooms

log = logging.getLogger("killhouse.server")

#: the largest message a client may send (an action is a few hundred bytes)
MAX_MESSAGE = 16 * 1024


@dataclass(eq=False)
class Conn:
    """One open socket: the seat it speaks for and the event index it has been sent up to."""

    ws: WebSocket
    role: str
    index: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: a delayed spectator's cut when it was last sent (it is pushed only when that moves,
    #: so not even the timing of its messages follows the present)
    cut: int | None = -1

    async def send(self, data: dict[str, Any]) -> None:
        async with self.lock:
            await self.ws.send_text(json.dumps(data))


@dataclass
class Hub:
    """The sockets open on each game, to broadcast new state to."""

    conns: dict[str, set[Conn]] = field(default_factory=dict)
    #: game id -> when its last socket closed (``time.monotonic``)
    idle_since: dict[str, float] = field(default_factory=dict)

    def add(self, game_id: str, conn: Conn) -> None:
        self.conns.setdefault(game_id, set()).add(conn)
        self.idle_since.pop(game_id, None)

    def remove(self, game_id: str, conn: Conn) -> None:
        open_ = self.conns.get(game_id, set())
        open_.discard(conn)
        if not open_:
            self.conns.pop(game_id, None)
            self.idle_since[game_id] = time.monotonic()

    def sweep(self, rooms: Rooms, idle: float, now: float | None = None) -> list[str]:
        """Let go of the games no socket has had open for ``idle`` seconds (ruling W-15):
        the store keeps them, and the next hello or request loads them again by replay.
        A room some worker thread is using now is kept for the next sweep."""
        now = time.monotonic() if now is None else now
        dropped = []
        for game_id in rooms.loaded_ids():
            if self.conns.get(game_id):
                continue
            since = self.idle_since.setdefault(game_id, now)  # opened, never connected
            room = rooms.loaded(game_id)
            if now - since >= idle and room is not None and not room.lock.locked():
                rooms.drop(game_id)
                self.idle_since.pop(game_id, None)
                dropped.append(game_id)
        return dropped

    async def push(self, room: Room, conn: Conn, moved_only: bool = False) -> None:
        """Send ``conn`` its state with the events since what it was last sent (with
        ``moved_only``, a delayed spectator only if its cut moved). The state is built in a
        worker thread under the room's lock, so the event loop serves other games meanwhile
        (ruling W-14); the socket's lock keeps one push's index and message together."""
        async with conn.lock:
            built = await asyncio.to_thread(room.locked_state, conn.role, conn.index,
                                            moved_only, conn.cut)
            if built is None:
                return  # nothing new N turns back: no message at all
            state, cut = built
            conn.index = state["index"]
            conn.cut = cut
            await conn.ws.send_text(json.dumps(state))

    async def broadcast(self, room: Room) -> None:
        for conn in list(self.conns.get(room.id, ())):
            try:
                await self.push(room, conn, moved_only=True)
            except Exception:  # a socket that went away is dropped when its reader ends
                log.warning("game %s: a push to a %s seat failed", room.id, conn.role,
                            exc_info=True)


def whole_number(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError("bad-message", f"{what} must be a whole number")
    return value


def parse_message(raw: str) -> dict[str, Any]:
    if len(raw.encode()) > MAX_MESSAGE:
        raise ApiError("too-large", f"a message may be at most {MAX_MESSAGE} bytes")
    try:
        msg = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ApiError("bad-json", f"the message is not JSON: {exc.msg} at {exc.pos}") from exc
    if not isinstance(msg, dict):
        raise ApiError("bad-json", "a message must be a JSON object")
    return msg


def seq_of(raw: str) -> int | None:
    if len(raw) > MAX_MESSAGE:
        return None
    try:
        seq = json.loads(raw).get("seq")
    except (json.JSONDecodeError, AttributeError):
        return None
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else None


def board_message(room: Room) -> dict[str, Any]:
    scn = room.scenario
    return {
        "type": "board",
        "game": room.id,
        "scenario": {
            "name": scn.name,
            "ruleset": scn.ruleset,
            "description": (scn.description or "").strip(),
            "sides": [{"id": s.id, "name": s.name} for s in scn.sides],
        },
        "seats": room.record.seats,
        "board": present.board_json(scn.board),
    }


def check_index(room: Room, role: str, msg: dict[str, Any]) -> int:
    index = msg.get("index", 0)
    index = whole_number(index, "index")
    count = room.event_count(role)
    if not 0 <= index <= count:
        raise ApiError(
            "bad-index", f"index {index} is not an event index of this seat (0 to {count})"
        )
    return index


async def hello(
    ws: WebSocket, rooms: Rooms, hub: Hub, game_id: str, msg: dict[str, Any]
) -> tuple[Room, Conn]:
    if msg.get("type") != "hello":
        raise ApiError("bad-message", 'the first message must be {"type": "hello", "token": …}')
    # loading a game replays its actions (and lets a pending AI move): a worker thread's job
    room = await asyncio.to_thread(rooms.get, game_id)
    role = room.role_of(str(msg.get("token", "")))
    if role is None:
        raise ApiError("bad-token", "that token opens no seat of this game")
    index = await asyncio.to_thread(room.locked, check_index, room, role, msg)
    conn = Conn(ws, role, index)
    board = {**board_message(room), "role": role}
    if role in room.record.seats:
        # the seat's own numbers: where a browser that lost its count numbers on from
        board["seq"] = await asyncio.to_thread(room.store.last_seq, room.id, role)
    await conn.send(board)
    hub.add(room.id, conn)
    await hub.push(room, conn)
    return room, conn


async def handle(room: Room, conn: Conn, hub: Hub, msg: dict[str, Any]) -> None:
    kind = msg.get("type")
    if kind == "sync":
        conn.index = await asyncio.to_thread(room.locked, check_index, room, conn.role, msg)
        await hub.push(room, conn)
    elif kind == "ping":
        await conn.send({"type": "pong"})
    elif kind == "action":
        seq = whole_number(msg.get("seq"), "seq")
        action = msg.get("action")
        if not isinstance(action, dict):
            raise ApiError("bad-message", "an action message needs an 'action' object")
        if conn.role not in room.record.seats:
            raise ApiError("not-a-side", f"the {conn.role} seat cannot act")
        # the engine and the commit's fsync run in a worker thread (ruling W-14): the event
        # loop serves the other games meanwhile, and their commits join the same fsync
        answer, changed = await asyncio.to_thread(room.submit, conn.role, seq, action)
        await conn.send(answer)  # the action is committed: acknowledge it before the AI thinks
        if changed:
            await asyncio.to_thread(room.play_ai)
            await hub.broadcast(room)
    else:
        raise ApiError("bad-message", f"unknown message type {kind!r} (hello, action, sync, ping)")
