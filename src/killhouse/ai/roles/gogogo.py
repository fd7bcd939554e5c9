"""Role AI for "Go! Go! Go!": terrorists guard, hide and ambush, plant and cover the bomb;
counter-terrorists close in stealthily, stun and smoke, clear rooms, and escort hostages or
the VIP out.

A bot sees only its side's view (the public map plus what its figures see, hear and know)
and the hints on its legal actions. At the start of each orders step it plans the whole
team's turn (destinations deconflicted by a lock-step rehearsal of its own paths, facings,
grenades, follow-me and bomb tasks) and then feeds the plan to the engine one action at a
time. Fire goes to the best shot by hint, the VIP first for the terrorists. Use
``bot_for(scenario, side)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from killhouse.ai.baseline import BaselineBot, cell_of
from killhouse.core.cells import COMPASS, Cell
from killhouse.core.fov import fields_of_view
from killhouse.core.geometry import line_of_sight, los_pairs
from killhouse.core.paths import DistanceField, distance_field
from killhouse.core.rng import Rng
from killhouse.core.terrain import Terrain
from killhouse.rulesets.base import Action
from killhouse.rulesets.gogogo.geom import sector
from killhouse.rulesets.gogogo.movement import (
    RULES,
    enter_costs,
    enterable,
    field_from,
    lockstep,
    squeeze_masks,
)
from killhouse.rulesets.gogogo.scenario import plan_scenario
from killhouse.rulesets.gogogo.state import (
    ASSASSINATION,
    CT,
    DESTRUCTION,
    HOSTAGE_MISSION,
    T,
    id_key,
)
from killhouse.rulesets.gogogo.tables import allowance, tables
from killhouse.scenario.model import Scenario

HOLD, HIDE, AIM, STEALTH, MOVE = "hold", "hide", "aim", "stealth", "move"


@dataclass
class FigurePlan:
    """One figure's intended order for the turn."""

    posture: str = HOLD
    to: Cell | None = None
    task: str | None = None
    grenade: str | None = None
    target: Cell | None = None
    facing: str | None = None
    follows: list[str] = field(default_factory=list)


@dataclass
class Seen:
    id: str
    kind: str
    at: Cell
    led_by: str | None = None


class GoGoGoBot(BaselineBot):
    """A bot for either side of a gogogo scenario."""

    name = "gogogo-role"

    def __init__(self, scenario: Scenario, side: str) -> None:
        super().__init__(scenario, side)
        plan = plan_scenario(scenario)
        self.team = plan.team_of.get(side, CT)
        self.mission = plan.mission
        self.zones = plan.zones
        self.sites = _sites(scenario)
        self.base = scenario.board
        self.board = scenario.board.copy()
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
        self.stunned_rooms: set[int] = set()
        self._fields: dict[Any, DistanceField] = {}
        self._los: dict[tuple[Cell, Cell], bool] = {}  # this decision's sight lines (smoke moves)

    # -- entry point ------------------------------------------------------------------------
    def choose(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        if not actions:
            raise ValueError("no legal action to choose from")
        phase = view.get("phase")
        if phase == "orders":
            return self._orders(view, actions, rng)
        if phase == "fire":
            return self._fire(view, actions, rng)
        if phase == "setup":
            return self._setup(view, actions, rng)
        return super().choose(view, actions, rng)

    # -- the side's map -----------------------------------------------------------------------
    def _sync(self, view: dict[str, Any]) -> None:
        doors = {Cell(*c) for c in view.get("map", {}).get("open_doors", [])}
        if doors != self.open_doors:
            for cell in doors - self.open_doors:
                self.board.set_terrain(cell, Terrain.DOOR_OPEN)
            self.open_doors = doors
            self._fields.clear()
        for level in self.board.levels:
            level.smoke[:] = False
        for level, x, y in view.get("public", {}).get("smoke", []):
            self.board.levels[level].smoke[y, x] = True

    def _goal_field(self, goals: Iterable[Cell]) -> DistanceField | None:
        inside = frozenset(
            c for c in goals if self.board.in_bounds(c) and enterable(self.board, c.level)[c.y, c.x]
        )
        key = ("goal", inside)
        if not inside:
            return None
        if key not in self._fields:
            if len(self._fields) > 128:
                self._fields.clear()
            self._fields[key] = distance_field(
                self.board,
                sorted(key[1]),
                enter_costs(self.board),
                RULES,
                squeeze_masks(self.board, self.open_doors),
            )
        return self._fields[key]

    def _from(self, start: Cell) -> DistanceField:
        key = ("from", start)
        if key not in self._fields:
            self._fields[key] = field_from(self.board, start, self.open_doors)
        return self._fields[key]

    def _sight(self, a: Cell, b: Cell) -> bool:
        if a.level != b.level:
            return False
        known = self._los.get((a, b))
        if known is None:
            self._prime([(a, b)])
            known = self._los[(a, b)]
        return known

    def _prime(self, pairs: Iterable[tuple[Cell, Cell]]) -> None:
        """Work out line of sight for many pairs at once (one ``los_pairs`` call per level)."""
        by_level: dict[int, list[tuple[Cell, Cell]]] = {}
        for a, b in pairs:
            if a.level == b.level and (a, b) not in self._los:
                by_level.setdefault(a.level, []).append((a, b))
        for level, todo in by_level.items():
            todo = list(dict.fromkeys(todo))
            seen = los_pairs(
                self.board.opaque(level),
                [(a.x, a.y) for a, _ in todo],
                [(b.x, b.y) for _, b in todo],
                self.board.smoke(level),
            )
            for pair, ok in zip(todo, seen.tolist(), strict=True):
                self._los[pair] = bool(ok)

    # -- reading the view ---------------------------------------------------------------------
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

    # -- planning the turn ------------------------------------------------------------------
    def _plan(self, view: dict[str, Any], rng: Rng) -> None:
        self._sync(view)
        self._los.clear()
        own, enemies, hostages = self._read(view)
        self._prime((Cell(*f["at"]), e.at) for f in own for e in enemies)
        turn = int(view.get("turn", 1))
        if self.site_roll < 0:
            self.site_roll = rng.below(3)  # T: one game in three goes for the farther site
        self._heat(enemies)
        for f in own:
            self.posts.setdefault(f["id"], Cell(*f["at"]))
        self._search(own)
        plans: dict[str, FigurePlan] = {f["id"]: FigurePlan() for f in own}
        heard = {m["listener"]: m["direction"] for m in view.get("sounds", [])}
        goals = self._goals(view, own, enemies, hostages, plans)
        self._grenades(view, own, enemies, hostages, plans)
        taken: set[Cell] = set()
        positions: dict[str, Cell] = {f["id"]: Cell(*f["at"]) for f in own}
        for s in enemies + hostages:
            positions.setdefault(s.id, s.at)
        paths: dict[str, list[Cell]] = {}
        order = sorted(own, key=lambda f: (0 if goals[f["id"]][2] else 1, f["id"]))
        for f in order:
            fid = f["id"]
            plan = plans[fid]
            here = Cell(*f["at"])
            cells, posture, urgent = goals[fid]
            if plan.task is not None or posture in (HOLD, HIDE, AIM) or not cells:
                if plan.task is None:
                    plan.posture = posture if posture in (HOLD, HIDE, AIM) else HOLD
                    if plan.posture == AIM and f.get("weapon") != "sniper":
                        plan.posture = HOLD
                taken.add(here)
                continue
            choice = self._destination(
                f, here, cells, posture, enemies, taken, positions, paths, exposed=urgent, rng=rng
            )
            if choice is None:
                plan.posture = HOLD
                taken.add(here)
                continue
            plan.posture, plan.to = posture, choice
            paths[fid] = self._from(here).path_to(choice)
            taken.add(choice)
        self._unjam(own, order, goals, plans, enemies, taken, positions, paths, rng)
        ends = [plans[f["id"]].to or Cell(*f["at"]) for f in own]
        self._prime((end, e.at) for end in ends for e in enemies)
        for f in own:
            plan = plans[f["id"]]
            end = plan.to or Cell(*f["at"])
            plan.facing = self._facing(f, end, enemies, heard, goals[f["id"]][0], plan)
        self.plans = plans
        self.plan_turn = turn

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
                plans[g["id"]].posture = STEALTH if cost <= tables().stealth else MOVE
                plans[g["id"]].to = spot
                paths[g["id"]] = self._from(g_here).path_to(spot)
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
                    paths[fid] = self._from(here).path_to(choice)
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
        limit = tables().move if posture == MOVE else tables().stealth
        best: tuple[int, int, Cell] | None = None
        for cell in reach.reachable(limit):
            d = gf.cost(cell)
            if d is None or cell == here:
                continue
            key = (d, reach.cost(cell) or 0, cell)
            if best is None or key < best:
                best = key
        return reach.path_to(best[2]) if best is not None else []

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
            for c in reach.reachable(tables().move)
            if c not in route and c not in taken and c not in occupied
        ]
        options.sort(key=lambda c: (reach.cost(c) or 0, c.y, c.x))
        for cell in options[:10]:
            trial = dict(paths)
            trial[g["id"]] = reach.path_to(cell)
            alone = lockstep(positions, trial).blocked_at
            trial[stuck] = route
            if not alone and g["id"] not in lockstep(positions, trial).blocked_at:
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
        cells = list(reach.reachable(limit))
        if exposed:
            self._prime((e.at, cell) for cell in cells for e in enemies)
        for cell in cells:
            if cell == here or cell in taken or cell in positions.values():
                continue
            d = gf.cost(cell)
            if d is None:
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
            trial[f["id"]] = reach.path_to(cell)
            result = lockstep(positions, trial)
            if not result.blocked_at:
                return cell
        return None

    # -- mission goals per figure -------------------------------------------------------------
    def _goals(
        self,
        view: dict[str, Any],
        own: list[dict[str, Any]],
        enemies: list[Seen],
        hostages: list[Seen],
        plans: dict[str, FigurePlan],
    ) -> dict[str, tuple[frozenset[Cell], str, bool]]:
        """Per figure: goal cells, posture, and whether it must stay out of sight."""
        out: dict[str, tuple[frozenset[Cell], str, bool]] = {}
        quiet = not enemies and not view.get("sounds")
        for f in own:
            here = Cell(*f["at"])
            close = 64 if self.team == CT else 10_000  # CT push on past distant shooters
            in_sight = any(self._sight(here, e.at) and _d2(here, e.at) <= close for e in enemies)
            if self.team == CT:
                out[f["id"]] = self._ct_goal(
                    view, f, here, in_sight, quiet, own, enemies, hostages, plans
                )
            else:
                out[f["id"]] = self._t_goal(
                    view, f, here, in_sight, quiet, enemies, hostages, plans
                )
        return out

    def _ct_goal(
        self,
        view: dict[str, Any],
        f: dict[str, Any],
        here: Cell,
        in_sight: bool,
        quiet: bool,
        own: list[dict[str, Any]],
        enemies: list[Seen],
        hostages: list[Seen],
        plans: dict[str, FigurePlan],
    ) -> tuple[frozenset[Cell], str, bool]:
        fid = f["id"]
        z = self.zones
        # footsteps alone do not slow the assault to a crawl: the clock is the CT's enemy
        advance = MOVE if not enemies else STEALTH
        if self.mission == HOSTAGE_MISSION:
            leading = [h for h in hostages if h.led_by == fid]
            free = [h for h in hostages if h.led_by is None]
            remembered = [Seen(hid, "hostage", at) for hid, at in self.hostage_memory.items()]
            for h in free + [m for m in remembered if m.id not in {s.id for s in hostages}]:
                if (
                    h.at.level == here.level
                    and max(abs(h.at.x - here.x), abs(h.at.y - here.y)) == 1
                    and h.id not in plans[fid].follows
                ):
                    plans[fid].follows.append(h.id)  # out of its sight arc, but we know it's there
            if leading or plans[fid].follows:
                taken = {h.id for h in leading} | set(plans[fid].follows)
                others = [
                    at
                    for hid, at in self.hostage_memory.items()
                    if hid not in taken and at.level == here.level and _d2(at, here) <= 36
                ]
                if others and not in_sight:  # gather the room's other hostages on the way out
                    return frozenset(_around({min(others, key=lambda c: _d2(c, here))})), MOVE, True
                return frozenset(z.rescue), MOVE, True  # escorting beats aiming
        if f.get("weapon") == "sniper" and any(self._sight(here, e.at) for e in enemies):
            return frozenset(), AIM, False
        if self.mission == HOSTAGE_MISSION:
            if in_sight:
                return frozenset(), HOLD, False
            targets = set(self.hostage_memory.values())
            unsearched = frozenset(z.location - self.searched)
            rooms = self._rooms()
            if rooms and not targets:
                # split the assault over the location's rooms rather than queue at one door
                team = sorted(o["id"] for o in view.get("figures", []) if o.get("kind") != "vip")
                room = rooms[team.index(fid) % len(rooms)] - self.searched
                unsearched = frozenset(room) or unsearched
            near = frozenset(_around(targets)) or unsearched or frozenset(z.location)
            return near, advance, False
        if self.mission == DESTRUCTION:
            bomb = view.get("explosive") or {}
            if bomb.get("planted"):
                at = cell_of(bomb.get("at"))
                if at is not None:
                    if max(abs(at.x - here.x), abs(at.y - here.y)) <= 1 and at.level == here.level:
                        plans[fid].task = "defuse"
                        return frozenset(), HOLD, False
                    return frozenset(_around({at})), MOVE, False
                if in_sight:
                    return frozenset(), HOLD, False
                unsearched = frozenset(z.bomb_sites - self.searched) or frozenset(z.bomb_sites)
                if self.hot_site is not None and self.hot_site - self.searched:
                    unsearched = frozenset(self.hot_site - self.searched)  # where they were seen
                return unsearched, MOVE, False
            if in_sight:
                return frozenset(), HOLD, False
            team = sorted(o["id"] for o in view.get("figures", []) if o.get("kind") != "vip")
            index = team.index(fid)  # stable even as figures fall
            site = self.sites[index % len(self.sites)] if self.sites else frozenset(z.bomb_sites)
            if self.hot_site is not None:
                site = self.hot_site  # rotate to the site under attack
            if here in site:
                return frozenset(), HIDE if index % 2 else HOLD, False
            return site, MOVE, False
        # assassination: the VIP runs for the exits behind its escort
        if f.get("kind") == "vip":
            escorts = [o for o in own if o.get("kind") != "vip"]
            gf = self._goal_field(z.escape)
            mine = gf.cost(here) if gf is not None else None
            ahead = [gf.cost(Cell(*o["at"])) for o in escorts] if gf is not None else []
            lead = min((d for d in ahead if d is not None), default=None)
            turn = int(view.get("turn", 1))
            if lead is not None and mine is not None and mine <= lead + 2 and turn < 18:
                return frozenset(), HOLD if not in_sight else HIDE, False
            return frozenset(z.escape), MOVE, True
        if in_sight:
            return frozenset(), HOLD, False
        return frozenset(z.escape), advance, False

    def _t_goal(
        self,
        view: dict[str, Any],
        f: dict[str, Any],
        here: Cell,
        in_sight: bool,
        quiet: bool,
        enemies: list[Seen],
        hostages: list[Seen],
        plans: dict[str, FigurePlan],
    ) -> tuple[frozenset[Cell], str, bool]:
        fid = f["id"]
        turn = int(view.get("turn", 1))
        guard = HIDE if (sum(map(ord, fid)) % 2) else HOLD
        if f.get("has_bomb") and any(here in site for site in self.sites):
            plans[fid].task = "plant"  # finishing the plant comes before any fight
            return frozenset(), HOLD, False
        if in_sight:
            return frozenset(), HOLD, False
        if self.mission == DESTRUCTION:
            bomb = view.get("explosive") or {}
            at = cell_of(bomb.get("at"))
            if bomb.get("planted") and at is not None:
                if max(abs(at.x - here.x), abs(at.y - here.y)) <= 4:
                    return frozenset(), guard, False
                return frozenset(_around({at}, 3)), MOVE, False
            if at is not None and bomb.get("carrier") is None:
                return frozenset({at}), MOVE, False  # pick the dropped bomb up
            if self.site is None and self.sites:
                carrier = next(
                    (
                        Cell(*o["at"])
                        for o in view.get("figures", [])
                        if o.get("has_bomb") and o.get("at")
                    ),
                    here,
                )
                ranked = sorted(self.sites, key=lambda s: (self._dist(carrier, s), min(s)))
                self.site = ranked[-1] if self.site_roll == 0 else ranked[0]
            site = self.site or frozenset(self.zones.bomb_sites)
            if f.get("has_bomb"):
                if here in site:
                    plans[fid].task = "plant"
                    return frozenset(), HOLD, False
                return site, MOVE, False
            if self._dist(here, site) <= 3:
                return frozenset(), guard, False
            return frozenset(_around(site, 2)), MOVE if quiet else STEALTH, False
        if self.mission == ASSASSINATION:
            team = sorted(o["id"] for o in view.get("figures", []))
            runner = team.index(fid) % 3 == 1  # a third of the team covers the gates from the start
            if runner or (turn - self.last_contact >= 3 and turn >= 4):
                if self._dist(here, self.zones.escape) <= 6:
                    return frozenset(), guard, False
                return frozenset(self.zones.escape), MOVE if quiet else STEALTH, False
            return frozenset(), guard, False
        # hostage mission: hold the posts among the hostages
        post = self.posts.get(fid, here)
        if here != post and not enemies:
            return frozenset({post}), STEALTH, False
        return frozenset(), guard, False

    def _rooms(self) -> list[frozenset[Cell]]:
        """The location zone split into its separate connected parts (the hostage rooms)."""
        if self._room_cache is None:
            cells = {c for c in self.zones.location if enterable(self.board, c.level)[c.y, c.x]}
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
        area = frozenset(c for c in area if enterable(self.board, c.level)[c.y, c.x])
        observers = [(Cell(*f["at"]), str(f.get("facing") or "n"), 90.0) for f in own]
        for mask in fields_of_view(self.board, observers):
            for cell in area:
                if mask[cell.y, cell.x] and cell not in self.hostage_memory.values():
                    self.searched.add(cell)
        if area <= self.searched:
            self.searched.clear()  # everything looked at: look again

    def _dist(self, a: Cell, cells: Iterable[Cell]) -> float:
        gf = self._goal_field(frozenset(cells))
        d = gf.cost(a) if gf is not None else None
        return float(d) if d is not None else 1e9

    # -- grenades ---------------------------------------------------------------------------------
    def _grenades(
        self,
        view: dict[str, Any],
        own: list[dict[str, Any]],
        enemies: list[Seen],
        hostages: list[Seen],
        plans: dict[str, FigurePlan],
    ) -> None:
        if self.team == CT and self.mission == HOSTAGE_MISSION:
            self._clear_with_stun(own, enemies, hostages, plans)
        if not enemies:
            return
        t = tables()
        friends = [Cell(*f["at"]) for f in own]
        careful = self.team == T and self.mission == HOSTAGE_MISSION
        hostage_cells = set(self.hostage_memory.values()) | {h.at for h in hostages}
        used: set[Cell] = set()
        escorting = self.team == CT and (
            self.mission == ASSASSINATION or any(h.led_by for h in hostages)
        )
        for f in own:
            if f.get("kind") != "operative" or plans[f["id"]].task is not None:
                continue
            here = Cell(*f["at"])
            stock = [g for g, n in sorted(f.get("grenades", {}).items()) if n > 0]
            for grenade in stock:
                best: tuple[int, Cell] | None = None
                for e in enemies:
                    if e.at.level != here.level or e.at in used:
                        continue
                    d2 = (e.at.x - here.x) ** 2 + (e.at.y - here.y) ** 2
                    if not 1 <= d2 <= t.max_throw_sq:
                        continue
                    if not line_of_sight(
                        self.board.opaque(here.level), (here.x, here.y), (e.at.x, e.at.y)
                    ):
                        continue
                    near = sum(1 for o in enemies if _d2(o.at, e.at) <= t.radius_sq)
                    mine = sum(1 for c in friends if _d2(c, e.at) <= t.radius_sq)
                    if grenade == "smoke":
                        value = 1 if escorting and mine == 0 else 0
                    else:
                        value = near - 2 * mine
                        if (
                            careful
                            and grenade == "he"
                            and any(_d2(c, e.at) <= 36 for c in hostage_cells)
                        ):
                            value = 0
                        if (
                            grenade == "he"
                            and self.team == T
                            and any(_d2(c, e.at) <= 25 for c in hostage_cells)
                        ):
                            value = 0
                    if value > 0 and (best is None or value > best[0]):
                        best = (value, e.at)
                if best is None:
                    continue
                value, target = best
                far = _d2(here, target) > 16
                if grenade == "smoke" or value >= 2 or far or grenade == "he":
                    plans[f["id"]].task = "throw"
                    plans[f["id"]].grenade = grenade
                    plans[f["id"]].target = target
                    used.add(target)
                    break

    def _clear_with_stun(
        self,
        own: list[dict[str, Any]],
        enemies: list[Seen],
        hostages: list[Seen],
        plans: dict[str, FigurePlan],
    ) -> None:
        """CT: a stun grenade into each hostage room before going in (one per room)."""
        t = tables()
        friends = [Cell(*f["at"]) for f in own]
        for i, room in enumerate(self._rooms()):
            if i in self.stunned_rooms or room <= self.searched:
                continue
            for f in own:
                plan = plans[f["id"]]
                if plan.task is not None or f.get("kind") != "operative":
                    continue
                if not f.get("grenades", {}).get("stun") or f.get("weapon") == "sniper":
                    continue
                if any(h.led_by == f["id"] for h in hostages):
                    continue
                here = Cell(*f["at"])
                best: tuple[int, int, Cell] | None = None
                for cell in room - self.searched:
                    d2 = _d2(here, cell)
                    if not 9 <= d2 <= t.max_throw_sq or cell.level != here.level:
                        continue
                    if any(_d2(c, cell) <= t.radius_sq for c in friends):
                        continue
                    if not line_of_sight(
                        self.board.opaque(here.level), (here.x, here.y), (cell.x, cell.y)
                    ):
                        continue
                    key = (abs(d2 - 36), -sum(1 for e in enemies if _d2(e.at, cell) <= 16), cell)
                    if best is None or key < best:
                        best = key
                if best is not None:
                    plan.task, plan.grenade, plan.target = "throw", "stun", best[2]
                    self.stunned_rooms.add(i)
                    break

    # -- facing ---------------------------------------------------------------------------------
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
            e = min(visible, key=lambda s: (_d2(s.at, end), s.id))
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

    # -- feeding the plan to the engine ---------------------------------------------------------
    def _orders(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        turn = int(view.get("turn", 0))
        draft = view.get("draft") or {}
        fresh = (
            not draft.get("orders") and not draft.get("follows") and draft.get("pending") is None
        )
        if self.plan_turn != turn or (fresh and self.issued_turn == turn):
            self._plan(view, rng)  # a new turn, or a new game reusing this bot
            self.issued_turn = -1
        else:
            self.issued_turn = turn
        legal = set(actions)
        pending = draft.get("pending")
        if pending is not None:
            return self._stage(pending, draft, actions, legal, rng)
        for fid, plan in sorted(self.plans.items()):
            done = draft.get("follows", {}).get(fid, [])
            for h in plan.follows:
                act = Action.make(self.side, "follow", figure=fid, hostage=h)
                if h not in done and act in legal:
                    return act
        for fid, plan in sorted(self.plans.items()):
            if fid in draft.get("orders", {}):
                continue
            for act in self._order_actions(fid, plan):
                if act in legal:
                    return act
        commit = Action.make(self.side, "commit")
        if commit in legal:
            return commit
        return super().choose(view, actions, rng)

    def _order_actions(self, fid: str, plan: FigurePlan) -> list[Action]:
        side = self.side
        out: list[Action] = []
        if plan.task in ("plant", "defuse"):
            out.append(Action.make(side, "order", figure=fid, posture=HOLD, task=plan.task))
        if plan.task == "throw":
            out.append(
                Action.make(
                    side, "order", figure=fid, posture=HOLD, task="throw", grenade=plan.grenade
                )
            )
        if plan.to is not None:
            to = [plan.to.level, plan.to.x, plan.to.y]
            out.append(Action.make(side, "order", figure=fid, posture=plan.posture, to=to))
            out.append(Action.make(side, "order", figure=fid, posture=STEALTH, to=to))
        out.append(Action.make(side, "order", figure=fid, posture=plan.posture))
        out.append(Action.make(side, "order", figure=fid, posture=HOLD))
        return out

    def _stage(
        self,
        fid: str,
        draft: dict[str, Any],
        actions: Sequence[Action],
        legal: set[Action],
        rng: Rng,
    ) -> Action:
        plan = self.plans.get(fid, FigurePlan())
        order = draft.get("orders", {}).get(fid, {})
        if order.get("task") == "throw" and order.get("target") is None:
            if plan.target is not None:
                act = Action.make(
                    self.side,
                    "target",
                    figure=fid,
                    at=[plan.target.level, plan.target.x, plan.target.y],
                )
                if act in legal:
                    return act
            targets = [a for a in actions if a.kind == "target"]
            return max(
                targets,
                key=lambda a: (
                    float(a.hint.get("p", 0)) * float(a.hint.get("value", 0)),
                    -targets.index(a),
                ),
            )
        act = Action.make(self.side, "face", figure=fid, facing=plan.facing or "n")
        if act in legal:
            return act
        return actions[rng.below(len(actions))]

    def _fire(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        shots = [a for a in actions if a.kind == "fire" and a.hint.get("role") == "attack"]
        holds = [a for a in actions if a.kind == "hold"]
        first = next((a.get("figure") for a in actions if a.kind in ("fire", "hold")), None)
        if first is None:
            return next(a for a in actions if a.kind == "commit")
        mine = [a for a in shots if a.get("figure") == first]

        def worth(a: Action) -> float:
            bonus = 3.0 if self.team == T and a.get("target") in self._vip_ids(view) else 1.0
            return float(a.hint.get("p", 0)) * float(a.hint.get("value", 0)) * bonus

        if mine:
            best = max(mine, key=lambda a: (worth(a), str(a.get("target"))))
            if worth(best) > 0:
                return best
        hold = next((a for a in holds if a.get("figure") == first), None)
        return hold if hold is not None else next(a for a in actions if a.kind == "commit")

    def _vip_ids(self, view: dict[str, Any]) -> set[str]:
        return {s["id"] for s in view.get("seen", []) if s.get("kind") == "vip"}

    # -- setup ----------------------------------------------------------------------------------
    def _setup(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        """Secret setup (5.1): loadouts, the bomb carrier, then placements and facings."""
        kinds = {a.kind for a in actions}
        draft = view.get("draft") or {}
        if "face" in kinds:
            faces = [a for a in actions if a.kind == "face"]
            toward = _centre(self.enemy_start)
            placed = draft.get("places", {})
            at = cell_of(placed.get(str(faces[0].get("figure"))))
            if toward is not None and at is not None:
                want = sector(toward.x - at.x, toward.y - at.y) if toward != at else "n"
                for a in faces:
                    if a.get("facing") == want:
                        return a
            return faces[0]
        weapons = [a for a in actions if a.kind == "loadout" and a.get("weapon") is not None]
        if weapons:
            return self._weapon(view, weapons)
        for kind in ("loadout", "carrier"):
            options = [a for a in actions if a.kind == kind]
            if options:
                return options[rng.below(len(options))]
        places = [a for a in actions if a.kind == "place"]
        if places:
            return self._place(view, places, rng)
        return next(a for a in actions if a.kind == "commit")

    def _weapon(self, view: dict[str, Any], options: Sequence[Action]) -> Action:
        """One sniper rifle in the team (the first figure left to arm takes it), else autos."""
        chosen = dict((view.get("draft") or {}).get("weapons", {}))
        open_ids = {str(a.get("figure")) for a in options} | set(chosen)
        fixed = [f for f in view.get("figures", []) if f["id"] not in open_ids]
        have = "sniper" in chosen.values() or any(f.get("weapon") == "sniper" for f in fixed)
        fid = min((str(a.get("figure")) for a in options), key=id_order)
        want = "auto" if have else "sniper"
        return next(a for a in options if a.get("figure") == fid and a.get("weapon") == want)

    def _place(self, view: dict[str, Any], options: Sequence[Action], rng: Rng) -> Action:
        """Hostages deep in the location's rooms, guards beside them, others spread forward."""
        own = {f["id"]: f for f in view.get("figures", [])}
        placed = {k: Cell(*v) for k, v in (view.get("draft") or {}).get("places", {}).items()}
        by_fig: dict[str, list[Action]] = {}
        for a in options:
            by_fig.setdefault(str(a.get("figure")), []).append(a)
        hostages = sorted((f for f in by_fig if f not in own), key=id_order)
        vip = [f for f in by_fig if own.get(f, {}).get("kind") == "vip"]
        fid = (hostages or sorted(set(by_fig) - set(vip), key=id_order) or vip)[0]
        cells = [(cell_of(a.get("at")), a) for a in by_fig[fid]]
        spots = [(c, a) for c, a in cells if c is not None]
        mine = [c for k, c in placed.items() if k in own]
        spread = [(c, a) for c, a in spots if all(_cheb(c, m) >= 2 for m in mine)] or spots
        if fid in hostages:
            return self._place_hostage(placed, own, spots, rng)
        if self.team == T and self.mission == HOSTAGE_MISSION:
            guard = self._place_guard(placed, own, spread, rng)
            if guard is not None:
                return guard
        enemy = self._goal_field(self.enemy_start)

        def ahead(item: tuple[Cell, Action]) -> float:
            d = enemy.cost(item[0]) if enemy is not None else None
            return float(d) if d is not None else 1e9

        ranked = sorted(spread, key=lambda item: (ahead(item), item[0]))
        if fid in vip:
            ranked.reverse()  # the VIP starts at the back
        if self.team == T and self.mission != HOSTAGE_MISSION:
            return ranked[rng.below(len(ranked))][1]  # anywhere in the start zone: unreadable
        return ranked[rng.below(min(4, len(ranked)))][1]

    def _place_hostage(
        self,
        placed: dict[str, Cell],
        own: dict[str, Any],
        spots: list[tuple[Cell, Action]],
        rng: Rng,
    ) -> Action:
        rooms = self._rooms()
        count = [sum(1 for k, c in placed.items() if k not in own and c in r) for r in rooms]
        usable = [i for i, r in enumerate(rooms) if any(c in r for c, _ in spots)]
        room = min(usable, key=lambda i: (count[i], i)) if usable else None
        inside = [(c, a) for c, a in spots if room is not None and c in rooms[room]] or spots
        ct = self._goal_field(self.zones.ct_start)

        def depth(item: tuple[Cell, Action]) -> float:
            d = ct.cost(item[0]) if ct is not None else None
            return -float(d) if d is not None else 0.0

        ranked = sorted(inside, key=lambda item: (depth(item), item[0]))
        return ranked[rng.below(min(3, len(ranked)))][1]

    def _place_guard(
        self,
        placed: dict[str, Cell],
        own: dict[str, Any],
        spots: list[tuple[Cell, Action]],
        rng: Rng,
    ) -> Action | None:
        """A terrorist beside the hostage with the fewest guards, on the side the CTs come from."""
        held = [(k, c) for k, c in placed.items() if k not in own]
        if not held:
            return None
        guards = [c for k, c in placed.items() if k in own]
        _hid, hcell = min(
            held, key=lambda kc: (sum(1 for g in guards if _cheb(g, kc[1]) <= 3), kc[0])
        )
        reach = self._from(hcell)
        near = [(c, a) for c, a in spots if (reach.cost(c) or 99) <= 3]
        if not near:
            return None
        ct = self._goal_field(self.zones.ct_start)

        def toward_ct(item: tuple[Cell, Action]) -> float:
            d = ct.cost(item[0]) if ct is not None else None
            return float(d) if d is not None else 1e9

        ranked = sorted(near, key=lambda item: (toward_ct(item), item[0]))
        return ranked[rng.below(min(2, len(ranked)))][1]


def id_order(ident: str) -> tuple[tuple[int, int | str], ...]:
    """Natural id order (t2 before t10), as the rules sort figures (G-52)."""
    return id_key(ident)


def _cheb(a: Cell, b: Cell) -> int:
    return max(abs(a.x - b.x), abs(a.y - b.y)) if a.level == b.level else 99


def _d2(a: Cell, b: Cell) -> int:
    return (a.x - b.x) ** 2 + (a.y - b.y) ** 2


def _around(cells: Iterable[Cell], r: int = 1) -> set[Cell]:
    out: set[Cell] = set()
    for c in cells:
        for dx in range(-r, r + 1):
            for dy in range(-r, r + 1):
                out.add(c.step(dx, dy))
    return out


def _centre(cells: Iterable[Cell]) -> Cell | None:
    cells = list(cells)
    if not cells:
        return None
    xs = sorted(c.x for c in cells)
    ys = sorted(c.y for c in cells)
    return Cell(cells[0].level, xs[len(xs) // 2], ys[len(ys) // 2])


def _sites(scenario: Scenario) -> list[frozenset[Cell]]:
    """The bomb sites one by one (each named zone), as both sides' briefings give them."""
    raw = scenario.objectives.get("bomb_sites")
    if isinstance(raw, str):
        names = [raw]
    elif isinstance(raw, list):
        names = [str(n) for n in raw]
    else:
        names = sorted(z for z in scenario.board.zones if z.lower().startswith("bomb"))
    return [scenario.board.zones[n] for n in names if n in scenario.board.zones]


def bot_for(scenario: Scenario, side: str) -> GoGoGoBot:
    """The role bot for ``side`` of a gogogo scenario."""
    return GoGoGoBot(scenario, side)


__all__ = ["GoGoGoBot", "bot_for"]
