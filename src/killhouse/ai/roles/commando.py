"""Role AI for Commando: the raiders (the first side) close on the enemy and shoot what they
observe; the defenders plot every man for opportunity fire, hold their ground and shoot.

The bots see only their side's view and their legal actions; distances come from
``BaselineBot``'s distance fields on the public map. Use ``bot_for(scenario, side)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from killhouse.ai.baseline import BaselineBot, cell_of
from killhouse.core.cells import Cell
from killhouse.core.geometry import octile
from killhouse.core.rng import Rng
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import ground
from killhouse.rulesets.commando.tables import tables
from killhouse.scenario.model import Scenario

#: a raider stops walking with this many TP left, to keep a fire task in hand
RESERVE = 20


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
        #: where raiders look when they know of no enemy: inside the buildings, else far away
        self.search = [c for c in self.board.cells() if ground.building(self.board, c)]
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
        melee = self.h2h_choice(by_kind)
        if melee is not None:
            return melee
        if "overwatch" in by_kind:  # Mobile Overwatch: always answer fire with fire
            return by_kind["overwatch"][0]
        shot = self.nearest_fire(view, actions)
        if shot is not None:
            return shot
        if "hold" in by_kind:
            return by_kind["hold"][0]
        if "plot" in by_kind and not self.attacker:
            return by_kind["plot"][0]
        if "plot" in by_kind and self.attacker:
            bound = self.overwatch_plot(view, by_kind["plot"])
            if bound is not None:
                return bound
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

    def pick_man(self, view: dict[str, Any], options: list[Action]) -> Action:
        return options[0]

    def best_step(self, view: dict[str, Any], steps: list[Action]) -> Action | None:
        man = self.me(view, steps[0].get("figure"))
        charge = self.charge(view, steps) if self.attacker else None
        if charge is not None:
            return charge
        if man.get("tp", 0) + man.get("move_tp", 0) < RESERVE:
            return None
        targets = self.targets(view) or (self.search_goals(view) if self.attacker else []) or (
            [self.far] if self.far is not None else [])
        field = self.field(targets)
        if field is None:
            return None
        here = cell_of(man.get("at"))
        d_here = field.cost(here) if here is not None else None
        best: tuple[float, str, Action] | None = None
        for step in steps:
            to = cell_of(step.hint.get("to"))
            d = field.cost(to) if to is not None else None
            if d is None:
                continue
            key = (float(d) - 0.05 * self.cover(to), str(step.get("dir")), step)
            if best is None or key[:2] < best[:2]:
                best = key
        if best is None or best[2] is None:
            return None
        to_best = cell_of(best[2].hint.get("to"))
        d_best = field.cost(to_best) if to_best is not None else None
        if d_best is None or (d_here is not None and d_best >= d_here) or d_best == 0:
            return None
        return best[2]


    def door_on_the_way(self, view: dict[str, Any], doors: list[Action]) -> Action | None:
        """A door closer to the goal than he is: open it (it may be the way in)."""
        man = self.me(view, doors[0].get("figure"))
        if man.get("tp", 0) < RESERVE:
            return None
        field = self.field(self.targets(view) or ([self.far] if self.far is not None else []))
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


    # -- cmdmap: map tasks, hand-to-hand, bounds under overwatch, cover, alarms ---------------

    def cover(self, cell: Cell | None) -> int:
        """How much a cell's terrain spoils fire at a man in it (woods 8, trench 9 …): 0-12."""
        if cell is None or not self.board.in_bounds(cell):
            return 0
        row = tables().field.get(ground.cell_kind(self.board, cell))
        return -(row.fire or 0) if row is not None else 0

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
        return None

    def way_in(self, view: dict[str, Any], by_kind: dict[str, list[Action]]) -> Action | None:
        """A raider picks or forces a locked door on his way and takes stairs that bring him
        closer to the goal; a defender answering the alarm takes stairs too."""
        if not self.attacker and not self.threat(view):
            return None
        goals = self.targets(view) or (self.search_goals(view) if self.attacker else []) or (
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
        if not self.threat(view):
            return None
        man = self.me(view, steps[0].get("figure"))
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


def bot_for(scenario: Scenario, side: str) -> CommandoBot:
    """The role bot for ``side``: the scenario's first side raids, the second defends."""
    if scenario.sides and scenario.sides[0].id == side:
        return RaiderBot(scenario, side)
    return DefenderBot(scenario, side)


__all__ = ["CommandoBot", "DefenderBot", "RaiderBot", "bot_for"]
