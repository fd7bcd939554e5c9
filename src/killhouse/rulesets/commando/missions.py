"""Missions other than elimination (rulings C-155, C-156, C-175, C-177), read from the
scenario's ``objectives`` in the shared vocabulary (``scenario.objectives``): ``mission`` names
the kind, ``bomb_sites`` the zones of the targets a ``demolish`` mission must blow up,
``rescue_zone`` (and optionally ``hostage_location``) a ``rescue`` mission's zones,
``hold_zone`` the zone of a ``hold`` mission.

Elimination (C-84) wins every mission; a ``demolish`` mission is also won by the first side
when a demolition or satchel charge's blast covers a square of every target zone; a
``rescue`` mission by the first side when every hostage left alive is brought out (C-175); a
``hold`` mission by the side that holds the zone (C-177).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from killhouse.core.cells import Cell, cell_json
from killhouse.scenario.model import FigureSpec, Issue, Scenario
from killhouse.scenario.objectives import Objectives, read_objectives

#: the canonical objective keys commando plays
KEYS = ("mission", "bomb_sites", "rescue_zone", "hostage_location", "hold_zone")
#: the missions: put the enemy out of action, blow up the targets (C-155), bring the hostages
#: out (C-175), or hold a zone (C-177)
MISSIONS = ("eliminate", "demolish", "rescue", "hold")
#: the zone keys each mission reads (the others are refused on it)
ZONE_KEYS = {"demolish": ("bomb_sites",), "rescue": ("rescue_zone", "hostage_location"),
             "hold": ("hold_zone",), "eliminate": ()}
#: the devices whose blast destroys a target: charges, not grenades or rounds (C-156)
CHARGES = ("demolition", "satchel")


@dataclass(frozen=True)
class Mission:
    """The scenario's mission and, for ``demolish``, each target zone's squares by name."""

    kind: str = "eliminate"
    targets: Mapping[str, frozenset[Cell]] = field(default_factory=dict)
    #: rescue (C-175): where hostages are brought out, and where they are said to be held
    rescue: frozenset[Cell] = frozenset()
    location: frozenset[Cell] = frozenset()
    #: hold (C-177): the zone, the side that must hold it, and for how many Bookkeepings in a
    #: row (None: at the end of the turn limit)
    hold: frozenset[Cell] = frozenset()
    hold_name: str = ""
    holder: str | None = None
    hold_turns: int | None = None


def read(scenario: Scenario) -> tuple[Mission, list[Issue]]:
    """The mission of the scenario's ``objectives``, with one issue per bad key or value."""
    objectives, issues = read_objectives(scenario.objectives, KEYS)
    kind = objectives.get("mission", "eliminate")
    if kind not in MISSIONS:
        issues.append(Issue(objectives.path("mission"), f"unknown mission {kind!r}",
                            f"one of {', '.join(MISSIONS)}"))
        return Mission(), issues
    for key in KEYS[1:]:
        if key in objectives and key not in ZONE_KEYS[str(kind)]:
            users = [m for m, keys in ZONE_KEYS.items() if key in keys]
            issues.append(Issue(objectives.path(key),
                                f"{objectives.written(key)} {'are' if key.endswith('s') else 'is'}"
                                f" read by a {users[0]} mission only", f"mission: {users[0]}"))
    hostages = [f for f in scenario.figures if f.kind == "hostage"]
    if hostages and kind != "rescue":
        issues.append(Issue(hostages[0].path, "hostages play in a rescue mission only",
                            "objectives: {mission: rescue, rescue_zone: ZONE} (ruling C-175)"))
    if issues:
        return Mission(), issues
    if kind == "demolish":
        names = _names(objectives.get("bomb_sites"))
        if names is None:
            issues.append(Issue(objectives.path("bomb_sites"),
                                "a demolish mission names its targets' zones",
                                "bomb_sites: radar (a zone of map.zones) or a list of zones"))
            return Mission(), issues
        targets: dict[str, frozenset[Cell]] = {}
        for name in names:
            cells = _zone(scenario, objectives.path("bomb_sites"), name, issues)
            if cells:
                targets[name] = cells
        return Mission(str(kind), targets), issues
    if kind == "rescue":
        return _rescue(scenario, objectives, hostages, issues)
    if kind == "hold":
        return _hold(scenario, objectives, issues)
    return Mission(str(kind)), issues


def _names(value: object) -> list[str] | None:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        return None
    return [str(n) for n in names]


def _zone(scenario: Scenario, path: str, name: str, issues: list[Issue]) -> frozenset[Cell]:
    cells = scenario.board.zones.get(name)
    if not cells:
        issues.append(Issue(path, f"no zone {name!r} in map.zones", "name a zone of map.zones"))
        return frozenset()
    return frozenset(cells)


def _cells(scenario: Scenario, objectives: Objectives, key: str, issues: list[Issue],
           example: str) -> frozenset[Cell] | None:
    """The union of the zones named under ``key``; None (and an issue) when it names none."""
    names = _names(objectives.get(key))
    if names is None:
        issues.append(Issue(objectives.path(key), f"{key} names one or more zones",
                            f"{key}: {example} (a zone of map.zones) or a list of zones"))
        return None
    out: frozenset[Cell] = frozenset()
    for name in names:
        out |= _zone(scenario, objectives.path(key), name, issues)
    return out


def _rescue(scenario: Scenario, objectives: Objectives, hostages: list[FigureSpec],
            issues: list[Issue]) -> tuple[Mission, list[Issue]]:
    """Ruling C-175: a rescue mission needs its rescue zone and at least one hostage."""
    if "rescue_zone" not in objectives:
        issues.append(Issue("objectives", "a rescue mission names its rescue_zone",
                            "rescue_zone: garden (a zone of map.zones)"))
        return Mission(), issues
    zone = _cells(scenario, objectives, "rescue_zone", issues, "garden")
    location: frozenset[Cell] | None = frozenset()
    if "hostage_location" in objectives:
        location = _cells(scenario, objectives, "hostage_location", issues, "cellar")
    if not hostages:
        issues.append(Issue("figures", "a rescue mission needs hostages",
                            "a figure with kind: hostage and no side (ruling C-170)"))
    if zone is None or location is None or issues:
        return Mission(), issues
    return Mission("rescue", rescue=zone, location=location), issues


def _hold(scenario: Scenario, objectives: Objectives,
          issues: list[Issue]) -> tuple[Mission, list[Issue]]:
    """Ruling C-177: the zone, ``options.hold_side`` (default the first side) and
    ``options.hold_turns`` (a whole number from 1 up; absent: at the end of the turn limit)."""
    if "hold_zone" not in objectives:
        issues.append(Issue("objectives", "a hold mission names its hold_zone",
                            "hold_zone: ridge (a zone of map.zones)"))
        return Mission(), issues
    zone = _cells(scenario, objectives, "hold_zone", issues, "ridge")
    sides = [s.id for s in scenario.sides]
    holder = scenario.options.get("hold_side", sides[0] if sides else None)
    if holder not in sides:
        issues.append(Issue("options.hold_side", f"unknown side {holder!r}",
                            f"the side that must hold the zone: one of {', '.join(sides)}"))
    turns = scenario.options.get("hold_turns")
    if turns is not None and (isinstance(turns, bool) or not isinstance(turns, int)
                              or turns < 1):
        issues.append(Issue("options.hold_turns", "must be a whole number of turns, 1 or more",
                            "hold_turns: 3 (or leave it out: held at the end of the turn "
                            "limit, C-177)"))
    if zone is None or issues:
        return Mission(), issues
    name = " and ".join(_names(objectives.get("hold_zone")) or ())
    return Mission("hold", hold=zone, hold_name=name, holder=str(holder),
                   hold_turns=turns), issues


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
    """What both sides know of the mission: its kind and the targets (C-155); a rescue's
    zones (C-175); a hold's zone, holder and turns (never the count so far, C-177)."""
    out: dict[str, object] = {
        "kind": mission.kind,
        "targets": {name: {"cells": [cell_json(c) for c in sorted(cells)],
                           "destroyed": name in destroyed}
                    for name, cells in sorted(mission.targets.items())}}
    if mission.kind == "rescue":
        out["rescue_zone"] = [cell_json(c) for c in sorted(mission.rescue)]
        out["hostage_location"] = [cell_json(c) for c in sorted(mission.location)]
    if mission.kind == "hold":
        out["hold_zone"] = [cell_json(c) for c in sorted(mission.hold)]
        out["holder"] = mission.holder
        out["hold_turns"] = mission.hold_turns
    return out
