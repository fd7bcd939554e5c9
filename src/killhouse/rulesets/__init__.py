"""Rulesets register here by id; each lives in its own package with its tables as data."""

from __future__ import annotations

import difflib
import importlib
from typing import Any

from killhouse.errors import UnknownRulesetError
from killhouse.rulesets.base import Ruleset

#: ruleset id -> "module:Class"; loaded on first use so one broken ruleset cannot stop the others
REGISTRY: dict[str, str] = {
    "execute": "killhouse.rulesets.execute.ruleset:ExecuteRuleset",
    "gogogo": "killhouse.rulesets.gogogo.ruleset:GoGoGoRuleset",
    "commando": "killhouse.rulesets.commando.ruleset:CommandoRuleset",
    "cqb": "killhouse.rulesets.cqb.ruleset:CqbRuleset",
    "firewall": "killhouse.rulesets.firewall.ruleset:FirewallRuleset",
}
_LOADED: dict[str, Ruleset[Any]] = {}


def ruleset_ids() -> list[str]:
    return sorted(REGISTRY)


def get_ruleset(ruleset_id: str) -> Ruleset[Any]:
    """The ruleset registered under ``ruleset_id``; a clear error with a suggestion otherwise."""
    if ruleset_id in _LOADED:
        return _LOADED[ruleset_id]
    target = REGISTRY.get(ruleset_id)
    if target is None:
        close = difflib.get_close_matches(ruleset_id, list(REGISTRY), n=1)
        hint = (
            f" (did you mean {close[0]!r}?)"
            if close
            else f" (known: {', '.join(sorted(REGISTRY))})"
        )
        raise UnknownRulesetError(f"no ruleset {ruleset_id!r}{hint}")
    module_name, class_name = target.split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    instance: Ruleset[Any] = cls()
    _LOADED[ruleset_id] = instance
    return instance


def register(ruleset_id: str, target: str) -> None:
    """Register a ruleset class given as ``module:Class`` (for plug-ins and tests)."""
    REGISTRY[ruleset_id] = target
    _LOADED.pop(ruleset_id, None)
