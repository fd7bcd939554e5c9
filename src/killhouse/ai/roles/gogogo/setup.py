"""Secret setup (5.1): weapons, grenades, the bomb carrier, placements and facings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from killhouse.ai.baseline import cell_of
from killhouse.ai.roles.gogogo.common import centre, cheb, id_order
from killhouse.ai.roles.gogogo.grenades import Grenades
from killhouse.core.cells import Cell
from killhouse.core.rng import Rng
from killhouse.rulesets.base import Action
from killhouse.rulesets.gogogo.facts import HOSTAGE_MISSION, T, sector


class Setup(Grenades):
    """The side's setup choices, one action at a time."""

    def _setup(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        """Secret setup (5.1): loadouts, the bomb carrier, then placements and facings."""
        kinds = {a.kind for a in actions}
        draft = view.get("draft") or {}
        if "face" in kinds:
            faces = [a for a in actions if a.kind == "face"]
            toward = centre(self.enemy_start)
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
        spread = [(c, a) for c, a in spots if all(cheb(c, m) >= 2 for m in mine)] or spots
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
            held, key=lambda kc: (sum(1 for g in guards if cheb(g, kc[1]) <= 3), kc[0])
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
