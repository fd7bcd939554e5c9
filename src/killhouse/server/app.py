"""The game server: a FastAPI app with an HTTP API for opening games and one WebSocket per seat.

Pages and scripts are static files (``static/``); secret tokens travel in the URL fragment
(never sent in a request line, so never in an access log) and in the first socket message.
Every client error is answered ``{"type": "error", "code", "message"}`` with a stable code
and changes nothing.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import json
import logging
import random
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from killhouse.errors import KillhouseError, ScenarioError
from killhouse.scenario.loader import load_scenario, loads_scenario
from killhouse.server import present
from killhouse.server.replays import MAX_LOG_UPLOAD, checked_log, replay_step
from killhouse.server.rooms import (
    DEFAULT_DELAY,
    DELAYED,
    SPECTATOR,
    UMPIRE,
    ApiError,
    Room,
    Rooms,
    ruleset_schemas,
)
from killhouse.server.seats import (
    Conn,
    Hub,
    board_message,
    handle,
    hello,
    parse_message,
    seq_of,
    whole_number,
)
from killhouse.server.store import Store

log = logging.getLogger("killhouse.server")

STATIC = Path(__file__).parent / "static"
#: the largest scenario upload
MAX_SCENARIO = 512 * 1024
_STATUS = {
    "unknown-game": 404,
    "unknown-ruleset": 404,
    "bad-token": 403,
    "forbidden": 403,
    "too-large": 413,
}


def default_scenarios_dir() -> Path:
    """``scenarios/`` of the working directory, else the one beside the source tree."""
    here = Path("scenarios")
    if here.is_dir():
        return here
    return Path(__file__).resolve().parents[3] / "scenarios"


def error_response(exc: ApiError) -> JSONResponse:
    return JSONResponse({"error": exc.to_json()}, status_code=_STATUS.get(exc.code, 400))


async def read_json(request: Request, limit: int = MAX_SCENARIO) -> dict[str, Any]:
    body = await request.body()
    if len(body) > limit:
        raise ApiError("too-large", f"the request is {len(body)} bytes; the limit is {limit}")
    try:
        data = json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ApiError("bad-json", f"the request is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise ApiError("bad-json", "the request must be a JSON object")
    return data


def scenario_summary(path: Path, root: Path) -> dict[str, Any]:
    scn = load_scenario(path)
    return {
        "file": path.relative_to(root).as_posix(),
        "name": scn.name,
        "ruleset": scn.ruleset,
        "description": (scn.description or "").strip(),
        "sides": [{"id": s.id, "name": s.name, "controller": s.controller} for s in scn.sides],
        "seed": scn.seed,
        "board": present.board_json(scn.board),
    }


#: a game no socket has had open this long is let go from memory (ruling W-15)
IDLE_SECONDS = 60.0


def create_app(
    store: Store, scenarios: Path | None = None, idle_seconds: float = IDLE_SECONDS
) -> FastAPI:
    """The server app over ``store``; ``scenarios`` is the folder of shipped scenarios;
    games with no socket open for ``idle_seconds`` are let go from memory (W-15)."""
    rooms = Rooms(store)
    hub = Hub()

    async def refresh(game_id: str | None) -> None:
        """Another process committed actions of ``game_id`` (``None``: of any game): catch
        the room up and push the seats open here, without a reload."""
        for gid in [game_id] if game_id is not None else rooms.loaded_ids():
            room = rooms.loaded(gid)
            if room is None or not hub.conns.get(gid):
                continue
            try:
                with room.lock:
                    moved = room.catch_up()
            except Exception:  # a bad row must not stop the listener
                log.exception("game %s: catching up with another process failed", gid)
                continue
            if moved:
                await hub.broadcast(room)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        stop = threading.Event()

        def on_game(game_id: str | None) -> None:  # the listener's thread
            loop.call_soon_threadsafe(lambda: loop.create_task(refresh(game_id)))

        thread = store.listen(on_game, stop)
        # read the shipped scenarios while nobody waits, not on the first visitor's time
        warming = loop.run_in_executor(None, shipped)

        async def sweeping() -> None:
            while True:
                await asyncio.sleep(max(1.0, idle_seconds / 4))
                dropped = hub.sweep(rooms, idle_seconds)
                if dropped:
                    log.info("let go of %d idle games (kept in the store)", len(dropped))

        sweeper = asyncio.create_task(sweeping())
        try:
            yield
        finally:
            sweeper.cancel()
            stop.set()
            await warming
            if thread is not None:
                await asyncio.to_thread(thread.join, 5)

    app = FastAPI(
        title="killhouse", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan
    )
    root = (scenarios or default_scenarios_dir()).resolve()
    app.state.rooms = rooms
    app.state.hub = hub
    app.state.store = store
    catalogue: list[dict[str, Any]] = []
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    reading = threading.Lock()

    def shipped() -> list[dict[str, Any]]:
        """The shipped scenarios' summaries, read once (the first reader waits, others share)."""
        with reading:
            if not catalogue:
                found = []
                for path in sorted(root.glob("*/*.yaml")):
                    try:
                        found.append(scenario_summary(path, root))
                    except ScenarioError as exc:
                        log.warning("scenario %s does not load: %s", path, exc)
                catalogue.extend(found)
        return catalogue

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(ApiError("bad-request", "the request is malformed"))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = "not-found" if exc.status_code == 404 else "http-error"
        return JSONResponse(
            {"error": {"type": "error", "code": code, "message": str(exc.detail)}},
            status_code=exc.status_code,
        )

    # -- pages -------------------------------------------------------------------------
    @app.get("/")
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/game/{game_id}")
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "game.html")

    @app.get("/replay/{game_id}")
    async def replay_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "replay.html")

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    # -- the API -----------------------------------------------------------------------
    @app.get("/api/scenarios")
    async def scenarios_list() -> dict[str, Any]:
        from killhouse.rulesets import get_ruleset, ruleset_ids

        listed = await asyncio.to_thread(shipped)  # never block the loop while it is read
        out = []
        for rid in ruleset_ids():
            info = get_ruleset(rid).describe()
            info["scenarios"] = [s for s in listed if s["ruleset"] == rid]
            out.append(info)
        return {"rulesets": out}

    @app.get("/api/rulesets/{ruleset}/schemas")
    async def schemas(ruleset: str) -> dict[str, Any]:
        """The JSON Schema of each action kind of a ruleset (public: the page's controls)."""
        from killhouse.rulesets import ruleset_ids

        if ruleset not in ruleset_ids():
            raise ApiError("unknown-ruleset", f"there is no ruleset {ruleset!r}")
        return {"ruleset": ruleset, "schemas": ruleset_schemas(ruleset)}

    @app.post("/api/validate")
    async def validate(request: Request) -> dict[str, Any]:
        data = await read_json(request)
        text, name = _upload(data)
        try:
            scn = loads_scenario(text, name)
        except ScenarioError as exc:
            return {"ok": False, "problems": [str(p) for p in exc.problems]}
        return {
            "ok": True,
            "problems": [],
            "name": scn.name,
            "ruleset": scn.ruleset,
            "sides": [{"id": s.id, "name": s.name, "controller": s.controller}
                      for s in scn.sides],
        }

    @app.post("/api/games")
    async def create_game(request: Request) -> dict[str, Any]:
        data = await read_json(request)
        prefix: list[dict[str, Any]] | None = None
        raw_seed: Any
        if data.get("from_game"):
            text, name, raw_seed, prefix = await asyncio.to_thread(_play_on, rooms, data)
        elif data.get("text") is not None:
            text, name = _upload(data)
            raw_seed = data.get("seed")
        else:
            text, name = _shipped_file(root, data.get("scenario"))
            raw_seed = data.get("seed")
        if raw_seed is None or raw_seed == "":
            raw_seed = random.SystemRandom().randrange(1, 2**31)
        try:
            seed = int(raw_seed)
        except (TypeError, ValueError) as exc:
            raise ApiError(
                "bad-request", f"the seed must be a whole number, not {raw_seed!r}"
            ) from exc
        seats = data.get("seats") or {}
        if not isinstance(seats, dict):
            raise ApiError("bad-seats", "seats must map each side to human or ai")
        delayed = _delayed_request(data.get("delayed"))
        try:
            # loading, replaying a prefix and the AI's first moves: a worker thread's job
            room, tokens = await asyncio.to_thread(
                functools.partial(rooms.create, text, name, seed, seats, prefix=prefix,
                                  delayed=delayed))
        except ScenarioError as exc:
            raise ApiError("bad-scenario", str(exc)) from exc
        await hub.broadcast(room)
        links = {role: f"/game/{room.id}#token={tok}" for role, tok in tokens.items()}
        humans = [s for s, who in room.record.seats.items() if who == "human"]
        out: dict[str, Any] = {
            "game": room.id,
            "seed": seed,
            "seats": room.record.seats,
            "links": {s: links[s] for s in humans},
            "spectator": links[SPECTATOR],
            "umpire": links[UMPIRE],
            "replay": f"/replay/{room.id}#token={tokens[UMPIRE]}",
        }
        if delayed:
            out["delayed"] = {
                side: f"/game/{room.id}#token={tokens[DELAYED + side]}" for side in delayed
            }
        if len(humans) > 1:
            out["hotseat"] = f"/game/{room.id}#token=" + ",".join(tokens[s] for s in humans)
        return out

    @app.post("/api/logs")
    async def upload_log(request: Request) -> dict[str, Any]:
        """A ``killhouse`` game log (.jsonl), checked as ``killhouse replay`` checks it, kept
        as a game to replay: its link opens the replay page with the umpire's token."""
        data = await read_json(request, MAX_LOG_UPLOAD + 4096)
        text, name = data.get("text"), Path(str(data.get("name") or "upload.jsonl")).name
        if not isinstance(text, str):
            raise ApiError("bad-request", "send the log as text")
        # replaying a whole log to check it is a worker thread's job, not the event loop's
        scn, records = await asyncio.to_thread(checked_log, text, name or "upload.jsonl")
        actions = [dict(r["action"]) for r in records if r.get("type") == "action"]
        seats = dict.fromkeys(scn.side_ids(), "human")  # nobody plays on unless asked to
        try:
            room, tokens = await asyncio.to_thread(functools.partial(
                rooms.create, scn.source_text or "", scn.file, int(records[0]["seed"]), seats,
                options={"log": name}, prefix=actions,
            ))
        except ScenarioError as exc:
            raise ApiError("bad-log", f"error: {name}: {exc}") from exc
        return {
            "game": room.id,
            "steps": len(actions),
            "replay": f"/replay/{room.id}#token={tokens[UMPIRE]}",
        }

    @app.get("/api/games/{game_id}/board")
    async def board(game_id: str) -> dict[str, Any]:
        room = await asyncio.to_thread(rooms.get, game_id)
        return board_message(room)

    @app.post("/api/games/{game_id}/replay")
    async def replay(game_id: str, request: Request) -> dict[str, Any]:
        data = await read_json(request)
        room = await asyncio.to_thread(rooms.get, game_id)
        role = room.role_of(str(data.get("token", "")))
        if role is None:
            raise ApiError("bad-token", "that token opens no seat of this game")
        if role != UMPIRE and not room.game.over:
            raise ApiError("forbidden", "the replay opens when the game is over (or to the umpire)")
        return await asyncio.to_thread(room.locked, replay_step, room, data)

    # -- the socket --------------------------------------------------------------------
    @app.websocket("/ws/{game_id}")
    async def socket(ws: WebSocket, game_id: str) -> None:
        await ws.accept()
        conn: Conn | None = None
        room: Room | None = None
        try:
            while True:
                raw = await ws.receive_text()
                try:
                    msg = parse_message(raw)
                    if conn is None or room is None:
                        room, conn = await hello(ws, rooms, hub, game_id, msg)
                        continue
                    await handle(room, conn, hub, msg)
                except ApiError as exc:
                    await ws.send_text(json.dumps(exc.to_json(seq_of(raw))))
                    if exc.code in ("unknown-game", "bad-token") and conn is None:
                        await ws.close(code=4404 if exc.code == "unknown-game" else 4403)
                        return
        except WebSocketDisconnect:
            pass
        finally:
            if conn is not None:
                hub.remove(game_id, conn)

    return app


def _delayed_request(value: Any) -> dict[str, int]:
    """``{"side": S, "turns": N}`` (or a list of them; N defaults to 2) as side -> turns."""
    if value is None or value == "" or value == []:
        return {}
    items = value if isinstance(value, list) else [value]
    out: dict[str, int] = {}
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("side"), str):
            raise ApiError(
                "bad-request", 'a delayed view is {"side": SIDE, "turns": N} (N at least 1)'
            )
        turns = item.get("turns", DEFAULT_DELAY)
        out[item["side"]] = turns if turns not in (None, "") else DEFAULT_DELAY
    return out


def _upload(data: dict[str, Any]) -> tuple[str, str]:
    text = data.get("text")
    if not isinstance(text, str):
        raise ApiError("bad-request", "send the scenario as text")
    if len(text.encode()) > MAX_SCENARIO:
        raise ApiError("too-large", f"the scenario is larger than {MAX_SCENARIO} bytes")
    name = str(data.get("name") or "upload.yaml")
    return text, Path(name).name or "upload.yaml"


def _shipped_file(root: Path, name: Any) -> tuple[str, str]:
    if not isinstance(name, str) or not name:
        raise ApiError("bad-request", "name a shipped scenario (ruleset/file.yaml) or send text")
    path = (root / name).resolve()
    if root not in path.parents or not path.is_file():
        raise ApiError("unknown-scenario", f"there is no shipped scenario {name!r}")
    return path.read_text(encoding="utf-8"), name


def _play_on(
    rooms: Rooms, data: dict[str, Any]
) -> tuple[str, str, int, list[dict[str, Any]]]:
    """A new game from a saved one's scenario, seed and first ``step`` actions."""
    source = rooms.get(str(data["from_game"]))
    role = source.role_of(str(data.get("token", "")))
    if role is None:
        raise ApiError("bad-token", "that token opens no seat of this game")
    with source.lock:  # no seat's action half applied while the prefix is read
        if role != UMPIRE and not source.game.over:
            raise ApiError("forbidden", "play on from a finished game (or as its umpire)")
        step = whole_number(data.get("step", 0), "step")
        if not 0 <= step <= len(source.game.actions):
            raise ApiError("bad-index", f"step must be 0 to {len(source.game.actions)}")
        prefix = [a.to_json() for a in source.game.actions[:step]]
    return source.record.scenario, source.record.scenario_file, source.record.seed, prefix


def serve(host: str, port: int, db: str, scenarios: Path | None = None) -> None:
    """Run the server until interrupted (``killhouse serve``)."""
    import uvicorn

    from killhouse.server.store import open_store

    store = open_store(db)
    app = create_app(store, scenarios)
    # what is loaded now lives as long as the server: keep it out of the collector's scans,
    # so a full collection does not pause an action's round trip for its length
    gc.collect()
    gc.freeze()
    print(f"killhouse is serving on http://{host}:{port}/  (database: {_db_name(db)})",
          flush=True)
    try:
        uvicorn.run(app, host=host, port=port, log_level="info", ws_max_size=1 << 20)
    finally:
        store.close()


def _db_name(db: str) -> str:
    """The database as it may be printed: a PostgreSQL URL without its password."""
    if "://" in db and "@" in db:
        scheme, rest = db.split("://", 1)
        return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return db


__all__ = ["KillhouseError", "create_app", "serve"]
