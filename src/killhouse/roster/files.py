"""Roster files: YAML read with a file:line for every problem, and written back in a fixed order.

A roster file::

    roster: Black Dragons
    ruleset: commando          # optional
    men:
      - name: Sgt Kane
        characteristics: {strength: 12, dexterity: 14}
        skills: {rifle: 3}
        wounds: {light: 1}     # counts per kind, carried from game to game
        status: wounded        # fit (default), wounded, resting, retired or dead
        games: 2
        figure: {}            # the ruleset's figure keys he brings to a scenario
        record: {}            # the ruleset's campaign bookkeeping

The ruleset the roster names checks its own fields (``Ruleset.campaign().check_man``), so a
hand-edited impossible value is one message on its line.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from killhouse.errors import Problem, ScenarioError
from killhouse.roster.model import STATUSES, Man, Roster
from killhouse.scenario.fields import Fields, Report, suggest
from killhouse.scenario.yamlsource import (
    LineIndex,
    Source,
    decode,
    describe,
    is_int,
    item,
    join,
    parse_yaml,
    read_source,
)

ROSTER_KEYS = ("roster", "ruleset", "seed", "applied", "men")
MAN_KEYS = ("name", "characteristics", "skills", "wounds", "status", "games", "figure", "record")


class RosterError(ScenarioError):
    """A roster file is wrong; every problem with file, line and field."""

    code = "bad-roster"


def load_roster(path: str | Path) -> Roster:
    """The roster in the file at ``path``; ``RosterError`` listing every problem otherwise."""
    source = read_source(path)
    if isinstance(source, Problem):
        raise RosterError([source])
    return _roster(source)


def loads_roster(text: str | bytes, file: str = "<roster>") -> Roster:
    """The roster in ``text``, shown as ``file`` in messages."""
    source = decode(text.encode("utf-8") if isinstance(text, str) else text, file)
    if isinstance(source, Problem):
        raise RosterError([source])
    return _roster(source)


def dumps_roster(roster: Roster) -> str:
    """The roster as YAML text, keys in a fixed order (what ``save_roster`` writes)."""
    yaml = YAML()
    yaml.default_flow_style = None
    out = io.StringIO()
    yaml.dump(roster.to_json(), out)
    return out.getvalue()


def save_roster(roster: Roster, path: str | Path) -> None:
    """Write the roster to ``path`` (UTF-8), so the next game starts from it."""
    Path(path).write_text(dumps_roster(roster), encoding="utf-8")


def roster_digest(roster: Roster) -> str:
    """SHA-256 of the roster's content (not its formatting): what a game was played with."""
    text = json.dumps(roster.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def campaign_rules(ruleset: str) -> Any:
    """The campaign of a registered ruleset (``None`` if it has none), looked up by name at run
    time as the scenario loader does, so the roster layer imports no ruleset."""
    registry = importlib.import_module("killhouse.rulesets")
    if ruleset not in registry.REGISTRY:
        return None
    return registry.get_ruleset(ruleset).campaign()


def _roster(source: Source) -> Roster:
    root = parse_yaml(source)
    if isinstance(root, Problem):
        raise RosterError([root])
    if not isinstance(root, Mapping):
        raise RosterError(
            [
                Problem(
                    source.file,
                    1,
                    "",
                    f"expected a mapping at the top level, found {describe(root)}",
                    "a roster is a mapping with roster (its name) and men",
                )
            ]
        )
    report = Report(source.file, LineIndex.build(root))
    top = Fields(root, "", report)
    top.check_keys(ROSTER_KEYS, "a roster")
    top.require("roster", "men")
    name = top.text("roster")
    ruleset = top.text("ruleset")
    seed = top.integer("seed", "a seed (a whole number 0 or more)", low=0)
    applied = [str(a) for a in top.sequence("applied", "a list of game ids") or []]
    rules = None
    if ruleset is not None:
        registry = importlib.import_module("killhouse.rulesets")
        if ruleset not in registry.REGISTRY:
            report.add("ruleset", f"unknown ruleset {ruleset!r}",
                       suggest(ruleset, registry.REGISTRY))
        else:
            rules = campaign_rules(ruleset)
    men: list[Man] = []
    seen: dict[str, str] = {}
    entries = top.sequence("men", "a list of men") or []
    for index, raw in enumerate(entries):
        path = item("men", index)
        if not isinstance(raw, Mapping):
            report.add(
                path,
                f"expected a man such as {{name: Kane, characteristics: {{…}}}}, "
                f"found {describe(raw)}",
            )
            continue
        man = _man(Fields(raw, path, report))
        if man is None:
            continue
        if man.name in seen:
            report.add(
                join(path, "name"), f"duplicate name {man.name!r}: {seen[man.name]} has it too"
            )
            continue
        seen[man.name] = path
        men.append(man)
    roster = Roster(name or "", tuple(men), ruleset, seed, tuple(applied))
    if rules is not None and not report.problems:
        for index, man in enumerate(men):
            for issue in rules.check_man(man, item("men", index), roster):
                report.add(issue.path, issue.message, issue.hint)
    if report.problems or name is None:
        raise RosterError(
            report.sorted() or [Problem(source.file, 1, "", "the roster is incomplete")]
        )
    return roster


def _numbers(fields: Fields, key: str, low: int) -> dict[str, int]:
    node = fields.mapping(key, f"a mapping of {key} names to whole numbers")
    out: dict[str, int] = {}
    for k, v in (node or {}).items():
        where = join(fields.at(key), k)
        if not isinstance(k, str) or not k.strip():
            fields.report.add(where, f"expected a name, found {describe(k)}")
        elif not is_int(v) or int(v) < low:
            fields.report.add(where, f"expected a whole number {low} or more, found {describe(v)}")
        else:
            out[k] = int(v)
    return out


def _man(fields: Fields) -> Man | None:
    before = fields.report.count()
    fields.check_keys(MAN_KEYS, "a man")
    fields.require("name")
    name = fields.text("name")
    characteristics = _numbers(fields, "characteristics", 0)
    skills = _numbers(fields, "skills", 0)
    wounds = _numbers(fields, "wounds", 0)
    status = fields.choice("status", STATUSES, ", ".join(STATUSES[:-1]) + " or dead") or "fit"
    games = fields.integer("games", "a number of games (0 or more)", low=0) or 0
    figure = fields.mapping("figure", "a mapping of the ruleset's figure keys") or {}
    record = fields.mapping("record", "a mapping of the ruleset's campaign record") or {}
    if name is None or fields.report.count() != before:
        return None
    return Man(
        name, characteristics, skills, {k: v for k, v in wounds.items() if v}, status, games,
        _thawed(figure), _thawed(record),
    )


def _thawed(value: Any) -> Any:
    """YAML nodes as plain dicts, lists and scalars."""
    if isinstance(value, Mapping):
        return {str(k): _thawed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_thawed(v) for v in value]
    return value


def figure_from_man(man: Man) -> dict[str, Any]:
    """What a scenario figure takes from a man: his name, characteristics as stats, the rest."""
    return {
        "name": man.name,
        "stats": dict(man.characteristics),
        "extra": {
            **man.figure, "skills": dict(man.skills), "wounds": dict(man.wounds),
            "status": man.status,
        },
    }
