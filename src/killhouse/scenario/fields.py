"""Checking one YAML mapping field by field, collecting problems instead of stopping at the first.

Every getter returns ``None`` when the field is absent or wrong, and in the
wrong case records a problem with the field's path and line, so a loader can
keep going and report everything that is wrong with a file at once.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from killhouse.errors import Problem
from killhouse.scenario.yamlsource import (
    LineIndex,
    PlainError,
    describe,
    is_bool,
    is_int,
    join,
    to_plain,
)


def suggest(word: str, options: Iterable[str], *, listing: bool = True) -> str:
    """``did you mean 'x'?`` for a close match, else the options (if ``listing``), else ``""``."""
    choices = sorted(set(options))
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]!r}?"
    if listing and choices:
        return "expected one of: " + ", ".join(choices)
    return ""


class Report:
    """The problems found in one file so far, each placed on its line."""

    def __init__(self, file: str, index: LineIndex) -> None:
        self.file = file
        self.index = index
        self.problems: list[Problem] = []

    def add(self, path: str, message: str, hint: str = "", line: int = 0) -> None:
        """Record a problem at ``path``; ``line`` 0 means: the line the path is written on."""
        where = line or self.index.line_of(path)
        self.problems.append(Problem(self.file, where, path, message, hint))

    def count(self) -> int:
        return len(self.problems)

    def sorted(self) -> list[Problem]:
        """Problems in file order (problems of the whole file first)."""
        return sorted(self.problems, key=lambda p: p.line)


class Fields:
    """Typed access to one mapping of the document at field path ``path``."""

    def __init__(self, node: Mapping[Any, Any], path: str, report: Report) -> None:
        self.node = node
        self.path = path
        self.report = report

    def at(self, key: str) -> str:
        return join(self.path, key)

    def has(self, key: str) -> bool:
        return key in self.node

    def raw(self, key: str) -> Any:
        return self.node.get(key)

    def check_keys(self, allowed: Collection[str], what: str, *, unsure: bool = False) -> None:
        """Report every key not in ``allowed`` (with did-you-mean).

        ``unsure``: the ruleset could not be loaded, so keys it might define are let through.
        """
        if unsure:
            return
        for key in self.node:
            if isinstance(key, str) and key in allowed:
                continue
            name = str(key)
            self.report.add(
                join(self.path, name),
                f"unknown key {name!r} in {what}",
                suggest(name, allowed),
            )

    def require(self, *keys: str) -> bool:
        """Report each missing key; True if all are present."""
        ok = True
        for key in keys:
            if key not in self.node:
                self.report.add(self.path, f"missing required key {key!r}")
                ok = False
        return ok

    def expected(self, key: str, what: str, hint: str = "") -> None:
        self.report.add(self.at(key), f"expected {what}, found {describe(self.node[key])}", hint)

    def text(self, key: str, *, nonempty: bool = True) -> str | None:
        if key not in self.node:
            return None
        value = self.node[key]
        if not isinstance(value, str) or (nonempty and not value.strip()):
            self.expected(key, "some text" if nonempty else "text")
            return None
        return str(value)

    def integer(
        self, key: str, what: str, *, low: int | None = None, high: int | None = None
    ) -> int | None:
        if key not in self.node:
            return None
        value = self.node[key]
        if not is_int(value):
            hint = "write digits only, without quotes" if isinstance(value, str) else ""
            self.expected(key, what, hint)
            return None
        number = int(value)
        if (low is not None and number < low) or (high is not None and number > high):
            self.expected(key, what)
            return None
        return number

    def boolean(self, key: str) -> bool | None:
        if key not in self.node:
            return None
        value = self.node[key]
        if not is_bool(value):
            self.expected(key, "true or false")
            return None
        return bool(value)

    def mapping(
        self, key: str, what: str = "a mapping of keys to values"
    ) -> Mapping[Any, Any] | None:
        if key not in self.node:
            return None
        value = self.node[key]
        if not isinstance(value, Mapping):
            self.expected(key, what)
            return None
        return value

    def sequence(self, key: str, what: str) -> list[Any] | None:
        if key not in self.node:
            return None
        value = self.node[key]
        if not isinstance(value, list):
            self.expected(key, what)
            return None
        return value

    def plain(self, key: str) -> Any:
        """The value of ``key`` as plain data (``None`` if absent or it has no plain form)."""
        if key not in self.node:
            return None
        try:
            return to_plain(self.node[key], self.at(key))
        except PlainError as exc:
            self.report.add(exc.path, exc.message)
            return None

    def choice(self, key: str, choices: Collection[str], what: str) -> str | None:
        if key not in self.node:
            return None
        value = self.node[key]
        if isinstance(value, str) and value in choices:
            return str(value)
        hint = suggest(value, choices) if isinstance(value, str) else suggest("", choices)
        self.report.add(self.at(key), f"expected {what}, found {describe(value)}", hint)
        return None
