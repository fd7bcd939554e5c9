"""The terrorists' role bot: guard the hostages, hold rooms, answer alarms and noise."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from killhouse.ai.baseline import cell_of
from killhouse.ai.roles.execute import scoring
from killhouse.ai.roles.execute.common import NO_SHOTS, ExecuteBot, MoveRead, figure_number
from killhouse.core.cells import Cell
from killhouse.core.geometry import chebyshev
from killhouse.core.paths import DistanceField
from killhouse.core.rng import Rng
from killhouse.rulesets.base import Action
from killhouse.scenario.model import Scenario


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
            return boom or self.best_throw(view, actions, rng, 0.5)
        if phase == "firing":
            return self.best_shot(view, actions, rng, 0.0) or self.escapees(view, actions)
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
        moves = self.move_list(actions)
        score = self.close_in_scores(moves, self.places(mine), field, seen_agents)
        return self.pick_scored(moves, score, rng)

    def close_in_scores(self, moves: list[MoveRead], where: dict[str, Cell | None],
                        field: DistanceField | None,
                        seen_agents: list[Cell]) -> NDArray[np.float64]:
        """Per move, what closing in on the agents' ``field`` by it is worth (NaN where it
        gains nothing, scores 0 or less, or its figure holds: a guard, or a figure with a shot
        at a seen agent): every move at once, by the compiled ``scoring.close_in``."""
        if field is None or not moves:
            return np.full(len(moves), np.nan)
        shots = self.los_flat(seen_agents) if seen_agents else None
        costs = self.flat_costs(field)
        packed, figs = self.move_arrays(moves)
        size = int(figs.max()) + 1
        # per figure that may move: its own cost on the field (-1 out of reach)
        movable = np.zeros(size, dtype=bool)
        here_cost = np.full(size, -1, dtype=np.int64)
        for fid, here in where.items():
            k = figure_number(fid)
            if here is None or fid in self.guards or k >= size:
                continue
            flat = self.flat_index(here)
            if shots is not None and shots[flat]:
                continue  # already has a shot: hold and fire
            movable[k] = True
            here_cost[k] = costs[flat]
        # close in, but stop short: a square with a shot at one agent beats walking into many
        return scoring.close_in(packed, figs, movable, here_cost, self._offsets, self._widths,
                                costs, NO_SHOTS if shots is None else shots)
