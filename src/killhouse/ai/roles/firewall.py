"""Role AI for Firewall 2136AD, seeing only its side's view and the hints on its actions.

Every side's Fire Teams move in bounds: a figure closes on what its role wants and prefers
to end a move in cover and within the leader's 8 cm when enemies are in sight; figures
with a good shot (``p`` on the hint, its own Gutz and the visible modifiers) take it, the
others move; a suppressed figure rallies first; jams are cleared at once. Never a shot at a
hostage or a helpless figure, never a blast where it would catch a friend.

* **snatch** (A Walk in the Park, the squad): crawl while hidden and far, then close on
  Kewell; only non-lethal weapons at him; pick him up when he is down and carry him to the
  nearest edge.
* **escort** (Anfield): walk the path east until the squad shows itself, then raise the alarm,
  keep Kewell moving away and shoot the squad.
* **hunter** (Triple-Cross): grab counters, and the holder of the spike runs for its own
  entry edge while the others shoot what they see.
* **lonnie** (the GM): stay put until allowed to move, then keep away from every team.
* **assault** (SWAT): search the building room by room, stunners for gunmen near a hostage.
* **defend** (the gang): hold the rooms and shoot what comes through the door.
* **extract** (Escape from Ash End, both sides): vehicles drive their passengers to the Mayor
  and wait there; the passengers get out when the vehicle stands still, close on the Mayor,
  carry him back into their vehicle (or to the nearest edge without one), and the vehicle
  drives him off its own edge; crews and figures shoot vehicles and figures with good odds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from killhouse.ai.baseline import BaselineBot, cell_of
from killhouse.ai.roles.firewall_heights import (
    ACTION_SQUARES,
    SAFE_FALL_CM,
    HeightRoutes,
    uses_heights,
)
from killhouse.ai.roles.firewall_setup import far_end, setup_value
from killhouse.core.cells import Cell
from killhouse.core.paths import DistanceField
from killhouse.core.rng import Rng
from killhouse.rulesets.base import Action
from killhouse.scenario.model import Scenario

#: squares within which a blast would catch a friend or a hostage (B(MG) suppression 10 cm)
BLAST_SQUARES = 4
#: the shot worth taking rather than moving (P of S or CS)
GOOD_SHOT = 0.3
#: squares a climb's or jump's route may be longer than the best and still be taken
ROUTE_SLACK = 2
#: the single shot's P above which two-weapon fire at −3 each is the better bet (F-34)
TWO_WEAPON_P = 0.85
#: what coming onto the table is worth when no listed entry goes further than the edge square
#: (a building straight in from each): enough to beat ending the activation
STEP_ON = 5.0
#: hunter: the spike holder's move comes before every other action of his team (a shot
#: included): a failure elsewhere may stop the team before he goes (§5, F-7; ruling F-278)
HOLDER_FIRST = 2000.0
#: hunter: what a Rally is worth when it succeeds, in a move's squares of progress (it frees
#: the figure for the Turns to come; a failure counts to the 1/3 rule, ruling F-278)
RALLY_WORTH = 24.0


def _role(scenario: Scenario, side: str) -> str:
    objectives = dict(scenario.objectives)
    kind = objectives.get("type", "eliminate")
    gm = [s.id for s in scenario.sides if s.role == "umpire"]
    if side in gm:
        return "lonnie"
    if kind == "snatch":
        return "snatch" if objectives.get("taker") == side else "escort"
    if kind == "spike":
        return "hunter"
    if kind == "rescue":
        return "assault" if objectives.get("rescuers") == side else "defend"
    if kind == "extract":
        return "extract"
    return "assault"


def _d2(a: Cell, b: Cell) -> int:
    return (a.x - b.x) ** 2 + (a.y - b.y) ** 2


class FirewallBot(BaselineBot):
    """One side's bot; the role comes from the scenario's objective (public)."""

    name = "firewall-role"

    def __init__(self, scenario: Scenario, side: str) -> None:
        super().__init__(scenario, side)
        self.role = _role(scenario, side)
        self.gm = [s.id for s in scenario.sides if s.role == "umpire"]
        self.objectives = dict(scenario.objectives)
        entry = {s.id: s.extra.get("entry") for s in scenario.sides}
        self.entry = entry.get(side)
        self.edges = self._edge_cells(None)
        self.home = self._edge_cells(self.entry) if self.entry else []
        # every storey's rooms (fwskill: the stairs join them, §12)
        self.inside = [c for c in self.board.cells()
                       if self.board.clutter(c) >= 1 and self.board.passable(c)]
        self.looked: set[Cell] = set()
        #: the Turn the side last searched (one Search a Turn is enough)
        self.searched = -1
        self.step_on_only: set[str] = set()
        self.single_p: dict[tuple[str, str, str], float] = {}
        self.east = [c for c in self.board.cells(0) if c.x == self.board.levels[0].width - 1
                     and self.board.clutter(c) == 0 and self.board.passable(c)]
        # extract: where the scenario puts the Mayor (public), the fallback goal
        self.mayor = str(self.objectives.get("target", ""))
        self.mayor_start = next((f.at for f in scenario.figures if f.id == self.mayor), None)
        self.mayor_seen: Cell | None = None
        #: escort: the far end of the path is known (from Kewell's start, F-217)
        self.strolling = False
        #: where the scenario file puts each figure (public: the set-up suggestions)
        self.starts = {f.id: f.at for f in scenario.figures}
        if self.role == "extract":
            # Ash End's ruins are Clutter 4-5: a route through them costs failed moves, so
            # the distance fields walk round by the streets where they can
            self._enter_cost = [self._cluttered_cost(i) for i in range(len(self.board.levels))]
            self._fields.clear()
        # fwclimb: on a map with heights or walls between storeys the routes go over them
        storey = int(scenario.options.get("storey_cm", 10))
        self.heights = HeightRoutes.of(self.board, storey, self._enter_cost, self._squeeze) \
            if uses_heights(self.board, storey) else None

    def field(self, targets: Iterable[Cell]) -> DistanceField | None:
        """The distance field to the targets; over heights and walls where the map has them."""
        if self.heights is None:
            return super().field(targets)
        key = frozenset(targets)
        if not key:
            return None
        if key not in self._fields:
            if len(self._fields) > 256:
                self._fields.clear()
            self._fields[key] = self.heights.field(key)
        return self._fields[key]

    def _cluttered_cost(self, level: int) -> Any:
        cost = self._walk_cost(level)
        clutter = self.board.levels[level].clutter
        cost[(cost > 0) & (clutter >= 3)] = 3
        cost[(cost > 0) & (clutter >= 4)] = 6
        return cost

    def _edge_cells(self, edge: str | None) -> list[Cell]:
        level = self.board.levels[0]
        w, h = level.width, level.height
        out = []
        for c in self.board.cells(0):
            on = {"n": c.y == 0, "s": c.y == h - 1, "w": c.x == 0, "e": c.x == w - 1}
            if (any(on.values()) if edge is None else on[edge]) and self.board.passable(c):
                out.append(c)
        return out

    # -- what the bot knows ------------------------------------------------------------
    def _enemies(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        """Active figures of the other sides; hunters leave the GM's Lonnie alone."""
        skip = {self.side, "hostages", *(self.gm if self.role == "hunter" else ())}
        return [s for s in view.get("seen", []) if s.get("side") not in skip
                and s.get("status") == "active"]

    def _mine(self, view: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {str(f["id"]): f for f in view.get("figures", [])}

    def targets_for(self, view: dict[str, Any], fig: dict[str, Any]) -> list[Cell]:
        enemies = [c for c in (cell_of(s.get("at")) for s in self._enemies(view)) if c]
        role = self.role
        if role == "snatch":
            if fig.get("carrying"):
                return self.edges
            kewell = [cell_of(s["at"]) for s in view.get("seen", [])
                      if s.get("id") == self.objectives.get("target") and s.get("at")]
            return [c for c in kewell if c] or enemies
        if role == "escort":
            if fig.get("id") == self.objectives.get("target"):
                return self.east
            kewell = [cell_of(f.get("at")) for f in view.get("figures", [])
                      if f.get("id") == self.objectives.get("target")]
            return enemies or [c for c in kewell if c]
        if role == "hunter":
            spike = view.get("spike") or {}
            if spike.get("holder") == fig.get("id") or spike.get("holder") in self._mine(view):
                return self.home
            named = view.get("lonnie_says")
            counters = {c.get("number"): cell_of(c.get("at")) for c in view.get("counters", [])}
            if named in counters and counters[named] is not None:
                return [counters[named]]  # type: ignore[list-item]
            goals = [c for c in (cell_of(g) for g in view.get("goals", [])) if c]
            return goals or enemies
        if role == "extract":
            if fig.get("carrying") == self.mayor:
                beside = self._beside_own_car(view, fig)
                return beside or self.home or self.edges
            if self._mayor_carried_by_friend(view):
                return enemies or []  # cover the carrier: go for what threatens him
            where = self._mayor_at(view)
            return [where] if where is not None else enemies
        if role == "assault":
            if enemies:
                return enemies
            left = [c for c in self.inside if c not in self.looked]
            return left[:: max(1, len(left) // 40)] or self.inside[:1]
        return enemies

    # -- extract (vehicles) ------------------------------------------------------------
    def _mayor_at(self, view: dict[str, Any]) -> Cell | None:
        """Where the Mayor is, or was last seen by this side; once the side stands where it
        last saw him and he is gone, the nearest enemy it sees (he went with them)."""
        for f in [*view.get("figures", []), *view.get("seen", [])]:
            if f.get("id") == self.mayor and f.get("at"):
                self.mayor_seen = cell_of(f["at"])
                return self.mayor_seen
        last = self.mayor_seen or self.mayor_start
        if last is not None and self._looked_at(view, last):
            enemies = [c for c in (cell_of(s.get("at")) for s in self._enemies(view)) if c]
            cars = [c for v in view.get("vehicles", []) if v.get("side") != self.side
                    and v.get("status") == "active" and (c := cell_of(v.get("at")))]
            near = enemies or cars
            if near:
                return min(near, key=lambda c: _d2(c, last))
        return last

    def _looked_at(self, view: dict[str, Any], cell: Cell) -> bool:
        """Whether a figure of the side stands within 3 squares of ``cell``."""
        return any(at is not None and _d2(at, cell) <= 9
                   for at in (cell_of(f.get("at")) for f in view.get("figures", [])
                              if f.get("status") == "active"))

    def _mayor_carried_by_friend(self, view: dict[str, Any]) -> bool:
        return any(f.get("carrying") == self.mayor for f in view.get("figures", []))

    def _beside_own_car(self, view: dict[str, Any], fig: dict[str, Any]) -> list[Cell]:
        """Free squares touching the side's running vehicle, where a carrier gets in."""
        for v in view.get("vehicles", []):
            if v.get("side") != self.side or v.get("status") != "active" or not v.get("at"):
                continue
            level = int(v["at"][0])
            foot = {(int(x), int(y)) for x, y in v.get("squares") or []}
            taken = {(c.x, c.y) for f in view.get("figures", [])
                     if f.get("id") != fig.get("id") and (c := cell_of(f.get("at")))}
            ring = {(x + dx, y + dy) for x, y in foot for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
            out = [Cell(level, x, y) for x, y in sorted(ring - foot - taken)
                   if self.board.in_bounds(Cell(level, x, y))
                   and self.board.passable(Cell(level, x, y))]
            if out:
                return out
        return []

    def _mayor_aboard(self, view: dict[str, Any], vid: str) -> bool:
        return any(v.get("id") == vid and self.mayor in (v.get("passengers") or [])
                   for v in view.get("vehicles", []))

    def vehicle_value(self, view: dict[str, Any], action: Action) -> float:
        """Drive toward the Mayor with passengers, off the own edge with him aboard; stand
        still near him so passengers may get out and in (§17.3)."""
        hint = action.hint
        vid = str(action.get("vehicle"))
        car: dict[str, Any] = next(
            (v for v in view.get("vehicles", []) if v.get("id") == vid), {})
        here = cell_of(car.get("at"))
        to = cell_of(hint.get("to"))
        if here is None or to is None:
            return 0.0
        if self._mayor_aboard(view, vid):
            if hint.get("role") == "exit":
                return 6000.0
            goal = self.home or self.edges
            before = min(_d2(here, c) for c in goal)
            after = min(_d2(to, c) for c in goal)
            return 50.0 + (before - after) ** 0.5 if after < before else 1.0
        if hint.get("role") == "exit":
            return -100.0
        mayor = self._mayor_at(view)
        carried = self._mayor_carried_by_friend(view)
        if mayor is None or not (car.get("passengers") or carried):
            return 1.0  # empty: wait for the carrier where it stands
        # close enough: stand still so they can get out, or beside a friend carrying him
        if _d2(here, mayor) <= (16 if carried else 100):
            return 1.0
        before, after = _d2(here, mayor), _d2(to, mayor)
        return 20.0 + (before ** 0.5 - after ** 0.5) if after < before else 2.0

    def transfer_value(self, view: dict[str, Any], action: Action,
                       fig: dict[str, Any]) -> float:
        if action.kind == "ride":
            return -10.0
        if action.kind == "embark":
            return 4000.0 if fig.get("carrying") == self.mayor else -10.0
        mayor = self._mayor_at(view)
        to = cell_of(action.hint.get("to"))
        if self._mayor_carried_by_friend(view):
            return -10.0  # stay aboard: the vehicle drives to the carrier
        if mayor is not None and to is not None and _d2(to, mayor) <= 144:
            return 2000.0 - math.sqrt(_d2(to, mayor))
        return -10.0  # stay aboard until the vehicle stands near the Mayor

    # -- choosing ----------------------------------------------------------------------
    def choose(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        edge = view.get("public", {}).get("entry", {}).get(self.side)
        if edge is not None and edge != self.entry:  # fwsetup: the edge chosen in set-up
            self.entry, self.home = edge, self._edge_cells(edge)
        if self.role == "escort" and not self.strolling and view.get("phase") == "act":
            self.east, self.strolling = far_end(self, view), True  # fwsetup: F-217
        mine = self._mine(view)
        for f in mine.values():
            at = cell_of(f.get("at"))
            if at is not None:
                self.looked.update(c for c in self.inside
                                   if c.level == at.level and _d2(c, at) <= 16)
        fields: dict[str, DistanceField | None] = {}
        scores = []
        self.single_p = {(str(a.get("figure")), str(a.get("weapon")), str(a.get("target"))):
                         float(a.hint.get("p", 0.0)) for a in actions
                         if a.kind == "shoot" and a.hint.get("role") == "attack"
                         and a.get("weapon2") is None and not a.get("grenade")}
        # figures whose every listed entry only steps onto the edge (a building straight in
        # from every square of their edge): stepping on is then their progress
        self.step_on_only = ({str(a.get("figure")) for a in actions if a.kind == "enter"}
                             - {str(a.get("figure")) for a in actions
                                if a.kind == "enter" and a.get("path")})
        for action in actions:
            fid = str(action.get("figure")) if action.get("figure") is not None else ""
            if action.kind in ("move", "stairs", "enter", "climb", "jump") and fid not in fields:
                fields[fid] = self.field(self.targets_for(view, mine.get(fid, {})))
            scores.append(self.rate(view, action, fields.get(fid), mine))
        best = max(scores)
        tied = [a for a, s in zip(actions, scores, strict=True) if s >= best - 1e-9]
        pick = tied[rng.below(len(tied))]
        if pick.kind == "search":
            self.searched = int(view.get("turn", 0))
        return pick

    def rate(self, view: dict[str, Any], action: Action, field: DistanceField | None,
             mine: dict[str, dict[str, Any]]) -> float:
        kind, hint = action.kind, action.hint
        fig = mine.get(str(action.get("figure")), {})
        enemies = self._enemies(view)
        if kind == "activate":
            crews = {v.get("team") for v in view.get("vehicles", []) if v.get("side") == self.side}
            return 101.0 if action.get("team") in crews else 100.0  # vehicles move first
        if kind == "end":
            return 5.0
        if kind == "unjam":  # the skill roll only where it beats Gutz: level 3 (§16.1, F-203)
            if action.get("by") == "technical":
                return 701.0 if hint.get("skill_level") == 3 else 699.0
            return 700.0
        if kind == "vehicle-unjam":  # a gunner at once; the driver only when not driving on
            return 15.0 if hint.get("driver") else 700.0
        if kind == "drop":
            return -10.0
        if kind == "task":
            task = hint.get("task")
            if self.role == "lonnie":
                return -1.0  # the GM's Lonnie never springs his own traps
            if task == "alarm":
                return 900.0
            if task == "talk":
                return 860.0 if view.get("lonnie_says") is None else -1.0
            if task == "swim":
                return 2.0
            if task == "disarm":
                return 840.0 if int(fig.get("skills", {}).get("technical", 0)) >= 2 else -1.0
            return 850.0
        if kind in ("shoot", "close-combat", "vehicle-fire", "fire-at-vehicle",
                    "passenger-fire", "assault-vehicle"):
            return self.attack_value(view, action, mine)
        if kind == "drive":
            return self.vehicle_value(view, action)
        if kind in ("embark", "disembark", "ride"):
            return self.transfer_value(view, action, fig)
        # fwskill: the stairs are a walk (§12, F-185); an entry from off the table is a move
        # (F-198)
        if kind in ("move", "stairs", "enter"):
            return self.move_value(view, action, field, fig, enemies)
        if kind in ("reload", "drug", "reflex", "hide", "search"):
            return self.kit_value(view, action, fig, enemies)
        if kind in ("climb", "jump"):  # fwclimb: over an obstacle when the route is shorter
            return self.climb_value(view, action, field, fig)
        if kind in ("repair", "treat"):  # fwclimb: Technical and Medical (§14.2, §16.2)
            return self.care_value(view, action, enemies)
        if hint.get("role") == "setup":  # fwsetup: edges (F-210 …); the spike stays uniform
            return setup_value(self, view, action)
        return 0.0  # the GM's spike and lie: the tie-break draws among them (F-195, F-197)

    # -- climbing, jumping, repair and Medical (fwclimb) -----------------------------------
    def climb_value(self, view: dict[str, Any], action: Action, field: DistanceField | None,
                    fig: dict[str, Any]) -> float:
        """A climb, jump or leap when it lies on the shortest route to the goal, within
        ``ROUTE_SLACK`` squares (the field counts each climbing action as a Walk's worth of
        squares): a little above a walk's best gain, so the figure goes over rather than
        round; never a leap that falls 4 cm or more (§6.6: a fall attack), never a step off
        the route."""
        here, to = cell_of(fig.get("at")), cell_of(action.hint.get("to"))
        if self.heights is None or field is None or here is None or to is None \
                or fig.get("suppressed"):
            return -1.0
        if action.kind == "jump" and self._height_of(here) - self._height_of(to) >= SAFE_FALL_CM:
            return -1.0  # a leap that falls 4 cm or more costs fall attacks (§6.6)
        if self.role == "lonnie":
            return -1.0  # he keeps away from the teams on foot
        hanging = cell_of((fig.get("climbing") or {}).get("to"))
        d_here, d_to = field.cost(here), field.cost(hanging or to)
        step = self.heights.step_cost(here, hanging or to)
        # how much longer the route over this step is than the best (0 on the best route)
        detour = (d_to + step - d_here if d_here is not None and d_to is not None
                  and step is not None else None)
        on_route = detour is not None and detour <= ROUTE_SLACK
        if hanging is not None and to == here:  # climbing back down from the face
            return -1.0 if on_route else 6.0
        if detour is None or not on_route:
            return -1.0
        return 10.0 + ACTION_SQUARES + 0.5 - max(0, detour)

    def _height_of(self, cell: Cell) -> int:
        """A square's surface above the ground floor in cm (F-250), from the public map."""
        layer = self.board.levels[cell.level].layers.get("height")
        surface = 0 if layer is None else int(layer[cell.y, cell.x])
        return cell.level * (self.heights.storey_cm if self.heights else 10) + surface

    def care_value(self, view: dict[str, Any], action: Action,
                   enemies: list[dict[str, Any]]) -> float:
        """Repair a stopped cyber system and treat a wounded friend only while no enemy is
        in sight (the Movement action and a failure, which counts to the 1/3 rule, are then
        cheap): a helpless friend first; a body (revived only on a CS) never."""
        if enemies:
            return -1.0
        if action.kind == "repair":
            return 640.0
        patient = self._mine(view).get(str(action.get("patient")), {})
        status = patient.get("status")
        if status == "incapacitated":
            return 650.0
        if status == "active" and int(patient.get("start_gutz", 0)) - int(
                patient.get("gutz", 0)) >= 2:
            return 8.0
        return -1.0

    # -- the kit of §8.0, §14-§16 and §21.5 ----------------------------------------------
    def kit_value(self, view: dict[str, Any], action: Action, fig: dict[str, Any],
                  enemies: list[dict[str, Any]]) -> float:
        """Reload an empty weapon (with the Movement action when enemies are near, keeping
        the Combat action for the shot); a drug when it helps now; Wired Reflexes' extra
        Combat action when there is something to shoot (never an extra move); Search when
        an enemy is suspected (seen before, not now); Hide for Lonnie and defenders out of
        sight."""
        kind = action.kind
        if kind == "reload":
            return 751.0 if action.get("slot") in ("move", None) else 750.0
        if kind == "drug":
            return self.drug_value(action, fig, enemies)
        if kind == "reflex":
            # an extra shot at an enemy in sight; never a spare move (it rarely pays)
            return 760.0 if action.get("slot") == "combat" and enemies else -1.0
        suspected = not enemies and self._suspected(view, fig)
        if kind == "search":
            turn = int(view.get("turn", 0))
            if suspected and self.searched != turn \
                    and int(fig.get("skills", {}).get("observation", 0)) >= 1:
                return 13.0
            return -1.0
        # hide
        if fig.get("hidden") or enemies:
            return -1.0
        if self.role == "lonnie" or (self.role == "defend" and suspected):
            return 12.0
        return -1.0

    def drug_value(self, action: Action, fig: dict[str, Any],
                   enemies: list[dict[str, Any]]) -> float:
        """§15: a shooting drug before a fight at range, a close-combat drug with an enemy
        alongside, T80 in any fight; Lonnie's 'lectron to get away; never Ground Zero (its
        CF kills) or a drug already working."""
        drug = str(action.get("drug"))
        if drug in (fig.get("drug_effects") or {}) or drug == "ground_zero":
            return -5.0
        if self.role == "lonnie":
            return 720.0 if drug == "lectron" and enemies else -5.0
        if not enemies:
            return -5.0
        at = cell_of(fig.get("at"))
        near = at is not None and any(
            (c := cell_of(e.get("at"))) is not None and _d2(at, c) <= 2 for e in enemies)
        if drug == "p90":
            return 740.0 if near else -5.0
        if drug in ("locust_8", "t80"):
            return 735.0 if fig.get("weapons") and not fig.get("combat_used") else -5.0
        return -5.0

    def _suspected(self, view: dict[str, Any], fig: dict[str, Any]) -> bool:
        """An enemy seen in the last Turn within 12 squares that the side no longer sees."""
        at = cell_of(fig.get("at"))
        turn = int(view.get("turn", 0))
        for r in view.get("remembered", []):
            c = cell_of(r.get("at"))
            if (r.get("side") not in (self.side, "hostages", *self.gm) and c is not None
                    and at is not None and int(r.get("turn", -9)) >= turn - 1
                    and _d2(at, c) <= 144):
                return True
        return False

    def attack_value(self, view: dict[str, Any], action: Action,
                     mine: dict[str, dict[str, Any]]) -> float:
        hint = action.hint
        if hint.get("role") == "attack-two":
            return self.two_weapon_value(view, action, mine)
        if hint.get("hostage") or hint.get("helpless"):
            return -100.0
        if self.role == "hunter" and any(
                s.get("id") == action.get("target") and s.get("side") in self.gm
                for s in view.get("seen", [])):
            return -10.0
        p = float(hint.get("p", 0.0))
        target = str(action.get("target"))
        to_cell = cell_of(hint.get("to"))
        if self.role == "extract" and hint.get("area") and to_cell is not None:
            mayor = self._mayor_at(view)
            if mayor is not None and _d2(mayor, to_cell) <= BLAST_SQUARES ** 2:
                return -50.0  # never a burst where it would catch the Mayor
        nonlethal = bool(hint.get("nonlethal"))
        if self.role == "snatch" and target == self.objectives.get("target"):
            if not nonlethal:
                return -100.0
            p *= 2.0
        to = cell_of(hint.get("to"))
        if hint.get("grenade") and to is not None:
            shooter = cell_of(mine.get(str(action.get("figure")), {}).get("at"))
            for f in mine.values():
                at = cell_of(f.get("at"))
                if at is not None and at != shooter and _d2(at, to) <= BLAST_SQUARES ** 2:
                    return -50.0
            for s in view.get("seen", []):
                at = cell_of(s.get("at"))
                precious = s.get("side") == "hostages" or (
                    self.role == "snatch" and s.get("id") == self.objectives.get("target")
                    and not nonlethal)
                if at is not None and precious and _d2(at, to) <= BLAST_SQUARES ** 2:
                    return -50.0
            p *= 0.9
        if self.role == "assault" and not nonlethal and to is not None:
            for s in view.get("seen", []):
                at = cell_of(s.get("at"))
                if s.get("side") == "hostages" and at is not None and _d2(at, to) <= 4:
                    p *= 0.3  # a stunner for the gunman beside a hostage
        if p < GOOD_SHOT:
            return 4.0 + p
        return 800.0 + 100.0 * p + (20.0 if action.kind == "close-combat" else 0.0)

    def two_weapon_value(self, view: dict[str, Any], action: Action,
                         mine: dict[str, dict[str, Any]]) -> float:
        """Two-weapon fire (F-34, F-110) costs −3 on each shot: worth it only for a steady
        hand whose single shot is near certain (two rolls at −3 then beat one)."""
        single = self.single_p.get((str(action.get("figure")), str(action.get("weapon")),
                                    str(action.get("target"))))
        if single is None or single < TWO_WEAPON_P or action.hint.get("hostage") \
                or action.hint.get("helpless"):
            return -1.0
        return 800.0 + 100.0 * single + 5.0

    def move_chance(self, view: dict[str, Any], action: Action, fig: dict[str, Any]) -> float:
        """P(S or CS) of a move from what the side knows (§6: its Gutz, the map's clutter on
        the straight route less Acrobatics, its leader within 8 cm, −2 carrying a helpless
        figure, F-54); a failure ends the figure's Turn and counts to the 1/3 rule."""
        here, to = cell_of(fig.get("at")), cell_of(action.hint.get("to"))
        if here is None or to is None:
            return 1.0
        n = max(abs(to.x - here.x), abs(to.y - here.y), 1)
        cells = [Cell(here.level, here.x + round((to.x - here.x) * i / n),
                      here.y + round((to.y - here.y) * i / n)) for i in range(n + 1)]
        clutter = max((self.board.clutter(c) for c in cells if self.board.in_bounds(c)),
                      default=0)
        mod = -max(0, clutter - int((fig.get("skills") or {}).get("acrobatics", 0)))
        if fig.get("carrying") or action.get("carry"):
            mod -= 2
        leader = next((f for f in view.get("figures", []) if f.get("leader")
                       and f.get("status") == "active" and f.get("team") == fig.get("team")
                       and f.get("id") != fig.get("id")), None)
        at = cell_of(leader.get("at")) if leader else None
        if at is not None and _d2(at, here) <= 17:
            mod += 1
        gutz = int(fig.get("gutz", 7))
        # §2.2: a double is CS when its total is at most the Gutz (modifiers do not count),
        # else CF; any other throw succeeds when its total is at most Gutz + modifier
        wins = sum(1 for a in range(1, 7) for b in range(1, 7)
                   if (a + b <= gutz if a == b else a + b <= gutz + mod))
        return wins / 36

    def move_value(self, view: dict[str, Any], action: Action, field: DistanceField | None,
                   fig: dict[str, Any], enemies: list[dict[str, Any]]) -> float:
        if self.role == "extract" and not fig.get("suppressed"):
            # a likely move first: a failure stops the figure and counts to the 1/3 rule
            # (still above ending the activation, 5, so an unlikely useful move is tried last)
            value = self._move_value(view, action, field, fig, enemies)
            if value <= 6.0:
                return value
            return 6.0 + (value - 6.0) * self.move_chance(view, action, fig)
        if self.role == "hunter":
            return self.hunter_move_value(view, action, field, fig, enemies)
        return self._move_value(view, action, field, fig, enemies)

    def hunter_move_value(self, view: dict[str, Any], action: Action,
                          field: DistanceField | None, fig: dict[str, Any],
                          enemies: list[dict[str, Any]]) -> float:
        """Triple-Cross (ruling F-278): a failed move or Rally stops the figure and counts to
        the team's 1/3 rule, so the likely moves go first and the hopeless ones last (a
        wounded figure in a Clutter 5 warehouse no longer stops its team before the others
        have moved); the spike holder's move comes before anything else his team does."""
        value = self._move_value(view, action, field, fig, enemies)
        if value <= 6.0 or action.hint.get("role") == "exit":
            return value  # no progress (below ending the activation), or an exit (5000)
        p = self.move_chance(view, action, fig)
        holder = (view.get("spike") or {}).get("holder") == fig.get("id")
        if holder:
            return HOLDER_FIRST + (value - 6.0) * p
        if fig.get("suppressed"):
            return 6.0 + RALLY_WORTH * p
        return 6.0 + (value - 6.0) * p

    def _move_value(self, view: dict[str, Any], action: Action, field: DistanceField | None,
                    fig: dict[str, Any], enemies: list[dict[str, Any]]) -> float:
        hint = action.hint
        if hint.get("role") == "exit":
            carrying = action.get("carry") or fig.get("carrying")
            if self.role == "snatch" and carrying == self.objectives.get("target"):
                return 5000.0
            spike = view.get("spike") or {}
            if self.role == "hunter" and spike.get("holder") == fig.get("id"):
                return 5000.0
            if self.role == "extract" and carrying == self.mayor:
                return 5000.0
            return -100.0
        if action.get("carry"):
            if self.role == "snatch" and action.get("carry") == self.objectives.get("target"):
                return 3000.0 + self.closing(view, action, field)
            if self.role == "extract" and action.get("carry") == self.mayor:
                return 3000.0 + self.closing(view, action, field)
            if self.role == "hunter":
                return -10.0  # carrying the captured Lonnie buys nothing without his talk
            return -10.0
        if fig.get("suppressed"):
            return 600.0  # the move is a Rally (F-15)
        if self.role == "lonnie":
            if not enemies:
                return 1.0
            return 10.0 - self.closing(view, action, self.field(
                [c for c in (cell_of(s.get("at")) for s in enemies) if c]))
        if self.role == "defend" and not enemies:
            return 1.0
        gain = self.closing(view, action, field)
        entry = cell_of(action.get("at")) if action.kind == "enter" else None
        dest = cell_of(hint.get("to"))
        if entry is not None and dest is not None and field is not None:
            # an entry gains from its edge square (the figure has no square yet, F-198);
            # among equal gains the square nearest the goal
            d_at, d_to = field.cost(entry), field.cost(dest)
            gain = (float(d_at - d_to) - 0.05 * d_to
                    if d_at is not None and d_to is not None else -50.0)
            if str(action.get("figure")) in self.step_on_only and d_to is not None:
                gain += STEP_ON  # off the table it gains nothing at all: coming on is the move

        speed = action.get("speed")
        score = 10.0 + gain
        to = cell_of(hint.get("to"))
        if enemies and to is not None:
            score += 1.5 * self.board.cover(to)
            if speed == "run":
                score -= 1.5
            leader = next((f for f in view.get("figures", [])
                           if f.get("leader") and f.get("status") == "active"
                           and f.get("team") == fig.get("team") and f.get("id") != fig.get("id")),
                          None)
            at = cell_of(leader.get("at")) if leader else None
            if at is not None and _d2(at, to) <= 17:
                score += 1.0  # ruling F-43: within 8 cm of the leader
        if self.role == "snatch" and fig.get("hidden"):
            if speed == "crawl":
                score += 2.0  # a crawl keeps the squad hidden (§21.5)
            elif gain < 6:
                score -= 3.0
        if gain <= 0:
            return 3.0 + gain
        return score


def bot_for(scenario: Scenario, side: str) -> FirewallBot:
    return FirewallBot(scenario, side)
