"""The snatch squad's loadout chosen in set-up (§18.1 "each picks any weapons from §8 (at most
two firearms and at most 4 grenades per figure) and may wear any non-powered armour"; rulings
F-270 … F-276).

``options: {loadout: {side: SIDE, firearms: 2, grenades: 4, armour: non-powered}}``: before
the deployment that side equips its figures one after another, in the file's order, in secret:
``kit-file`` takes the file's kit as it is (the suggestion, listed first); otherwise
``kit-armour`` (once), ``kit-weapon`` and ``kit-grenade`` (one item each time) build the kit up
within the limits and ``kit-done`` closes it. Every step is small, so each list of legal actions
is short and every kit the rule allows can be reached step by step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.rulesets.firewall.tables import Weapon, tables
from killhouse.scenario.model import Issue

#: §8 groups whose rows are firearms (ruling F-271); the Blunderbuss is the one archaic firearm
FIREARM_GROUPS = frozenset({"pistol", "smg", "assault_rifle", "battle_rifle", "shotgun",
                            "machinegun", "launcher", "rocket", "flamer", "nonlethal"})
ARCHAIC_FIREARMS = frozenset({"blunderbuss"})
#: §8 rows a figure does not pick (ruling F-271): vehicle machineguns and Guns (vehicle
#: mounts), the Hand Grenade row (grenades are picked by type) and under-barrel mounts
NOT_CARRIED_GROUPS = frozenset({"vmg", "gun", "grenade"})
#: one-shot thrown items (§8.0, F-111: one throw per item) a figure may carry up to this many
#: of; any other non-firearm at most once (a second adds nothing: its shots are unlimited)
THROWN_MAX = 4
ARMOUR_RULES = ("non-powered", "any")
KIT_KINDS = ("kit-file", "kit-armour", "kit-weapon", "kit-grenade", "kit-done")


@dataclass(frozen=True)
class LoadoutPlan:
    """Which side picks its figures' kit in set-up and the limits per figure (§18.1)."""

    side: str
    firearms: int = 2
    grenades: int = 4
    armour: str = "non-powered"


@dataclass(frozen=True)
class Kit:
    """A figure's equipment as the scenario file writes it (the suggested loadout)."""

    weapons: tuple[str, ...]
    melee: tuple[str, ...]
    grenades: tuple[tuple[str, int], ...]
    armour: str


def read_loadout(scenario: Any, players: Sequence[str], issues: list[Issue]
                 ) -> LoadoutPlan | None:
    """The ``loadout`` option, or ``None`` without it; one issue per bad field."""
    raw = scenario.options.get("loadout")
    if raw is None:
        return None
    hint = "e.g. loadout: {side: snatch, firearms: 2, grenades: 4, armour: non-powered}"
    if not isinstance(raw, Mapping):
        issues.append(Issue("options.loadout", "expected a mapping", hint))
        return None
    extra = sorted(str(k) for k in raw if k not in ("side", "firearms", "grenades", "armour"))
    if extra:
        issues.append(Issue(f"options.loadout.{extra[0]}", f"unknown key {extra[0]!r}",
                            "known: side, firearms, grenades, armour"))
        return None
    side = raw.get("side")
    if side not in players:
        issues.append(Issue("options.loadout.side", f"no player side {side!r}",
                            "the side whose players pick their figures' kit in set-up"))
        return None
    limits = {}
    for key, default, top in (("firearms", 2, 4), ("grenades", 4, 20)):
        value = raw.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
            issues.append(Issue(f"options.loadout.{key}", f"expected a whole number 0..{top}",
                                f"the most {key} per figure; §18.1 gives {default}"))
            return None
        limits[key] = value
    armour = raw.get("armour", "non-powered")
    if armour not in ARMOUR_RULES:
        issues.append(Issue("options.loadout.armour", f"unknown armour rule {armour!r}",
                            "non-powered (§18.1, F-52) or any"))
        return None
    return LoadoutPlan(str(side), limits["firearms"], limits["grenades"], str(armour))


def file_kit_issues(plan: LoadoutPlan, scenario: Any, figures: Mapping[str, Any]) -> list[Issue]:
    """The file's kits of the picking side are its suggestions (F-270), so each must be one
    the rule allows: at most the firearms and grenades, armour as the option says."""
    out: list[Issue] = []
    t = tables()
    for spec in scenario.figures:
        f = figures.get(spec.id)
        if f is None or f.side != plan.side:
            continue
        if firearms_carried(f.weapons) > plan.firearms:
            out.append(Issue(f"{spec.path}.equipment", f"{firearms_carried(f.weapons)} firearms; "
                             f"options.loadout allows {plan.firearms}",
                             "the file's kit is the suggested loadout (§18.1)"))
        if grenades_carried(f.weapons, f.grenades) > plan.grenades:
            out.append(Issue(f"{spec.path}.grenades", f"{grenades_carried(f.weapons, f.grenades)}"
                             f" grenades; options.loadout allows {plan.grenades}",
                             "the file's kit is the suggested loadout (§18.1)"))
        if f.armour not in armour_choices(plan.armour):
            out.append(Issue(f"{spec.path}.armour", f"{t.armour[f.armour].name} is powered "
                             "armour; options.loadout allows non-powered armour only",
                             "the file's kit is the suggested loadout (§18.1, F-52)"))
    return out


# -- what a figure may pick (rulings F-271, F-272) ------------------------------------------

def is_firearm(w: Weapon) -> bool:
    return w.group in FIREARM_GROUPS or w.id in ARCHAIC_FIREARMS


def _mounted(wid: str) -> bool:
    """An under-barrel launcher or the Daewoo shotgun: part of a rifle, not picked alone."""
    return wid in ("20mm_gl", "35mm_gl", "daewoo_18mm_shotgun")


def weapon_choices() -> tuple[str, ...]:
    """Every §8 row a figure may pick (F-271), in the tables' order."""
    return tuple(wid for wid, w in tables().weapons.items()
                 if w.group not in NOT_CARRIED_GROUPS and not _mounted(wid))


def grenade_choices() -> tuple[str, ...]:
    return tuple(tables().grenades)


def armour_choices(rule: str = "any") -> tuple[str, ...]:
    """The §13 armours, without powered ones unless the rule is ``any``."""
    return tuple(aid for aid, a in tables().armour.items()
                 if rule == "any" or not getattr(a, "powered", False))


def _thrown(w: Weapon) -> bool:
    return w.ammo == 1 and not w.grenade and not is_firearm(w)


def _counts_as_grenade(w: Weapon) -> bool:
    """Improvised bombs are thrown like grenades and count in the 4 (F-272)."""
    return w.grenade


def grenades_carried(weapons: Iterable[str], grenades: Mapping[str, int]) -> int:
    t = tables()
    return sum(grenades.values()) + sum(1 for w in weapons if _counts_as_grenade(t.weapons[w]))


def firearms_carried(weapons: Iterable[str]) -> int:
    return sum(1 for w in weapons if is_firearm(tables().weapons[w]))


# -- the step ---------------------------------------------------------------------------------

def begin(state: FirewallState) -> None:
    """Set-up: each figure of the side keeps its file kit aside as the suggestion and starts
    bare (street clothing, nothing carried) until it is equipped (ruling F-270)."""
    plan = state.loadout_plan
    if plan is None:
        return
    for f in state.figures.values():
        if f.side != plan.side:
            continue
        state.file_kits[f.id] = Kit(f.weapons, f.melee, tuple(sorted(f.grenades.items())),
                                    f.armour)
        f.weapons, f.melee, f.grenades, f.armour = (), (), {}, "street_clothing"
        state.kitting.append(f.id)
    state.kit_worn = False


def kit_deciders(state: FirewallState) -> list[str]:
    plan = state.loadout_plan
    return [plan.side] if plan is not None and state.kitting else []


def _untouched(state: FirewallState, fid: str) -> bool:
    f = state.figures[fid]
    return not (state.kit_worn or f.weapons or f.grenades)


def problem(state: FirewallState, action: Action) -> str | None:
    """Why ``action`` (a kit step) may not be taken now, or ``None`` (F-272)."""
    plan = state.loadout_plan
    if plan is None or action.side not in kit_deciders(state):
        return "only the side picking its kit decides it now"
    fid = state.kitting[0]
    if action.get("figure") != fid:
        return f"figures are equipped in the scenario's order: next is {fid}"
    f = state.figures[fid]
    t = tables()
    if action.kind == "kit-file":
        if not _untouched(state, fid):
            return f"{fid}'s kit is begun: add to it or close it with kit-done"
        return None
    if action.kind == "kit-armour":
        armour = str(action.get("armour"))
        if state.kit_worn:
            return f"{fid} has chosen its armour"
        if armour not in t.armour:
            return f"no armour {armour!r} (§13)"
        if armour not in armour_choices(plan.armour):
            return f"{t.armour[armour].name} is powered armour: the squad wears non-powered " \
                   "armour only (§18.1, F-52)"
        return None
    if action.kind == "kit-weapon":
        wid = str(action.get("weapon"))
        if wid not in t.weapons:
            return f"no weapon {wid!r} in the §8 tables"
        w = t.weapons[wid]
        if wid not in weapon_choices():
            return f"{w.name} is not carried by a figure on foot: vehicle weapons, the Hand " \
                   "Grenade row and under-barrel mounts are not picked (F-271)"
        if is_firearm(w) and firearms_carried(f.weapons) >= plan.firearms:
            return f"{fid} carries {plan.firearms} firearms already: at most " \
                   f"{plan.firearms} (§18.1)"
        if _counts_as_grenade(w) and grenades_carried(f.weapons, f.grenades) >= plan.grenades:
            return f"{fid} carries {plan.grenades} grenades already: at most " \
                   f"{plan.grenades}, improvised bombs counted (§18.1, F-272)"
        if not is_firearm(w) and not w.grenade:
            most = THROWN_MAX if _thrown(w) else 1
            if f.weapons.count(wid) >= most:
                return f"{fid} carries {most} {w.name} already: at most {most} (F-272)"
        return None
    if action.kind == "kit-grenade":
        gid = str(action.get("grenade"))
        if gid not in t.grenades:
            return f"no grenade type {gid!r} (§9)"
        if grenades_carried(f.weapons, f.grenades) >= plan.grenades:
            return f"{fid} carries {plan.grenades} grenades already: at most " \
                   f"{plan.grenades} (§18.1)"
        return None
    return None  # kit-done: any kit within the limits may be closed


def check(state: FirewallState, action: Action) -> None:
    reason = problem(state, action)
    if reason is not None:
        raise IllegalActionError(reason)


def options(state: FirewallState, side: str) -> Iterable[Action]:
    """The next figure's steps: the file's kit first (while the kit is untouched), then
    armours (once), weapons and grenades within the limits, then closing the kit."""
    if side not in kit_deciders(state):
        return []
    fid = state.kitting[0]
    hint = {"role": "setup"}
    candidates = [Action.make(side, "kit-file", figure=fid, hint={**hint, "scenario": True})]
    candidates += [Action.make(side, "kit-armour", figure=fid, armour=a, hint=hint)
                   for a in armour_choices()]
    candidates += [Action.make(side, "kit-weapon", figure=fid, weapon=w, hint=hint)
                   for w in weapon_choices()]
    candidates += [Action.make(side, "kit-grenade", figure=fid, grenade=g, hint=hint)
                   for g in grenade_choices()]
    candidates.append(Action.make(side, "kit-done", figure=fid, hint=hint))
    return [a for a in candidates if problem(state, a) is None]


def options_of(kind: str) -> Callable[[FirewallState, str], list[Action]]:
    """The options of one kit move (each move lists its own kind only)."""
    def listed(state: FirewallState, side: str) -> list[Action]:
        return [a for a in options(state, side) if a.kind == kind]
    return listed


def resolve(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """One kit step; told to the equipping side only (ruling F-275)."""
    fid = state.kitting[0]
    f = state.figures[fid]
    told = frozenset({f.side})
    if action.kind == "kit-file":
        kit = state.file_kits[fid]
        f.weapons, f.melee, f.grenades, f.armour = (kit.weapons, kit.melee, dict(kit.grenades),
                                                    kit.armour)
        _close(state, log, told)
        return
    if action.kind == "kit-armour":
        f.armour = str(action.get("armour"))
        state.kit_worn = True
        log.emit("kit", {"figure": fid, "armour": f.armour}, told)
    elif action.kind == "kit-weapon":
        f.weapons = (*f.weapons, str(action.get("weapon")))
        log.emit("kit", {"figure": fid, "weapon": f.weapons[-1]}, told)
    elif action.kind == "kit-grenade":
        gid = str(action.get("grenade"))
        f.grenades = {**f.grenades, gid: f.grenades.get(gid, 0) + 1}
        log.emit("kit", {"figure": fid, "grenade": gid}, told)
    else:
        _close(state, log, told)


def _close(state: FirewallState, log: EventLog, told: frozenset[str]) -> None:
    f = state.figures[state.kitting.pop(0)]
    state.kit_worn = False
    log.emit("equipped", {"figure": f.id, "weapons": list(f.weapons), "melee": list(f.melee),
                          "grenades": dict(sorted(f.grenades.items())), "armour": f.armour},
             told)


def kit_prompt(state: FirewallState) -> str:
    plan = state.loadout_plan
    firearms, grenades = (plan.firearms, plan.grenades) if plan else (2, 4)
    return (f"equip your next figure in secret: the scenario's kit, or armour, weapons (at most "
            f"{firearms} firearms) and grenades (at most {grenades}) one at a time, then "
            "kit-done (§18.1)")


def kit_done(state: FirewallState) -> bool:
    return not state.kitting
