"""Reading a ruleset's tables: YAML files in the ``data`` folder beside its code."""

from __future__ import annotations

from importlib import resources
from typing import Any

from ruamel.yaml import YAML


def load_table(package: str, name: str) -> dict[str, Any]:
    """The mapping in ``<package>/data/<name>``; a packaging fault if it is anything else."""
    text = resources.files(package).joinpath("data", name).read_text(encoding="utf-8")
    data = YAML(typ="safe").load(text)
    if not isinstance(data, dict):
        raise ValueError(f"table {package}/data/{name} is not a mapping")
    return data
