"""Game logs as JSON lines: header (scenario hash, seed), setup events, each action with its
events, and the end (result and final state hash). ``replay`` re-runs a log and compares."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from killhouse.engine.game import Game, canonical_json
from killhouse.errors import ReplayError
from killhouse.rulesets.base import Action
from killhouse.scenario.model import Scenario

FORMAT = "killhouse-log/1"


def log_lines(game: Game) -> Iterator[dict[str, Any]]:
    """The records of a game, in order, as JSON-ready dicts."""
    yield {
        "type": "header",
        "format": FORMAT,
        "scenario": game.scenario.file,
        "scenario_hash": game.scenario.content_hash,
        "ruleset": game.scenario.ruleset,
        "seed": game.seed,
    }
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
    with path.open("w", encoding="utf-8") as out:
        for record in log_lines(game):
            out.write(canonical_json(record) + "\n")


def read_log(path: Path) -> list[dict[str, Any]]:
    """The records of a log file; a clear ``ReplayError`` if it is not one."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ReplayError(f"{path}: cannot read the log ({exc.strerror})") from exc
    records: list[dict[str, Any]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise ReplayError(f"{path}:{number}: not JSON ({exc.msg})") from exc
    if not records or records[0].get("format") != FORMAT:
        raise ReplayError(f"{path}:1: not a killhouse game log (expected format {FORMAT!r})")
    return records


@dataclass(frozen=True)
class ReplayReport:
    """Whether a replay reproduced the log, and where it first diverged if not."""

    identical: bool
    state_hash: str
    message: str


def _first_difference(expected: list[Any], got: list[Any]) -> str:
    for want, have in zip(expected, got, strict=False):
        if canonical_json(want) != canonical_json(have):
            return (
                f"event {want.get('seq')}: logged {canonical_json(want)}, "
                f"replay gave {canonical_json(have)}"
            )
    if len(expected) != len(got):
        return f"logged {len(expected)} events here, replay gave {len(got)}"
    return "no difference"


def replay(records: list[dict[str, Any]], scenario: Scenario) -> ReplayReport:
    """Re-run a logged game on ``scenario`` and compare every event and the final state hash."""
    header = records[0]
    if header.get("scenario_hash") != scenario.content_hash:
        return ReplayReport(
            False, "", f"the scenario file has changed since the game was logged ({scenario.file})"
        )
    game = Game(scenario, int(header["seed"]))
    body = records[1:]
    if not body or body[0].get("type") != "setup":
        raise ReplayError("the log has no setup record")
    got = [e.to_json() for e in game.log.events[: game.setup_events]]
    if canonical_json(got) != canonical_json(body[0]["events"]):
        return ReplayReport(False, "", "setup: " + _first_difference(body[0]["events"], got))
    for record in body[1:]:
        if record.get("type") == "action":
            action = Action.from_json(record["action"])
            try:
                events = [e.to_json() for e in game.apply(action)]
            except ValueError as exc:
                return ReplayReport(False, "", f"action {action} was refused on replay: {exc}")
            if canonical_json(events) != canonical_json(record["events"]):
                return ReplayReport(
                    False,
                    "",
                    f"after action {action}: " + _first_difference(record["events"], events),
                )
        elif record.get("type") == "end":
            final = game.state_hash()
            if final != record.get("state_hash"):
                return ReplayReport(
                    False, final, f"final state hash {final} != logged {record.get('state_hash')}"
                )
            return ReplayReport(True, final, "identical")
    return ReplayReport(False, game.state_hash(), "the log has no end record")
