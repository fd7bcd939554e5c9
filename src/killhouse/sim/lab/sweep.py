"""Scenario variants for sweeps: one value changed by its dotted path, then re-validated.

``turn_limit``, ``options.grenades_per_figure``, ``figures.gunman-1.stats.firearms`` or
``figures.0.at``: a mapping step names a key, a list step an item's ``id`` or its index.
The edited YAML goes through the normal loader, so a bad value gets the loader's message.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, MutableMapping, MutableSequence, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from killhouse.errors import KillhouseError
from killhouse.scenario.loader import load_scenario, loads_scenario
from killhouse.scenario.model import Scenario


@dataclass(frozen=True)
class Vary:
    """``--vary PATH=v1,v2,…`` parsed: the path's steps and each value as YAML reads it."""

    path: str
    steps: tuple[str, ...]
    texts: tuple[str, ...]
    values: tuple[Any, ...]


def parse_vary(spec: str) -> Vary:
    """``turn_limit=15,20`` -> path ``turn_limit``, values ``15`` and ``20``.

    Values that contain commas are written as a YAML list:
    ``figures.c1.at=["ground:2,2", "ground:3,3"]``.
    """
    path, sep, rest = spec.partition("=")
    path, rest = path.strip(), rest.strip()
    if not sep or not path or not rest:
        raise KillhouseError(
            f"--vary {spec!r}: expected PATH=v1,v2,… (for example turn_limit=15,20,25)"
        )
    steps = tuple(path.split("."))
    if any(not s for s in steps):
        raise KillhouseError(f"--vary {spec!r}: the path {path!r} has an empty step")
    if rest.startswith("["):
        listed = _scalar(spec, rest)
        if not isinstance(listed, list) or not listed:
            raise KillhouseError(f"--vary {spec!r}: expected a list of values in [ ]")
        values = tuple(listed)
        texts = tuple(str(v) for v in values)
    else:
        texts = tuple(t.strip() for t in rest.split(","))
        if any(not t for t in texts):
            raise KillhouseError(f"--vary {spec!r}: a value is empty")
        values = tuple(_scalar(spec, t) for t in texts)
    if len(set(texts)) != len(texts):
        raise KillhouseError(f"--vary {spec!r}: a value is given twice")
    return Vary(path, steps, texts, values)


def _scalar(spec: str, text: str) -> Any:
    """A value as YAML reads it: ``15`` is a number, ``true`` a truth value, ``smg`` text."""
    try:
        return YAML(typ="safe", pure=True).load(text)
    except YAMLError as exc:
        raise KillhouseError(f"--vary {spec!r}: {text!r} is not a YAML value ({exc})") from exc


def _rt() -> YAML:
    yaml = YAML(typ="rt", pure=True)
    yaml.preserve_quotes = True
    yaml.width = 4096
    return yaml


def set_path(data: Any, steps: Sequence[str], value: Any) -> None:
    """Set the value at ``steps`` inside parsed YAML; a missing last key of a mapping is
    added, anything else missing is a ``KillhouseError`` that lists what is there."""
    node = data
    for depth, step in enumerate(steps):
        last = depth == len(steps) - 1
        where = ".".join(steps[:depth]) or "the top level"
        if isinstance(node, MutableMapping):
            if step not in node and not last:
                keys = ", ".join(str(k) for k in node) or "none"
                raise KillhouseError(f"--vary: no key {step!r} in {where} (keys: {keys})")
            if last:
                node[step] = value
                return
            node = node[step]
        elif isinstance(node, MutableSequence):
            index = _item(node, step, where)
            if last:
                node[index] = value
                return
            node = node[index]
        else:
            raise KillhouseError(
                f"--vary: {where} is a single value ({node!r}), it has no {step!r} inside"
            )


def _item(items: MutableSequence[Any], step: str, where: str) -> int:
    """The index of the list item whose ``id`` is ``step``, or of index ``step``."""
    for i, item in enumerate(items):
        if isinstance(item, Mapping) and str(item.get("id")) == step:
            return i
    if step.isdigit() and int(step) < len(items):
        return int(step)
    ids = [str(i["id"]) for i in items if isinstance(i, Mapping) and "id" in i]
    known = f"ids: {', '.join(ids)}; " if ids else ""
    raise KillhouseError(
        f"--vary: no item {step!r} in {where} ({known}indexes 0 to {len(items) - 1})"
    )


@dataclass(frozen=True)
class Variant:
    """One value of a sweep: its label, the edited text, and the scenario it loads as."""

    value: Any
    label: str
    text: bytes
    scenario: Scenario


def variant(path: Path, vary: Vary, index: int) -> Variant:
    """The scenario at ``path`` with value ``index`` of ``vary`` set, checked by the loader
    (``ScenarioError`` with file:line messages on the edited text)."""
    load_scenario(path)  # the original must be sound before anything is changed
    yaml = _rt()
    data = yaml.load(path.read_text(encoding="utf-8-sig"))
    set_path(data, vary.steps, vary.values[index])
    buffer = io.StringIO()
    yaml.dump(data, buffer)
    text = buffer.getvalue().encode("utf-8")
    label = f"{vary.path}={vary.texts[index]}"
    return Variant(vary.values[index], label, text, loads_scenario(text, f"{path} [{label}]"))


def closest_to_even(rows: Sequence[tuple[Any, Mapping[str, float]]]) -> Any:
    """The value whose sides' win rates are closest together (ruling L-5); the first such
    value on a tie."""
    best: Any = None
    gap = 2.0
    for value, rates in rows:
        spread = max(rates.values()) - min(rates.values()) if rates else 0.0
        if spread < gap - 1e-12:
            best, gap = value, spread
    return best


def sweep_summary(
    scenario: Scenario, vary: Vary, seed: int, rows: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """The sweep as JSON: each value's win and draw rates, and the value closest to even."""
    sides = scenario.side_ids()
    variants = [
        {
            "value": vary.values[i],
            "label": f"{vary.path}={vary.texts[i]}",
            "games": row["games"],
            "wins": row["wins"],
            "draws": row["draws"],
            "turns_mean": row["turns"]["mean"],
        }
        for i, row in enumerate(rows)
    ]
    even = closest_to_even(
        [(v["value"], {s: v["wins"][s]["rate"] for s in sides}) for v in variants]
    )
    return {
        "scenario": scenario.name,
        "ruleset": scenario.ruleset,
        "file": scenario.file,
        "seed": seed,
        "path": vary.path,
        "sides": sides,
        "variants": variants,
        "closest_to_even": even,
    }
