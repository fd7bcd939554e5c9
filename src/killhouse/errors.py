"""The error hierarchy: every error a user can cause is a ``ValueError`` with a clear message."""

from __future__ import annotations

from dataclasses import dataclass


class KillhouseError(ValueError):
    """Base of every error killhouse raises on bad input."""

    code = "error"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file: where it is, what was expected, what was found."""

    file: str
    line: int
    field: str
    message: str
    hint: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line > 0 else self.file  # 0: the whole file
        text = f"{where}: {self.field}: {self.message}"
        if not self.field:
            text = f"{where}: {self.message}"
        return f"{text} ({self.hint})" if self.hint else text


class ScenarioError(KillhouseError):
    """A scenario file is wrong; carries every problem found, each with file, line and field."""

    code = "bad-scenario"

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class IllegalActionError(KillhouseError):
    """An action the rules do not allow now; the game state is unchanged."""

    code = "illegal-action"


class UnknownRulesetError(KillhouseError):
    """No ruleset is registered under that id."""

    code = "unknown-ruleset"


class UnknownRollError(KillhouseError):
    """A ruleset has no named roll of that id, or a parameter is wrong."""

    code = "unknown-roll"


class ReplayError(KillhouseError):
    """A game log cannot be read or does not belong to the scenario it names."""

    code = "bad-log"


class MalformedActionError(IllegalActionError):
    """An action that is not well formed: unknown kind, missing, extra or ill-typed argument.

    It is an ``IllegalActionError`` too, so every caller that refuses illegal actions refuses
    malformed ones; faces tell the two apart by ``code``.
    """

    code = "malformed-action"
