"""Campaign rosters from the command line's point of view: roll a new roster, take the player's
choices, and carry a roster through a logged game (digest 13, 14 for commando).

The rules are the ruleset's (``Ruleset.campaign()``); this module reads and writes files,
replays the logged game, derives seeds and keeps the roll events in a side log beside the
roster (``men.yaml`` -> ``men.rolls.jsonl``), one JSON line per operation.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from killhouse.core.chance import SeededChance
from killhouse.core.events import EventLog
from killhouse.core.rng import Rng, derive_seed
from killhouse.engine.game import Game
from killhouse.engine.record import logged_scenario, read_log
from killhouse.errors import KillhouseError, ReplayError
from killhouse.roster.files import (
    RosterError,
    campaign_rules,
    load_roster,
    loads_roster,
    roster_digest,
    save_roster,
)
from killhouse.roster.model import Man, Roster
from killhouse.roster.rules import AfterGame, NewMen, RosterRules
from killhouse.rulesets.base import Action
from killhouse.scenario.loader import loads_scenario


def rolls_path(roster: Path) -> Path:
    """The side log of a roster file: its roll events, one operation per line."""
    return roster.with_name(roster.stem + ".rolls.jsonl")


def _append(roster: Path, entry: Mapping[str, Any]) -> None:
    with rolls_path(roster).open("a", encoding="utf-8") as out:
        out.write(json.dumps(entry, sort_keys=True, separators=(",", ":")) + "\n")


def _rules(ruleset: str | None) -> RosterRules:
    if ruleset is None:
        raise KillhouseError("the roster names no ruleset (add ruleset: ID)")
    from killhouse.rulesets import get_ruleset

    get_ruleset(ruleset)  # an unknown id is one clear message
    rules = campaign_rules(ruleset)
    if rules is None:
        raise KillhouseError(f"ruleset {ruleset!r} has no campaign")
    return rules  # type: ignore[no-any-return]


def new_roster(
    path: Path, ruleset: str, request: NewMen, seed: int, name: str | None = None,
    force: bool = False, add: bool = False,
) -> Roster:
    """Roll a new roster with ``seed`` and write it (refusing to overwrite unless ``force``);
    with ``add``, roll recruits into the existing roster instead (replacements)."""
    if add:
        old = load_roster(path)
        if old.ruleset != ruleset:
            raise KillhouseError(f"{path}: the roster is for {old.ruleset!r}, not {ruleset!r}")
        clash = sorted(set(request.names) & set(old.names()))
        if clash:
            raise KillhouseError(f"--names: {', '.join(clash)} already in roster {old.name!r}")
    elif path.exists() and not force:
        raise KillhouseError(f"{path}: the file exists (--force overwrites it, --add recruits "
                             "into it)")
    rules = _rules(ruleset)
    log = EventLog()
    taken = tuple(old.names()) if add else ()
    men = rules.new_men(SeededChance(Rng.from_seed(seed), log), request, taken)
    if add:
        roster = Roster(old.name, (*old.men, *men), old.ruleset, old.seed, old.applied)
    else:
        roster = Roster(name or path.stem, tuple(men), ruleset, seed)
    _write(roster, path, {"op": "add" if add else "new", "seed": seed,
                          "events": [e.to_json() for e in log.events]})
    return roster


def _write(roster: Roster, path: Path, entry: Mapping[str, Any]) -> None:
    """Write the roster and append its side-log entry, after checking that what is about to be
    written loads again (a fault here must never leave a bad file); a clear error if the
    disk refuses."""
    from killhouse.roster.files import dumps_roster

    try:
        loads_roster(dumps_roster(roster), str(path))
    except RosterError as exc:  # pragma: no cover - a program fault, reported plainly
        raise KillhouseError(f"{path}: refusing to write a roster that does not load: "
                             f"{exc.problems[0]}") from exc
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if entry.get("op") == "new":
            rolls_path(path).unlink(missing_ok=True)
        save_roster(roster, path)
        _append(path, entry)
    except OSError as exc:
        raise KillhouseError(f"{path}: cannot write the roster ({exc.strerror or exc})") from exc


def choose(path: Path, name: str, choices: Mapping[str, Sequence[str]]) -> Man:
    """The player's choices for one man; new skill ratings rolled with a seed derived from the
    roster's content and the man's name (ruling C-139)."""
    roster = load_roster(path)
    rules = _rules(roster.ruleset)
    try:
        man = roster.man(name)
    except KeyError:
        from killhouse.scenario.fields import suggest

        raise KillhouseError(f"no man {name!r} in roster {roster.name!r} "
                             f"({suggest(name, roster.names())})") from None
    seed = _seed(roster_digest(roster) + name)
    log = EventLog()
    chosen = rules.choose(SeededChance(Rng.from_seed(seed), log), man, choices)
    updated = roster.with_man(chosen)
    _write(updated, path, {"op": "choose", "man": name, "seed": seed,
                           "events": [e.to_json() for e in log.events]})
    return chosen


def _seed(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big") >> 1


def game_id(records: list[dict[str, Any]]) -> str:
    """A logged game's identity: its scenario, seed and final state (16 hex digits)."""
    header, end = records[0], records[-1]
    text = f"{header.get('scenario_hash')}:{header.get('seed')}:{end.get('state_hash')}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def apply_game(path: Path, log_path: Path, plans: Mapping[str, Any]) -> AfterGame:
    """Carry the roster at ``path`` through the game logged at ``log_path`` and write it.

    Refused, with nothing written, when the game was applied already, was played with another
    roster (or another version of this one), or does not replay to its logged end (K-16).
    """
    roster = load_roster(path)
    rules = _rules(roster.ruleset)
    records = read_log(log_path)
    ident = game_id(records)
    if ident in roster.applied:
        raise KillhouseError(f"{log_path}: this game ({ident}) is in the roster already; "
                             "a game is applied once")
    header = records[0]
    logged = header.get("roster_text")
    if not isinstance(logged, str):
        raise KillhouseError(f"{log_path}: the game drew no men from a roster "
                             "(its scenario has no roster: FILE)")
    try:
        played_with = loads_roster(logged, "<the logged roster>")
    except RosterError as exc:
        raise KillhouseError(f"{log_path}: the logged roster does not load: "
                             f"{exc.problems[0]}") from None
    if roster_digest(played_with) != roster_digest(roster):
        raise KillhouseError(
            f"{log_path}: the game was played with another version of roster "
            f"{played_with.name!r}; apply games in the order they were played, each to the "
            "roster it drew its men from")
    if records[-1].get("type") != "end":
        raise KillhouseError(f"{log_path}: the log has no end record (the game is unfinished)")
    with rules.recording() as notes:
        game = _replay(records, log_path)
    brief = rules.debrief(game.state, game.scenario, game.result, notes)
    seed = derive_seed(int(header["seed"]), int(roster_digest(roster)[:15], 16))  # C-139
    log = EventLog()
    after = rules.after_game(roster, brief, SeededChance(Rng.from_seed(seed), log), plans)
    updated = Roster(after.roster.name, after.roster.men, after.roster.ruleset,
                     after.roster.seed, (*roster.applied, ident))
    _write(updated, path, {"op": "after", "game": ident, "seed": seed, "debrief": brief,
                           "events": [e.to_json() for e in log.events]})
    return AfterGame(updated, after.lines)


def _replay(records: list[dict[str, Any]], log_path: Path) -> Game:
    """The logged game re-run to its end; a log that does not reproduce is refused."""
    scenario = logged_scenario(records, loads_scenario)
    if scenario is None:
        raise KillhouseError(f"{log_path}: the log carries no scenario text")
    game = Game(scenario, int(records[0]["seed"]))
    for record in records[1:]:
        if record.get("type") == "action":
            try:
                game.apply(Action.from_json(record["action"]))
            except (ValueError, TypeError, KeyError) as exc:
                raise ReplayError(f"{log_path}: action {record['action']} was refused on "
                                  f"replay: {exc}") from None
    if game.state_hash() != records[-1].get("state_hash"):
        raise ReplayError(f"{log_path}: the game does not replay to its logged end "
                          "(run killhouse replay on it)")
    return game
