"""Role AI for CQB, seeing only its side's view and the hints on its legal actions.

* **Terrorists** guard: with no enemy in sight they stay on Hold (ready to interrupt); with one
  in sight they fire the best burst or shot, or aim when they cannot fire; they always try to
  interrupt.
* **Rescuers** stack and enter: they close on the rooms their team has not yet looked into
  (the public floor plan), breach locked doors, throw a stun grenade into a room where they
  see gunmen, clear it, secure the hostages they reach, and shoot the gunmen they see, calling
  a torso or head shot when a hostage stands near the target.

Hostages decide nothing: they freeze, and panic or follow their rescuer by the rules (Q-30).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from killhouse.ai.baseline import BaselineBot, cell_of
from killhouse.core.cells import Cell
from killhouse.core.rng import Rng
from killhouse.rulesets.base import Action
from killhouse.rulesets.cqb.facts import find_rooms, inches
from killhouse.scenario.model import Scenario


class CqbBot(BaselineBot):
    """One side's bot: ``rescuers`` or ``terrorists`` by the scenario's side role."""

    name = "cqb-role"

    def __init__(self, scenario: Scenario, side: str) -> None:
        super().__init__(scenario, side)
        roles = [s.extra.get("role", ("rescuers", "terrorists")[i])
                 for i, s in enumerate(scenario.sides)]
        self.role = roles[[s.id for s in scenario.sides].index(side)]
        rooms, open_rooms = find_rooms(scenario.board)
        self.rooms = rooms
        self.inside = {r for r in set(rooms.values()) if r not in open_rooms}
        self.looked: set[int] = set()
        self.down: set[str] = set()
        self.extraction = sorted(scenario.board.zone_cells("extraction"))  # ruling Q-66

    # -- what the bot knows ------------------------------------------------------------
    def _note(self, view: dict[str, Any]) -> None:
        for other in view.get("seen", []):
            if other.get("status") in ("dead", "incapacitated"):
                self.down.add(str(other.get("id")))
        for fig in view.get("figures", []):
            cell = cell_of(fig.get("at"))
            if cell is not None and cell in self.rooms:
                self.looked.add(self.rooms[cell])

    def targets(self, view: dict[str, Any]) -> list[Cell]:
        live = {**view, "seen": [s for s in view.get("seen", []) if s.get("id") not in self.down
                                 and s.get("side") != "hostages"],
                "remembered": [r for r in view.get("remembered", [])
                               if r.get("id") not in self.down and r.get("side") != "hostages"]}
        cells = super().targets(live)
        if self.role == "rescuers":
            unexplored = [c for c, r in self.rooms.items() if r in self.inside
                          and r not in self.looked]
            cells.extend(unexplored[:: max(1, len(unexplored) // 40)])
            for device in view.get("public", {}).get("devices", []):  # go and disarm
                at = cell_of(device.get("at"))
                if device.get("state") == "armed" and at is not None:
                    cells.append(at)
        return cells

    # -- choosing ----------------------------------------------------------------------
    def choose(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        self._note(view)
        field = self.field(self.targets(view))
        seen = self.enemies(view)  # once per decision, not once per action (item 6)
        scores = [self.rate(view, a, field, seen) for a in actions]
        best = max(scores)
        tied = [a for a, s in zip(actions, scores, strict=True) if s >= best - 1e-9]
        return tied[rng.below(len(tied))]

    def enemies(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        """The opposing figures in sight that are still up."""
        return [s for s in view.get("seen", []) if s.get("side") not in (self.side, "hostages")
                and s.get("status") not in ("dead", "incapacitated")]

    def rate(self, view: dict[str, Any], action: Action, field: Any,
             seen: list[dict[str, Any]] | None = None) -> float:
        kind = action.kind
        hint = action.hint
        if seen is None:
            seen = self.enemies(view)
        if kind == "interrupt":
            return 900.0
        if kind == "let-pass":
            return 1.0
        if kind == "fire":
            return 800.0 + self.fire_value(view, action)
        if kind == "throw":
            enemies = int(hint.get("enemies", 0))
            if self.role == "rescuers" and enemies and action.get("grenade") == "stun":
                return 850.0 + enemies
            if enemies >= 2 and action.get("grenade") == "cs":
                return 700.0 + enemies
            to = cell_of(hint.get("to"))
            room = self.rooms.get(to) if to is not None else None
            if (self.role == "rescuers" and action.get("grenade") == "stun" and room is not None
                    and room in self.inside and room not in self.looked):
                return 650.0  # stun, then enter: the room has not been looked into yet
            return -1.0
        if kind == "task":
            task = action.get("task")
            p = float(hint.get("p", 0))
            if task in ("clear-jam", "pick-up"):
                return 880.0
            if task == "secure":
                return 600.0 + 100 * p if not seen else 300.0
            if task in ("charge", "shotgun-breach", "kick", "pick"):
                return (500.0 + 100 * p) if self.role == "rescuers" and not seen else -1.0
            if task == "disarm":  # ruling Q-64: a device in reach, nobody shooting
                return 560.0 + 100 * p if not seen else -1.0
            if task == "restrain":  # ruling Q-63
                return 250.0 if not seen else -1.0
            if task == "climb":
                return 20.0 if self.role == "rescuers" and not seen else -1.0
            return 5.0
        if kind == "reload":  # ruling Q-60: reload when empty, or when low and out of sight
            loaded = int(hint.get("loaded", 0))
            if loaded == 0:
                return 870.0
            return 300.0 if not seen and loaded * 3 < int(hint.get("magazine", 1)) else -1.0
        if kind == "aim":  # at a figure in sight; aim at a point is left to players
            return 400.0 if seen and action.get("target") else -1.0
        if kind == "stand":
            return 450.0
        if kind == "hold":
            if self.role == "terrorists":
                return 350.0 if not seen else 200.0
            return 30.0 if seen else 5.0
        if kind == "wait":
            return 2.0
        if kind == "move":
            if self.role == "terrorists":
                return 3.0 + (0.5 if seen else 0.0) * self.closing(view, action, field)
            mode = action.get("mode")
            gain = self.closing(view, action, field)
            if not seen and self.escorting(view, action):  # lead the hostage out
                if mode == "fast":
                    return 3.0  # a secured hostage keeps up only at Normal pace
                gain = self.closing(view, action, self.field(self.extraction))
            bonus = {"normal": 1.0, "fast": 0.5 if not seen else -5.0, "stealthy": 0.2,
                     "crawl": -1.0}.get(str(mode), 0.0)
            return 100.0 + gain + bonus if gain > 0 else 3.0 + gain
        return 0.0

    def escorting(self, view: dict[str, Any], action: Action) -> bool:
        """Whether the moving figure has a secured hostage following it to an extraction zone."""
        if not self.extraction:
            return False
        figure = action.get("figure")
        return any(s.get("secured_by") == figure and s.get("side") == "hostages"
                   for s in view.get("seen", []))

    def fire_value(self, view: dict[str, Any], action: Action) -> float:
        hint = action.hint
        p = float(hint.get("p", 0.0))
        count = int(hint.get("count", 1))
        called = action.get("called")
        target = next((s for s in view.get("seen", []) if s.get("id") == action.get("target")),
                      None)
        near_hostage = False
        if target is not None and self.role == "rescuers":
            at = cell_of(target.get("at"))
            for s in view.get("seen", []):
                h = cell_of(s.get("at"))
                if s.get("side") == "hostages" and at is not None and h is not None and (
                        h.level == at.level and inches(h, at) <= 4):
                    near_hostage = True
        value = p * (1 + 0.6 * (count - 1))
        if called == "brain-stem":
            value = p * 2.2
        elif called == "head":
            value = p * 1.3
        elif called == "torso":
            value = p * 1.1
        if near_hostage:  # call single shots: a complete miss may strike the hostage (8.5)
            value = value * (1.5 if called in ("torso", "head", "brain-stem") else 0.3)
            value *= 1.0 if count == 1 else 0.4
        return 50.0 * value


def bot_for(scenario: Scenario, side: str) -> CqbBot:
    return CqbBot(scenario, side)
