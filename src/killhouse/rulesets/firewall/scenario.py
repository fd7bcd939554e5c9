"""Reading a scenario file's firewall keys into figures, Fire Teams and the objective (§18).

Figure keys: ``team`` (required), ``leader``, ``type`` (§2.1 figure type), ``experience``,
``gutz`` (a listed Gutz is final), ``armour``, ``grenades`` ({type: count}), ``cyber``
(functions), ``skills`` ({skill: level}), ``cp``, ``leader_loss`` (false: never rolls),
``alarm`` (carries a bleeper), ``arrives`` (held off the table until the alarm calls it, or
until that Turn). ``equipment`` lists weapons by id or printed name. ``kind: hostage``
figures are helpless and belong to no side. Side keys: ``entry`` (n, e, s or w).
Objectives: ``type`` (eliminate, snatch, rescue, spike) and its keys; objects of type
``counter`` with a ``number``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from killhouse.rulesets.firewall.buildings import Section
from killhouse.rulesets.firewall.objectives import EDGES, HOSTAGES, KINDS, Counter, Objective
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status, Team, new_figure
from killhouse.scenario.model import Issue, Scenario

FIGURE_KEYS = frozenset({
    "team", "leader", "type", "experience", "gutz", "armour", "grenades", "cyber", "skills",
    "cp", "leader_loss", "alarm", "arrives", "gas_mask", "drugs",
    "transport",  # vehicles hook: personal transport (§17.1)
})
#: drugs a scenario may not carry: none since Berserk and Paranoid are played (F-192, F-193)
UNBUILT_DRUGS: frozenset[str] = frozenset()
SIDE_KEYS = frozenset({"entry"})
OPTIONS = ("night", "skills", "storey_cm",  # storey_cm: F-250
           "edges", "closed_edges",  # edges: fwsetup (F-210 …)
           "hidden_deploy", "path_end",  # fwsetup: §18.1 in set-up (F-215 … F-217)
           "loadout")  # fwkit: §18.1's kit picked in set-up (F-270 …)
CYBER = frozenset({
    "lo_light", "target_optic", "enhanced_vision", "ir_goggles", "combat_computer",
    "cyber_legs_basic", "cyber_legs_advanced", "cyber_arm", "cyber_ear", "wired_reflexes",
    "lung_filters", "re_breather", "muscle_grafts", "skill_chip", "built_in_weapon",
})
FACING = {"n": (0, -1), "ne": (1, -1), "e": (1, 0), "se": (1, 1), "s": (0, 1),
          "sw": (-1, 1), "w": (-1, 0), "nw": (-1, -1)}


@dataclass
class Setup:
    """What a scenario file sets up: figures and teams, the objective and its parts."""

    figures: dict[str, Figure]
    teams: dict[str, Team]
    sides: tuple[str, ...]
    players: tuple[str, ...]
    objective: Objective
    entry: dict[str, str] = field(default_factory=dict)
    counters: dict[str, Counter] = field(default_factory=dict)
    arrival: dict[str, int] = field(default_factory=dict)
    night: bool = False
    #: the counter the scenario names as the spike; otherwise the GM's is drawn (F-85)
    spike: str | None = None
    sections: dict[str, Section] = field(default_factory=dict)
    #: vehicles (§17, vehicles/scenario.py) by id
    vehicles: dict[str, Any] = field(default_factory=dict)
    #: the optional skills rules (Hide and Search, ruling F-104)
    skills: bool = False
    #: the height of one storey in cm (§1.2's 10 cm unless the scenario says, ruling F-250)
    storey_cm: int = 10
    #: entry edges chosen in set-up (``options.edges``, rulings F-210 … F-212)
    edges: Any = None
    #: §18.1's secret deployment and path end (``parkdeploy.DeployPlan``, F-215 … F-217)
    deploy: Any = None
    #: §18.1's loadout picked in set-up (``loadout.LoadoutPlan``, F-270 …)
    loadout: Any = None


def _facing(value: str | None, index: int) -> tuple[int, int]:
    if value is None:
        return (0, -1)
    key = value.lower()
    key = {"north": "n", "south": "s", "east": "e", "west": "w"}.get(key, key)
    if key in FACING:
        return FACING[key]
    try:
        degrees = int(key) % 360
    except ValueError:
        return (0, -1)
    return list(FACING.values())[round(degrees / 45) % 8]


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _figure(fspec: Any, issues: list[Issue]) -> tuple[Figure, str, bool, Any] | None:
    """One figure from its spec, or ``None`` with the issues that stop it."""
    t = tables()
    path = fspec.path
    extra: Mapping[str, Any] = fspec.extra
    hostage = fspec.kind == "hostage"
    side = HOSTAGES if hostage else fspec.side
    if side is None:
        issues.append(Issue(f"{path}.side", "every firewall figure but a hostage has a side"))
        return None
    team = str(extra.get("team", HOSTAGES if hostage else ""))
    if not team:
        issues.append(Issue(f"{path}.team", "every figure belongs to a Fire Team (§4)",
                            "e.g. team: alpha"))
        return None
    kind = str(extra.get("type", "civilian"))
    if kind not in t.gutz_base:
        issues.append(Issue(f"{path}.type", f"unknown figure type {kind!r}",
                            "known: " + ", ".join(t.gutz_base)))
        return None
    experience = str(extra.get("experience", "normal"))
    if experience not in t.experience:
        issues.append(Issue(f"{path}.experience", f"unknown experience {experience!r}",
                            "known: " + ", ".join(t.experience)))
        return None
    gutz = extra.get("gutz")
    if gutz is not None and (not _int(gutz) or not t.min_gutz <= gutz <= t.max_gutz):
        issues.append(Issue(f"{path}.gutz", f"Gutz must be a whole number "
                            f"{t.min_gutz}..{t.max_gutz}"))
        return None
    armour = str(extra.get("armour", "street_clothing"))
    if armour not in t.armour:
        issues.append(Issue(f"{path}.armour", f"unknown armour {armour!r}",
                            "known: " + ", ".join(t.armour)))
        return None
    from killhouse.rulesets.firewall.closecombat import melee_item
    weapons: list[str] = []
    melee: list[str] = []
    for j, item in enumerate(fspec.equipment):
        try:
            weapons.append(t.weapon(str(item)).id)
        except KeyError:
            kit = melee_item(str(item))
            if kit is not None:
                melee.append(kit)  # ruling F-109: a close-combat weapon
                continue
            issues.append(Issue(f"{path}.equipment[{j}]", f"no weapon {item!r} in the §8 tables",
                                "a weapon id such as colt_m2117 or its printed name, or a "
                                "close-combat item (knife, sword, ball-peen hammer …)"))
    if hostage and (weapons or melee):
        issues.append(Issue(f"{path}.equipment", "hostages carry no weapons"))
    grenades: dict[str, int] = {}
    raw = extra.get("grenades", {})
    if not isinstance(raw, Mapping):
        issues.append(Issue(f"{path}.grenades", "expected a mapping of grenade type to count",
                            "e.g. grenades: {fragmentation: 2}"))
    else:
        for name, count in raw.items():
            try:
                gid = t.grenade(str(name)).id
            except KeyError:
                issues.append(Issue(f"{path}.grenades.{name}", f"no grenade type {name!r} (§9)",
                                    "known: " + ", ".join(t.grenades)))
                continue
            if not _int(count) or count < 0 or count > 20:
                issues.append(Issue(f"{path}.grenades.{name}", "expected a count 0..20"))
                continue
            grenades[gid] = count
    cyber = extra.get("cyber", [])
    if not isinstance(cyber, list) or any(str(c) not in CYBER for c in cyber):
        issues.append(Issue(f"{path}.cyber", "unknown cyber function",
                            "known: " + ", ".join(sorted(CYBER))))
        cyber = []
    skills = extra.get("skills", {})
    if not isinstance(skills, Mapping) or any(
        str(k) not in t.skills["skills"] or not _int(v) or not 0 <= v <= 3
        for k, v in skills.items()
    ):
        issues.append(Issue(f"{path}.skills", "expected {skill: level 0..3} with §16 skills"))
        skills = {}
    drugs: dict[str, int] = {}
    raw_drugs = extra.get("drugs", {})
    if not isinstance(raw_drugs, Mapping):
        issues.append(Issue(f"{path}.drugs", "expected a mapping of drug to doses",
                            "e.g. drugs: {p90: 2}"))
    else:
        for name, doses in raw_drugs.items():
            key = str(name).lower().replace("'", "").replace(" ", "_").replace("-", "_")
            if key not in t.drugs:
                issues.append(Issue(f"{path}.drugs.{name}", f"no drug {name!r} (§15)",
                                    "known: " + ", ".join(sorted(set(t.drugs) - UNBUILT_DRUGS))))
            elif key in UNBUILT_DRUGS:
                issues.append(Issue(f"{path}.drugs.{name}", f"{name} is not built: its critical "
                                    "failure (Berserk, Paranoid) is not played (F-115)"))
            elif not _int(doses) or not 0 <= doses <= 10:
                issues.append(Issue(f"{path}.drugs.{name}", "expected 0..10 doses"))
            else:
                drugs[key] = int(doses)
    cp = extra.get("cp", 0)
    if not _int(cp) or cp < 0:
        issues.append(Issue(f"{path}.cp", "expected a whole number of cyber points"))
        cp = 0
    arrives = extra.get("arrives")
    if arrives is not None and arrives != "alarm" and (not _int(arrives) or arrives < 1):
        issues.append(Issue(f"{path}.arrives", "expected a Turn number or 'alarm'"))
    if fspec.at is None and arrives is None:
        issues.append(Issue(f"{path}.at", "every firewall figure is placed on the map",
                        "a figure with arrives: enters by a move from its edge instead"))
        return None
    if fspec.at is not None and arrives is not None:
        issues.append(Issue(f"{path}.at", "an arriving figure enters by a move from its "
                            "table edge (F-198)", "remove at: (arrives: says when)"))
        return None
    if issues:
        return None
    # an arriving figure (ruling F-198) waits off the table on level 0 until it enters
    x, y, level = (fspec.at.x, fspec.at.y, fspec.at.level) if fspec.at else (0, 0, 0)
    figure = new_figure(
        fspec.id, side, team, (x, y), kind=kind, experience=experience,
        is_leader=bool(extra.get("leader", False)), gutz=gutz, level=level,
        facing=_facing(fspec.facing, 0), armour=armour, weapons=tuple(weapons),
        melee=tuple(melee),
        grenades=grenades,
        cyber=frozenset(str(c) for c in cyber) | (
            {"gas_mask"} if extra.get("gas_mask") else set()),
        skills={str(k): int(v) for k, v in skills.items()}, cp=cp, drugs=drugs,
        rolls_leader_loss=bool(extra.get("leader_loss", True)) and not hostage,
        hidden=bool(fspec.hidden), alarm=bool(extra.get("alarm", False)),
    )
    if hostage:
        figure.status = Status.INCAPACITATED  # hostages are bound: helpless (F-84)
    if arrives is not None:
        figure.status = Status.RESERVE
    return figure, team, bool(extra.get("leader", False)), arrives


def read_scenario(scenario: Scenario) -> tuple[Setup | None, list[Issue]]:
    """The set-up a scenario describes, or the issues that stop it (each on its field path)."""
    issues: list[Issue] = []
    sides = tuple(s.id for s in scenario.sides)
    players = tuple(s.id for s in scenario.sides if s.role != "umpire")
    if len(players) < 2:
        issues.append(Issue("sides", "firewall needs at least two player sides",
                            "a game master's side is marked umpire: true"))
    if HOSTAGES in sides:
        issues.append(Issue("sides", f"{HOSTAGES!r} is the hostages' own side",
                            "give hostages kind: hostage and no side"))
    entry: dict[str, str] = {}
    for i, s in enumerate(scenario.sides):
        edge = s.extra.get("entry")
        if edge is not None:
            if edge not in EDGES:
                issues.append(Issue(f"sides[{i}].entry", f"unknown edge {edge!r}", "n, e, s or w"))
            elif edge in entry.values():
                issues.append(Issue(f"sides[{i}].entry", "two sides may not share an entry edge "
                                    "(F-56)"))
            else:
                entry[s.id] = str(edge)
    for key in scenario.options:
        if key not in OPTIONS:
            issues.append(Issue(f"options.{key}", f"unknown option {key!r}",
                                "known: " + ", ".join(OPTIONS)))
    storey = scenario.options.get("storey_cm", 10)
    if not _int(storey) or not 1 <= storey <= 99:
        issues.append(Issue("options.storey_cm", "expected a whole number of cm 1..99",
                            "the height of one storey; §1.2 gives 10 (F-250)"))
    figures: dict[str, Figure] = {}
    members: dict[str, list[str]] = {}
    leaders: dict[str, list[str]] = {}
    arrivals: dict[str, Any] = {}
    team_side: dict[str, str] = {}
    for fspec in scenario.figures:
        own: list[Issue] = []
        got = _figure(fspec, own)
        issues.extend(own)
        if got is None:
            continue
        figure, team, leader, arrives = got
        if "transport" in fspec.extra:  # vehicles hook: §17.1
            from killhouse.rulesets.firewall.vehicles.scenario import read_transport
            figure.transport = read_transport(fspec, issues)
        if team in sides:
            issues.append(Issue(f"{fspec.path}.team", f"team {team!r} has a side's name",
                                "a team's name is secret from the other sides; a side's is not"))
            continue
        if team in team_side and team_side[team] != figure.side:
            issues.append(Issue(f"{fspec.path}.team", f"team {team!r} belongs to side "
                                f"{team_side[team]!r}"))
            continue
        team_side[team] = figure.side
        figures[figure.id] = figure
        members.setdefault(team, []).append(figure.id)
        if leader:
            leaders.setdefault(team, []).append(figure.id)
        if arrives is not None:
            arrivals[team] = arrives
    teams: dict[str, Team] = {}
    for tid, ids in members.items():
        if len(leaders.get(tid, [])) > 1:
            issues.append(Issue("figures", f"team {tid!r} has more than one leader"))
        lead = leaders.get(tid, [None])[0]
        teams[tid] = Team(tid, team_side[tid], tuple(ids), lead,
                          aware=team_side[tid] == HOSTAGES,
                          activated_this_turn=team_side[tid] == HOSTAGES)
    objective, more = _objective(scenario, figures, teams, players)
    issues.extend(more)
    counters: dict[str, Counter] = {}
    sections: dict[str, Section] = {}
    vehicles: dict[str, Any] = {}
    for j, obj in enumerate(scenario.objects):
        number = obj.extra.get("number", j + 1)
        if obj.type == "section":
            made = _section(scenario, j, obj, issues)
            if made is not None:
                sections[made.id] = made
            continue
        if obj.type == "vehicle":  # vehicles hook (§17)
            from killhouse.rulesets.firewall.vehicles.scenario import read_vehicle
            car = read_vehicle(scenario, j, obj, figures, teams, players, issues)
            if car is not None:
                vehicles[car.id] = car
            continue
        if obj.type != "counter":
            issues.append(Issue(f"objects[{j}].type", f"unknown object type {obj.type!r}",
                                "counter, section or vehicle"))
        elif obj.at is None:
            issues.append(Issue(f"objects[{j}].at", "a counter is placed on the map"))
        elif not _int(number):
            issues.append(Issue(f"objects[{j}].number", "expected a whole number"))
        else:
            counters[obj.id] = Counter(obj.id, number, (obj.at.x, obj.at.y), obj.at.level)
    if objective.kind == "spike" and not counters:
        issues.append(Issue("objects", "the spike objective needs counters",
                            "objects: [{id: c1, type: counter, number: 1, at: ...}]"))
    spike = scenario.objectives.get("spike")
    if spike is not None and spike not in counters:
        issues.append(Issue("objectives.spike", f"no counter {spike!r}",
                            "the id of the counter that is the data-spike"))
    from killhouse.rulesets.firewall.entryedges import read_edges  # fwsetup hook
    edges = read_edges(scenario, entry, players, issues)
    from killhouse.rulesets.firewall.parkdeploy import read_deploy  # fwsetup hook
    deploy = read_deploy(scenario, players, teams, issues)
    from killhouse.rulesets.firewall.loadout import read_loadout  # fwkit hook
    loadout = read_loadout(scenario, players, issues)
    if loadout is not None:  # the file's kits are the suggestions: within the limits
        from killhouse.rulesets.firewall.loadout import file_kit_issues
        issues.extend(file_kit_issues(loadout, scenario, figures))
    if objective.kind == "spike" and set(players) - set(entry) \
            and "edges" not in scenario.options:
        issues.append(Issue("sides", "every player side names its entry edge (entry: n/e/s/w)",
                            "or let the players choose them: options: {edges: choose}"))
    arrival: dict[str, int] = {}
    for tid, when in arrivals.items():
        if when == "alarm":
            if objective.alarm_team != tid:
                issues.append(Issue("objectives.alarm_team", f"team {tid!r} arrives on the "
                                    "alarm but is not the objective's alarm_team"))
        elif _int(when):
            arrival[tid] = int(when)
    if issues:
        return None, issues
    return Setup(figures, teams, sides, players, objective, entry, counters, arrival,
                 night=bool(scenario.options.get("night", False)),
                 skills=bool(scenario.options.get("skills", False)),
                 storey_cm=int(storey),
                 spike=None if spike is None else str(spike), sections=sections,
                 vehicles=vehicles, edges=edges, deploy=deploy, loadout=loadout), []


def _section(scenario: Scenario, j: int, obj: Any, issues: list[Issue]) -> Section | None:
    """A building section (§12, F-36): ``at`` its top-left square, ``size`` [w, h] (4 × 4
    by default), ``armour`` soft, light (default), medium or heavy."""
    from killhouse.rulesets.firewall.tables import ARMOUR_CLASSES
    if obj.at is None:
        issues.append(Issue(f"objects[{j}].at", "a section is placed on the map",
                            "at: its top-left square"))
        return None
    size = obj.extra.get("size", [4, 4])
    if (not isinstance(size, list) or len(size) != 2 or not all(_int(v) for v in size)
            or not all(1 <= v <= 16 for v in size)):
        issues.append(Issue(f"objects[{j}].size", "expected [width, height], 1..16 squares each"))
        return None
    armour = str(obj.extra.get("armour", "light"))
    if armour not in ARMOUR_CLASSES:
        issues.append(Issue(f"objects[{j}].armour", f"unknown armour class {armour!r}",
                            ", ".join(ARMOUR_CLASSES)))
        return None
    level = scenario.board.levels[obj.at.level]
    squares = tuple((x, y) for y in range(obj.at.y, obj.at.y + size[1])
                    for x in range(obj.at.x, obj.at.x + size[0]))
    if any(not (0 <= x < level.width and 0 <= y < level.height) for x, y in squares):
        issues.append(Issue(f"objects[{j}].size", "the section runs off the map"))
        return None
    return Section(obj.id, obj.at.level, squares, armour)


def _objective(
    scenario: Scenario, figures: Mapping[str, Figure], teams: Mapping[str, Team],
    players: tuple[str, ...],
) -> tuple[Objective, list[Issue]]:
    raw = dict(scenario.objectives)
    issues: list[Issue] = []
    kind = str(raw.get("type", "eliminate"))
    if kind not in KINDS:
        return Objective(), [Issue("objectives.type", f"unknown objective {kind!r}",
                                   "known: " + ", ".join(KINDS))]
    known = {"type", "target", "taker", "rescuers", "captors", "max_hostage_losses",
             "wake_on_action", "still", "surrenders", "alarm_team", "spike"}
    for key in raw:
        if key not in known:
            issues.append(Issue(f"objectives.{key}", f"unknown key {key!r}",
                                "known: " + ", ".join(sorted(known))))

    def side(key: str) -> str | None:
        value = raw.get(key)
        if value is None:
            issues.append(Issue(f"objectives.{key}", f"the {kind} objective names {key}"))
            return None
        if value not in players:
            issues.append(Issue(f"objectives.{key}", f"no player side {value!r}"))
            return None
        return str(value)

    def ids(key: str) -> frozenset[str]:
        value = raw.get(key, [])
        if not isinstance(value, list) or any(str(v) not in figures for v in value):
            issues.append(Issue(f"objectives.{key}", "expected a list of figure ids"))
            return frozenset()
        return frozenset(str(v) for v in value)

    wake = raw.get("wake_on_action", {})
    if not isinstance(wake, Mapping) or any(
        str(t) not in teams or s not in players for t, s in wake.items()
    ):
        issues.append(Issue("objectives.wake_on_action", "expected {team: side}"))
        wake = {}
    alarm_team = raw.get("alarm_team")
    if alarm_team is not None and alarm_team not in teams:
        issues.append(Issue("objectives.alarm_team", f"no team {alarm_team!r}"))
    objective = Objective(kind=kind, wake_on_action={str(k): str(v) for k, v in wake.items()},
                          still=ids("still"), surrenders=ids("surrenders"),
                          alarm_team=None if alarm_team is None else str(alarm_team))
    if kind == "snatch":
        target = raw.get("target")
        if target not in figures:
            issues.append(Issue("objectives.target", f"no figure {target!r} to snatch"))
        taker = side("taker")
        if len(players) != 2:
            issues.append(Issue("sides", "the snatch objective has two player sides"))
        objective = Objective(**{**objective.__dict__, "target": str(target), "taker": taker})
    elif kind == "extract":  # vehicles hook: §18.2, the Mayor leaves with either side
        target = raw.get("target")
        if target not in figures:
            issues.append(Issue("objectives.target", f"no figure {target!r} to extract"))
        else:
            figures[str(target)].status = Status.INCAPACITATED  # ruling F-155: helpless
            figures[str(target)].rolls_leader_loss = False
        objective = Objective(**{**objective.__dict__, "target": str(target)})
    elif kind == "rescue":
        losses = raw.get("max_hostage_losses", 0)
        if not _int(losses) or losses < 0:
            issues.append(Issue("objectives.max_hostage_losses", "expected a whole number, 0 "
                                "or more"))
            losses = 0
        objective = Objective(**{**objective.__dict__, "rescuers": side("rescuers"),
                                 "captors": side("captors"), "max_hostage_losses": losses})
    return objective, issues
