"""The side's map for the gogogo role bot: the shared ``SideMirror`` (doors it knows open,
G-44; smoke; distance fields; batched sight) and what the side reads from its view.

``SideMap`` is the base of the gogogo role bot: it keeps the mirror up to date, reads the
view, and remembers what the side has searched.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress
from typing import Any

import numpy as np
from numpy.typing import NDArray

from killhouse.ai.baseline import BaselineBot, cell_of
from killhouse.ai.mirror import SideMirror
from killhouse.ai.roles.gogogo.common import FigurePlan, Seen
from killhouse.core.cells import COMPASS, Cell
from killhouse.core.fov import fields_of_view
from killhouse.core.terrain import Terrain
from killhouse.rulesets.gogogo.facts import (
    CT,
    DESTRUCTION,
    HOSTAGE_MISSION,
    DistanceField,
    MapModel,
    briefing,
    distance_to,
    enterable,
    map_model,
    path_on,
    reach_from,
)
from killhouse.scenario.model import Scenario

IntArray = NDArray[np.intp]


class SideMap(BaselineBot):
    """What the side knows of the map, and the caches a decision works from."""

    def __init__(self, scenario: Scenario, side: str) -> None:
        super().__init__(scenario, side)
        brief = briefing(scenario)
        self.team = brief.team_of.get(side, CT)
        self.mission = brief.mission
        self.zones = brief.zones
        self.sites = list(brief.sites)
        self.base = scenario.board
        self.mirror = SideMirror(scenario.board, veil=True)
        self.board = self.mirror.board
        self.open_doors: set[Cell] = set()
        own_start = self.zones.ct_start if self.team == CT else self.zones.t_start
        enemy_start = self.zones.t_start if self.team == CT else self.zones.ct_start
        if self.team == CT and self.mission == HOSTAGE_MISSION:
            enemy_start = enemy_start | self.zones.location
        self.own_start = own_start
        self.enemy_start = enemy_start
        self.plans: dict[str, FigurePlan] = {}
        self.plan_turn: int | None = None
        self.issued_turn = -1
        self.hostage_memory: dict[str, Cell] = {}
        self.searched: set[Cell] = set()
        self.last_contact = 0
        self.posts: dict[str, Cell] = {}
        self.site: frozenset[Cell] | None = None
        self.site_roll = -1
        self.hot_site: frozenset[Cell] | None = None
        self._room_cache: list[frozenset[Cell]] | None = None
        self._inside_cache: dict[tuple[int, frozenset[Cell]], frozenset[Cell]] = {}
        self._area_cache: dict[frozenset[Cell], tuple[tuple[Cell, ...], IntArray, IntArray]] = {}
        self.stunned_rooms: set[int] = set()
        self._model_key: tuple[int, frozenset[Cell]] | None = None
        self._kept_model: MapModel | None = None

    def _sync(self, view: dict[str, Any]) -> None:
        doors = {Cell(*c) for c in view.get("map", {}).get("open_doors", [])}
        if doors != self.open_doors:
            self.mirror.set_terrain((cell, Terrain.DOOR_OPEN) for cell in doors - self.open_doors)
            self.open_doors = doors
            self.mirror.forget_fields()  # the squeeze rule reads the doors believed open
        self.mirror.set_smoke(Cell(*c) for c in view.get("public", {}).get("smoke", []))

    def _enterable(self, c: Cell) -> bool:
        return bool(
            self.board.in_bounds(c) and self.mirror.mask("enterable", c.level, enterable)[c.y, c.x]
        )

    def _inside(self, cells: Iterable[Cell]) -> frozenset[Cell]:
        """The squares of ``cells`` a figure may stand on, kept per version of the side's map:
        goals are mostly whole zones, asked about many times a decision."""
        area = cells if isinstance(cells, frozenset) else frozenset(cells)
        key = (self.mirror.terrain_version, area)
        found = self._inside_cache.get(key)
        if found is None:
            if len(self._inside_cache) >= 512:
                self._inside_cache.clear()
            found = frozenset(compress(*self._standable(area)))
            self._inside_cache[key] = found
        return found

    def _model(self) -> MapModel:
        """The step model of the side's map, kept per version of the map (the mirror's
        terrain version moves with every door the side learns of): every field of a plan is
        searched on the same one."""
        key = (self.mirror.terrain_version, frozenset(self.open_doors))
        if self._model_key != key:
            self._model_key = key
            self._kept_model = map_model(self.board, key[1])
        assert self._kept_model is not None
        return self._kept_model

    def _standable(self, area: frozenset[Cell]) -> tuple[tuple[Cell, ...], list[bool]]:
        """The squares of ``area`` in its own iteration order with ``_enterable`` of each,
        read off each level's mask at once (``area`` is mostly a whole zone of hundreds of
        squares). The order is this very set's, so a frozenset made from the answer inserts
        its squares as one made square by square would."""
        cells = tuple(area)
        coords = np.array(cells, dtype=np.intp).reshape(-1, 3)  # (level, x, y) per square
        levels, xs, ys = coords[:, 0], coords[:, 1], coords[:, 2]
        ok = np.zeros(len(cells), dtype=bool)
        for level in range(len(self.board.levels)):
            height, width = self.board.levels[level].terrain.shape
            at = (levels == level) & (ys >= 0) & (ys < height) & (xs >= 0) & (xs < width)
            if at.any():
                walk = self.mirror.mask("enterable", level, enterable)
                ok[at] = walk[ys[at], xs[at]]
        return cells, ok.tolist()

    def _goal_field(self, goals: Iterable[Cell]) -> DistanceField | None:
        inside = self._inside(goals)
        if not inside:
            return None
        doors = frozenset(self.open_doors)
        return self.mirror.field(
            ("goal", inside), lambda b: distance_to(b, inside, doors, self._model())
        )

    def _from(self, start: Cell) -> DistanceField:
        """Costs and paths from ``start`` up to the longest allowance: every caller asks of
        squares a move can reach (``reach_from``; the same answers there as the whole
        field's)."""
        found = self.mirror.field(("from", start), lambda b: reach_from(b, start, self._model()))
        assert found is not None
        return found

    def _path(self, field: DistanceField, cell: Cell) -> list[Cell]:
        """``field.path_to(cell)`` of a field ``_from`` made, walked back from ``cell`` alone
        by a compiled kernel (``path_on``, the same path). The field is of the map as it is:
        a change of the map drops the kept fields with the model."""
        return path_on(field, self._model(), cell)

    def _sight(self, a: Cell, b: Cell) -> bool:
        return self.mirror.sees(a, b)

    def _prime(self, pairs: Iterable[tuple[Cell, Cell]]) -> None:
        """Work out line of sight for many pairs at once (one ``los_pairs`` call per level)."""
        self.mirror.prime(pairs)

    def _read(self, view: dict[str, Any]) -> tuple[list[dict[str, Any]], list[Seen], list[Seen]]:
        own = [f for f in view.get("figures", []) if f.get("active") and f.get("at") is not None]
        enemies: list[Seen] = []
        hostages: list[Seen] = []
        for s in view.get("seen", []):
            at = cell_of(s.get("at"))
            if at is None:
                continue
            if s.get("kind") == "hostage":
                hostages.append(Seen(s["id"], "hostage", at, s.get("led_by")))
                if s.get("led_by"):
                    self.hostage_memory.pop(s["id"], None)  # ours now: no need to find it
                else:
                    self.hostage_memory[s["id"]] = at
            elif s.get("side") != self.side:
                enemies.append(Seen(s["id"], s.get("kind", "operative"), at))
        if enemies:
            self.last_contact = int(view.get("turn", 0))
        return own, enemies, hostages

    def _rooms(self) -> list[frozenset[Cell]]:
        """The location zone split into its separate connected parts (the hostage rooms)."""
        if self._room_cache is None:
            cells = {c for c in self.zones.location if self._enterable(c)}
            rooms: list[frozenset[Cell]] = []
            while cells:
                start = min(cells)
                part, todo = {start}, [start]
                while todo:
                    c = todo.pop()
                    for dx, dy in COMPASS.values():
                        n = c.step(dx, dy)
                        if n in cells and n not in part:
                            part.add(n)
                            todo.append(n)
                cells -= part
                rooms.append(frozenset(part))
            self._room_cache = rooms
        return self._room_cache

    def _heat(self, enemies: list[Seen]) -> None:
        """CT: the bomb site the terrorists were last seen closing on, for the others to rotate."""
        if self.team != CT or self.mission != DESTRUCTION or not enemies or not self.sites:
            return
        near = [(self._dist(e.at, site), i) for e in enemies for i, site in enumerate(self.sites)]
        d, i = min(near)
        if d <= 14:
            self.hot_site = self.sites[i]

    def _search(self, own: list[dict[str, Any]]) -> None:
        """Mark the mission area the side has looked over (rooms cleared of hostages)."""
        area: frozenset[Cell] = frozenset()
        if self.mission == HOSTAGE_MISSION:
            area = self.zones.location
        elif self.mission == DESTRUCTION and self.team == CT:
            area = self.zones.bomb_sites
        if not area:
            return
        # walls and pillars inside a zone can never be looked over: leave them out
        area = self._inside(area)
        observers = [(Cell(*f["at"]), str(f.get("facing") or "n"), 90.0) for f in own]
        cells, ys, xs = self._area_index(area)
        remembered = set(self.hostage_memory.values())
        for mask in fields_of_view(self.board, observers):
            # the area's squares this observer sees (``searched`` is only asked what it holds)
            for i in np.flatnonzero(mask[ys, xs]).tolist():
                if cells[i] not in remembered:
                    self.searched.add(cells[i])
        if area <= self.searched:
            self.searched.clear()  # everything looked at: look again

    def _area_index(self, area: frozenset[Cell]) -> tuple[tuple[Cell, ...], IntArray, IntArray]:
        """The squares of ``area`` with their rows and columns as arrays, kept per area: a
        search reads every observer's sight at all of them at once."""
        found = self._area_cache.get(area)
        if found is None:
            cells = tuple(area)
            ys = np.array([c.y for c in cells], dtype=np.intp)
            xs = np.array([c.x for c in cells], dtype=np.intp)
            found = self._area_cache[area] = (cells, ys, xs)
        return found

    def _dist(self, a: Cell, cells: Iterable[Cell]) -> float:
        gf = self._goal_field(frozenset(cells))
        d = gf.cost(a) if gf is not None else None
        return float(d) if d is not None else 1e9

    def _downhill(self, start: Cell, goals: frozenset[Cell], steps: int) -> Cell | None:
        gf = self._goal_field(goals)
        if gf is None or gf.cost(start) is None:
            return None
        here = start
        for _ in range(steps):
            best = here
            best_d = gf.cost(here)
            for dx, dy in COMPASS.values():
                nxt = here.step(dx, dy)
                d = gf.cost(nxt)
                if d is not None and best_d is not None and d < best_d:
                    best, best_d = nxt, d
            if best == here:
                break
            here = best
        return here
