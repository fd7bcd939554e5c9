"""Rooms: one live game each, rebuilt from the store by replay, with its seats and sockets.

A room applies a human's action through the engine (which validates it) and commits it
before acknowledging it; then the AI sides answer as long as they are pending, their actions
are committed, and only then is anything broadcast (ruling W-6). A client's sequence number
is stored with the answer it got, so a resent action gets that first answer and is never
applied twice.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from killhouse.engine.game import Game
from killhouse.errors import (
    IllegalActionError,
    KillhouseError,
    MalformedActionError,
    ScenarioError,
)
from killhouse.rulesets.base import Action
from killhouse.scenario.loader import loads_scenario
from killhouse.scenario.model import Scenario
from killhouse.server import present, schema
from killhouse.server.store import GameRecord, Store, StoreError, Write
from killhouse.sim.seats import Seats

log = logging.getLogger("killhouse.server")

T = TypeVar("T")

SPECTATOR = "spectator"
UMPIRE = "umpire"
#: the role of a delayed spectator of one side is ``delayed:<side>``
DELAYED = "delayed:"
#: how many turns a delayed spectator is behind unless the game's creator says otherwise
DEFAULT_DELAY = 2


class ApiError(KillhouseError):
    """An error a client caused, with a stable code (see ``docs/server.md``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def to_json(self, seq: int | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "code": self.code, "message": str(self)}
        if seq is not None:
            out["seq"] = seq
        return out


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


@dataclass
class Room:
    """A live game: the engine's ``Game``, who plays which side, and the record it came from."""

    record: GameRecord
    scenario: Scenario
    store: Store
    game: Game = field(init=False)
    seats: Seats = field(init=False)
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: an AI that raised stops playing; the error is kept for the umpire
    ai_error: str | None = None
    #: side -> (action count, legal actions then): the list pushed to a seat is the one its
    #: next action is checked against, computed once
    _legal: dict[str, tuple[int, list[Action]]] = field(default_factory=dict)
    #: the turn the game stood at after each action (``turns[i]`` after action ``i``), and
    #: before the first: what a delayed spectator's cut is found by
    turns: list[int] = field(default_factory=list)
    turn0: int = 0
    #: turns behind -> a game replayed to that delayed spectator's cut (it only grows)
    _delayed: dict[int, Game] = field(default_factory=dict)
    #: side -> the highest sequence number it has been answered under (read from the store
    #: once): a higher one is new, so the request path needs no read of the answers
    _seqs: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.rebuild()

    @property
    def id(self) -> str:
        return self.record.id

    def rebuild(self) -> None:
        """A fresh game from the scenario and seed, with every stored action replayed."""
        self.game = Game(self.scenario, self.record.seed)
        self._legal = {}
        self.turns = []
        self.turn0 = _turn(self.game)
        self._delayed = {}
        humans = [side for side, who in self.record.seats.items() if who == "human"]
        self.seats = Seats(self.game, humans)
        self.catch_up()

    def catch_up(self) -> int:
        """Apply actions stored (by this or another process) beyond what the game holds;
        return how many."""
        applied = 0
        for stored in self.store.actions(self.id, len(self.game.actions)):
            if stored.index != len(self.game.actions):
                raise StoreError(f"game {self.id}: action {stored.index} is out of order")
            self.game.apply(Action.from_json({**stored.action, "side": stored.side}))
            self._note_turns()
            applied += 1
        return applied

    def _note_turns(self) -> None:
        """Record the turn the game stands at for the actions applied since the last note."""
        turn = _turn(self.game)
        while len(self.turns) < len(self.game.actions):
            self.turns.append(turn)

    def legal(self, side: str) -> list[Action]:
        """The engine's legal actions of ``side`` now (cached until the next action)."""
        now = len(self.game.actions)
        cached = self._legal.get(side)
        if cached is None or cached[0] != now:
            cached = (now, self.game.legal_actions(side))
            self._legal[side] = cached
        return cached[1]

    @property
    def schemas(self) -> dict[str, dict[str, Any]]:
        """The JSON Schema of each action kind of the game's ruleset."""
        return ruleset_schemas(self.game.ruleset.id)

    def own_actions(self, side: str) -> int:
        """How many actions ``side`` has taken (a number it knows; the game's total it may not)."""
        return sum(1 for a in self.game.actions if a.side == side)

    def event_count(self, role: str) -> int:
        """How many events ``role`` receives in all: the index its resync counts in."""
        delay = self.delay_of(role)
        if delay is not None:
            game = self.delayed_game(delay[1])
            return 0 if game is None else game.log.count_for(delay[0])
        return present.event_count(self.game, role, UMPIRE, SPECTATOR)

    # -- a side's view some turns behind ---------------------------------------------------
    def delay_of(self, role: str) -> tuple[str, int] | None:
        """The side and the turns behind of a delayed spectator's role (else ``None``)."""
        if not role.startswith(DELAYED):
            return None
        side = role[len(DELAYED):]
        turns = int((self.record.options.get("delayed") or {}).get(side, DEFAULT_DELAY))
        return side, turns

    def delayed_cut(self, behind: int) -> int | None:
        """How many actions a spectator ``behind`` turns back may see: those that leave the
        game at turn ``now - behind`` or earlier (ruling W-9), so the action that ends that
        turn, and everything after, stays unseen; ``None`` while that turn has not ended. A
        finished game is shown whole."""
        if self.game.over:
            return len(self.game.actions)
        cutoff = _turn(self.game) - behind
        if cutoff < self.turn0:
            return None
        return bisect.bisect_right(self.turns, cutoff)

    def delayed_game(self, behind: int) -> Game | None:
        """The game as it stood at the cut of a spectator ``behind`` turns back."""
        cut = self.delayed_cut(behind)
        if cut is None:
            return None
        game = self._delayed.get(behind)
        if game is None or len(game.actions) > cut:
            game = Game(self.scenario, self.record.seed)
            self._delayed[behind] = game
        for action in self.game.actions[len(game.actions):cut]:
            game.apply(action)
        return game

    def role_of(self, token: str) -> str | None:
        return self.record.tokens.get(token_hash(token))

    # -- moves --------------------------------------------------------------------------
    def _ai_writes(self) -> list[Write]:
        writes: list[Write] = []
        if self.ai_error is not None:
            return writes
        try:
            while self.seats.ai_pending():
                action = self.seats.ai_step()
                self._note_turns()
                if action is None:
                    break
                writes.append(
                    Write(len(self.game.actions) - 1, action.side, _args(action.to_json()))
                )
        except Exception as exc:  # a bot bug must not take the human's game down with it
            self.ai_error = f"{type(exc).__name__}: {exc}"
            log.exception("game %s: the AI stopped", self.id)
        return writes

    def start(self) -> None:
        """Let AI sides move if they are to decide first (a new or reloaded game)."""
        self.play_ai()

    def _commit(self, writes: list[Write]) -> None:
        if not writes:
            return
        try:
            self.store.append(self.id, writes)
        except Exception:
            # what is not committed did not happen: back to what the store holds
            self.rebuild()
            raise

    def submit(self, side: str, seq: int, data: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
        """Apply one human action; return the answer and whether the game changed.

        The answer to a sequence number already seen is the stored first answer.
        """
        with self.lock:
            # a number above the side's highest is new: no read on the request path (another
            # process may answer the side when the store is shared, so then always ask it)
            if self.store.shared or seq <= self._last_seq(side):
                prior = self.store.answer(self.id, side, seq)
                if prior is not None:
                    return {**prior, "resent": True}, False
            if self.store.shared:
                self.catch_up()  # what another server process stored first
            try:
                action = self._action(side, data)
                self.game.apply(action)
                self._note_turns()
            except ApiError as exc:
                return self._refused(side, seq, exc.to_json(seq)), False
            except MalformedActionError as exc:
                answer = ApiError("malformed-action", str(exc)).to_json(seq)
                return self._refused(side, seq, answer), False
            except IllegalActionError as exc:
                answer = ApiError("illegal-action", str(exc)).to_json(seq)
                return self._refused(side, seq, answer), False
            # numbers the side may know: its own event count and its own action number,
            # never the game's totals (they count what the other sides did unseen)
            answer = {
                "type": "ack",
                "seq": seq,
                "index": self.game.log.count_for(side),
                "action": self.own_actions(side) - 1,
            }
            writes = [
                Write(len(self.game.actions) - 1, side, _args(action.to_json()), seq, answer)
            ]
            try:
                self._commit(writes)
            except StoreError as exc:
                return ApiError("conflict", str(exc)).to_json(seq), True
            self._seqs[side] = max(self._seqs.get(side, 0), seq)
            return answer, True

    def _last_seq(self, side: str) -> int:
        if side not in self._seqs:
            self._seqs[side] = self.store.last_seq(self.id, side)
        return self._seqs[side]

    def _refused(self, side: str, seq: int, answer: dict[str, Any]) -> dict[str, Any]:
        """Keep a refusal under its number (W-5) and return it."""
        self.store.remember_answer(self.id, side, seq, answer)
        self._seqs[side] = max(self._last_seq(side), seq)
        return answer

    def play_ai(self) -> bool:
        """Let the AI sides answer a committed human action, and commit what they did (ruling
        W-6: after the human's acknowledgement, before anything is broadcast); whether any
        AI acted."""
        with self.lock:
            writes = self._ai_writes()
            try:
                self._commit(writes)
            except StoreError:
                log.warning("game %s: another process moved first; reloaded", self.id)
                return True
            return bool(writes)

    def _action(self, side: str, data: Mapping[str, Any]) -> Action:
        if side not in self.record.seats:
            raise ApiError("not-a-side", f"the {side} seat cannot act")
        if self.record.seats[side] != "human":
            raise ApiError("not-your-seat", f"side {side!r} is played by the AI")
        kind = data.get("kind")
        if not isinstance(kind, str) or not kind:
            raise ApiError("bad-message", "an action needs a 'kind' (a string)")
        if self.game.over:
            raise ApiError("game-over", "the game is over")
        pending = [d.side for d in self.game.pending()]
        if side not in pending:
            raise ApiError(
                "not-your-turn", f"side {side!r} is not to decide now; waiting for "
                + ", ".join(pending)
            )
        kinds = sorted({a.kind for a in self.legal(side)})
        if kind not in kinds:
            raise ApiError(
                "unknown-action-kind",
                f"no action {kind!r} is open to {side} now (open: {', '.join(kinds)})",
            )
        # the schema of the kind, before the engine: a reason naming the argument
        reason = schema.action_problem(self.schemas, {**data, "side": side})
        if reason:
            raise ApiError("malformed-action", reason)
        try:
            return Action.from_json({**data, "side": side})
        except (TypeError, ValueError) as exc:
            raise ApiError(
                "bad-message", f"the action's arguments are not JSON values: {exc}"
            ) from exc

    # -- what a seat is sent --------------------------------------------------------------
    def locked(self, read: Callable[..., T], *args: Any) -> T:
        """``read(*args)`` under the room's lock (from a worker thread: no action of another
        seat is half applied meanwhile)."""
        with self.lock:
            return read(*args)

    def locked_state(
        self, role: str, since: int, moved_only: bool = False, last_cut: int | None = -1
    ) -> tuple[dict[str, Any], int | None] | None:
        """Under the room's lock: the state ``role`` is sent with its events from ``since``,
        and a delayed spectator's cut (``-1`` for every other role). With ``moved_only``, a
        delayed spectator whose cut is still ``last_cut`` gets ``None``: no message."""
        with self.lock:
            delay = self.delay_of(role)
            cut = -1 if delay is None else self.delayed_cut(delay[1])
            if moved_only and delay is not None and cut == last_cut:
                return None
            return self.state_for(role, since), cut

    def state_for(self, role: str, since: int) -> dict[str, Any]:
        delay = self.delay_of(role)
        if delay is not None:
            return self._delayed_state(role, delay[0], delay[1], since)
        game = self.game
        result = game.result
        pending = [
            {"side": d.side, "kind": d.kind, "prompt": d.prompt} for d in game.pending()
        ]
        out: dict[str, Any] = {
            "type": "state",
            "game": self.id,
            "role": role,
            "from": since,
            # the role's own event count, in its own dense numbering (no hidden event counts)
            "index": self.event_count(role),
            "pending": pending,
            "seats": self.record.seats,
            "result": result.to_json() if result is not None else None,
            "legal": [],
        }
        if role == UMPIRE:
            out["actions"] = len(game.actions)
            out["view"] = game.ruleset.snapshot(game.state)
            # what the umpire's board draws besides the hashed snapshot (commando: every weapon
            # on the ground, C-179); the umpire's alone, never a side's or a spectator's (W-19)
            out["extras"] = game.ruleset.umpire_extras(game.state)
            out["state_hash"] = game.state_hash()
            out["events"] = present.umpire_events(game, since)
            if self.ai_error:
                out["ai_error"] = self.ai_error
        elif role == SPECTATOR:
            first = self.scenario.sides[0].id
            out["view"] = {"public": game.view(first, events_since=None).get("public", {})}
            out["events"] = present.public_events(game, since)
        else:
            out["actions"] = self.own_actions(role)
            view = game.view(role, events_since=None)
            out["view"] = view
            out["fog"] = present.fog(self.scenario.board, view)
            out["events"] = present.side_events(game, role, since)
            if role in (p["side"] for p in pending) and self.record.seats.get(role) == "human":
                out["legal"] = [
                    {**_args(a.to_json()), "hint": dict(a.hint)}
                    for a in self.legal(role)
                ]
        return out

    def _delayed_state(self, role: str, side: str, behind: int, since: int) -> dict[str, Any]:
        """What a delayed spectator of ``side`` is sent: the side's view, fog and events as they
        stood ``behind`` turns ago, and nothing of the present (no pending, no counts of now)."""
        game = self.delayed_game(behind)
        over = self.game.over
        out: dict[str, Any] = {
            "type": "state",
            "game": self.id,
            "role": role,
            "from": since,
            "pending": [],
            "seats": self.record.seats,
            "legal": [],
            "result": self.game.result.to_json() if over and self.game.result else None,
            "delay": {"side": side, "turns": behind, "open": game is not None},
        }
        if game is None:
            out.update(index=0, events=[], view={}, fog=None)
            return out
        view = game.view(side, events_since=None)
        out["index"] = game.log.count_for(side)
        out["view"] = view
        out["fog"] = present.fog(self.scenario.board, view)
        out["events"] = present.side_events(game, side, since)
        return out


@functools.cache
def ruleset_schemas(ruleset: str) -> dict[str, dict[str, Any]]:
    """The action schemas of a registered ruleset (computed once)."""
    from killhouse.rulesets import get_ruleset

    return get_ruleset(ruleset).schemas()


def _turn(game: Game) -> int:
    """The turn the game stands at (every registered ruleset's state keeps one)."""
    turn = getattr(game.state, "turn", None)
    if isinstance(turn, int):
        return turn
    value = game.ruleset.snapshot(game.state).get("turn")
    return int(value) if isinstance(value, int) else 0


def _args(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "side"}


class Rooms:
    """Every game the server knows: created here, loaded lazily from the store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._rooms: dict[str, Room] = {}
        self._lock = threading.Lock()

    def get(self, game_id: str) -> Room:
        with self._lock:
            room = self._rooms.get(game_id)
            if room is not None:
                return room
            record = self.store.game(game_id)
            if record is None:
                raise ApiError("unknown-game", f"there is no game {game_id!r}")
            scenario = loads_scenario(record.scenario, record.scenario_file)
            room = Room(record, scenario, self.store)
            self._rooms[game_id] = room
        room.start()
        return room

    def create(
        self,
        scenario_text: str,
        scenario_file: str,
        seed: int,
        seats: Mapping[str, str],
        options: Mapping[str, Any] | None = None,
        prefix: list[dict[str, Any]] | None = None,
        delayed: Mapping[str, int] | None = None,
    ) -> tuple[Room, dict[str, str]]:
        """A new game; returns the room and the secret token of each human side, the
        spectators and the umpire (only their hashes are stored)."""
        try:
            scenario = loads_scenario(scenario_text, scenario_file)
        except ScenarioError as exc:
            raise ApiError("bad-scenario", str(exc)) from exc
        sides = scenario.side_ids()
        for side, who in seats.items():
            if side not in sides:
                raise ApiError("bad-seats", f"no side {side!r} in {scenario.name}")
            if who not in ("human", "ai"):
                raise ApiError("bad-seats", f"side {side!r}: say human or ai, not {who!r}")
        full = {side: str(seats.get(side, "ai")) for side in sides}
        tokens = {role: new_token() for role in [*sides, SPECTATOR, UMPIRE]
                  if role not in full or full[role] == "human"}
        options = dict(options or {})
        for side, behind in (delayed or {}).items():
            if side not in sides:
                raise ApiError("bad-request", f"no side {side!r} to watch in {scenario.name}")
            if isinstance(behind, bool) or not isinstance(behind, int) or behind < 1:
                raise ApiError(
                    "bad-request",
                    f"a delayed view is at least 1 turn behind (the present is never shown), "
                    f"not {behind!r}",
                )
            tokens[DELAYED + side] = new_token()
            options.setdefault("delayed", {})[side] = behind
        record = GameRecord(
            id=secrets.token_urlsafe(9),
            scenario=scenario_text,
            scenario_file=scenario_file,
            seed=int(seed),
            seats=full,
            tokens={token_hash(tok): role for role, tok in tokens.items()},
            options=options,
            created=time.time(),
        )
        self.store.create_game(record)
        if prefix:
            writes = [
                Write(i, str(a["side"]), {k: v for k, v in a.items() if k != "side"})
                for i, a in enumerate(prefix)
            ]
            self.store.append(record.id, writes)
        room = self.get(record.id)
        return room, tokens

    def loaded(self, game_id: str) -> Room | None:
        """The room of ``game_id`` if this process has it in memory (no store read)."""
        with self._lock:
            return self._rooms.get(game_id)

    def loaded_ids(self) -> list[str]:
        with self._lock:
            return list(self._rooms)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._rooms.pop(game_id, None)
