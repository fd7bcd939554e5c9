"""Scenario files to checked ``Scenario`` objects, with every problem reported at once.

The core checks (YAML syntax, keys, types, map, positions, ids) run first and
collect everything they find; only a scenario that passes them is handed to
its ruleset's ``check_scenario``, whose issues are placed on file lines too.
No input, however broken, ends in a traceback: it ends in ``ScenarioError``.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from killhouse.core.layers import LayerSpec
from killhouse.errors import Problem, ScenarioError
from killhouse.scenario.fields import Fields, Report, suggest
from killhouse.scenario.limits import MAX_TURN_LIMIT
from killhouse.scenario.mapsection import parse_map
from killhouse.scenario.model import Issue, Scenario
from killhouse.scenario.pieces import (
    Extras,
    Ids,
    parse_figures,
    parse_objects,
    parse_sides,
    scenario_roster,
)
from killhouse.scenario.reach import sealed_sides
from killhouse.scenario.yamlsource import (
    LineIndex,
    Source,
    decode,
    describe,
    parse_yaml,
    read_source,
)

REQUIRED_KEYS = ("name", "ruleset", "map", "sides", "figures")
TOP_KEYS = (
    *REQUIRED_KEYS,
    "description",
    "turn_limit",
    "seed",
    "objects",
    "objectives",
    "options",
    "roster",
)
MAX_SEED = 2**64 - 1
_FAULT = "this is a fault in killhouse, not in the scenario: please report it"


class ScenarioRules(Protocol):
    """What the loader needs of a ruleset: its extra keys and its own checks."""

    @property
    def scenario_keys(self) -> Mapping[str, frozenset[str]]: ...

    @property
    def layers(self) -> Mapping[str, LayerSpec]: ...

    def check_scenario(self, scenario: Scenario) -> list[Issue]: ...


class Catalogue(Protocol):
    """The rulesets a scenario may name: their ids, and each one loaded by id."""

    def ids(self) -> list[str]: ...

    def get(self, ruleset_id: str) -> ScenarioRules: ...

    def bots(self) -> list[str]:
        """The bot names ``controller: ai:<name>`` may give."""
        ...


class _Registered:
    """The registry of ``killhouse.rulesets``, found by name when a file is loaded.

    The scenario layer sits below the rulesets (they import ``scenario.model``), so it
    must not import the registry itself: the registry is looked up at run time, the way
    the registry looks up each ruleset's module.
    """

    def _registry(self) -> Any:
        return importlib.import_module("killhouse.rulesets")

    def ids(self) -> list[str]:
        return list(self._registry().ruleset_ids())

    def get(self, ruleset_id: str) -> ScenarioRules:
        rules: ScenarioRules = self._registry().get_ruleset(ruleset_id)
        return rules

    def bots(self) -> list[str]:
        return list(importlib.import_module("killhouse.ai.registry").BOT_NAMES)


REGISTERED: Catalogue = _Registered()


def load_scenario(path: str | Path, rulesets: Catalogue = REGISTERED) -> Scenario:
    """The scenario in the file at ``path``; ``ScenarioError`` listing every problem otherwise."""
    source = read_source(path)
    if isinstance(source, Problem):
        raise ScenarioError([source])
    return _scenario_or_raise(source, rulesets)


def loads_scenario(
    text: str | bytes,
    file: str = "<scenario>",
    rulesets: Catalogue = REGISTERED,
    roster_text: str | None = None,
) -> Scenario:
    """The scenario in ``text`` (shown as ``file`` in messages), e.g. an upload or a test;
    ``roster_text`` stands in for its roster file (a logged game's roster, ruling K-16)."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    source = decode(data, file)
    if isinstance(source, Problem):
        raise ScenarioError([source])
    return _scenario_or_raise(source, rulesets, roster_text)


def check_file(path: str | Path, rulesets: Catalogue = REGISTERED) -> list[Problem]:
    """Every problem of the scenario file at ``path``, in file order; empty if it is sound."""
    source = read_source(path)
    if isinstance(source, Problem):
        return [source]
    result = _load(source, rulesets)
    return result if isinstance(result, list) else []


def check_file_with_warnings(
    path: str | Path, rulesets: Catalogue = REGISTERED
) -> tuple[list[Problem], list[Problem]]:
    """The problems of the file (it is refused) and, if there are none, its warnings.

    A warning does not stop a game: it names something that loads but plays badly, such
    as a side sealed off from every objective and enemy (``scenario.reach``).
    """
    source = read_source(path)
    if isinstance(source, Problem):
        return [source], []
    result = _load(source, rulesets)
    if isinstance(result, list):
        return result, []
    return [], sealed_sides(result)


def _scenario_or_raise(
    source: Source, rulesets: Catalogue, roster_text: str | None = None
) -> Scenario:
    result = _load(source, rulesets, roster_text)
    if isinstance(result, list):
        raise ScenarioError(result)
    return result


def _load(
    source: Source, rulesets: Catalogue, roster_text: str | None = None
) -> Scenario | list[Problem]:
    root = parse_yaml(source)
    if isinstance(root, Problem):
        return [root]
    if root is None:
        return [
            Problem(
                source.file,
                1,
                "",
                "the file is empty",
                "a scenario is a mapping with name, ruleset, map, sides and figures",
            )
        ]
    if not isinstance(root, Mapping):
        return [
            Problem(
                source.file,
                1,
                "",
                f"expected a mapping at the top level, found {describe(root)}",
                "a scenario is a mapping with name, ruleset, map, sides and figures",
            )
        ]
    index = LineIndex.build(root)
    report = Report(source.file, index)
    top = Fields(root, "", report)
    top.check_keys(TOP_KEYS, "a scenario")
    top.require(*REQUIRED_KEYS)
    ruleset_id, ruleset = _ruleset(top, rulesets)
    extras = Extras(dict(ruleset.scenario_keys) if ruleset else {}, known=ruleset is not None)
    name = top.text("name")
    description = top.text("description", nonempty=False)
    turn_limit = top.integer(
        "turn_limit", f"a number of turns from 1 to {MAX_TURN_LIMIT}", low=1, high=MAX_TURN_LIMIT
    )
    seed = top.integer("seed", f"a seed from 0 to {MAX_SEED}", low=0, high=MAX_SEED)
    objectives = _free_mapping(top, "objectives")
    options = _free_mapping(top, "options")
    parts = parse_map(top, ruleset.layers if ruleset else None)
    sides = parse_sides(top, extras, rulesets.bots())
    ids = Ids(report)
    roster, roster_source = scenario_roster(top, roster_text)
    figures = parse_figures(top, extras, parts, sides, ids, roster)
    objects = parse_objects(top, extras, parts, ids)
    if report.problems or ruleset is None or parts.board is None or name is None:
        return report.sorted() or [Problem(source.file, 1, "", "the scenario is incomplete")]
    scenario = Scenario(
        name=name,
        ruleset=ruleset_id,
        board=parts.board,
        sides=sides,
        figures=figures,
        objects=objects,
        objectives=objectives,
        options=options,
        description=(description or "").strip(),
        turn_limit=turn_limit,
        seed=seed,
        file=source.file,
        content_hash=hashlib.sha256(source.data).hexdigest(),
        source_text=source.data.decode("utf-8"),  # with any byte-order mark: hashes the same
        roster_text=roster_source,
        line_of=index.line_of,
    )
    _ruleset_checks(scenario, ruleset, report)
    return report.sorted() if report.problems else scenario


def _ruleset(top: Fields, rulesets: Catalogue) -> tuple[str, ScenarioRules | None]:
    """The ruleset the file names, loaded; a problem on the ``ruleset`` line otherwise."""
    value = top.raw("ruleset")
    if value is None and not top.has("ruleset"):
        return "", None
    ids = rulesets.ids()
    if not isinstance(value, str):
        top.expected("ruleset", "a ruleset id", "expected one of: " + ", ".join(ids))
        return "", None
    if value not in ids:
        top.report.add("ruleset", f"unknown ruleset {value!r}", suggest(value, ids))
        return value, None
    try:
        return value, rulesets.get(value)
    except Exception as exc:  # a broken ruleset module must still end in a message
        top.report.add(
            "ruleset",
            f"ruleset {value!r} could not be loaded ({type(exc).__name__}: {exc})",
            _FAULT,
        )
        return value, None


def _free_mapping(top: Fields, key: str) -> dict[str, Any]:
    """``objectives`` and ``options``: any mapping; the ruleset checks what is inside."""
    if top.mapping(key) is None:
        return {}
    value = top.plain(key)
    return dict(value) if isinstance(value, dict) else {}


def _ruleset_checks(scenario: Scenario, ruleset: ScenarioRules, report: Report) -> None:
    """The ruleset's own checks, each issue placed on the line of its field path."""
    try:
        issues = ruleset.check_scenario(scenario)
    except Exception as exc:  # a ruleset fault must still end in a message
        report.add(
            "",
            f"ruleset {scenario.ruleset!r} failed while checking the scenario "
            f"({type(exc).__name__}: {exc})",
            _FAULT,
        )
        return
    for issue in issues:
        report.add(issue.path, issue.message, issue.hint)
