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
        shot = self.nearest_fire(view, actions)
        if shot is not None:
            return shot
        if "hold" in by_kind:
            return by_kind["hold"][0]
        if "plot" in by_kind and not self.attacker:
            return by_kind["plot"][0]
        if "commit" in by_kind:
            return by_kind["commit"][0]
        if "reload" in by_kind:
            return by_kind["reload"][0]
        if "activate" in by_kind:
            return self.pick_man(view, by_kind["activate"])
        if self.attacker and "step" in by_kind:
            step = self.best_step(view, by_kind["step"])
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
        if man.get("tp", 0) + man.get("move_tp", 0) < RESERVE:
            return None
        targets = self.targets(view) or ([self.far] if self.far is not None else [])
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
            key = (float(d), str(step.get("dir")), step)
            if best is None or key[:2] < best[:2]:
                best = key
        if best is None or (d_here is not None and best[0] >= d_here) or best[0] == 0:
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
