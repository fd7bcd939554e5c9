"""Role AI for Commando: the raiders (the first side) close on the enemy and shoot what they
observe, throw grenades and fire launchers at enemies (seen, or last seen inside a room) when no
friend stands near the blast, aim when a man has TP for only one fire task, and shoot out a
searchlight whose beam lights one of them at night; the defenders plot every man for
opportunity fire, hold their ground, shoot and set off their Claymores. Both pick up a weapon
from the ground when a man's own is empty, or one clearly better lies by him; in a hold
mission the holders keep to the zone and the others make for it.

The bots see only their side's view and their legal actions; distances come from
``BaselineBot``'s distance fields on the public map. Use ``bot_for(scenario, side)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from killhouse.ai.baseline import BaselineBot, cell_of
from killhouse.core.cells import Cell
from killhouse.core.geometry import line_of_sight, octile
from killhouse.core.rng import Rng
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import facts
from killhouse.scenario.model import Scenario

#: a raider stops walking with this many TP left, to keep a fire task in hand
RESERVE = 20
#: no friend may stand this close to where a grenade or round is aimed (blast 1-2 plus scatter)
SAFE = 3
#: grenades are thrown from this range out to the table's reach (range 1 is too close)
THROW_FROM = 2
#: fire task costs (digest 8.1) the bot needs to judge aimed fire; the rules check the rest
FIRE_COST = {"pistol": 7, "carbine": 13, "rifle": 13, "shotgun": 14, "flamethrower": 20}
AUTOMATIC_COST = 18
CLAYMORE_REACH = 10
#: a Claymore is placed only where its cone sweeps at least this many open squares
OPEN_CONE = 12
#: picking up a weapon (Task Point Cost Chart) and the −15 of firing an enemy's (C-180)
PICKUP, ENEMY_WEAPON = 10, 15
#: a weapon on the ground is clearly better when its firepower is this many times his own
BETTER = 1.5
#: a light is shot at only where the table's base chance of one fire is at least this
LIGHT_SHOT = 30


class CommandoBot(BaselineBot):
    """Shared choices: fire first at the nearest observed enemy, reload when empty."""

    name = "commando-role"
    attacker = False

    def __init__(self, scenario: Scenario, side: str) -> None:
        super().__init__(scenario, side)
        own = [f.at for f in scenario.figures if f.side == side and f.at is not None]
        self.start = own
        self.far = self._far_cell(own)
        #: doors this bot has opened (it never closes one again)
        self.opened: set[Cell] = set()
        #: enemies it has seen fall: no grenade goes where they were last seen
        self.fallen: set[str] = set()
        #: where raiders look when they know of no enemy: inside the buildings, else far away
        self.search = [c for c in self.board.cells() if facts.in_building(self.board, c)]
        #: cells the side's men have stood on (the search sweeps the building cells away)
        self.visited: set[Cell] = set()

    def _far_cell(self, own: list[Cell]) -> Cell | None:
        """The open cell farthest from where the side starts: where to look for the enemy."""
        field = self.field(own)
        if field is None:
            return None
        best: tuple[int, Cell] | None = None
        for cell in self.board.cells():
            cost = field.cost(cell)
            if cost is not None and (best is None or cost > best[0]):
                best = (cost, cell)
        return None if best is None else best[1]

    def me(self, view: dict[str, Any], figure: str | None) -> dict[str, Any]:
        return next((f for f in view["figures"] if f["id"] == figure), {})

    def sites(self, view: dict[str, Any]) -> list[Cell]:
        """The squares of the mission's targets still standing (a man with a charge makes
        for them before anything else)."""
        mission = view.get("public", {}).get("mission") or {}
        cells = [cell_of(c) for t in mission.get("targets", {}).values()
                 if not t["destroyed"] for c in t["cells"]]
        return [c for c in cells if c is not None]

    def plant(self, view: dict[str, Any], options: list[Action]) -> Action | None:
        """On a target of the mission still standing, set (or go on setting) a charge with a
        timer of 1: it goes off in the next Bookkeeping, after he has had a turn to leave."""
        if not options:
            return None
        sites = set(self.sites(view))
        at = cell_of(self.me(view, str(options[0].get("figure"))).get("at"))
        if at is None or at not in sites:
            return None
        return next((a for a in options if a.get("timer") == 1), options[0])

    def hold_zone(self, view: dict[str, Any]) -> tuple[list[Cell], bool]:
        """A hold mission's zone (C-177, public) and whether this side is the one to hold it;
        no zone on other missions."""
        mission = view.get("public", {}).get("mission") or {}
        if mission.get("kind") != "hold":
            return [], False
        cells = [cell_of(c) for c in mission.get("hold_zone", [])]
        return [c for c in cells if c is not None], mission.get("holder") == self.side

    def escorting(self, view: dict[str, Any], figure: object) -> bool:
        """He leads a hostage (his side's view names the escort, C-172)."""
        return any(h.get("escort") == figure for h in view.get("hostages", []))

    def way_out(self, view: dict[str, Any], figure: object) -> list[Cell]:
        """For a man leading a hostage: the rescue zone's squares (C-174); else nothing."""
        if not self.escorting(view, figure):
            return []
        mission = view.get("public", {}).get("mission") or {}
        cells = [cell_of(c) for c in mission.get("rescue_zone", [])]
        return [c for c in cells if c is not None]

    def targets(self, view: dict[str, Any]) -> list[Cell]:
        """The baseline's targets without the enemies seen down: a fallen man draws nobody
        (the view's figures carry their side, so the baseline would count them)."""
        down = ("dead", "incapacitated", "out-of-action")
        live = [s for s in view.get("seen", []) if s.get("status") not in down]
        if self.attacker and "hostages" in view:
            # a rescue: the hostages his side knows to be held come before any enemy, and
            # no enemy seen fallen draws him
            held = [cell_of(h["at"]) for h in view["hostages"]
                    if h.get("status") == "held" and h.get("at") is not None]
            if any(c is not None for c in held):
                return [c for c in held if c is not None]
            self.enemies(view)
            gone = {tuple(r["at"]) for r in view.get("remembered", []) if r["id"] in self.fallen}
            goals = [g for g in view.get("goals", []) if tuple(g) not in gone]
            remembered = [r for r in view.get("remembered", []) if r["id"] not in self.fallen]
            view = {**view, "remembered": remembered, "goals": goals}
        zone, ours = self.hold_zone(view)
        if zone and not ours:  # the zone of a hold mission draws the side that must take it
            view = {**view, "goals": [*view.get("goals", []), *([c.level, c.x, c.y]
                                                                 for c in zone)]}
        return super().targets({**view, "seen": live})

    def nearest_fire(self, view: dict[str, Any], actions: Sequence[Action]) -> Action | None:
        fires = [a for a in actions if a.kind in ("fire", "opfire")]
        if not fires:
            return None
        where = {e["id"]: cell_of(e["at"]) for e in view["seen"]}

        def rng(a: Action) -> tuple[int, str]:
            here = cell_of(self.me(view, a.get("figure")).get("at"))
            there = where.get(a.get("target"))
            d = octile(here, there) if here is not None and there is not None else 99
            return int(d), str(a.get("target"))

        return min(fires, key=rng)

    def choose(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        if not actions:
            raise ValueError("no legal action to choose from")
        by_kind: dict[str, list[Action]] = {}
        for a in actions:
            by_kind.setdefault(a.kind, []).append(a)
        if "inspire" in by_kind:  # Inspire Men in Battle: cancel every panic it can (C-185)
            return by_kind["inspire"][0]
        if "panic" in by_kind:
            return by_kind["panic"][0]
        melee = self.h2h_choice(by_kind)
        if melee is not None:
            return melee
        if "overwatch" in by_kind:  # Mobile Overwatch: always answer fire with fire
            return by_kind["overwatch"][0]
        plant = self.plant(view, by_kind.get("plant", []))
        if plant is not None:
            return plant
        for pick in (self.grenade(view, by_kind.get("throw", [])),
                     self.grenade(view, by_kind.get("launch", [])),
                     self.claymore(view, by_kind.get("detonate", [])),
                     self.aimed(view, by_kind.get("aim", []))):
            if pick is not None:
                return pick
        arm = self.take_weapon(view, by_kind.get("pickup", []))
        if arm is not None:
            return arm
        dark = self.light_out(view, by_kind.get("shoot_light", []), himself=True)
        if dark is not None:
            return dark
        shot = self.nearest_fire(view, actions)
        if shot is not None:
            return shot
        dark = self.light_out(view, by_kind.get("shoot_light", []), himself=False)
        if dark is not None:
            return dark
        if "lead" in by_kind and self.attacker:  # a rescuer takes charge of him (C-172)
            return by_kind["lead"][0]
        prepare = self.prepare(view, by_kind.get("prepare", []))
        if prepare is not None:
            return prepare
        if "hold" in by_kind:
            return by_kind["hold"][0]
        if "plot" in by_kind and not self.attacker:
            # a man with a Claymore to place keeps his 50 TP for it instead of the plot
            plots = [a for a in by_kind["plot"] if not self.will_place(view, a)]
            if plots:
                return plots[0]
        if "plot" in by_kind and self.attacker:
            bound = self.overwatch_plot(view, by_kind["plot"])
            if bound is not None:
                return bound
        mine = self.emplace(view, by_kind.get("emplace", []))
        if mine is not None:
            return mine
        if "commit" in by_kind:
            return by_kind["commit"][0]
        if "reload" in by_kind:
            return by_kind["reload"][0]
        if "activate" in by_kind:
            return self.pick_man(view, by_kind["activate"])
        way_in = self.way_in(view, by_kind)
        if way_in is not None:
            return way_in
        if self.attacker and "step" in by_kind:
            step = self.best_step(view, by_kind["step"])
            if step is not None:
                return step
        if not self.attacker and "step" in by_kind:
            step = self.answer_alarm(view, by_kind["step"])
            if step is not None:
                return step
        if self.attacker and "door" in by_kind:
            door = self.door_on_the_way(view, by_kind["door"])
            if door is not None:
                return door
        if "end" in by_kind:
            return by_kind["end"][0]
        return actions[rng.below(len(actions))]

    # -- grenades, launchers, aimed fire and Claymores ---------------------------------------
    def enemies(self, view: dict[str, Any]) -> list[Cell]:
        """Where enemies in action are seen, then where the others were last seen."""
        out = [cell_of(e["at"]) for e in view["seen"] if e["status"] not in ("dead",
                                                                               "incapacitated")]
        for e in view["seen"]:
            if e["status"] in ("dead", "incapacitated"):
                self.fallen.add(str(e["id"]))
        out += [cell_of(r["at"]) for r in view["remembered"] if r["id"] not in self.fallen]
        return [c for c in out if c is not None]

    def friends_near(self, view: dict[str, Any], at: Cell, skip: str | None = None) -> bool:
        for f in view["figures"]:
            here = cell_of(f["at"])
            if f["id"] != skip and f["status"] not in ("dead",) and here is not None and \
                    here.level == at.level and octile(here, at) < SAFE:
                return True
        return False

    def grenade(self, view: dict[str, Any], options: list[Action]) -> Action | None:
        """A throw or launch at an enemy square with no friend (himself included) near it;
        the square with most enemies within 1, then the nearest."""
        best: tuple[int, int, Action] | None = None
        for a in options:
            at = cell_of(a.get("at"))
            me = cell_of(self.me(view, a.get("figure")).get("at"))
            if at is None or me is None or self.friends_near(view, at) or \
                    self.covered(view, at):
                continue
            crowd = sum(1 for e in self.enemies(view) if octile(e, at) <= 1)
            key = (-crowd, octile(me, at))
            if best is None or key < best[:2]:
                best = (*key, a)
        return None if best is None else best[2]

    def prepare(self, view: dict[str, Any], options: list[Action]) -> Action | None:
        """Prepare a frag (or satchel) when an enemy is within throwing reach and clear of
        friends, and there are TP left to throw it."""
        if not self.attacker:
            return None
        for a in options:
            if a.get("device") not in ("frag", "satchel"):
                continue
            man = self.me(view, a.get("figure"))
            me = cell_of(man.get("at"))
            reach = 12 if a.get("device") == "frag" else 7
            if me is None or man.get("tp", 0) < 7 + 15:
                continue
            for e in self.enemies(view):
                if THROW_FROM <= octile(me, e) <= reach and not self.friends_near(view, e) \
                        and not self.covered(view, e):
                    return a
        return None

    def aimed(self, view: dict[str, Any], options: list[Action]) -> Action | None:
        """Aim at the nearest target when his TP pay for only one fire task anyway: the +10
        then costs nothing (C-24)."""
        if not options:
            return None
        man = self.me(view, options[0].get("figure"))
        cost = FIRE_COST.get(str(man.get("weapon")), AUTOMATIC_COST)
        if man.get("tp", 0) >= 2 * cost:
            return None
        here = cell_of(man.get("at"))
        where = {e["id"]: cell_of(e["at"]) for e in view["seen"]}

        def rng(a: Action) -> tuple[int, str]:
            there = where.get(a.get("target"))
            d = octile(here, there) if here is not None and there is not None else 99
            return int(d), str(a.get("target"))

        return min(options, key=rng)

    def take_weapon(self, view: dict[str, Any], options: list[Action]) -> Action | None:
        """Pick up the best weapon lying by him (C-178) when his own is empty, or when it is
        clearly better (BETTER times the firepower, an enemy's at −15, C-180) and he keeps the
        TP to fire it after."""
        if not options:
            return None
        man = self.me(view, options[0].get("figure"))
        weapon = man.get("weapon")
        ours = {f["id"] for f in view["figures"]}

        def worth(a: Action) -> float:
            kind = str(a.get("weapon"))
            penalty = 0 if a.get("fallen") in ours or kind == weapon else ENEMY_WEAPON
            return facts.firepower(kind, penalty)

        best = max(options, key=lambda a: (worth(a), str(a.get("weapon")), str(a.get("fallen"))))
        if worth(best) <= 0:
            return None
        if not weapon or weapon in man.get("empty", []):
            return best
        cost = PICKUP + FIRE_COST.get(str(best.get("weapon")), AUTOMATIC_COST)
        if worth(best) >= BETTER * facts.firepower(str(weapon)) and man.get("tp", 0) >= cost:
            return best
        return None

    def light_out(self, view: dict[str, Any], options: list[Action],
                  himself: bool) -> Action | None:
        """A raider at night shoots out a burning searchlight whose 5×5 beam lights him
        (``himself``) or, when he has nobody to shoot, one of his men, if the table gives one
        fire at its range at least LIGHT_SHOT %; the light lighting most of them first. The
        lights are the defenders' eyes: their bots leave them burning."""
        public = view.get("public", {})
        if not self.attacker or not options or public.get("light") != "night":
            return None
        man = self.me(view, options[0].get("figure"))
        here = cell_of(man.get("at"))
        standing = [c for f in view["figures"] if f.get("status") in ("active", "wounded")
                    and (c := cell_of(f.get("at"))) is not None]
        best: tuple[int, int, str, Action] | None = None
        for a in options:
            light = public.get("searchlights", {}).get(str(a.get("light"))) or {}
            aim, at = cell_of(light.get("aim")), cell_of(light.get("at"))
            if aim is None or at is None or here is None:
                continue
            lit = sum(1 for c in standing if facts.lit_by(aim, c))
            base = facts.base_chance(str(man.get("weapon")), facts.range_between(here, at))
            if lit == 0 or (himself and not facts.lit_by(aim, here)) or base is None or \
                    base < LIGHT_SHOT:
                continue
            key = (-lit, -base, str(a.get("light")), a)
            if best is None or key[:3] < best[:3]:
                best = key
        return None if best is None else best[3]

    def carries(self, view: dict[str, Any], action: Action, item: str) -> bool:
        carried = view.get("ordnance", {}).get("carried", {})
        return item in carried.get(str(action.get("figure")), [])

    def will_place(self, view: dict[str, Any], action: Action) -> bool:
        """He carries a Claymore and stands where one would sweep open ground."""
        here = cell_of(self.me(view, action.get("figure")).get("at"))
        return self.carries(view, action, "claymore") and here is not None and any(
            self.cone_cells(here, f) >= OPEN_CONE for f in FACING)

    def emplace(self, view: dict[str, Any], options: list[Action]) -> Action | None:
        """A defender places his Claymore facing where the enemy is, or was last seen, or the
        far side of the map (where raiders come from)."""
        if self.attacker or not options:
            return None
        here = cell_of(self.me(view, options[0].get("figure")).get("at"))
        goal = next(iter(self.enemies(view)), self.far)
        if here is None or goal is None or goal == here:
            return None
        dx, dy = goal.x - here.x, goal.y - here.y

        def miss(a: Action) -> float:
            fx, fy = FACING[str(a.get("facing"))]
            norm = ((dx * dx + dy * dy) * (fx * fx + fy * fy)) ** 0.5
            return float(-(dx * fx + dy * fy) / norm)

        useful = [a for a in options if self.cone_cells(here, str(a.get("facing"))) >= OPEN_CONE]
        if not useful:
            return None
        return min(useful, key=lambda a: (miss(a), str(a.get("facing"))))

    def sees(self, a: Cell, b: Cell) -> bool:
        return a.level == b.level and line_of_sight(
            self.board.opaque(a.level), (a.x, a.y), (b.x, b.y))

    def cone_cells(self, mine: Cell, facing: str) -> int:
        """Open cells the mine would sweep (in its cone and sight)."""
        return sum(1 for c in self.board.cells(mine.level)
                   if self.board.passable(c) and in_cone(mine, facing, c) and self.sees(mine, c))

    def claymore(self, view: dict[str, Any], options: list[Action]) -> Action | None:
        """Set off a Claymore when a seen enemy stands in its cone and no friend does."""
        mines = {m["id"]: m for m in view.get("ordnance", {}).get("mines", [])}
        for a in options:
            mine = mines.get(str(a.get("mine")))
            at = cell_of(mine["at"]) if mine else None
            if mine is None or at is None:
                continue
            foes = [cell_of(e["at"]) for e in view["seen"] if e["status"] != "dead"]
            friends = [cell_of(f["at"]) for f in view["figures"] if f["status"] != "dead"]
            facing = str(mine["facing"])
            if any(in_cone(at, facing, e) and self.sees(at, e) for e in foes if e) and \
                    not any(in_cone(at, facing, f) and self.sees(at, f) for f in friends if f):
                return a
        return None

    def pick_man(self, view: dict[str, Any], options: list[Action]) -> Action:
        return options[0]

    def covered(self, view: dict[str, Any], at: Cell) -> bool:
        """A device of his side already lies within 1 square of it, waiting to go off."""
        live = [cell_of(c["at"]) for c in view.get("ordnance", {}).get("live", [])
                if c.get("owner") in {f["id"] for f in view["figures"]}]
        return any(c is not None and c.level == at.level and octile(c, at) <= 1 for c in live)

    def near_live(self, view: dict[str, Any], at: Cell | None) -> bool:
        """Within 2 squares of a grenade, satchel or charge his side knows will go off."""
        live = [cell_of(c["at"]) for c in view.get("ordnance", {}).get("live", [])]
        return at is not None and any(
            c is not None and c.level == at.level and octile(c, at) < SAFE for c in live)

    def best_step(self, view: dict[str, Any], steps: list[Action]) -> Action | None:
        """The step that brings him closest to the goal, never into a known blast; a man
        standing where a device will go off steps out first, whatever his reserve."""
        man = self.me(view, steps[0].get("figure"))
        here = cell_of(man.get("at"))
        fleeing = self.near_live(view, here)
        charge = self.charge(view, steps) if self.attacker and not fleeing else None
        if charge is not None:
            return charge
        out = self.way_out(view, man.get("id"))
        if man.get("tp", 0) + man.get("move_tp", 0) < RESERVE and not fleeing and not out:
            return None
        zone, ours = self.hold_zone(view)
        sites = out or (self.sites(view) if self.carries(view, steps[0], "demolition") else []) \
            or ([] if ours else zone)  # a zone to take is a square to stand on, as a target is
        targets = sites or self.targets(view) or (
            self.search_goals(view) if self.attacker else []) or (
            [self.far] if self.far is not None else [])
        field = self.field(targets)
        if field is None:
            return None
        d_here = field.cost(here) if here is not None else None
        best: tuple[float, str, Action] | None = None
        for step in steps:
            to = cell_of(step.hint.get("to"))
            d = field.cost(to) if to is not None else None
            if d is None or self.near_live(view, to):
                continue
            key = (float(d) - 0.05 * self.cover(to), str(step.get("dir")), step)
            if best is None or key[:2] < best[:2]:
                best = key
        if best is None or best[2] is None:
            return None
        to_best = cell_of(best[2].hint.get("to"))
        d_best = field.cost(to_best) if to_best is not None else None
        if d_best is None:
            return None
        if not fleeing and ((d_here is not None and d_best >= d_here) or (
                d_best == 0 and not sites)):  # a target's square is his goal, a man's is not
            return None
        return best[2]

    def step_to(self, view: dict[str, Any], steps: list[Action],
                goal: list[Cell]) -> Action | None:
        """The step that brings him nearest ``goal`` (none when no step brings him closer)."""
        field = self.field(goal)
        here = cell_of(self.me(view, steps[0].get("figure")).get("at"))
        if field is None or here is None or (d_here := field.cost(here)) is None:
            return None
        best: tuple[float, str, Action] | None = None
        for step in steps:
            to = cell_of(step.hint.get("to"))
            d = field.cost(to) if to is not None else None
            if d is not None and d < d_here and not self.near_live(view, to) and (
                    best is None or (d, str(step.get("dir"))) < best[:2]):
                best = (d, str(step.get("dir")), step)
        return None if best is None else best[2]

    def door_on_the_way(self, view: dict[str, Any], doors: list[Action]) -> Action | None:
        """A door closer to the goal than he is: open it (it may be the way in)."""
        man = self.me(view, doors[0].get("figure"))
        out = self.way_out(view, man.get("id"))
        if man.get("tp", 0) < RESERVE and not out:
            return None
        field = self.field(out or self.targets(view) or (
            [self.far] if self.far is not None else []))
        here = cell_of(man.get("at"))
        if field is None or here is None or field.cost(here) is None:
            return None
        d_here = field.cost(here)
        for door in doors:
            at = cell_of(door.get("at"))
            d = field.cost(at) if at is not None else None
            if at is not None and d is not None and d_here is not None and d < d_here \
                    and at not in self.opened:
                self.opened.add(at)
                return door
        return None


    # -- map tasks, hand-to-hand, bounds under overwatch, cover, alarms ---------------

    def cover(self, cell: Cell | None) -> int:
        """How much a cell's terrain spoils fire at a man in it (woods 8, trench 9 …): 0-12."""
        if cell is None or not self.board.in_bounds(cell):
            return 0
        return facts.cover(self.board, cell)

    def charge(self, view: dict[str, Any], steps: list[Action]) -> Action | None:
        """A raider who cannot fire (he would have) closes to hand-to-hand with an observed
        enemy next to him: the step into his square (C-37)."""
        enemies = {tuple(e["at"]) for e in view.get("seen", [])
                   if e.get("status") not in ("dead", "incapacitated")}
        for step in steps:
            to = step.hint.get("to")
            if to is not None and tuple(to) in enemies:
                return step
        return None

    def search_goals(self, view: dict[str, Any]) -> list[Cell]:
        """Building cells no man of the side has yet come within 3 squares of."""
        for f in view.get("figures", []):
            at = cell_of(f.get("at"))
            if at is not None:
                self.visited.add(at)
        self.search = [c for c in self.search if not any(
            v.level == c.level and max(abs(v.x - c.x), abs(v.y - c.y)) <= 3
            for v in self.visited)]
        return self.search

    def h2h_choice(self, by_kind: dict[str, list[Action]]) -> Action | None:
        """Phase 4: strike the first opponent named; hold on (no attempt to leave); ready."""
        if "strike" in by_kind:
            return by_kind["strike"][0]
        if "ready" in by_kind:
            return by_kind["ready"][0]
        if "leave" in by_kind:  # a Preserving man must try to disengage (C-186)
            return by_kind["leave"][0]
        return None

    def way_in(self, view: dict[str, Any], by_kind: dict[str, list[Action]]) -> Action | None:
        """A raider picks or forces a locked door on his way and takes stairs that bring him
        closer to the goal; a defender answering the alarm takes stairs too."""
        if not self.attacker and not self.threat(view):
            return None
        acts = [a for kind in ("pick", "force", "climb") for a in by_kind.get(kind, [])]
        out = self.way_out(view, acts[0].get("figure")) if acts else []
        goals = out or self.targets(view) or (self.search_goals(view) if self.attacker else []) or (
            [self.far] if self.far is not None else [])
        field = self.field(goals)
        if field is None:
            return None
        for kind in ("pick", "force"):
            for act in by_kind.get(kind, []) if self.attacker else []:
                man = self.me(view, act.get("figure"))
                here, at = cell_of(man.get("at")), cell_of(act.get("at"))
                d_here = field.cost(here) if here is not None else None
                d_door = field.cost(at) if at is not None else None
                if d_here is not None and d_door is not None and d_door < d_here:
                    return act
        for act in by_kind.get("climb", []):
            man = self.me(view, act.get("figure"))
            here, to = cell_of(man.get("at")), cell_of(act.get("to"))
            d_here = field.cost(here) if here is not None else None
            d_to = field.cost(to) if to is not None else None
            if d_here is not None and d_to is not None and d_to < d_here:
                return act
        return None

    def overwatch_plot(self, view: dict[str, Any], plots: list[Action]) -> Action | None:
        """Bounds under overwatch: on alternate turns every other raider is plotted, so half
        the team covers (op fire in phase 5) while the other half moves."""
        ids = sorted(f["id"] for f in view["figures"])
        turn = int(view.get("turn", 1))
        for act in plots:
            figure = str(act.get("figure"))
            if figure in ids and (ids.index(figure) + turn) % 2 == 0 and self.threat(view):
                return act
        return None

    def threat(self, view: dict[str, Any]) -> bool:
        return bool(view.get("seen") or view.get("remembered"))

    def answer_alarm(self, view: dict[str, Any], steps: list[Action]) -> Action | None:
        """Defenders sentry until the alarm: once the side knows of a raider, men who see no
        enemy close on the last known positions (the others keep watch)."""
        man = self.me(view, steps[0].get("figure"))
        zone, ours = self.hold_zone(view)
        if zone and ours:  # the holders stand in the zone (C-177); one outside walks to it
            here = cell_of(man.get("at"))
            return None if here in zone else self.step_to(view, steps, zone)
        if not self.threat(view):
            return None
        ids = sorted(f["id"] for f in view["figures"])
        if ids.index(str(man.get("id"))) % 2 == 1:  # every other man stays a sentry
            return None
        return self.best_step(view, steps)


class RaiderBot(CommandoBot):
    """Closes on the nearest known enemy (or the far side of the map) and shoots."""

    name = "commando-raider"
    attacker = True


class DefenderBot(CommandoBot):
    """Plots every man for opportunity fire and holds its ground."""

    name = "commando-defender"


FACING = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1),
          "S": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (-1, -1)}


def in_cone(mine: Cell, facing: str, at: Cell | None) -> bool:
    """Roughly the Claymore's 90-degree cone out to 10 squares (the rules decide the rest)."""
    if at is None or at.level != mine.level or at == mine:
        return False
    dx, dy = at.x - mine.x, at.y - mine.y
    fx, fy = FACING[facing]
    if octile(mine, at) > CLAYMORE_REACH:
        return False
    dot = dx * fx + dy * fy
    return dot > 0 and dot * dot >= 0.5 * (dx * dx + dy * dy) * (fx * fx + fy * fy)


def bot_for(scenario: Scenario, side: str) -> CommandoBot:
    """The role bot for ``side``: the scenario's first side raids, the second defends."""
    if scenario.sides and scenario.sides[0].id == side:
        return RaiderBot(scenario, side)
    return DefenderBot(scenario, side)


__all__ = ["CommandoBot", "DefenderBot", "RaiderBot", "bot_for"]
