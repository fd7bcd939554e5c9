"""Role AI for Execute: the FBI stacks up, opens locks, clears rooms and walks hostages out;
the terrorists guard the hostages, hold their rooms, answer alarms and noise, and set off
their bombs when the game is lost.

Both bots see only their side's view and the hints on their legal actions; they build on
``BaselineBot`` (its seeded tie-breaking and path-distance helpers). Use ``bot_for(scenario,
side)`` (the registry's entry point) or ``ROLE_BOTS["execute"]``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from killhouse.ai.baseline import BaselineBot, cell_of
from killhouse.core.cells import Cell
from killhouse.core.fov import fields_of_view
from killhouse.core.geometry import chebyshev, los_pairs
from killhouse.core.paths import DistanceField, StepRules, distance_field
from killhouse.core.rng import Rng
from killhouse.core.terrain import Terrain, passable_mask, stairs_mask
from killhouse.rulesets.base import Action
from killhouse.rulesets.execute.rolls import device_tn, effective, success_chance
from killhouse.scenario.model import Scenario

_DOOR_CODES = {"open": Terrain.DOOR_OPEN, "closed": Terrain.DOOR_CLOSED,
               "locked": Terrain.DOOR_LOCKED}
#: the path cost the planner gives a locked door: picking it takes a turn or two
LOCK_COST = 4


class ExecuteBot(BaselineBot):
    """Shared machinery: the floor plan as the side knows it, and distance fields over it."""

    name = "execute-role"

    def __init__(self, scenario: Scenario, side: str) -> None:
        super().__init__(scenario, side)
        self.plan = scenario.board.copy()  # the public floor plan, doors as this side knows them
        self._door_key: tuple[Any, ...] = ()
        self._costs: list[NDArray[np.int32]] = []
        self._cache: dict[tuple[Any, ...], DistanceField] = {}
        #: squares believed held by an unseen enemy (a stair whose far end will not let us in)
        self.blocked: dict[Cell, int] = {}
        #: locked doors nobody on the side can pick: walls to the planner
        self.sealed: frozenset[Cell] = frozenset()
        self.own_list: list[dict[str, Any]] = []

    # -- what the side knows of the map --------------------------------------------------
    def sync(self, view: dict[str, Any]) -> None:
        """Bring the door states of the plan up to date with the view."""
        doors = tuple((tuple(d["at"]), d["state"]) for d in view.get("doors", []))
        if doors == self._door_key and self._costs:
            return
        self._door_key = doors
        for at, state in doors:
            level, x, y = at
            self.plan.levels[level].terrain[y, x] = _DOOR_CODES.get(state, Terrain.DOOR_OPEN)
        self._costs = []
        for lv in self.plan.levels:
            cost = passable_mask(lv.terrain).astype(np.int32)
            cost[stairs_mask(lv.terrain) & (cost > 0)] = 2
            cost[lv.terrain == Terrain.DOOR_LOCKED] = LOCK_COST
            self._costs.append(cost)
        self._cache.clear()

    def distances(self, goals: Iterable[Cell]) -> DistanceField | None:
        """Walking distance on the known plan to the nearest of ``goals`` (locks cost extra)."""
        blocked = tuple(sorted(self.blocked | dict.fromkeys(self.sealed, 0)))
        key = (self._door_key, tuple(sorted(set(goals))), blocked)
        if not key[1]:
            return None
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            walls = [self.plan.solid(i) for i in range(len(self.plan.levels))]
            costs = [c.copy() for c in self._costs]
            for cell in blocked:
                costs[cell.level][cell.y, cell.x] = 0
            self._cache[key] = distance_field(self.plan, list(key[1]), costs, StepRules(), walls)
        return self._cache[key]

    def los_count(self, cell: Cell, others: Sequence[Cell]) -> int:
        """How many of ``others`` (same level) have line of sight to ``cell`` on the known plan."""
        same = [o for o in others if o.level == cell.level]
        if not same:
            return 0
        ok = los_pairs(self.plan.opaque(cell.level), [(cell.x, cell.y)] * len(same),
                       [(o.x, o.y) for o in same])
        return int(ok.sum())

    def los_counts(self, cells: Iterable[Cell], others: Sequence[Cell]) -> dict[Cell, int]:
        """``los_count`` for many cells at once: one sight test per level for every pair."""
        out: dict[Cell, int] = {}
        todo = sorted(set(cells))
        by_level: dict[int, list[Cell]] = {}
        for c in todo:
            out[c] = 0
            by_level.setdefault(c.level, []).append(c)
        for level, here in by_level.items():
            same = [(o.x, o.y) for o in others if o.level == level]
            if not same:
                continue
            src = np.repeat(np.asarray([(c.x, c.y) for c in here], dtype=np.int64), len(same),
                            axis=0)
            dst = np.tile(np.asarray(same, dtype=np.int64), (len(here), 1))
            ok = los_pairs(self.plan.opaque(level), src, dst).reshape(len(here), len(same))
            for c, n in zip(here, ok.sum(axis=1).tolist(), strict=True):
                out[c] = int(n)
        return out

    # -- helpers ---------------------------------------------------------------------------
    @staticmethod
    def first(actions: Sequence[Action], kind: str) -> Action | None:
        return next((a for a in actions if a.kind == kind), None)

    @staticmethod
    def own(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {f["id"]: f for f in view.get("figures", [])}

    def pick(self, scored: list[tuple[float, Action]], rng: Rng) -> Action | None:
        """The best-scored action (ties broken by the bot's generator), or None if empty."""
        if not scored:
            return None
        best = max(s for s, _ in scored)
        tied = [a for s, a in scored if s >= best - 1e-9]
        return tied[rng.below(len(tied))]

    def best_attack(self, actions: Sequence[Action], rng: Rng, kinds: tuple[str, ...],
                    floor: float) -> Action | None:
        scored = [(float(a.hint.get("p", 0)) * float(a.hint.get("value", 0)), a)
                  for a in actions if a.kind in kinds]
        return self.pick([(s, a) for s, a in scored if s > floor], rng)

    def best_throw(self, actions: Sequence[Action], rng: Rng, floor: float) -> Action | None:
        """The throw most likely to catch enemies in its blast (on target or 1-3 long, E-27)."""
        scored = []
        mine = {f["id"]: cell_of(f.get("at")) for f in self.own_list}
        for a in actions:
            if a.kind != "throw":
                continue
            here, aim = mine.get(str(a.get("figure"))), cell_of(a.get("at"))
            if here is not None and aim is not None and chebyshev(here, aim) <= 3:
                continue  # never inside one's own blast (E-27)
            tn = int(a.hint.get("tn", 99))
            p_blast = float(success_chance(8, tn - 3))  # the d8 may fall 3 short and still hit
            scored.append((p_blast * float(a.hint.get("value", 0)), a))
        return self.pick([(s, a) for s, a in scored if s > floor], rng)

    def pregame(self, view: dict[str, Any], actions: Sequence[Action]) -> Action | None:
        """Set-up, negotiation and planning as the scenario wrote them; never concede."""
        for kind in ("ready", "end_negotiation", "continue"):
            chosen = self.first(actions, kind)
            if chosen is not None:
                return chosen
        return None

    def choose(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        if not actions:
            raise ValueError("no legal action to choose from")
        self.sync(view)
        self.own_list = list(view.get("figures", []))
        chosen = self.pregame(view, actions) if view.get("phase") not in (
            "grenades", "tasks", "movement", "firing") else self.combat(view, actions, rng)
        if chosen is None:
            chosen = self.first(actions, "done") or super().choose(view, actions, rng)
        return chosen

    def combat(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action | None:
        raise NotImplementedError


class FbiBot(ExecuteBot):
    """The Hostage Rescue Unit: engage what it sees, pick locks, collect hostages, get out."""

    name = "execute-fbi"

    def __init__(self, scenario: Scenario, side: str) -> None:
        super().__init__(scenario, side)
        self.explored = [np.zeros(lv.terrain.shape, dtype=bool) for lv in self.plan.levels]
        #: deep extraction squares, keyed on the door states and the zone they were found for
        self._deep: dict[tuple[Any, ...], tuple[Cell, ...]] = {}
        self.last_move_turn = 0

    def combat(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action | None:
        phase = view["phase"]
        if phase == "grenades":
            return self.best_throw(actions, rng, 0.6)
        if phase == "tasks":
            return self.tasks(view, actions, rng)
        if phase == "firing":
            return self.best_attack(actions, rng, ("fire",), 0.0)
        return self.movement(view, actions, rng)

    def tasks(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action | None:
        """Disarm when it is likely to work, or when a timer is about to run out; then devices."""
        timers = {b["id"]: b.get("turns_remaining") for b in view.get("bombs", [])}
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
                scored.append((p * float(a.hint.get("value", 0)), a))
        return self.pick(scored, rng)

    def explore(self, view: dict[str, Any]) -> None:
        """Mark what the agents on the map can see now as explored."""
        eyes = [(c, None, 180.0) for c in (cell_of(f.get("at")) for f in view["figures"]
                                           if f.get("status") == "active") if c is not None]
        if not eyes:
            return
        for (cell, _, _), seen in zip(eyes, fields_of_view(self.plan, eyes), strict=True):
            self.explored[cell.level] |= seen

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
        dests: dict[str, set[Cell]] = {}
        for a in actions:
            if a.kind == "move":
                to = cell_of(a.hint.get("to"))
                if to is not None:
                    dests.setdefault(str(a.get("figure")), set()).add(to)
        for f in view.get("figures", []):
            here = cell_of(f.get("at"))
            if here is None or f.get("status") != "active" or f["id"] not in dests:
                continue
            far = self.plan.stairs.get(here)
            if far is not None and not any(d.level == far.level for d in dests[f["id"]]):
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
        extraction = [c for c in (cell_of(x) for x in view["public"]["extraction"])
                      if c is not None]
        deep = self.deep(extraction)
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
        shots = self.los_counts((c for c in (cell_of(a.hint.get("to")) for a in actions
                                             if a.kind == "move") if c is not None), enemies)
        scored: list[tuple[float, Action]] = []
        for action in actions:
            if action.kind != "move":
                continue
            fid = str(action.get("figure"))
            here = cell_of(mine.get(fid, {}).get("at"))
            dest = cell_of(action.hint.get("to"))
            if dest is None:
                continue
            if fid in led:
                score = self.lead_score(here, dest, led[fid], out_field, extraction)
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
            score = self.advance_score(here, dest, goal_field)
            if score <= 0:
                continue
            # stack up: stay near the team; look for a shot at a known gunman
            others = [c for c in team if c != here and c.level == dest.level]
            if others and min(chebyshev(dest, c) for c in others) > 5:
                score -= 1.0
            score += 1.5 * min(2, shots.get(dest, 0))
            scored.append((score, action))
        chosen = self.pick(scored, rng)
        turn = int(view.get("turn", 0))
        if chosen is not None:
            self.last_move_turn = turn
            return chosen
        if turn - self.last_move_turn >= 2:
            return self.unstick(view, actions, rng)
        return None

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
        mine = self.own(view)
        scored: list[tuple[float, Action]] = []
        for action in actions:
            if action.kind != "move":
                continue
            fid = str(action.get("figure"))
            here = cell_of(mine.get(fid, {}).get("at"))
            dest = cell_of(action.hint.get("to"))
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

    def deep(self, extraction: list[Cell]) -> list[Cell]:
        """Extraction squares whose every passable neighbour is an extraction square too."""
        key = (self._door_key, tuple(extraction))
        if key in self._deep:
            return list(self._deep[key])
        zone = set(extraction)
        out = []
        for c in extraction:
            ok = True
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    n = Cell(c.level, c.x + dx, c.y + dy)
                    if self.plan.in_bounds(n) and self.plan.passable(n) and n not in zone:
                        ok = False
            if ok:
                out.append(c)
        self._deep[key] = tuple(out)
        return out

    @staticmethod
    def advance_score(here: Cell | None, dest: Cell, field: DistanceField | None) -> float:
        if field is None:
            return 0.0
        to = field.cost(dest)
        if to is None:
            return -1.0
        if here is None:
            return 10.0 / (1 + to)  # coming in off the street: the nearest entry to the goal
        now = field.cost(here)
        return float((now if now is not None else to + 1) - to)

    def lead_score(self, here: Cell | None, dest: Cell, hostages: list[Cell],
                   field: DistanceField | None, extraction: list[Cell]) -> float:
        """A leader walks its hostages to the extraction squares, and keeps moving to pull them."""
        if field is None:
            return 0.0
        to = field.cost(dest)
        if to is None:
            return -1.0
        now = field.cost(here) if here is not None else None
        gain = float((now if now is not None else to + 1) - to)
        lag = max((chebyshev(dest, h) for h in hostages if h.level == dest.level), default=0)
        if here is not None and here in set(extraction):
            # at the way out: shuffle closer to the hostages so they step out
            return 5.0 - lag
        return gain - 0.3 * max(0, lag - 6) + 0.1


class TerroristBot(ExecuteBot):
    """The hostage takers: guard the hostages, hold rooms, answer alarms and noise."""

    name = "execute-terrorists"

    def __init__(self, scenario: Scenario, side: str) -> None:
        super().__init__(scenario, side)
        self.placed: dict[str, Cell] = {}
        self.guards: dict[str, str] = {}
        self.strength = 0

    def learn(self, view: dict[str, Any]) -> None:
        """Remember where the hostages were left, and assign each one its nearest guard."""
        if not self.placed:
            for m in [*view.get("remembered", []), *view.get("seen", [])]:
                at = cell_of(m.get("at"))
                if m.get("kind") == "hostage" and at is not None:
                    self.placed[str(m["id"])] = at
        mine = {f["id"]: cell_of(f.get("at")) for f in view.get("figures", [])}
        if not self.strength:
            self.strength = len(mine)
        if not self.guards and self.placed:
            free = {k: v for k, v in mine.items() if v is not None}
            for hid, at in sorted(self.placed.items()):
                near = sorted((chebyshev(v, at) + (0 if v.level == at.level else 50), k)
                              for k, v in free.items())
                if near and near[0][0] <= 6:
                    self.guards[near[0][1]] = hid
                    free.pop(near[0][1])

    def combat(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action | None:
        self.learn(view)
        phase = view["phase"]
        if phase == "grenades":
            boom = self.detonation(view, actions)
            return boom or self.best_throw(actions, rng, 0.5)
        if phase == "firing":
            return self.best_attack(actions, rng, ("fire",), 0.0) or self.escapees(view, actions)
        if phase == "movement":
            return self.movement(view, actions, rng)
        return None

    def detonation(self, view: dict[str, Any], actions: Sequence[Action]) -> Action | None:
        """Set off a remote bomb when the building is being lost (E-23): few of us are left,
        or hostages are walking away, while agents are inside."""
        detonate = self.first(actions, "detonate")
        if detonate is None:
            return None
        active = sum(1 for f in view["figures"] if f.get("status") == "active")
        agents = [s for s in view.get("seen", []) if s.get("kind") == "agent"
                  and s.get("status") == "active"]
        fleeing = len(self.moved_hostages(view))
        losing = active <= 1 or fleeing * 2 > max(1, len(self.placed))
        return detonate if losing and (agents or fleeing) else None

    def moved_hostages(self, view: dict[str, Any]) -> list[str]:
        """Seen hostages that are no longer where they were left: being rescued."""
        out = []
        for s in view.get("seen", []):
            at = cell_of(s.get("at"))
            if s.get("kind") == "hostage" and at is not None and self.placed.get(s["id"]) != at:
                out.append(str(s["id"]))
        return out

    def escapees(self, view: dict[str, Any], actions: Sequence[Action]) -> Action | None:
        """With no agent to shoot, fire on a hostage being led away."""
        moved = set(self.moved_hostages(view))
        shots = [a for a in actions if a.kind == "fire" and a.get("target") in moved]
        return max(shots, key=lambda a: float(a.hint.get("p", 0)), default=None)

    def movement(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action | None:
        mine = self.own(view)
        seen_agents = [c for c in (cell_of(s.get("at")) for s in view.get("seen", [])
                                   if s.get("kind") == "agent" and s.get("status") == "active")
                       if c is not None]
        noise = [c for c in (cell_of(s.get("at")) for s in view.get("sounds", [])) if c is not None]
        remembered = [c for c in (cell_of(m.get("at")) for m in view.get("remembered", [])
                                  if m.get("kind") == "agent") if c is not None]
        field = self.distances(seen_agents + noise + remembered)
        places = [c for c in (cell_of(f.get("at")) for f in mine.values()) if c is not None]
        places += [c for c in (cell_of(a.hint.get("to")) for a in actions if a.kind == "move")
                   if c is not None]
        sight = self.los_counts(places, seen_agents) if seen_agents else {}
        scored: list[tuple[float, Action]] = []
        for action in actions:
            if action.kind != "move":
                continue
            fid = str(action.get("figure"))
            here = cell_of(mine.get(fid, {}).get("at"))
            dest = cell_of(action.hint.get("to"))
            if here is None or dest is None:
                continue
            if fid in self.guards:
                continue  # guards hold their hostage's room
            if sight.get(here, 0):
                continue  # already has a shot: hold and fire
            if field is None:
                continue
            to, now = field.cost(dest), field.cost(here)
            if to is None or now is None or now - to <= 0:
                continue
            exposure = sight.get(dest, 0)
            # close in, but stop short: a square with a shot at one agent beats walking into many
            score = float(now - to) + (2.0 if exposure == 1 else -1.0 * exposure)
            if to <= 1:
                score -= 3.0
            scored.append((score, action))
        return self.pick([(s, a) for s, a in scored if s > 0], rng)


def bot_for(scenario: Scenario, side: str) -> ExecuteBot:
    """The role bot for ``side`` of an Execute scenario (the FBI or the terrorists)."""
    spec = next((s for s in scenario.sides if s.id == side), None)
    role = spec.extra.get("role") if spec is not None else None
    if role is None:
        role = "fbi" if side.lower() in ("fbi", "hru", "police", "swat") else "terrorists"
    return FbiBot(scenario, side) if role == "fbi" else TerroristBot(scenario, side)


#: the registry's convention: ruleset id -> factory(scenario, side)
ROLE_BOTS = {"execute": bot_for}
