"""The FBI's role bot: engage what it sees, pick locks, collect hostages, get them out."""

from __future__ import annotations

from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from functools import lru_cache
from operator import itemgetter
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from killhouse.ai.baseline import cell_of
from killhouse.ai.roles.execute import scoring
from killhouse.ai.roles.execute.common import (
    NO_SHOTS,
    TASK_VALUE,
    ExecuteBot,
    MoveRead,
    figure_number,
    pack,
)
from killhouse.core.cells import Cell
from killhouse.core.fov import fields_of_view
from killhouse.core.geometry import chebyshev
from killhouse.core.paths import DistanceField
from killhouse.core.rng import Rng
from killhouse.core.terrain import Terrain, passable_mask
from killhouse.rulesets.base import Action
from killhouse.rulesets.execute.facts import device_tn, effective, success_chance
from killhouse.scenario.model import Scenario

_FIGURE = itemgetter(1)


@lru_cache(maxsize=256)
def _pick_odds(level: int, skill: int) -> float:
    """The chance that an agent of effective Electronics ``skill`` picks a lock of ``level``
    (d12, 5.7): a value of the two alone, asked for every lock and agent at every move."""
    return float(success_chance(12, device_tn(level, skill, 0)))


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
        #: squares noted in ``_explored_from`` whose fields are not yet in ``explored``
        self._eyes: list[Cell] = []
        #: deep extraction squares per zone, kept while the plan's terrain stands
        self._deep: dict[tuple[Cell, ...], tuple[Cell, ...]] = {}
        self._deep_version = -1
        #: the extraction zone as the view lists it, and as cells
        self._extraction_raw: list[Any] | None = None
        self._extraction: list[Cell] = []
        self.last_move_turn = 0
        #: the locked doors' levels (``locks``) under the view's devices list (a view shares
        #: it while the devices stand) and the plan's terrain version
        self._lock_levels: tuple[list[Any], int, dict[Cell, int]] | None = None

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
        self.note_eyes(view)
        self.trace_eyes()

    def note_eyes(self, view: dict[str, Any]) -> None:
        """Note the squares the active agents see from now, to be traced into ``explored``
        when it is read (``frontier``) or before the plan changes (``before_plan_change``):
        a decision that hunts a known goal never reads it, and the fields of many squares
        trace in one batch on the plan they were seen on."""
        if self._explored_version != self.mirror.sight_version:
            self._explored_version = self.mirror.sight_version
            self._explored_from.clear()
        for c in (cell_of(f.get("at")) for f in view["figures"] if f.get("status") == "active"):
            if c is not None and c not in self._explored_from:
                self._explored_from.add(c)
                self._eyes.append(c)

    def trace_eyes(self) -> None:
        """OR the fields of view of the noted squares into ``explored`` (on the plan as it is,
        the one they were noted on)."""
        if not self._eyes:
            return
        eyes = [(c, None, 180.0) for c in self._eyes]
        self._eyes = []
        for (cell, _, _), seen in zip(eyes, fields_of_view(self.plan, eyes), strict=True):
            self.explored[cell.level] |= seen

    def before_plan_change(self) -> None:
        self.trace_eyes()  # the noted squares were seen on the plan as it is now

    def frontier(self) -> list[Cell]:
        """Passable squares of the plan nobody has looked at yet."""
        self.trace_eyes()
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
        for _, fid, to, _, _ in self.move_list(actions):
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
        if not free:
            return None  # no claim can name a hostage: the list need not be read
        return next((a for a in actions if a.kind == "claim" and a.get("hostage") in free), None)

    def movement(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action | None:
        claim = self.claim(view, actions)
        if claim is not None:
            return claim
        self.note_eyes(view)
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
        where = self.places(mine)
        # per figure, whether its moves are scored the plain way (no hostages led, not on the
        # bomb squad, not making way at a lock): most moves are, all at once (``plain_scores``)
        plain = {fid: not (fid in led or (fid in squad and bomb_field is not None)
                           or (fid in make_way and where.get(fid) is not None))
                 for fid in set(map(_FIGURE, moves))}
        score = self.plain_scores(moves, where, plain, goal_field, team, enemies)
        if led:
            lead = self.lead_scores(moves, where, led, out_field, exits)
            score = np.where(np.isnan(lead), score, lead)
        plan_locks: list[Cell] | None = None
        for i in [i for i, m in enumerate(moves) if not plain[m[1]] and m[1] not in led]:
            _, fid, dest, _, _ = moves[i]
            here = where.get(fid)
            if dest is None:
                continue
            if fid in squad and bomb_field is not None:
                to_bomb = bomb_field.cost(dest)
                if to_bomb is not None and here is not None and chebyshev(here, timers[0]) <= 1:
                    continue  # beside the bomb already: stay and disarm
                value = 3.0 * self.advance_score(here, dest, bomb_field)
                if value > 0:
                    score[i] = value + 5.0
                continue
            if fid in make_way and here is not None:
                # a better picker is coming: step off the lock, but stay close
                if plan_locks is None:
                    plan_locks = self.plan_locks()  # read once per decision, when needed
                near_lock = any(c.level == dest.level and chebyshev(c, dest) <= 1
                                for c in plan_locks)
                if not near_lock and chebyshev(here, dest) <= 3:
                    score[i] = 4.0
                continue
        chosen = self.pick_scored(moves, score, rng)
        turn = int(view.get("turn", 0))
        if chosen is not None:
            self.last_move_turn = turn
            return chosen
        if turn - self.last_move_turn >= 2:
            return self.unstick(view, actions, rng)
        return None

    def plain_scores(self, moves: list[MoveRead], where: dict[str, Cell | None],
                     plain: dict[str, bool], goal_field: DistanceField | None,
                     team: list[Cell], enemies: list[Cell]) -> NDArray[np.float64]:
        """Per move, its score if its figure's moves are scored the plain way, else NaN (and
        NaN for a move not worth making): how much nearer the goal it goes (from off the map,
        10 / (1 + the cost)), less 1 if the nearest teammate other than the mover ends more
        than 5 squares away on its level, plus 1.5 per known gunman (at most two) with sight
        of the square. Every move at once, by the compiled ``scoring.plain``."""
        n = len(moves)
        score = np.full(n, np.nan)
        if not n or goal_field is None or not any(plain.values()):
            return score
        packed, figs = self.move_arrays(moves)
        # per figure number: scored plainly, off the map, its square (packed), its goal cost
        size = int(figs.max()) + 1
        is_plain = np.zeros(size, dtype=bool)
        off_map = np.ones(size, dtype=bool)
        here_at = np.full(size, -1, dtype=np.int64)
        now_cost = np.full(size, np.nan)
        costs = self.flat_costs(goal_field)
        for fid, flag in plain.items():
            k = figure_number(fid)
            is_plain[k] = flag
            here = where.get(fid)
            if here is not None:
                off_map[k] = False
                here_at[k] = pack(here)
                now = int(costs[self.flat_index(here)])
                if now >= 0:
                    now_cost[k] = now
        mates = np.array([pack(c) for c in team], dtype=np.int64)
        shots = self.los_flat(enemies)
        return scoring.plain(packed, figs, is_plain, off_map, here_at, now_cost, self._offsets,
                             self._widths, costs, mates, NO_SHOTS if shots is None else shots)

    def lead_scores(self, moves: list[MoveRead], where: dict[str, Cell | None],
                    led: dict[str, list[Cell]], field: DistanceField | None,
                    extraction: AbstractSet[Cell]) -> NDArray[np.float64]:
        """Per move of a figure leading hostages (``led``: its hostages' squares) on the way
        out (``field``): a leader walks its hostages to the extraction squares and keeps moving
        to pull them, its score the cost it gains less 0.3 per square the farthest hostage on
        the level trails beyond 6, plus 0.1; at the way out, 5 less that lag (it shuffles
        closer so they step out); -1 out of reach, 0 with no way out known. NaN for any other
        move (and a move with no square): every such move at once, by ``scoring.lead``."""
        n = len(moves)
        packed, figs = self.move_arrays(moves)
        size = int(figs.max()) + 1 if n else 0
        is_led = np.zeros(size, dtype=bool)
        if field is None:  # no way out known: every leader's move scores 0
            for fid in led:
                k = figure_number(fid)
                if k < size:
                    is_led[k] = True
            return np.where(is_led[figs] & (packed >= 0), 0.0, np.nan) if n else np.zeros(0)
        costs = self.flat_costs(field)
        at_exit = np.zeros(size, dtype=bool)
        now_cost = np.full(size, np.nan)  # off the map, or out of reach: NaN
        starts = np.zeros(size, dtype=np.int64)
        ends = np.zeros(size, dtype=np.int64)
        hostages: list[int] = []
        for fid, cells in led.items():
            k = figure_number(fid)
            if k >= size:
                continue  # a leader with no move listed
            is_led[k] = True
            here = where.get(fid)
            if here is not None:
                at_exit[k] = here in extraction
                now = int(costs[self.flat_index(here)])
                if now >= 0:
                    now_cost[k] = now
            starts[k] = len(hostages)
            hostages += [pack(c) for c in cells]
            ends[k] = len(hostages)
        return scoring.lead(packed, figs, is_led, at_exit, now_cost, self._offsets, self._widths,
                            costs, np.array(hostages, dtype=np.int64), starts, ends)

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
        devices = view["public"].get("devices", [])
        kept = self._lock_levels
        if kept is not None and kept[0] is devices and kept[1] == self.mirror.terrain_version:
            levels = kept[2]  # the very devices list on the same plan: the same locks
        else:
            levels = {c: int(d.get("level", 0)) for d in devices
                      if d.get("type") == "lock" for c in [cell_of(d.get("at"))]
                      if c is not None and self.plan.terrain(c) == Terrain.DOOR_LOCKED}
            self._lock_levels = (devices, self.mirror.terrain_version, levels)
        active = {fid: f for fid, f in mine.items() if f.get("status") == "active"}

        def odds(f: dict[str, Any], level: int) -> float:
            return _pick_odds(level, self.skill(f))

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
        for action, fid, dest, _, _ in self.move_list(actions):
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
