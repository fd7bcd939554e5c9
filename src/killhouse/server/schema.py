"""The check of a sent action against its kind's JSON Schema (the ruleset's ``schemas()``).

The face refuses an action that does not fit its schema before the engine sees it, with the
``malformed-action`` code and a reason naming the argument, the same way the kit's argument
check words it. Only the schema forms the kit's ``Arg`` produces are read: object, string
(``maxLength``, ``enum``, ``const``), integer (``minimum``, ``maximum``), boolean and array
(``items``, ``minItems``, ``maxItems``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "null" if value is None else type(value).__name__


def problem(schema: Mapping[str, Any], value: Any) -> str:
    """What is wrong with ``value`` under ``schema`` (empty if nothing)."""
    if "const" in schema and value != schema["const"]:
        return f"must be {schema['const']!r}"
    if "enum" in schema and value not in schema["enum"]:
        return f"must be one of {', '.join(map(str, schema['enum']))}; got {value!r}"
    kind = schema.get("type")
    if kind == "string":
        if not isinstance(value, str):
            return f"must be text, got {_kind_of(value)}"
        limit = schema.get("maxLength")
        if isinstance(limit, int) and len(value) > limit:
            return f"is longer than {limit} characters"
    elif kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            return f"must be a whole number, got {_kind_of(value)}"
        low, high = schema.get("minimum"), schema.get("maximum")
        if isinstance(low, int) and value < low:
            return f"is {value}; the least is {low}"
        if isinstance(high, int) and value > high:
            return f"is {value}; the most is {high}"
    elif kind == "boolean":
        if not isinstance(value, bool):
            return f"must be true or false, got {_kind_of(value)}"
    elif kind == "array":
        if not isinstance(value, list):
            return f"must be a list, got {_kind_of(value)}"
        low, high = schema.get("minItems"), schema.get("maxItems")
        what = schema.get("description") or "a list"
        if isinstance(low, int) and len(value) < low:
            return f"must have at least {low} items ({what}), got {len(value)}"
        if isinstance(high, int) and len(value) > high:
            return f"must have at most {high} items ({what}), got {len(value)}"
        items = schema.get("items")
        if isinstance(items, Mapping):
            for i, item in enumerate(value):
                inner = problem(items, item)
                if inner:
                    return f"item {i} {inner}"
    elif kind == "object":
        return _object_problem(schema, value)
    return ""


def _object_problem(schema: Mapping[str, Any], value: Any) -> str:
    if not isinstance(value, dict):
        return f"must be an object, got {_kind_of(value)}"
    props: Mapping[str, Any] = schema.get("properties") or {}
    if schema.get("additionalProperties") is False:
        extra = sorted(k for k in value if k not in props)
        if extra:
            takes = ", ".join(k for k in props if k not in ("kind", "side")) or "no arguments"
            return f"does not take {', '.join(extra)} (it takes {takes})"
    for name in schema.get("required") or ():
        if name not in value:
            return f"needs the argument {name!r}"
    for name, sub in props.items():
        if name in value:
            inner = problem(sub, value[name])
            if inner:
                return f"argument {name!r} {inner}"
    return ""


def action_problem(schemas: Mapping[str, Mapping[str, Any]], action: Mapping[str, Any]) -> str:
    """Why ``action`` (with its ``kind`` and ``side``) does not fit its kind's schema, worded
    ``'kind': reason``; empty if it fits or the ruleset declares no schema for the kind."""
    kind = action.get("kind")
    schema = schemas.get(kind) if isinstance(kind, str) else None
    if schema is None:
        return ""
    reason = problem(schema, dict(action))
    return f"{kind!r} {reason}" if reason else ""
