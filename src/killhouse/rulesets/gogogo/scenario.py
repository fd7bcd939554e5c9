"""Scenarios for "Go! Go! Go!": what a file must say (ruling G-32) and the state it starts.

Extra keys: a side may say ``team: CT`` or ``team: T`` (else its id must be ``ct`` or
``t``); a bomb object may name its ``carrier``. ``objectives`` holds ``mission``
(hostage, destruction or assassination) and the zones in the shared vocabulary
(``attacker_start``, ``defender_start``, ``hostage_location``, ``rescue_zone``, ``bomb_sites``,
``escape_points``; the older ``ct_start``, ``t_start``, ``location``, ``rescue``, ``escape`` are
aliases); ``options`` holds
``per_player_views`` (G-35) and ``free_deployment``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from killhouse.core.cells import Cell
from killhouse.rulesets.gogogo.movement import enterable
from killhouse.rulesets.gogogo.state import (
    ASSASSINATION,
    CT,
    DESTRUCTION,
    HOSTAGE,
    HOSTAGE_MISSION,
    OPERATIVE,
    VIP,
    T,
    Zones,
)
from killhouse.rulesets.gogogo.tables import tables
from killhouse.scenario.model import FigureSpec, Issue, Scenario
from killhouse.scenario.objectives import Objectives, read_objectives

MISSION_NAMES: dict[str, str] = {
    "hostage": HOSTAGE_MISSION,
    "hostage-rescue": HOSTAGE_MISSION,
    "rescue": HOSTAGE_MISSION,
    "destruction": DESTRUCTION,
    "bomb": DESTRUCTION,
    "demolition": DESTRUCTION,
    "assassination": ASSASSINATION,
    "vip": ASSASSINATION,
    "escort": ASSASSINATION,
}
# canonical names of the shared vocabulary; the older keys ct_start, t_start, location,
# rescue and escape are its aliases
ZONE_KEYS = (
    "attacker_start", "defender_start", "hostage_location", "rescue_zone", "bomb_sites",
    "escape_points",
)
OBJECTIVE_KEYS = ("mission", *ZONE_KEYS)
OPTION_KEYS = ("per_player_views", "free_deployment")
TEAM_NAMES: dict[str, str] = {
    "ct": CT,
    "counter-terrorists": CT,
    "counterterrorists": CT,
    "counter_terrorists": CT,
    "t": T,
    "terrorists": T,
}
WEAPONS = ("auto", "sniper")
GRENADES = ("smoke", "stun", "he")
EQUIPMENT = (*WEAPONS, *GRENADES, "bomb")
SCENARIO_KEYS: Mapping[str, frozenset[str]] = {
    "side": frozenset({"team"}),
    "object": frozenset({"carrier"}),
}


@dataclass
class Plan:
    """What a scenario says, resolved: teams, mission, zones, loadouts (no state yet)."""

    mission: str = HOSTAGE_MISSION
    team_of: dict[str, str] = field(default_factory=dict)
    zones: Zones = field(default_factory=Zones)
    per_player: bool = False
    free: bool = False
    weapons: dict[str, str] = field(default_factory=dict)
    open_weapons: list[str] = field(default_factory=list)  # CT choosing auto or sniper at setup
    grenades: dict[str, dict[str, int]] = field(default_factory=dict)
    carrier: str | None = None
    bomb_id: str | None = None
    bomb_at: Cell | None = None
    issues: list[Issue] = field(default_factory=list)

    def issue(self, path: str, message: str, hint: str = "") -> None:
        self.issues.append(Issue(path, message, hint))


def team_of_side(side_id: str, extra: Mapping[str, Any]) -> str | None:
    value = extra.get("team")
    if isinstance(value, str):
        return {"ct": CT, "t": T}.get(value.strip().lower())
    return TEAM_NAMES.get(side_id.lower())


def _zone(
    objs: Objectives, scenario: Scenario, plan: Plan, key: str, default: str, required: bool
) -> frozenset[Cell]:
    """The cells of the zone (or zones) the objective ``key`` names (canonical key)."""
    raw = objs.get(key, default)
    written = objs.written(key)
    names: list[str]
    if isinstance(raw, str):
        names = [raw]
    elif isinstance(raw, list) and all(isinstance(n, str) for n in raw):
        names = list(raw)
    else:
        plan.issue(
            objs.path(key), f"expected a zone name or a list of zone names, found {raw!r}"
        )
        return frozenset()
    cells: set[Cell] = set()
    for name in names:
        if name not in scenario.board.zones:
            if key in objs or required:
                where = objs.path(key) if key in objs else "map.zones"
                known = ", ".join(sorted(scenario.board.zones)) or "none"
                plan.issue(
                    where,
                    f"no zone {name!r} for {written} on the map",
                    f"add it under map.zones (zones now: {known})",
                )
            continue
        cells |= scenario.board.zones[name]
    return frozenset(cells)


def _bomb_zone_default(scenario: Scenario) -> list[str]:
    return sorted(z for z in scenario.board.zones if z.lower().startswith("bomb"))


def plan_scenario(scenario: Scenario) -> Plan:
    """Resolve and check a scenario; ``plan.issues`` lists everything wrong with it."""
    plan = Plan()
    t = tables()
    # sides
    if len(scenario.sides) != 2:
        plan.issue(
            "sides", f"gogogo needs exactly two sides (CT and T), found {len(scenario.sides)}"
        )
    for side in scenario.sides:
        team = team_of_side(side.id, side.extra)
        if team is None:
            plan.issue(
                f"{side.path}.team",
                f"cannot tell whether side {side.id!r} is CT or T",
                "add team: CT or team: T, or name the side ct or t",
            )
        else:
            plan.team_of[side.id] = team
    if sorted(plan.team_of.values()) != [CT, T] and len(scenario.sides) == 2:
        plan.issue("sides", "one side must be CT and the other T")
    # objectives (the shared vocabulary, scenario/objectives.py) and options
    objs, issues = read_objectives(scenario.objectives, OBJECTIVE_KEYS)
    plan.issues.extend(issues)
    for key in scenario.options:
        if key not in OPTION_KEYS:
            plan.issue(
                f"options.{key}", f"unknown option {key!r}", "expected: " + ", ".join(OPTION_KEYS)
            )
    for key in OPTION_KEYS:
        if key in scenario.options and not isinstance(scenario.options[key], bool):
            plan.issue(f"options.{key}", f"expected true or false, found {scenario.options[key]!r}")
    plan.per_player = scenario.options.get("per_player_views") is True
    plan.free = scenario.options.get("free_deployment") is True
    raw_mission = objs.get("mission")
    if not isinstance(raw_mission, str) or raw_mission.lower() not in MISSION_NAMES:
        plan.issue(
            objs.path("mission"),
            f"unknown mission {raw_mission!r}",
            "expected hostage, destruction or assassination",
        )
    else:
        plan.mission = MISSION_NAMES[raw_mission.lower()]
    if scenario.turn_limit is not None and scenario.turn_limit < 1:
        plan.issue("turn_limit", "the turn limit must be at least 1")
    # zones
    mission = plan.mission
    # the default zone names are the map zones the older keys were named after
    z = Zones(
        ct_start=_zone(objs, scenario, plan, "attacker_start", "ct_start", False),
        t_start=_zone(objs, scenario, plan, "defender_start", "t_start", False),
        location=_zone(
            objs, scenario, plan, "hostage_location", "location", mission == HOSTAGE_MISSION
        ),
        rescue=_zone(objs, scenario, plan, "rescue_zone", "rescue", mission == HOSTAGE_MISSION),
        bomb_sites=_zone(
            objs,
            scenario,
            plan,
            "bomb_sites",
            _bomb_zone_default(scenario),  # type: ignore[arg-type]
            mission == DESTRUCTION,
        ),
        escape=_zone(
            objs, scenario, plan, "escape_points", "escape", mission == ASSASSINATION
        ),
    )
    plan.zones = z
    if (
        mission == DESTRUCTION
        and not z.bomb_sites
        and not any(i.path.startswith("objectives.bomb") for i in plan.issues)
    ):
        plan.issue(
            "map.zones",
            "a destruction mission needs bomb-site zones",
            "name them bomb_a, bomb_b … or list them under objectives.bomb_sites",
        )
    # figures
    ops = {CT: 0, T: 0}
    vips = [f for f in scenario.figures if f.kind == VIP]
    hostages = [f for f in scenario.figures if f.kind == HOSTAGE]
    for f in scenario.figures:
        team = plan.team_of.get(f.side) if f.side is not None else None
        if f.kind == VIP and team != CT:
            plan.issue(f"{f.path}.side", "the VIP belongs to the CT side (G-37)")
        if f.kind == OPERATIVE and team is not None:
            ops[team] += 1
        _equipment(plan, f, team)
        if f.id in ("CT", "T") or f.id in plan.team_of:
            plan.issue(
                f"{f.path}.id",
                f"figure id {f.id!r} clashes with a side or team name",
                "per-player views use figure ids as seats",
            )
    for team in (CT, T):
        if ops[team] == 0 and len(plan.team_of) == 2:
            plan.issue("figures", f"the {team} side has no operatives")
    if mission == ASSASSINATION and len(vips) != 1:
        plan.issue("figures", f"an assassination mission needs exactly one VIP, found {len(vips)}")
    if mission != ASSASSINATION and vips:
        plan.issue(f"{vips[0].path}.kind", "only the assassination mission has a VIP")
    if mission == HOSTAGE_MISSION and not hostages:
        plan.issue("figures", f"a hostage mission needs hostages (the source has {t.hostages})")
    if mission != HOSTAGE_MISSION and hostages:
        plan.issue(f"{hostages[0].path}.kind", "only the hostage mission has hostages")
    _bomb(plan, scenario)
    _deployment(plan, scenario)
    return plan


def _equipment(plan: Plan, f: FigureSpec, team: str | None) -> None:
    items = [e.strip().lower() for e in f.equipment]
    path = f"{f.path}.equipment"
    for item in items:
        if item not in EQUIPMENT:
            plan.issue(path, f"unknown equipment {item!r}", "expected: " + ", ".join(EQUIPMENT))
    if f.kind == HOSTAGE:
        if items:
            plan.issue(path, "hostages carry nothing")
        plan.weapons[f.id] = "none"
        plan.grenades[f.id] = {}
        return
    weapons = [i for i in items if i in WEAPONS]
    grenades = [i for i in items if i in GRENADES]
    if len(weapons) > 1:
        plan.issue(path, "a figure carries one weapon: auto or sniper")
    weapon = weapons[0] if weapons else "auto"
    if f.kind == VIP:
        if weapon != "auto" or grenades or "bomb" in items:
            plan.issue(path, "the VIP carries an automatic weapon and nothing else (G-37)")
        plan.weapons[f.id] = "auto"
        plan.grenades[f.id] = {}
        return
    plan.weapons[f.id] = weapon
    if team == CT and not weapons and f.at is None and f.kind == OPERATIVE:
        plan.open_weapons.append(f.id)  # ruling G-72: placed at setup, armed at setup (5.1)
    if team == CT:
        if "he" in grenades:
            plan.issue(path, "CT never carry HE grenades (they're the good guys)")
        if "bomb" in items:
            plan.issue(path, "only terrorists carry the bomb")
        if len(set(grenades)) != len(grenades):
            plan.issue(path, "a CT carries at most one smoke and one stun grenade")
        stock = (
            dict(tables().ct_grenades) if not grenades else {g: 1 for g in grenades if g != "he"}
        )
        plan.grenades[f.id] = stock
    elif team == T:
        if weapon == "sniper":
            plan.issue(path, "only CT may take a sniper rifle")
        if len(grenades) > 1:
            plan.issue(path, "a terrorist carries exactly one of HE, smoke or stun")
        plan.grenades[f.id] = {grenades[0]: 1} if grenades else {}
        if "bomb" in items:
            if plan.carrier is not None:
                plan.issue(path, "only one terrorist carries the bomb (G-30)")
            plan.carrier = f.id


def _bomb(plan: Plan, scenario: Scenario) -> None:
    bombs = [o for o in scenario.objects if o.type == "bomb"]
    for o in scenario.objects:
        if o.type != "bomb":
            plan.issue(
                f"{o.path}.type", f"gogogo has no {o.type!r} objects", "the only object is a bomb"
            )
    if plan.mission != DESTRUCTION:
        if bombs:
            plan.issue(bombs[0].path, "only the destruction mission has a bomb")
        if plan.carrier is not None:
            plan.issue("figures", "only the destruction mission has a bomb")
        plan.carrier = None
        return
    if len(bombs) > 1:
        plan.issue(bombs[1].path, "one bomb by default (G-30); the second counter is a spare")
    ids = {f.id for f in scenario.figures}
    if bombs:
        b = bombs[0]
        plan.bomb_id = b.id
        carrier = b.extra.get("carrier")
        if carrier is not None:
            spec = next((f for f in scenario.figures if f.id == carrier), None)
            if spec is None or spec.kind != OPERATIVE or plan.team_of.get(spec.side or "") != T:
                plan.issue(f"{b.path}.carrier", f"carrier {carrier!r} is not a terrorist operative")
            elif plan.carrier is not None and plan.carrier != carrier:
                plan.issue(f"{b.path}.carrier", f"{plan.carrier} already carries the bomb")
            else:
                plan.carrier = str(carrier)
            if b.at is not None:
                plan.issue(f"{b.path}.at", "a carried bomb has no place of its own")
        elif b.at is not None:
            if not enterable(scenario.board, b.at.level)[b.at.y, b.at.x]:
                plan.issue(f"{b.path}.at", "the bomb must lie where a figure can pick it up")
            plan.bomb_at = b.at
    else:
        plan.bomb_id = "the-bomb" if "the-bomb" not in ids else "the-bomb-1"


def _deployment(plan: Plan, scenario: Scenario) -> None:
    """Figures start in their zones (5.1, G-32) unless the scenario deploys freely."""
    z = plan.zones
    board = scenario.board
    taken: dict[Cell, str] = {}
    for f in scenario.figures:
        if f.at is not None:
            if f.at in taken:
                plan.issue(f"{f.path}.at", f"{f.id} and {taken[f.at]} start on the same square")
            taken[f.at] = f.id
            if not enterable(board, f.at.level)[f.at.y, f.at.x]:
                plan.issue(f"{f.path}.at", "a figure must start on a square it may stand on")
    if plan.mission == HOSTAGE_MISSION:
        for f in scenario.figures:
            if f.kind == HOSTAGE and f.at is not None and f.at in z.rescue:
                plan.issue(f"{f.path}.at", "a hostage cannot start in the rescue zone")
    for f in scenario.figures:
        if f.kind == VIP and f.at is not None and f.at in z.escape:
            plan.issue(f"{f.path}.at", "the VIP cannot start on an escape point")
    for f in scenario.figures:
        zone, name = deploy_zone(plan, f)
        if f.at is None:
            if not zone:
                plan.issue(
                    f.path,
                    f"{f.id} has no position and there is no {name} zone to deploy in",
                    "give it an 'at' or add the zone",
                )
            continue
        if plan.free:
            continue
        if f.at not in zone:
            plan.issue(
                f"{f.path}.at",
                f"{f.id} must start in the {name} zone (section 5.1)",
                "or set options.free_deployment: true",
            )
    unplaced = any(f.at is None for f in scenario.figures)
    if (not plan.free or unplaced) and z.ct_start & (z.t_start | z.location):
        plan.issue("map.zones", "the CT start zone overlaps the terrorists' deployment area")
    # placement during setup must never collide with a secret fixed enemy (G-32)
    unplaced_teams = {
        plan.team_of.get(f.side or "") if f.kind != HOSTAGE else T
        for f in scenario.figures
        if f.at is None
    }
    for f in scenario.figures:
        if f.at is None:
            continue
        team = plan.team_of.get(f.side or "") if f.kind != HOSTAGE else T
        for other in unplaced_teams:
            if other is None or other == team:
                continue
            zone = z.ct_start if other == CT else (z.t_start | z.location)
            if f.at in zone:
                plan.issue(f"{f.path}.at", f"{f.id} stands where the other side deploys at setup")


def deploy_zone(plan: Plan, f: FigureSpec) -> tuple[frozenset[Cell], str]:
    """Where a figure may be placed at setup (5.1): CT start, T start (or location), location."""
    z = plan.zones
    if f.kind == HOSTAGE:
        return z.location, "location"
    team = plan.team_of.get(f.side or "")
    if team == CT:
        return z.ct_start, "ct_start"
    if plan.mission == HOSTAGE_MISSION:
        return z.t_start | z.location, "t_start or location"  # G-32
    return z.t_start, "t_start"
