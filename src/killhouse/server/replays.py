"""Replays: an uploaded game log checked as ``killhouse replay`` checks it, and a stored game
stepped to any action as a side or the umpire knew it."""

from __future__ import annotations

import bisect
from pathlib import Path
from typing import Any

from killhouse.engine.game import Game
from killhouse.errors import KillhouseError, ScenarioError
from killhouse.scenario.loader import loads_scenario
from killhouse.server import present
from killhouse.server.rooms import UMPIRE, ApiError, Room
from killhouse.server.seats import whole_number

#: the largest game log upload (a long game logs a few MB; ``killhouse replay`` reads 128 MiB)
MAX_LOG_UPLOAD = 32 * 1024 * 1024


def checked_log(text: str, name: str) -> tuple[Any, list[dict[str, Any]]]:
    """The scenario and records of an uploaded log, checked and replayed as ``killhouse
    replay`` does; anything wrong is ``bad-log`` with the one line it prints."""
    import tempfile

    from killhouse.engine.record import logged_scenario, read_log, replay

    if len(text.encode()) > MAX_LOG_UPLOAD:
        raise ApiError("too-large", f"error: {name}: the log is larger than "
                       f"{MAX_LOG_UPLOAD >> 20} MiB")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(text, encoding="utf-8")

        def line(message: str) -> str:
            # the line ``killhouse replay NAME`` prints, naming the upload, not the temp file
            message = message.replace(str(path), name)
            return f"error: {'' if message.startswith(name) else name + ': '}{message}"

        try:
            records = read_log(path)
            scn = logged_scenario(records, loads_scenario)
            if scn is None:
                raise ApiError("bad-log", line(
                    "the log holds no scenario text (an old log): replay it with "
                    "killhouse replay --scenario"))
            report = replay(records, scn)
        except ScenarioError as exc:
            raise ApiError("bad-log", line(
                f"the logged scenario does not load: {exc.problems[0]}")) from exc
        except KillhouseError as exc:
            if isinstance(exc, ApiError):
                raise
            raise ApiError("bad-log", line(str(exc))) from exc
    if not report.identical:
        raise ApiError("bad-log", f"diverged: {report.message}")
    return scn, records


def replay_step(room: Room, data: dict[str, Any]) -> dict[str, Any]:
    """The game after its first ``step`` actions, as ``perspective`` (a side or umpire) knew it."""
    total = len(room.game.actions)
    first, last = room.turn0, room.turns[-1] if room.turns else room.turn0
    if data.get("turn") is not None:
        # jump to a turn: the step at which it begins (ruling W-10)
        turn = whole_number(data.get("turn"), "turn")
        if not first <= turn <= last:
            raise ApiError("bad-index", f"turn must be {first} to {last} in this game")
        step = 0 if turn <= first else bisect.bisect_left(room.turns, turn) + 1
    else:
        step = whole_number(data.get("step", total), "step")
    if not 0 <= step <= total:
        raise ApiError("bad-index", f"step must be 0 to {total}")
    perspective = str(data.get("perspective", UMPIRE))
    sides = room.scenario.side_ids()
    if perspective not in (*sides, UMPIRE):
        raise ApiError("bad-request", f"perspective must be one of {', '.join(sides)} or umpire")
    game = Game(room.scenario, room.record.seed)
    for action in room.game.actions[:step]:
        game.apply(action)
    snapshot = game.ruleset.snapshot(game.state)
    out: dict[str, Any] = {
        "step": step,
        "steps": total,
        "turns": [first, last],
        "perspective": perspective,
        "turn": snapshot.get("turn"),
        "result": game.result.to_json() if game.result else None,
        "last": room.game.actions[step - 1].to_json() if step else None,
    }
    if perspective == UMPIRE:
        out["view"] = snapshot
        out["extras"] = game.ruleset.umpire_extras(game.state)  # ruling W-19
        out["events"] = present.umpire_events(game, 0)
    else:
        view = game.view(perspective, events_since=None)
        out["view"] = view
        out["fog"] = present.fog(room.scenario.board, view)
        out["events"] = present.side_events(game, perspective, 0)
    return out
