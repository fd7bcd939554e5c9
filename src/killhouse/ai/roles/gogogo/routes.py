"""Destinations and facings: walking distance on the side's map, rehearsed in lock-step.

Moves are chosen so the side's own figures never jam each other (G-4 blocks contests and
swaps): each candidate is rehearsed with the moves already chosen, and a figure stuck
behind a teammate who holds has the teammate step aside.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from killhouse.ai.roles.gogogo.common import FigurePlan, Seen, d2
from killhouse.ai.roles.gogogo.mirror import SideMap
from killhouse.core.cells import Cell
from killhouse.core.paths import UNREACHABLE, DistanceField
from killhouse.core.rng import Rng
from killhouse.rulesets.gogogo.facts import (
    CT,
    HOLD,
    MOVE,
    STEALTH,
    allowance,
    numbers,
    rehearse,
    sector,
)


def reachable_costs(
    reach: DistanceField, goal: DistanceField, limit: int
) -> list[tuple[Cell, int | None]]:
    """``reach.reachable(limit)``, each cell with ``goal.cost(cell)``: the goal costs of a
    level's cells read in one array index instead of one lookup per cell (a destination's
    candidates number in the dozens at every plan)."""
    out: list[tuple[Cell, int | None]] = []
    if limit < 0:
        return out
    divisor = goal.rules.divisor
    for level, mask in enumerate(reach.within(limit)):
        ys, xs = np.nonzero(mask)
        raw = goal.raw[level][ys, xs]
        costs = np.where(raw == UNREACHABLE, -1, raw // divisor).tolist()
        out.extend(
            (Cell(level, x, y), None if d < 0 else d)
            for y, x, d in zip(ys.tolist(), xs.tolist(), costs, strict=True)
        )
    return out


class Routes(SideMap):
    """Where each figure goes this turn and which way it faces."""

    def _unjam(
        self,
        own: list[dict[str, Any]],
        order: list[dict[str, Any]],
        goals: dict[str, tuple[frozenset[Cell], str, bool]],
        plans: dict[str, FigurePlan],
        enemies: list[Seen],
        taken: set[Cell],
        positions: dict[str, Cell],
        paths: dict[str, list[Cell]],
        rng: Rng,
    ) -> None:
        """A figure stuck behind a teammate that holds has the teammate step aside."""
        for f in order:
            fid = f["id"]
            cells, posture, urgent = goals[fid]
            plan = plans[fid]
            if plan.to is not None or plan.task is not None or posture not in (MOVE, STEALTH):
                continue
            here = Cell(*f["at"])
            route = self._ideal_route(f, here, cells, posture)
            blockers = [
                o
                for o in own
                if o["id"] != fid
                and plans[o["id"]].to is None
                and plans[o["id"]].task is None
                and Cell(*o["at"]) in route
            ]
            if not route or not blockers:
                continue
            moved: list[tuple[str, Cell]] = []
            for g in blockers:
                g_here = Cell(*g["at"])
                spot = self._side_step(g, g_here, fid, route, taken, positions, paths)
                if spot is None:
                    break
                cost = self._from(g_here).cost(spot) or 0
                plans[g["id"]].posture = STEALTH if cost <= numbers().stealth else MOVE
                plans[g["id"]].to = spot
                paths[g["id"]] = self._path(self._from(g_here), spot)
                taken.discard(g_here)
                taken.add(spot)
                moved.append((g["id"], g_here))
            if len(moved) == len(blockers):
                taken.discard(here)
                choice = self._destination(
                    f,
                    here,
                    cells,
                    posture,
                    enemies,
                    taken,
                    positions,
                    paths,
                    exposed=urgent,
                    rng=rng,
                )
                if choice is not None:
                    plan.posture, plan.to = posture, choice
                    paths[fid] = self._path(self._from(here), choice)
                    taken.add(choice)
                    continue
                taken.add(here)
            for gid, g_here in moved:  # no use: the teammates stay put
                spot = plans[gid].to
                if spot is not None:
                    taken.discard(spot)
                taken.add(g_here)
                plans[gid].to = None
                plans[gid].posture = HOLD
                paths.pop(gid, None)

    def _ideal_route(
        self, f: dict[str, Any], here: Cell, goals: frozenset[Cell], posture: str
    ) -> list[Cell]:
        """The path a figure would take towards its goals if no teammate stood in the way."""
        gf = self._goal_field(goals)
        if gf is None:
            return []
        reach = self._from(here)
        limit = numbers().move if posture == MOVE else numbers().stealth
        best: tuple[int, int, Cell] | None = None
        for cell, d in reachable_costs(reach, gf, limit):
            if d is None or cell == here:
                continue
            key = (d, reach.cost(cell) or 0, cell)
            if best is None or key < best:
                best = key
        return self._path(reach, best[2]) if best is not None else []

    def _side_step(
        self,
        g: dict[str, Any],
        here: Cell,
        stuck: str,
        route: list[Cell],
        taken: set[Cell],
        positions: dict[str, Cell],
        paths: dict[str, list[Cell]],
    ) -> Cell | None:
        """A nearby free square off ``route`` a teammate can step to so ``stuck`` gets by."""
        reach = self._from(here)
        occupied = set(positions.values())
        options = [
            c
            for c in reach.reachable(numbers().move)
            if c not in route and c not in taken and c not in occupied
        ]
        options.sort(key=lambda c: (reach.cost(c) or 0, c.y, c.x))
        for cell in options[:10]:
            trial = dict(paths)
            trial[g["id"]] = self._path(reach, cell)
            alone = rehearse(positions, trial).blocked_at
            trial[stuck] = route
            if not alone and g["id"] not in rehearse(positions, trial).blocked_at:
                return cell
        return None

    def _destination(
        self,
        f: dict[str, Any],
        here: Cell,
        goals: frozenset[Cell],
        posture: str,
        enemies: list[Seen],
        taken: set[Cell],
        positions: dict[str, Cell],
        paths: dict[str, list[Cell]],
        exposed: bool,
        rng: Rng,
    ) -> Cell | None:
        """The reachable cell closest to the goals, avoiding jams with the side's own moves."""
        gf = self._goal_field(goals)
        if gf is None:
            return None
        reach = self._from(here)
        limit = allowance(posture, bool(f.get("stunned")))
        here_d = gf.cost(here)
        scored: list[tuple[float, float, Cell]] = []
        listed = reachable_costs(reach, gf, limit)
        if exposed:
            self._prime((e.at, cell) for cell, _ in listed for e in enemies)
        occupied = set(positions.values())
        for cell, d in listed:
            if d is None or cell == here or cell in taken or cell in occupied:
                continue
            score = float(d)
            if exposed:
                score += 3.0 * sum(1 for e in enemies if self._sight(e.at, cell))
            scored.append((score, rng.below(1000) / 1000.0, cell))
        scored.sort()
        for score, _tie, cell in scored[:8]:
            if here_d is not None and score >= here_d and not exposed:
                return None  # nothing gets closer: stay
            trial = dict(paths)
            trial[f["id"]] = self._path(reach, cell)
            result = rehearse(positions, trial)
            if not result.blocked_at:
                return cell
        return None

    def _facing(
        self,
        f: dict[str, Any],
        end: Cell,
        enemies: list[Seen],
        heard: dict[str, str],
        goals: frozenset[Cell],
        plan: FigurePlan,
    ) -> str:
        visible = [e for e in enemies if self._sight(end, e.at) and e.at != end]
        if visible:
            e = min(visible, key=lambda s: (d2(s.at, end), s.id))
            return sector(e.at.x - end.x, e.at.y - end.y)
        if plan.task == "throw" and plan.target is not None and plan.target != end:
            return sector(plan.target.x - end.x, plan.target.y - end.y)
        if f["id"] in heard:
            return str(heard[f["id"]])
        toward = goals if plan.to is not None else frozenset(self.enemy_start)
        if self.team == CT and plan.to is None and goals:
            toward = goals
        ahead = self._downhill(end, toward, 4)
        if ahead is not None and ahead != end:
            return sector(ahead.x - end.x, ahead.y - end.y)
        return str(f.get("facing") or "n")
