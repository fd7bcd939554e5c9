"""Exact and empirical odds of a ruleset's named rolls, run through the code that plays them."""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from killhouse.core.chance import enumerate_outcomes, sample_outcomes
from killhouse.errors import UnknownRollError
from killhouse.rulesets import get_ruleset
from killhouse.rulesets.base import Param, RollSpec

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _suggest(word: str, options: Sequence[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1)
    return f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(options)})"


def roll_spec(ruleset_id: str, roll: str) -> RollSpec:
    rolls = get_ruleset(ruleset_id).rolls()
    if roll not in rolls:
        raise UnknownRollError(
            f"ruleset {ruleset_id!r} has no roll {roll!r}{_suggest(roll, sorted(rolls))}"
        )
    return rolls[roll]


def _convert(param: Param, raw: str | bool) -> Any:
    if param.type is bool:
        if isinstance(raw, bool):
            return raw
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise UnknownRollError(f"--{param.name}: expected true or false, found {raw!r}")
    if isinstance(raw, bool):
        raise UnknownRollError(
            f"--{param.name}: needs a value ({param.help or param.type.__name__})"
        )
    if param.type is int:
        try:
            number = int(raw) if len(raw) <= 20 else None
        except ValueError:
            number = None
        if number is None:
            raise UnknownRollError(f"--{param.name}: expected a whole number, found {raw!r}")
        if (param.min is not None and number < param.min) or (
            param.max is not None and number > param.max
        ):
            raise UnknownRollError(
                f"--{param.name}: {number} is outside the rules' range, {_range(param)}"
                + (f" ({param.help})" if param.help else "")
            )
        return number
    if param.choices and raw not in param.choices:
        raise UnknownRollError(
            f"--{param.name}: expected one of {', '.join(param.choices)}, found {raw!r}"
        )
    return raw


def _range(param: Param) -> str:
    """``1 to 10``, ``0 or more``, ``at most 10``."""
    if param.min is not None and param.max is not None:
        return f"{param.min} to {param.max}"
    if param.min is not None:
        return f"{param.min} or more"
    return f"at most {param.max}"


def parse_args(spec: RollSpec, args: Sequence[str]) -> dict[str, Any]:
    """Turn ``--name value`` / ``--flag`` words into typed parameters, defaults filled in."""
    by_name = {p.name: p for p in spec.params}
    by_name.update({p.name.replace("-", "_"): p for p in spec.params})
    raw: dict[str, str | bool] = {}
    i = 0
    while i < len(args):
        word = args[i]
        if not word.startswith("--"):
            raise UnknownRollError(f"unexpected word {word!r}; parameters look like --name value")
        name, _, inline = word[2:].partition("=")
        if name not in by_name:
            names = sorted(p.name for p in spec.params)
            raise UnknownRollError(
                f"roll {spec.name!r} has no parameter --{name}{_suggest(name, names)}"
            )
        param = by_name[name]
        if inline:
            raw[param.name] = inline
        elif param.type is bool and (
            i + 1 >= len(args) or args[i + 1].lower() not in _TRUE | _FALSE
        ):
            raw[param.name] = True
        elif i + 1 < len(args) and not args[i + 1].startswith("--"):
            raw[param.name] = args[i + 1]
            i += 1
        else:
            raw[param.name] = True
        i += 1
    params: dict[str, Any] = {}
    for p in spec.params:
        if p.name in raw:
            params[p.name] = _convert(p, raw[p.name])
        elif p.default is None:
            raise UnknownRollError(f"roll {spec.name!r} needs --{p.name} ({p.help})")
        else:
            params[p.name] = p.default
    return params


def exact_odds(spec: RollSpec, params: Mapping[str, Any]) -> dict[str, Fraction]:
    return dict(sorted(enumerate_outcomes(lambda chance: spec.resolve(chance, params)).items()))


def empirical_odds(
    spec: RollSpec, params: Mapping[str, Any], trials: int, seed: int
) -> dict[str, float]:
    counts = sample_outcomes(lambda chance: spec.resolve(chance, params), trials, seed)
    return {k: counts[k] / trials for k in sorted(counts)}


def odds_report(
    ruleset_id: str, roll: str, args: Sequence[str], empirical: int = 0, seed: int = 1
) -> dict[str, Any]:
    """The JSON the ``odds`` command prints."""
    spec = roll_spec(ruleset_id, roll)
    params = parse_args(spec, args)
    exact = exact_odds(spec, params)
    report: dict[str, Any] = {
        "ruleset": ruleset_id,
        "roll": roll,
        "params": params,
        "exact": {k: float(v) for k, v in exact.items()},
        "exact_fractions": {k: str(v) for k, v in exact.items()},
    }
    if empirical > 0:
        report["empirical"] = empirical_odds(spec, params, empirical, seed)
        report["trials"] = empirical
        report["seed"] = seed
    return report


def list_rolls(ruleset_id: str) -> list[dict[str, Any]]:
    return [
        {
            "roll": spec.name,
            "help": spec.help,
            "params": [
                {
                    "name": p.name,
                    "type": p.type.__name__,
                    "default": p.default,
                    "help": p.help,
                    **({"choices": list(p.choices)} if p.choices else {}),
                    **({"min": p.min} if p.min is not None else {}),
                    **({"max": p.max} if p.max is not None else {}),
                }
                for p in spec.params
            ],
        }
        for spec in get_ruleset(ruleset_id).rolls().values()
    ]
