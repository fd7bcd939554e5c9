"""The baseline bot every ruleset can use: close on the enemy and the mission, take the best shot.

It reads only its side's view and the hints rulesets attach to legal actions:

* ``hint["role"]``: ``attack``, ``task``, ``move``, ``pass``, ``setup`` or ``other``;
* ``hint["p"]`` (chance of success) on attacks and tasks, ``hint["value"]`` (what success is
  worth) where a ruleset still gives one; ``hint["to"]`` (``[level, x, y]``) on moves.

What an attack is worth is the bot's own reading of its view (rules code gives no scoring):
a hit on a figure the view shows as a hostage or as one of the side's own, or a throw at a
square where one stands, is a loss and never chosen; any other attack is worth the hint's
``value``, else 1.

The heuristic, in order: the attack with the best ``p × value``; then the task with the best
``p × value``; then the move that most shortens the walking distance (on the public floor plan)
to the nearest seen or remembered enemy or mission goal; otherwise pass. Ties are broken by the
bot's own seeded generator, so a game stays reproducible.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.paths import DistanceField, StepRules, distance_field
from killhouse.core.rng import Rng
from killhouse.core.terrain import Terrain, passable_mask
from killhouse.rulesets.base import Action
from killhouse.scenario.model import Scenario

ATTACK, TASK, MOVE, PASS = 1000.0, 500.0, 10.0, 10.0


def cell_of(value: Any) -> Cell | None:
    """A ``[level, x, y]`` list from a view or hint as a Cell (``None`` stays ``None``)."""
    if value is None:
        return None
    level, x, y = value
    return Cell(int(level), int(x), int(y))


class BaselineBot:
    """A bot for one side of one scenario that plays by the documented heuristic above."""

    name = "baseline"

    def __init__(self, scenario: Scenario, side: str) -> None:
        self.side = side
        self.board: Board = scenario.board
        self._enter_cost = [self._walk_cost(i) for i in range(len(self.board.levels))]
        self._squeeze = [self.board.solid(i) for i in range(len(self.board.levels))]
        self._fields: dict[frozenset[Cell], DistanceField] = {}

    def _walk_cost(self, level: int) -> NDArray[np.int32]:
        terrain = self.board.levels[level].terrain
        cost = passable_mask(terrain).astype(np.int32)
        cost[terrain == Terrain.DOOR_LOCKED] = 3  # a lock costs time, but it can be opened
        return cost

    # -- what the bot is drawn to ------------------------------------------------------
    def targets(self, view: dict[str, Any]) -> list[Cell]:
        """Cells worth closing on: enemies seen now or remembered, and the mission's goals."""
        cells: list[Cell] = []
        for item in view.get("seen", []):
            if item.get("side") not in (None, self.side) and item.get("at") is not None:
                cells.append(cell_of(item["at"]))  # type: ignore[arg-type]
        for item in view.get("remembered", []):
            if item.get("side") != self.side and item.get("at") is not None:
                cells.append(cell_of(item["at"]))  # type: ignore[arg-type]
        cells.extend(c for c in (cell_of(g) for g in view.get("goals", [])) if c is not None)
        return [c for c in cells if self.board.in_bounds(c)]

    def field(self, targets: Iterable[Cell]) -> DistanceField | None:
        key = frozenset(targets)
        if not key:
            return None
        if key not in self._fields:
            if len(self._fields) > 256:
                self._fields.clear()
            self._fields[key] = distance_field(
                self.board, sorted(key), self._enter_cost, StepRules(), self._squeeze
            )
        return self._fields[key]

    # -- scoring ----------------------------------------------------------------------
    def score(self, view: dict[str, Any], action: Action, field: DistanceField | None) -> float:
        """Higher is better; override in role bots to add a side's own priorities."""
        hint = action.hint
        role = hint.get("role", "other")
        value = self.attack_worth(view, action) if role == "attack" else hint.get("value", 1.0)
        expected = float(hint.get("p", 0.0)) * float(value)
        if role == "attack":
            return ATTACK + 100.0 * expected if expected > 0 else -1.0
        if role == "task":
            return TASK + 100.0 * expected if expected > 0 else -1.0
        if role == "move":
            return MOVE + self.closing(view, action, field)
        if role == "pass":
            return PASS
        return 1.0

    def attack_worth(self, view: dict[str, Any], action: Action) -> float:
        """What a successful attack is worth to the side, read from its own view: -1 when it
        would strike a hostage or a friend (by the target's id, or a throw's square)."""
        spare = self._spared(view)
        target = action.hint.get("target", action.get("target"))
        if isinstance(target, str) and target in spare[0]:
            return -1.0
        at = action.get("at")
        if isinstance(at, list | tuple) and len(at) == 3 and cell_of(at) in spare[1]:
            return -1.0
        return float(action.hint.get("value", 1.0))

    def _spared(self, view: dict[str, Any]) -> tuple[set[str], set[Cell | None]]:
        """Ids and squares of the figures an attack must spare: hostages seen, and own figures."""
        ids: set[str] = set()
        cells: set[Cell | None] = set()
        for item in view.get("seen", []):
            if item.get("kind") == "hostage" or item.get("side") == self.side:
                ids.add(str(item.get("id")))
                cells.add(cell_of(item.get("at")))
        for item in view.get("figures", []):
            ids.add(str(item.get("id")))
            cells.add(cell_of(item.get("at")))
        cells.discard(None)
        return ids, cells

    def closing(self, view: dict[str, Any], action: Action, field: DistanceField | None) -> float:
        """How many steps a move gains on the nearest target (negative when it falls back)."""
        if field is None:
            return 0.0
        dest = cell_of(action.hint.get("to"))
        here = self.position(view, action)
        d_to = field.cost(dest) if dest is not None else None
        d_here = field.cost(here) if here is not None else None
        if d_to is None:
            return -50.0
        if d_here is None:
            return 1.0 + 1.0 / (1 + d_to)
        return float(d_here) - float(d_to)

    def position(self, view: dict[str, Any], action: Action) -> Cell | None:
        figure = action.get("figure")
        for item in view.get("figures", []):
            if item.get("id") == figure:
                return cell_of(item.get("at"))
        return None

    def choose(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        if not actions:
            raise ValueError("no legal action to choose from")
        field = self.field(self.targets(view))
        scores = [self.score(view, a, field) for a in actions]
        best = max(scores)
        tied = [a for a, s in zip(actions, scores, strict=True) if s >= best - 1e-9]
        return tied[rng.below(len(tied))]


def baseline_bot(scenario: Scenario, side: str) -> BaselineBot:
    return BaselineBot(scenario, side)
