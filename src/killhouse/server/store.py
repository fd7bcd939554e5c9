"""Durable games: a game is its scenario text, seed, seats and action list, nothing more.

The engine is deterministic, so storing the actions is storing the game; a restarted server
rebuilds every game by replaying them. Two back ends share one schema: SQLite (WAL,
``synchronous=FULL``; the default, a file under the data folder) and PostgreSQL (psycopg 3)
for several server processes. Every write is one transaction that is committed before the
caller acknowledges or broadcasts anything.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from killhouse.errors import KillhouseError

log = logging.getLogger("killhouse.server")

SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        scenario TEXT NOT NULL,
        scenario_file TEXT NOT NULL,
        seed BIGINT NOT NULL,
        seats TEXT NOT NULL,
        tokens TEXT NOT NULL,
        options TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        game_id TEXT NOT NULL REFERENCES games(id),
        idx INTEGER NOT NULL,
        side TEXT NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (game_id, idx)
    )""",
    """CREATE TABLE IF NOT EXISTS answers (
        game_id TEXT NOT NULL REFERENCES games(id),
        side TEXT NOT NULL,
        seq BIGINT NOT NULL,
        answer TEXT NOT NULL,
        PRIMARY KEY (game_id, side, seq)
    )""",
)


class StoreError(KillhouseError):
    """The database refused a write (for instance another process took the same action slot)."""

    code = "conflict"


@dataclass(frozen=True)
class GameRecord:
    """What a game is made of: scenario text, seed, who plays each side, hashed seat tokens."""

    id: str
    scenario: str
    scenario_file: str
    seed: int
    #: side id -> "human" or "ai"
    seats: dict[str, str]
    #: sha256 of a token -> the role it opens: a side id, "spectator" or "umpire"
    tokens: dict[str, str]
    options: dict[str, Any] = field(default_factory=dict)
    created: float = 0.0


@dataclass(frozen=True)
class StoredAction:
    index: int
    side: str
    action: dict[str, Any]


@dataclass(frozen=True)
class Write:
    """One action to store, with the client's sequence number and answer when a human sent it."""

    index: int
    side: str
    action: dict[str, Any]
    seq: int | None = None
    answer: dict[str, Any] | None = None


class Store(ABC):
    """The storage interface the game server uses; both back ends run the same SQL."""

    #: whether other server processes may write to the same database (PostgreSQL): then a
    #: room reads what they stored before applying an action; SQLite serves one process
    shared = False

    placeholder = "?"

    @abstractmethod
    @contextmanager
    def _tx(self) -> Iterator[Any]:
        """A cursor inside one transaction, committed on leaving (rolled back on error)."""

    @abstractmethod
    def close(self) -> None: ...

    def _sql(self, text: str) -> str:
        return text.replace("?", self.placeholder)

    def _init_schema(self) -> None:
        with self._tx() as cur:
            for statement in SCHEMA:
                cur.execute(statement)

    # -- games ------------------------------------------------------------------------
    def create_game(self, rec: GameRecord) -> None:
        with self._tx() as cur:
            cur.execute(
                self._sql("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?)"),
                (
                    rec.id,
                    rec.scenario,
                    rec.scenario_file,
                    rec.seed,
                    json.dumps(rec.seats),
                    json.dumps(rec.tokens),
                    json.dumps(rec.options),
                    rec.created or time.time(),
                ),
            )

    def game(self, game_id: str) -> GameRecord | None:
        with self._read() as cur:
            cur.execute(self._sql("SELECT * FROM games WHERE id = ?"), (game_id,))
            row = cur.fetchone()
        if row is None:
            return None
        return GameRecord(
            id=row[0],
            scenario=row[1],
            scenario_file=row[2],
            seed=int(row[3]),
            seats=json.loads(row[4]),
            tokens=json.loads(row[5]),
            options=json.loads(row[6]),
            created=float(row[7]),
        )

    def game_ids(self) -> list[str]:
        with self._read() as cur:
            cur.execute("SELECT id FROM games ORDER BY created")
            return [str(r[0]) for r in cur.fetchall()]

    # -- actions ----------------------------------------------------------------------
    def actions(self, game_id: str, start: int = 0) -> list[StoredAction]:
        with self._read() as cur:
            cur.execute(
                self._sql(
                    "SELECT idx, side, action FROM actions WHERE game_id = ? AND idx >= ? "
                    "ORDER BY idx"
                ),
                (game_id, start),
            )
            rows = cur.fetchall()
        return [StoredAction(int(r[0]), str(r[1]), json.loads(r[2])) for r in rows]

    def action_count(self, game_id: str) -> int:
        with self._read() as cur:
            cur.execute(self._sql("SELECT COUNT(*) FROM actions WHERE game_id = ?"), (game_id,))
            row = cur.fetchone()
        return int(row[0]) if row else 0

    def append(self, game_id: str, writes: Sequence[Write]) -> None:
        """Store actions (and the answers given for them) in one committed transaction.

        Raises ``StoreError`` if a slot is taken already (another process wrote it first).
        """
        try:
            with self._tx() as cur:
                self._insert(cur, game_id, writes)
        except Exception as exc:
            if _is_integrity_error(exc):
                raise _slot_taken() from exc
            raise

    def _insert(self, cur: Any, game_id: str, writes: Sequence[Write]) -> None:
        """The inserts of one ``append``, inside the caller's transaction."""
        for w in writes:
            cur.execute(
                self._sql("INSERT INTO actions VALUES (?, ?, ?, ?)"),
                (game_id, w.index, w.side, json.dumps(w.action, sort_keys=True)),
            )
            if w.seq is not None and w.answer is not None:
                cur.execute(
                    self._sql("INSERT INTO answers VALUES (?, ?, ?, ?)"),
                    (game_id, w.side, w.seq, json.dumps(w.answer)),
                )
        if writes:
            self._announce(cur, game_id)

    @contextmanager
    def _read(self) -> Iterator[Any]:
        """A cursor for one reading statement (a transaction where the back end needs one)."""
        with self._tx() as cur:
            yield cur

    # -- other server processes ---------------------------------------------------------
    def _announce(self, cur: Any, game_id: str) -> None:
        """Tell other server processes, on commit, that ``game_id`` has new actions (nothing
        to tell where one process serves the store)."""
        return None

    def listen(
        self, on_game: Callable[[str | None], None], stop: threading.Event
    ) -> threading.Thread | None:
        """Call ``on_game(id)`` (from another thread) whenever any process commits actions of a
        game, and ``on_game(None)`` when every game may have moved (after a reconnect); ``None``
        if this back end serves one process only."""
        return None

    # -- answers to client sequence numbers --------------------------------------------
    def answer(self, game_id: str, side: str, seq: int) -> dict[str, Any] | None:
        with self._read() as cur:
            cur.execute(
                self._sql("SELECT answer FROM answers WHERE game_id = ? AND side = ? AND seq = ?"),
                (game_id, side, seq),
            )
            row = cur.fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def last_seq(self, game_id: str, side: str) -> int:
        """The highest sequence number ``side`` has been answered under (0 for none): a
        browser that lost its count (a new tab, another machine) numbers on from it."""
        with self._read() as cur:
            cur.execute(
                self._sql("SELECT MAX(seq) FROM answers WHERE game_id = ? AND side = ?"),
                (game_id, side),
            )
            row = cur.fetchone()
        return 0 if row is None or row[0] is None else int(row[0])

    def remember_answer(self, game_id: str, side: str, seq: int, answer: dict[str, Any]) -> None:
        """Keep the answer to a refused action, so a resend gets the same answer."""
        try:
            with self._tx() as cur:
                cur.execute(
                    self._sql("INSERT INTO answers VALUES (?, ?, ?, ?)"),
                    (game_id, side, seq, json.dumps(answer)),
                )
        except Exception as exc:
            if not _is_integrity_error(exc):
                raise


def _slot_taken() -> StoreError:
    return StoreError("another server process recorded an action in the same place first")


@dataclass
class _Pending:
    """One ``append`` waiting for the group commit that makes it durable."""

    game_id: str
    writes: Sequence[Write]
    done: bool = False
    error: Exception | None = None


def _is_integrity_error(exc: Exception) -> bool:
    if isinstance(exc, sqlite3.IntegrityError):
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is in the server extra
        return False
    return isinstance(exc, psycopg.errors.IntegrityError)


class SqliteStore(Store):
    """SQLite in WAL mode with ``synchronous=FULL``: a committed action survives a power cut.

    Actions are stored by group commit (ruling W-14): every ``append`` waits until a
    transaction holding its rows has committed, and that commit's fsync of the WAL covers
    every ``append`` that arrived while the one before it was being written, so games played
    at the same time share fsyncs instead of queueing for one each.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=10000")
        self._init_schema()
        # reads go through a connection of their own (WAL: readers never wait for the
        # writer), so a seat's read never queues behind another game's commit and its fsync
        self._reader: sqlite3.Connection | None = None
        self._read_lock = threading.Lock()
        if self.path != ":memory:":
            self._reader = sqlite3.connect(self.path, isolation_level=None,
                                           check_same_thread=False)
            self._reader.execute("PRAGMA busy_timeout=10000")
        #: appends waiting for the writer, and the condition they wait on
        self._queue: list[_Pending] = []
        self._turn = threading.Condition()
        self._closing = False
        #: how many group commits (transactions of appends) the writer has made
        self.commits = 0
        self._writer = threading.Thread(
            target=self._write_loop, name="killhouse-sqlite-writer", daemon=True
        )
        self._writer.start()

    def append(self, game_id: str, writes: Sequence[Write]) -> None:
        """Store actions and answers; return once a committed (fsynced) transaction holds
        them. Raises ``StoreError`` if a slot is taken already."""
        if not writes:
            return
        item = _Pending(game_id, list(writes))
        with self._turn:
            if self._closing:
                raise KillhouseError("the store is closed")
            self._queue.append(item)
            self._turn.notify_all()
            while not item.done:
                self._turn.wait()
        if item.error is not None:
            raise item.error

    def _write_loop(self) -> None:
        """The writer: take every append queued, commit them in one transaction, wake them."""
        while True:
            with self._turn:
                while not self._queue and not self._closing:
                    self._turn.wait()
                if not self._queue:
                    return
                batch, self._queue = self._queue, []
            self._commit(batch)
            with self._turn:
                for item in batch:
                    item.done = True
                self._turn.notify_all()

    def _commit(self, batch: list[_Pending]) -> None:
        """One transaction for ``batch``; an append whose slot is taken is rolled back alone
        (a savepoint each) and gets ``StoreError``; if the commit fails, every one fails."""
        with self._lock:
            cur = self._db.cursor()
            try:
                cur.execute("BEGIN IMMEDIATE")
                for item in batch:
                    cur.execute("SAVEPOINT one_append")
                    try:
                        self._insert(cur, item.game_id, item.writes)
                    except sqlite3.IntegrityError as exc:
                        cur.execute("ROLLBACK TO one_append")
                        item.error = _slot_taken()
                        item.error.__cause__ = exc
                    cur.execute("RELEASE one_append")
                cur.execute("COMMIT")
                self.commits += 1
            except Exception as exc:  # nothing of the batch is stored: every append fails
                log.exception("a group commit of %d appends failed", len(batch))
                if self._db.in_transaction:
                    cur.execute("ROLLBACK")
                for item in batch:
                    item.error = item.error or exc

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        with self._lock:
            cur = self._db.cursor()
            cur.execute("BEGIN IMMEDIATE")
            try:
                yield cur
            except BaseException:
                cur.execute("ROLLBACK")
                raise
            cur.execute("COMMIT")

    @contextmanager
    def _read(self) -> Iterator[Any]:
        # one SELECT is its own read transaction in WAL mode: no write lock, no commit; on
        # the reader's own connection it sees every committed transaction and waits for none
        lock, db = (self._read_lock, self._reader) if self._reader else (self._lock, self._db)
        with lock:
            cur = db.cursor()
            try:
                yield cur
            finally:
                cur.close()

    def pragma(self, name: str) -> Any:
        with self._lock:
            row = self._db.execute(f"PRAGMA {name}").fetchone()
        return row[0] if row else None

    def close(self) -> None:
        with self._turn:
            self._closing = True
            self._turn.notify_all()
        self._writer.join()
        with self._lock:
            self._db.close()
        if self._reader is not None:
            with self._read_lock:
                self._reader.close()


class PostgresStore(Store):
    """PostgreSQL through psycopg 3; the same schema, for several server processes."""

    placeholder = "%s"
    shared = True

    def __init__(self, url: str) -> None:
        import psycopg

        self.url = url
        self._lock = threading.Lock()
        try:
            self._db = psycopg.connect(url, autocommit=True)  # transaction() blocks commit
        except psycopg.OperationalError as exc:
            raise KillhouseError(f"cannot connect to the database: {_first_line(exc)}") from exc
        self._init_schema()

    @contextmanager
    def _tx(self) -> Iterator[Any]:
        with self._lock, self._db.transaction(), self._db.cursor() as cur:
            yield cur

    def _announce(self, cur: Any, game_id: str) -> None:
        # NOTIFY inside the transaction: delivered when (and only if) it commits
        cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, game_id))

    def listen(
        self, on_game: Callable[[str | None], None], stop: threading.Event
    ) -> threading.Thread | None:
        """LISTEN on its own connection in a thread; reconnects (and reports every game as
        moved, since notifications sent meanwhile are lost) until ``stop`` is set."""
        import psycopg

        def run() -> None:
            while not stop.is_set():
                try:
                    with psycopg.connect(self.url, autocommit=True) as conn:
                        conn.execute(f"LISTEN {CHANNEL}")
                        on_game(None)
                        while not stop.is_set():
                            for note in conn.notifies(timeout=0.5):
                                on_game(note.payload)
                except psycopg.Error as exc:
                    log.warning("listening for other servers' actions: %s", _first_line(exc))
                    stop.wait(1.0)

        thread = threading.Thread(target=run, name="killhouse-listen", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        with self._lock:
            self._db.close()


#: the PostgreSQL channel a commit of actions is announced on (payload: the game id)
CHANNEL = "killhouse_actions"


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def open_store(url: str) -> Store:
    """A store from ``--db``: ``postgresql://…``, ``sqlite:///path``, or a plain file path."""
    if url.startswith(("postgresql://", "postgres://")):
        return PostgresStore(url)
    if url.startswith("sqlite:///"):
        return SqliteStore(url[len("sqlite:///"):])
    if "://" in url:
        raise KillhouseError(
            f"unknown database URL {url.split('://')[0]}://… "
            "(use postgresql://…, sqlite:///path or a file path)"
        )
    return SqliteStore(url)
