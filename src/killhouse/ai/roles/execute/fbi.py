"""The FBI's role bot: engage what it sees, pick locks, collect hostages, get them out."""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from typing import Any, cast

import numpy as np

from killhouse.ai.baseline import cell_of
from killhouse.ai.roles.execute.common import TASK_VALUE, ExecuteBot
from killhouse.core.cells import Cell
from killhouse.core.fov import fields_of_view
from killhouse.core.geometry import chebyshev
from killhouse.core.paths import DistanceField
from killhouse.core.rng import Rng
from killhouse.core.terrain import Terrain, passable_mask
from killhouse.rulesets.base import Action
from killhouse.rulesets.execute.facts import device_tn, effective, success_chance
from killhouse.scenario.model import Scenario


class FbiBot(ExecuteBot):
    """The Hostage Rescue Unit: engage what it sees, pick locks, collect hostages, get out."""

    name = "execute-fbi"

    def __init__(self, scenario: Scenario, side: str) -> None:
        super().__init__(scenario, side)
        self.explored = [np.zeros(lv.terrain.shape, dtype=bool) for lv in self.plan.levels]
        #: squares whose field of view is in ``explored`` for the plan's sight version (a
        #: field OR-ed in again changes nothing; a door that changes makes new fields)
        self._explored_from: set[Cell] = set()
        self._explored_version = -1
        #: deep extraction squares per zone, kept while the plan's terrain stands
        self._deep: dict[tuple[Cell, ...], tuple[Cell, ...]] = {}
        self._deep_version = -1
        #: the extraction zone as the view lists it, and as cells
        self._extraction_raw: list[Any] | None = None
        self._extraction: list[Cell] = []
        #: per (square, level) of one decision: each square's distance to the nearest teammate
        self._apart: dict[tuple[Cell | None, int], list[list[int]] | None] = {}
        self.last_move_turn = 0

    def combat(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action | None:
        phase = view["phase"]
        if phase == "grenades":
            return self.best_throw(view, actions, rng, 0.6)
        if phase == "tasks":
            return self.tasks(view, actions, rng)
        if phase == "firing":
            return self.best_shot(view, actions, rng, 0.0)
        return self.movement(view, actions, rng)

    def tasks(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action | None:
        """Disarm when it is likely to work, or when a timer is about to run out; then devices."""
        timers = {b["id"]: b.get("turns_remaining") for b in view.get("bombs", [])}
        types = {d["id"]: d.get("type") for d in view["public"].get("devices", [])}
        scored: list[tuple[float, Action]] = []
        for a in actions:
            p = float(a.hint.get("p", 0))
            if a.kind == "disarm":
                left = timers.get(str(a.get("bomb")))
                # a timer running out ends it for everyone anyway (E-22): try any odds late
                late = left is not None and ((left <= 2 and p > 0) or (left <= 4 and p >= 1 / 3))
                if p >= 2 / 3 or late:
                    scored.append((10.0 + p, a))
            elif a.kind == "task" and p > 0:
                scored.append((p * TASK_VALUE.get(types.get(str(a.get("device")), ""), 0.0), a))
        return self.pick(scored, rng)

    def explore(self, view: dict[str, Any]) -> None:
        """Mark what the agents on the map can see now as explored."""
        if self._explored_version != self.mirror.sight_version:
            self._explored_version = self.mirror.sight_version
            self._explored_from.clear()
        eyes = [(c, None, 180.0) for c in (cell_of(f.get("at")) for f in view["figures"]
                                           if f.get("status") == "active")
                if c is not None and c not in self._explored_from]
        if not eyes:
            return
        for (cell, _, _), seen in zip(eyes, fields_of_view(self.plan, eyes), strict=True):
            self.explored[cell.level] |= seen
            self._explored_from.add(cell)

    def frontier(self) -> list[Cell]:
        """Passable squares of the plan nobody has looked at yet."""
        out: list[Cell] = []
        for level, lv in enumerate(self.plan.levels):
            mask = passable_mask(lv.terrain) & ~self.explored[level]
            mask |= (lv.terrain == Terrain.DOOR_LOCKED) & ~self.explored[level]
            ys, xs = np.nonzero(mask)
            out.extend(Cell(level, int(x), int(y)) for y, x in zip(ys, xs, strict=True))
        return out

    def watch_stairs(self, view: dict[str, Any], actions: Sequence[Action]) -> None:
        """An agent on a stair that cannot step along its link has met an unseen gunman there:
        keep off that stairway for a few turns (E-3: no sight or shot between levels)."""
        turn = int(view.get("turn", 0))
        self.blocked = {c: t for c, t in self.blocked.items() if turn - t < 4}
        on_stairs: dict[str, tuple[Cell, Cell]] = {}
        for f in view.get("figures", []):
            here = cell_of(f.get("at"))
            if here is None or f.get("status") != "active":
                continue
            far = self.plan.stairs.get(here)
            if far is not None:
                on_stairs[f["id"]] = (here, far)
        if not on_stairs:
            return  # nobody on a stair: no move list to read
        # per agent on a stair that may move: whether any of its moves reaches the far level
        across: dict[str, bool] = {}
        for _, fid, to in self.move_list(actions):
            if to is not None and fid in on_stairs:
                across[fid] = across.get(fid, False) or to.level == on_stairs[fid][1].level
        for fid, (here, far) in on_stairs.items():
            if fid in across and not across[fid]:
                self.blocked[far] = turn
                self.blocked[here] = turn

    @staticmethod
    def claim(view: dict[str, Any], actions: Sequence[Action]) -> Action | None:
        """Take charge of every leaderless hostage next to an agent, before or after its move
        (claims are the player's choice, E-30); never take one from a teammate."""
        free = {str(s["id"]) for s in view.get("seen", [])
                if s.get("kind") == "hostage" and not s.get("leader")}
        return next((a for a in actions if a.kind == "claim" and a.get("hostage") in free), None)

    def movement(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action | None:
        claim = self.claim(view, actions)
        if claim is not None:
            return claim
        self.explore(view)
        self.watch_stairs(view, actions)
        mine = self.own(view)
        make_way = self.locks(view, mine)
        seen = view.get("seen", [])
        led: dict[str, list[Cell]] = {}
        captives: list[Cell] = []
        for item in seen:
            if item.get("kind") != "hostage" or item.get("status") != "active":
                continue
            at = cell_of(item.get("at"))
            if at is None:
                continue
            if item.get("leader"):
                led.setdefault(str(item["leader"]), []).append(at)
            else:
                captives.append(at)
        captives += [c for c in (cell_of(m.get("at")) for m in view.get("remembered", [])
                                 if m.get("kind") == "hostage"
                                 and m.get("status") in (None, "active", "incapacitated"))
                     if c is not None]
        enemies = [c for c in (cell_of(s.get("at")) for s in seen
                               if s.get("kind") == "terrorist" and s.get("status") == "active")
                   if c is not None]
        remembered_enemies = [c for c in (cell_of(m.get("at")) for m in view.get("remembered", [])
                                          if m.get("kind") == "terrorist"
                                          and m.get("status") in (None, "active"))
                              if c is not None]
        bombs = [c for c in (cell_of(b.get("at")) for b in view.get("bombs", [])
                             if b.get("state") == "armed") if c is not None]
        extraction = self.extraction(view["public"]["extraction"])
        deep = self.deep(extraction)
        exits = frozenset(extraction)
        primary = captives + bombs
        hunting = primary + enemies + remembered_enemies
        goal_field = self.distances(hunting) or self.distances(self.frontier())
        if self.blocked and not self.reaches(goal_field, mine, hunting):
            # the way on is held: wait in ambush around the held stairway
            near = [c for b in self.blocked if self.plan.terrain(b) != Terrain.WALL
                    for c in self.around(b)]
            goal_field = self.distances(near) or goal_field
        out_field = self.distances(deep or extraction)
        # a known timer bomb kills everyone when it goes (E-22): the best hands go to disarm it
        timers = [c for c in (cell_of(b.get("at")) for b in view.get("bombs", [])
                              if b.get("state") == "armed" and b.get("mode") == "timer")
                  if c is not None]
        squad = self.bomb_squad(mine) if timers else set()
        bomb_field = self.distances(timers) if timers else None
        team = [c for c in (cell_of(f.get("at")) for f in mine.values()
                            if f.get("status") == "active") if c is not None]
        moves = self.move_list(actions)
        # per level, how many known gunmen see each square (read only for moves worth it)
        shots = self.los_grids(enemies)
        where = self.places(mine)
        self._apart.clear()
        scored: list[tuple[float, Action]] = []
        # each figure's own distance to the goal, read once rather than once per move
        goal_here = {fid: None if here is None or goal_field is None else goal_field.cost(here)
                     for fid, here in where.items()}
        # per figure, whether its moves are scored the plain way (no hostages led, not on the
        # bomb squad, not making way at a lock): most moves are, and they are scored in the
        # loop's first branch with ``advance_from`` and ``apart`` written out
        plain: dict[str, bool] = {}
        # the goal field's costs as lists, -1 out of reach: read once per move below
        goal_rows = goal_field.visible_rows if goal_field is not None else None
        apart_of = self._apart
        for action, fid, dest in moves:
            here = where.get(fid)
            if dest is None:
                continue
            is_plain = plain.get(fid)
            if is_plain is None:
                is_plain = plain[fid] = not (
                    fid in led
                    or (fid in squad and bomb_field is not None)
                    or (fid in make_way and here is not None)
                )
            if is_plain:
                if goal_rows is None:
                    continue  # advance_from: 0.0
                to = goal_rows[dest.level][dest.y][dest.x]
                if to < 0:
                    continue  # advance_from: -1.0
                if here is None:
                    score = 10.0 / (1 + to)
                else:
                    now = goal_here.get(fid)
                    score = float((now if now is not None else to + 1) - to)
                if score <= 0:
                    continue
                # stack up: stay near the team; look for a shot at a known gunman
                key = (here, dest.level)
                apart = apart_of[key] if key in apart_of else self.apart(team, here, dest.level)
                if apart is not None and apart[dest.y][dest.x] > 5:
                    score -= 1.0
                seen_by = shots.get(dest.level)
                score += 1.5 * min(2, 0 if seen_by is None else seen_by[dest.y][dest.x])
                scored.append((score, action))
                continue
            if fid in led:
                score = self.lead_score(here, dest, led[fid], out_field, exits)
                scored.append((score, action))
                continue
            if fid in squad and bomb_field is not None:
                to_bomb = bomb_field.cost(dest)
                if to_bomb is not None and here is not None and chebyshev(here, timers[0]) <= 1:
                    continue  # beside the bomb already: stay and disarm
                score = 3.0 * self.advance_score(here, dest, bomb_field)
                if score > 0:
                    scored.append((score + 5.0, action))
                continue
            if fid in make_way and here is not None:
                # a better picker is coming: step off the lock, but stay close
                near_lock = any(c.level == dest.level and chebyshev(c, dest) <= 1
                                for c in self.plan_locks())
                if not near_lock and chebyshev(here, dest) <= 3:
                    scored.append((4.0, action))
                continue
        chosen = self.pick(scored, rng)
        turn = int(view.get("turn", 0))
        if chosen is not None:
            self.last_move_turn = turn
            return chosen
        if turn - self.last_move_turn >= 2:
            return self.unstick(view, actions, rng)
        return None

    def apart(self, team: list[Cell], here: Cell | None, level: int) -> list[list[int]] | None:
        """Per square of ``level``, the Chebyshev distance to the nearest of ``team`` there
        other than ``here`` (None if there is none), worked out once per decision."""
        key = (here, level)
        if key in self._apart:
            return self._apart[key]
        others = [c for c in team if c != here and c.level == level]
        grid: list[list[int]] | None = None
        if others:
            ys, xs = np.indices(self.plan.levels[level].terrain.shape)
            near = np.min([np.maximum(abs(xs - c.x), abs(ys - c.y)) for c in others], axis=0)
            grid = cast(list[list[int]], near.tolist())
        self._apart[key] = grid
        return grid

    @staticmethod
    def skill(f: dict[str, Any]) -> int:
        """An agent's effective Electronics (E-14)."""
        return effective(int(f.get("card", {}).get("electronics", 0)), int(f.get("damage", 0)))

    def bomb_squad(self, mine: dict[str, dict[str, Any]]) -> set[str]:
        """The two active agents with the best effective Electronics."""
        ranked = sorted((-self.skill(f), fid) for fid, f in mine.items()
                        if f.get("status") == "active")
        return {fid for _, fid in ranked[:2]}

    def locks(self, view: dict[str, Any], mine: dict[str, dict[str, Any]]) -> set[str]:
        """Seal the locked doors no active agent can pick (d12, 5.7), and name the agents
        standing at a lock they cannot pick while a teammate could: they make way."""
        levels = {c: int(d.get("level", 0)) for d in view["public"].get("devices", [])
                  if d.get("type") == "lock" for c in [cell_of(d.get("at"))]
                  if c is not None and self.plan.terrain(c) == Terrain.DOOR_LOCKED}
        active = {fid: f for fid, f in mine.items() if f.get("status") == "active"}

        def odds(f: dict[str, Any], level: int) -> float:
            return float(success_chance(12, device_tn(level, self.skill(f), 0)))

        best = {c: max((odds(f, lv) for f in active.values()), default=0.0)
                for c, lv in levels.items()}
        self.sealed = frozenset(c for c, p in best.items() if p <= 0)
        stuck: set[str] = set()
        for fid, f in active.items():
            here = cell_of(f.get("at"))
            if here is None:
                continue
            for c, lv in levels.items():
                if (c.level == here.level and chebyshev(c, here) <= 1 and best[c] > 0
                        and odds(f, lv) < best[c]):
                    stuck.add(fid)
        return stuck

    def plan_locks(self) -> list[Cell]:
        """Locked doors on the known plan."""
        out: list[Cell] = []
        for level, lv in enumerate(self.plan.levels):
            ys, xs = np.nonzero(lv.terrain == Terrain.DOOR_LOCKED)
            out.extend(Cell(level, int(x), int(y)) for y, x in zip(ys, xs, strict=True))
        return out

    def unstick(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action | None:
        """Nobody could get closer for two turns (a gunman holds the top of the stairs, say):
        step off the stairs beside them and wait for whoever comes down, or shuffle a little."""
        where = self.places(self.own(view))
        scored: list[tuple[float, Action]] = []
        for action, fid, dest in self.move_list(actions):
            here = where.get(fid)
            if here is None or dest is None or dest.level != here.level:
                continue
            on_stairs = self.plan.terrain(here) in (Terrain.STAIRS_UP, Terrain.STAIRS_DOWN)
            if on_stairs and chebyshev(here, dest) <= 2 and self.los_count(dest, [here]):
                scored.append((2.0, action))
            elif not on_stairs and chebyshev(here, dest) <= 2:
                scored.append((0.1, action))
        self.last_move_turn = int(view.get("turn", 0))
        return self.pick(scored, rng)

    @staticmethod
    def reaches(field: DistanceField | None, mine: dict[str, dict[str, Any]],
                goals: list[Cell]) -> bool:
        """Whether any agent on the map has a way to the goals on the known plan."""
        if field is None or not goals:
            return False
        return any(field.cost(c) is not None for c in (cell_of(f.get("at")) for f in mine.values())
                   if c is not None)

    def around(self, cell: Cell) -> list[Cell]:
        """Squares two steps from ``cell`` on its level with a clear view of it."""
        near = []
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                n = Cell(cell.level, cell.x + dx, cell.y + dy)
                if (n != cell and n not in self.blocked and self.plan.in_bounds(n)
                        and self.plan.passable(n)):
                    near.append(n)
        sight = self.los_counts(near, [cell])
        return [n for n in near if sight[n]]

    def extraction(self, raw: list[Any]) -> list[Cell]:
        """The view's extraction squares as cells, converted again only when the list differs."""
        if raw != self._extraction_raw:
            self._extraction_raw = raw
            self._extraction = [c for c in (cell_of(x) for x in raw) if c is not None]
        return list(self._extraction)

    def deep(self, extraction: list[Cell]) -> list[Cell]:
        """Extraction squares whose every passable neighbour is an extraction square too."""
        if self._deep_version != self.mirror.terrain_version:
            self._deep_version = self.mirror.terrain_version
            self._deep.clear()
        key = tuple(extraction)
        if key in self._deep:
            return list(self._deep[key])
        # per level: squares next to (or on) a passable square outside the zone, in one pass
        near_out: dict[int, list[list[bool]]] = {}
        for level in {c.level for c in extraction}:
            terrain = self.plan.levels[level].terrain
            height, width = terrain.shape
            zone = np.zeros((height, width), dtype=bool)
            for c in extraction:
                if c.level == level:
                    zone[c.y, c.x] = True
            outside = np.zeros((height + 2, width + 2), dtype=bool)
            outside[1:-1, 1:-1] = passable_mask(terrain) & ~zone
            touched = np.zeros((height, width), dtype=bool)
            for dy in (0, 1, 2):
                for dx in (0, 1, 2):
                    touched |= outside[dy : dy + height, dx : dx + width]
            near_out[level] = cast(list[list[bool]], touched.tolist())
        out = [c for c in extraction if not near_out[c.level][c.y][c.x]]
        self._deep[key] = tuple(out)
        return out

    @staticmethod
    def advance_score(here: Cell | None, dest: Cell, field: DistanceField | None) -> float:
        now = None if field is None or here is None else field.cost(here)
        return FbiBot.advance_from(now, here, dest, field)

    @staticmethod
    def advance_from(now: int | None, here: Cell | None, dest: Cell,
                     field: DistanceField | None) -> float:
        """``advance_score`` given ``now``, the cost of ``here`` on ``field`` (a figure's
        many moves read it once)."""
        if field is None:
            return 0.0
        to = field.cost(dest)
        if to is None:
            return -1.0
        if here is None:
            return 10.0 / (1 + to)  # coming in off the street: the nearest entry to the goal
        return float((now if now is not None else to + 1) - to)

    def lead_score(self, here: Cell | None, dest: Cell, hostages: list[Cell],
                   field: DistanceField | None, extraction: AbstractSet[Cell]) -> float:
        """A leader walks its hostages to the extraction squares, and keeps moving to pull them."""
        if field is None:
            return 0.0
        to = field.cost(dest)
        if to is None:
            return -1.0
        now = field.cost(here) if here is not None else None
        gain = float((now if now is not None else to + 1) - to)
        lag = max((chebyshev(dest, h) for h in hostages if h.level == dest.level), default=0)
        if here is not None and here in extraction:
            # at the way out: shuffle closer to the hostages so they step out
            return 5.0 - lag
        return gain - 0.3 * max(0, lag - 6) + 0.1
