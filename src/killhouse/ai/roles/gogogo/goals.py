"""Mission goals per figure: what each counter-terrorist and terrorist is drawn to this turn."""

from __future__ import annotations

from typing import Any

from killhouse.ai.baseline import cell_of
from killhouse.ai.roles.gogogo.common import FigurePlan, Seen, d2, ring
from killhouse.ai.roles.gogogo.routes import Routes
from killhouse.core.cells import Cell
from killhouse.core.geometry import chebyshev
from killhouse.rulesets.gogogo.facts import (
    AIM,
    ASSASSINATION,
    CT,
    DESTRUCTION,
    HIDE,
    HOLD,
    HOSTAGE_MISSION,
    MOVE,
    STEALTH,
)


class Goals(Routes):
    """Per figure: goal cells, posture, and whether it must stay out of sight."""

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
            in_sight = any(self._sight(here, e.at) and d2(here, e.at) <= close for e in enemies)
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
                    and chebyshev(h.at, here) == 1
                    and h.id not in plans[fid].follows
                ):
                    plans[fid].follows.append(h.id)  # out of its sight arc, but we know it's there
            if leading or plans[fid].follows:
                taken = {h.id for h in leading} | set(plans[fid].follows)
                others = [
                    at
                    for hid, at in self.hostage_memory.items()
                    if hid not in taken and at.level == here.level and d2(at, here) <= 36
                ]
                if others and not in_sight:  # gather the room's other hostages on the way out
                    return ring({min(others, key=lambda c: d2(c, here))}), MOVE, True
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
            near = ring(targets) or unsearched or frozenset(z.location)
            return near, advance, False
        if self.mission == DESTRUCTION:
            bomb = view.get("explosive") or {}
            if bomb.get("planted"):
                at = cell_of(bomb.get("at"))
                if at is not None:
                    if chebyshev(at, here) <= 1 and at.level == here.level:
                        plans[fid].task = "defuse"
                        return frozenset(), HOLD, False
                    return ring({at}), MOVE, False
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
                if chebyshev(at, here) <= 4:
                    return frozenset(), guard, False
                return ring({at}, 3), MOVE, False
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
            return ring(site, 2), MOVE if quiet else STEALTH, False
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
