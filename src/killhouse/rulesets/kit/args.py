"""Typed action arguments: one declaration gives the JSON Schema faces build controls from and
the check that refuses a malformed action before any rule is consulted.

Arguments arrive as JSON (lists) or frozen inside an ``Action`` (tuples); both are accepted.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from killhouse.errors import MalformedActionError

JSON = Any

ArgType = Literal["figure", "id", "cell", "cells", "int", "str", "enum", "bool"]

#: the longest id or free text any action may carry (a bound on what a face can send)
MAX_ID = 64
MAX_TEXT = 2000
MAX_CELLS = 64


@dataclass(frozen=True)
class Arg:
    """One argument of a move: its name, type and bounds.

    ``figure`` and ``id`` are ids (strings); ``cell`` is ``[level, x, y]``; ``cells`` a list of
    cells (a route); ``enum`` one of ``choices``.
    """

    name: str
    type: ArgType
    required: bool = True
    help: str = ""
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None

    def schema(self) -> dict[str, JSON]:
        """This argument as a JSON Schema fragment."""
        cell = {
            "type": "array",
            "items": {"type": "integer"},
            "minItems": 3,
            "maxItems": 3,
            "description": "[level, x, y]",
        }
        out: dict[str, JSON]
        if self.type in ("figure", "id"):
            out = {"type": "string", "maxLength": MAX_ID}
            if self.type == "figure":
                out["format"] = "figure-id"
        elif self.type == "cell":
            out = dict(cell)
        elif self.type == "cells":
            out = {"type": "array", "items": cell, "maxItems": self.max_length or MAX_CELLS}
        elif self.type == "int":
            out = {"type": "integer"}
            if self.minimum is not None:
                out["minimum"] = self.minimum
            if self.maximum is not None:
                out["maximum"] = self.maximum
        elif self.type == "str":
            out = {"type": "string", "maxLength": self.max_length or MAX_TEXT}
        elif self.type == "enum":
            out = {"type": "string", "enum": list(self.choices)}
        else:
            out = {"type": "boolean"}
        if self.help:
            out["description"] = self.help
        return out

    def check(self, kind: str, value: JSON) -> None:
        """Raise ``MalformedActionError`` unless ``value`` has this argument's type and bounds."""
        problem = self._problem(value)
        if problem:
            raise MalformedActionError(f"{kind!r}: argument {self.name!r} {problem}")

    def _problem(self, value: JSON) -> str:
        if self.type in ("figure", "id"):
            if not isinstance(value, str) or not value:
                return f"must be an id (a string), got {value!r}"
            if len(value) > MAX_ID:
                return f"is longer than {MAX_ID} characters"
            return ""
        if self.type == "cell":
            return "" if _is_cell(value) else f"must be a cell [level, x, y], got {value!r}"
        if self.type == "cells":
            limit = self.max_length or MAX_CELLS
            if not isinstance(value, list | tuple):
                return f"must be a list of cells [level, x, y], got {value!r}"
            if len(value) > limit:
                return f"lists {len(value)} cells; at most {limit}"
            bad = next((v for v in value if not _is_cell(v)), None)
            return "" if bad is None else f"holds {bad!r}, not a cell [level, x, y]"
        if self.type == "int":
            if not _is_int(value):
                return f"must be a whole number, got {value!r}"
            if self.minimum is not None and value < self.minimum:
                return f"is {value}; the least is {self.minimum}"
            if self.maximum is not None and value > self.maximum:
                return f"is {value}; the most is {self.maximum}"
            return ""
        if self.type == "str":
            limit = self.max_length or MAX_TEXT
            if not isinstance(value, str):
                return f"must be text, got {value!r}"
            return f"is longer than {limit} characters" if len(value) > limit else ""
        if self.type == "enum":
            if value in self.choices:
                return ""
            return f"must be one of {', '.join(self.choices)}; got {value!r}"
        return "" if isinstance(value, bool) else f"must be true or false, got {value!r}"


def _is_int(value: JSON) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_cell(value: JSON) -> bool:
    return isinstance(value, list | tuple) and len(value) == 3 and all(_is_int(v) for v in value)


def check_args(kind: str, args: tuple[Arg, ...], given: Mapping[str, JSON]) -> None:
    """Refuse missing, unknown and ill-typed arguments of one action, naming each."""
    declared = {a.name for a in args}
    extra = sorted(k for k in given if k not in declared)
    if extra:
        takes = ", ".join(a.name for a in args) or "no arguments"
        raise MalformedActionError(f"{kind!r} does not take {', '.join(extra)} (it takes {takes})")
    for arg in args:
        if arg.name in given:
            arg.check(kind, given[arg.name])
        elif arg.required:
            raise MalformedActionError(f"{kind!r} needs the argument {arg.name!r}")


def action_schema(kind: str, args: tuple[Arg, ...], help: str = "") -> dict[str, JSON]:
    """The JSON Schema of one action kind as a face sends it: ``{"kind": …, "side": …, args}``."""
    properties: dict[str, JSON] = {
        "kind": {"const": kind},
        "side": {"type": "string", "maxLength": MAX_ID},
    }
    properties.update({a.name: a.schema() for a in args})
    schema: dict[str, JSON] = {
        "type": "object",
        "properties": properties,
        "required": ["kind", "side", *(a.name for a in args if a.required)],
        "additionalProperties": False,
    }
    if help:
        schema["description"] = help
    return schema
