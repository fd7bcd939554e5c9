"""Missions other than elimination (rulings C-155, C-156), read from the scenario's
``objectives`` in the shared vocabulary (``scenario.objectives``): ``mission`` names the kind,
``bomb_sites`` the zones of the targets a ``demolish`` mission must blow up.

Elimination (C-84) wins every mission; a ``demolish`` mission is also won by the first side
when a demolition or satchel charge's blast covers a square of every target zone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from killhouse.core.cells import Cell, cell_json
from killhouse.scenario.model import Issue, Scenario
from killhouse.scenario.objectives import read_objectives

#: the canonical objective keys commando plays
KEYS = ("mission", "bomb_sites")
#: the missions: put the enemy out of action, or blow up the targets (C-155)
MISSIONS = ("eliminate", "demolish")
#: the devices whose blast destroys a target: charges, not grenades or rounds (C-156)
CHARGES = ("demolition", "satchel")


@dataclass(frozen=True)
class Mission:
    """The scenario's mission and, for ``demolish``, each target zone's squares by name."""

    kind: str = "eliminate"
    targets: Mapping[str, frozenset[Cell]] = field(default_factory=dict)


def read(scenario: Scenario) -> tuple[Mission, list[Issue]]:
    """The mission of the scenario's ``objectives``, with one issue per bad key or value."""
    objectives, issues = read_objectives(scenario.objectives, KEYS)
    kind = objectives.get("mission", "eliminate")
    if kind not in MISSIONS:
        issues.append(Issue(objectives.path("mission"), f"unknown mission {kind!r}",
                            f"one of {', '.join(MISSIONS)}"))
        return Mission(), issues
    sites = objectives.get("bomb_sites")
    if kind != "demolish":
        if sites is not None:
            issues.append(Issue(objectives.path("bomb_sites"),
                                "bomb_sites are read by a demolish mission only",
                                "mission: demolish"))
        return Mission(str(kind)), issues
    names = [sites] if isinstance(sites, str) else sites
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        issues.append(Issue(objectives.path("bomb_sites"),
                            "a demolish mission names its targets' zones",
                            "bomb_sites: radar (a zone of map.zones) or a list of zones"))
        return Mission(), issues
    targets: dict[str, frozenset[Cell]] = {}
    for name in names:
        cells = scenario.board.zones.get(name)
        if not cells:
            issues.append(Issue(objectives.path("bomb_sites"), f"no zone {name!r} in map.zones",
                                "name a zone of map.zones"))
            continue
        targets[name] = frozenset(cells)
    return Mission(str(kind), targets), issues


def hit(targets: Mapping[str, frozenset[Cell]], destroyed: set[str], device: str, level: int,
        area: NDArray[np.bool_]) -> list[str]:
    """The targets not yet destroyed that a charge's blast area on ``level`` covers (C-156)."""
    if device not in CHARGES:
        return []
    out = []
    for name, cells in sorted(targets.items()):
        if name not in destroyed and any(
                c.level == level and bool(area[c.y, c.x]) for c in cells):
            out.append(name)
    return out


def public(mission: Mission, destroyed: set[str]) -> dict[str, object]:
    """What both sides know of the mission: its kind and the targets (C-155)."""
    return {"kind": mission.kind,
            "targets": {name: {"cells": [cell_json(c) for c in sorted(cells)],
                               "destroyed": name in destroyed}
                        for name, cells in sorted(mission.targets.items())}}
