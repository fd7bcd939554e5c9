"""Warnings a sound scenario still deserves: a side sealed off from everything it could fight for.

The check knows no ruleset. It walks the map as generously as any ruleset could
(every door open, windows climbable, stairs linked) from each side's placed figures,
and warns when none of them can reach an objective cell, an object, a hostage or a
figure of another side. Such a game can only end by its turn limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from killhouse.core.cells import Cell
from killhouse.core.paths import UNREACHABLE, StepRules, distance_field
from killhouse.core.terrain import Terrain, door_mask, passable_mask
from killhouse.errors import Problem
from killhouse.scenario.model import Scenario


def objective_zones(objectives: Mapping[str, object], zones: Iterable[str]) -> set[str]:
    """Zone names the ``objectives`` section mentions (as a value, or in a list of values)."""
    known = set(zones)
    named: set[str] = set()
    for value in objectives.values():
        values = value if isinstance(value, list) else [value]
        named.update(v for v in values if isinstance(v, str) and v in known)
    return named


def sealed_sides(scenario: Scenario) -> list[Problem]:
    """One warning per side whose placed figures can reach no target (see the module text)."""
    board = scenario.board
    enter = [
        (passable_mask(lv.terrain) | door_mask(lv.terrain) | (lv.terrain == Terrain.WINDOW)).astype(
            np.int64
        )
        for lv in board.levels
    ]
    zones = objective_zones(scenario.objectives, board.zones)
    objects = {o.at for o in scenario.objects if o.at is not None}
    warnings: list[Problem] = []
    for side in scenario.sides:
        starts = [f.at for f in scenario.figures if f.side == side.id and f.at is not None]
        if not starts:
            continue  # figures that enter from off the map: where they enter is the ruleset's
        own = set(starts)
        targets = set(objects)
        targets.update(f.at for f in scenario.figures if f.side != side.id and f.at is not None)
        for zone in zones:
            cells = board.zones[zone]
            if not cells & own:  # the zone the side starts in is no goal of its own
                targets.update(cells)
        if not targets:
            continue
        field = distance_field(board, starts, enter, StepRules())
        if any(field.raw[c.level][c.y, c.x] < UNREACHABLE for c in targets):
            continue
        warnings.append(
            Problem(
                scenario.file,
                scenario.line_of(side.path),
                side.path,
                f"warning: side {side.id!r} can never reach an objective, an object or another "
                f"side's figure: its figures at {_cells(scenario, starts)} are sealed in",
                "even with every door open and every window climbable; the game could only "
                "end by its turn limit",
            )
        )
    return warnings


def _cells(scenario: Scenario, cells: list[Cell]) -> str:
    names = [scenario.cell_name(c) for c in cells[:3]]
    more = f" and {len(cells) - 3} more" if len(cells) > 3 else ""
    return ", ".join(names) + more
