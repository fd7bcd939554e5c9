"""Game logs as JSON lines: header (scenario, its text and hash, seed), setup events, each action
with its events, and the end (result and final state hash). ``replay`` re-runs a log and compares.

A log carries the scenario's own text, so it replays from any folder; logs written before
that carry only the file's path and hash, and still replay while the file is where it was.
Anything in a log file that is not such a record is one ``ReplayError`` line, never a traceback.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from killhouse.engine.game import Game, canonical_json
from killhouse.errors import KillhouseError, ReplayError
from killhouse.rulesets.base import Action
from killhouse.scenario.model import Scenario

FORMAT = "killhouse-log/1"
#: the largest log ``replay`` reads (a 200-turn game logs a few MB); a device never hangs it
MAX_LOG_BYTES = 128 << 20
#: record types in the order a log holds them
_TYPES = ("header", "setup", "action", "end")


def log_lines(game: Game) -> Iterator[dict[str, Any]]:
    """The records of a game, in order, as JSON-ready dicts."""
    header: dict[str, Any] = {
        "type": "header",
        "format": FORMAT,
        "scenario": game.scenario.file,
        "scenario_hash": game.scenario.content_hash,
        "scenario_text": game.scenario.source_text,
        "ruleset": game.scenario.ruleset,
        "seed": game.seed,
    }
    if game.scenario.roster_text:
        # ruling K-16: the men as they were drawn, for replays after the roster moves on
        header["roster_text"] = game.scenario.roster_text
    yield header
    events = game.log.events
    yield {"type": "setup", "events": [e.to_json() for e in events[: game.setup_events]]}
    cursor = game.setup_events
    for action, end in zip(game.actions, game.action_ends, strict=True):
        yield {
            "type": "action",
            "action": action.to_json(),
            "events": [e.to_json() for e in events[cursor:end]],
        }
        cursor = end
    result = game.result
    yield {
        "type": "end",
        "result": result.to_json() if result else None,
        "state_hash": game.state_hash(),
    }


def write_log(game: Game, path: Path) -> None:
    """Write the game's log, creating missing folders; a clear error if it cannot be written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w", encoding="utf-8") as out:
            for record in log_lines(game):
                out.write(canonical_json(record) + "\n")
    except OSError as exc:
        raise KillhouseError(f"{path}: cannot write the log ({exc.strerror or exc})") from exc


def read_log(path: Path) -> list[dict[str, Any]]:
    """The records of a log file, each checked for its shape; ``ReplayError`` (one line) if not."""
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_LOG_BYTES + 1)
    except OSError as exc:
        raise ReplayError(f"{path}: cannot read the log ({exc.strerror or exc})") from exc
    if len(data) > MAX_LOG_BYTES:
        raise ReplayError(
            f"{path}: not a killhouse game log (larger than {MAX_LOG_BYTES >> 20} MiB)"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = data[: exc.start].count(b"\n") + 1
        raise ReplayError(
            f"{path}:{where}: not a killhouse game log (byte 0x{data[exc.start]:02x} at offset "
            f"{exc.start} is not UTF-8 text)"
        ) from None
    records: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            why = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
            raise ReplayError(
                f"{path}:{number}: not a killhouse game log (not JSON: {why})"
            ) from None
        if not records and (not isinstance(record, dict) or record.get("format") != FORMAT):
            raise ReplayError(
                f"{path}:{number}: not a killhouse game log "
                f"(expected a header of format {FORMAT!r})"
            )
        problem = _shape(record, len(records))
        if problem:
            raise ReplayError(f"{path}:{number}: {problem}")
        records.append(record)
    if not records:
        raise ReplayError(f"{path}: the log is empty")
    return records


def _shape(record: Any, index: int) -> str:
    """What is wrong with the shape of record number ``index`` (0: the header), or ``""``."""
    if not isinstance(record, dict):
        return "expected a record (a JSON object)"
    kind = record.get("type")
    if kind not in _TYPES:
        return f"unknown record type {kind!r} (expected one of: {', '.join(_TYPES)})"
    if (index == 0) != (kind == "header"):
        return "the header must be the first record, and only the first"
    if kind == "header":
        seed = record.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            return "the header has no seed (a whole number from 0 to 2**64-1)"
        if not isinstance(record.get("scenario_hash"), str):
            return "the header has no scenario_hash"
        text = record.get("scenario_text")
        if text is not None and not isinstance(text, str):
            return "the header's scenario_text is not text"
        roster = record.get("roster_text")
        if roster is not None and not isinstance(roster, str):
            return "the header's roster_text is not text"
        return ""
    if kind in ("setup", "action") and not isinstance(record.get("events"), list):
        return f"the {kind} record has no list of events"
    if kind == "action":
        action = record.get("action")
        if not (
            isinstance(action, dict)
            and isinstance(action.get("side"), str)
            and isinstance(action.get("kind"), str)
        ):
            return "the action record has no action with a side and a kind"
    if kind == "end" and not isinstance(record.get("state_hash"), str):
        return "the end record has no state_hash"
    return ""


def logged_scenario(
    records: list[dict[str, Any]], load_text: Callable[..., Scenario]
) -> Scenario | None:
    """The scenario a log carries (checked against its hash), or ``None`` for an older log.

    ``load_text(text, file)`` parses scenario text (the scenario layer's ``loads_scenario``);
    a log of a game that drew men from a roster passes the logged roster as ``roster_text``.
    """
    header = records[0]
    text = header.get("scenario_text")
    if not isinstance(text, str):
        return None
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    if digest != header.get("scenario_hash"):
        raise ReplayError("the scenario text in the log does not match its scenario_hash")
    file = str(header.get("scenario") or "<logged scenario>")
    roster = header.get("roster_text")
    if isinstance(roster, str):
        return load_text(text, file, roster_text=roster)
    return load_text(text, file)


@dataclass(frozen=True)
class ReplayReport:
    """Whether a replay reproduced the log, and where it first diverged if not."""

    identical: bool
    state_hash: str
    message: str


def _first_difference(expected: list[Any], got: list[Any]) -> str:
    for want, have in zip(expected, got, strict=False):
        if canonical_json(want) != canonical_json(have):
            seq = want.get("seq") if isinstance(want, dict) else "?"  # a forged record
            return (
                f"event {seq}: logged {canonical_json(want)}, "
                f"replay gave {canonical_json(have)}"
            )
    if len(expected) != len(got):
        return f"logged {len(expected)} events here, replay gave {len(got)}"
    return "no difference"


def replay(records: list[dict[str, Any]], scenario: Scenario) -> ReplayReport:
    """Re-run a logged game on ``scenario`` and compare every event, the result and the final
    state hash. Records are as ``read_log`` checked them."""
    header = records[0]
    if header.get("scenario_hash") != scenario.content_hash:
        return ReplayReport(
            False, "", f"the scenario file has changed since the game was logged ({scenario.file})"
        )
    seed = header.get("seed")
    if not isinstance(seed, int):
        raise ReplayError("the log's header has no seed")
    game = Game(scenario, seed)
    body = records[1:]
    if not body or body[0].get("type") != "setup":
        raise ReplayError("the log has no setup record")
    got = [e.to_json() for e in game.log.events[: game.setup_events]]
    if canonical_json(got) != canonical_json(body[0]["events"]):
        return ReplayReport(False, "", "setup: " + _first_difference(body[0]["events"], got))
    for number, record in enumerate(body[1:], start=3):
        if record.get("type") == "action":
            try:
                action = Action.from_json(record["action"])
                events = [e.to_json() for e in game.apply(action)]
            except (ValueError, TypeError, KeyError) as exc:
                return ReplayReport(
                    False,
                    "",
                    f"record {number}: action {record['action']} was refused on replay: {exc}",
                )
            if canonical_json(events) != canonical_json(record["events"]):
                return ReplayReport(
                    False,
                    "",
                    f"after action {action}: " + _first_difference(record["events"], events),
                )
        elif record.get("type") == "end":
            return _compare_end(game, record, number, len(records))
        else:
            return ReplayReport(False, "", f"record {number}: a second {record.get('type')} record")
    return ReplayReport(False, game.state_hash(), "the log has no end record")


def _compare_end(game: Game, record: dict[str, Any], number: int, total: int) -> ReplayReport:
    final = game.state_hash()
    if number != total:
        return ReplayReport(False, final, f"record {number + 1} comes after the end of the game")
    result = game.result
    replayed = result.to_json() if result is not None else None
    if canonical_json(replayed) != canonical_json(record.get("result")):
        return ReplayReport(
            False,
            final,
            f"the logged result {canonical_json(record.get('result'))} is not the replayed "
            f"result {canonical_json(replayed)}",
        )
    if final != record.get("state_hash"):
        return ReplayReport(
            False, final, f"final state hash {final} != logged {record.get('state_hash')}"
        )
    return ReplayReport(True, final, "identical")
