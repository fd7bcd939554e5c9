"""Grenades: stun and HE where seen enemies bunch and no friend or hostage is near, smoke on a
shooter when escorting, and a stun grenade into each hostage room before the CT go in."""

from __future__ import annotations

from typing import Any

from killhouse.ai.roles.gogogo.common import FigurePlan, Seen, d2
from killhouse.ai.roles.gogogo.goals import Goals
from killhouse.core.cells import Cell
from killhouse.core.geometry import line_of_sight, los_pairs
from killhouse.rulesets.gogogo.facts import ASSASSINATION, CT, HOSTAGE_MISSION, T, numbers


class Grenades(Goals):
    """Which figure throws what where this turn."""

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
        t = numbers()
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
                    span = d2(e.at, here)
                    if not 1 <= span <= t.max_throw_sq:
                        continue
                    if not line_of_sight(
                        self.board.opaque(here.level), (here.x, here.y), (e.at.x, e.at.y)
                    ):
                        continue
                    near = sum(1 for o in enemies if d2(o.at, e.at) <= t.radius_sq)
                    mine = sum(1 for c in friends if d2(c, e.at) <= t.radius_sq)
                    if grenade == "smoke":
                        value = 1 if escorting and mine == 0 else 0
                    else:
                        value = near - 2 * mine
                        if (
                            careful
                            and grenade == "he"
                            and any(d2(c, e.at) <= 36 for c in hostage_cells)
                        ):
                            value = 0
                        if (
                            grenade == "he"
                            and self.team == T
                            and any(d2(c, e.at) <= 25 for c in hostage_cells)
                        ):
                            value = 0
                    if value > 0 and (best is None or value > best[0]):
                        best = (value, e.at)
                if best is None:
                    continue
                value, target = best
                far = d2(here, target) > 16
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
        t = numbers()
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
                # the squares in range and clear of friends, then their throw lines traced in
                # one batch: the best key (it ends with the square) is the same in any order
                hx, hy = here.x, here.y
                near: list[tuple[Cell, int]] = []
                for cell in room - self.searched:
                    span = (cell.x - hx) ** 2 + (cell.y - hy) ** 2  # d2(here, cell)
                    if not 9 <= span <= t.max_throw_sq or cell.level != here.level:
                        continue
                    if any(
                        (c.x - cell.x) ** 2 + (c.y - cell.y) ** 2 <= t.radius_sq for c in friends
                    ):
                        continue
                    near.append((cell, span))
                best: tuple[int, int, Cell] | None = None
                if near:
                    clear = los_pairs(
                        self.board.opaque(here.level),
                        [(hx, hy)] * len(near),
                        [(c.x, c.y) for c, _ in near],
                    ).tolist()
                    for (cell, span), seen in zip(near, clear, strict=True):
                        if not seen:
                            continue
                        hits = sum(1 for e in enemies if d2(e.at, cell) <= 16)
                        key = (abs(span - 36), -hits, cell)
                        if best is None or key < best:
                            best = key
                if best is not None:
                    plan.task, plan.grenade, plan.target = "throw", "stun", best[2]
                    self.stunned_rooms.add(i)
                    break
