"""Vehicles in a scenario file (objects of ``type: vehicle``) and "Escape from Ash End"'s
extraction objective (§18.2).

Vehicle keys: ``side``, ``sample`` (a §17.9 id) or ``design`` (a §17.2 design, checked against
its chassis VP), ``facing`` (n, e, s, w), ``gutz`` (crew), ``experience``, ``drive`` (Drive
skill level), ``passengers`` (figure ids that start aboard), ``weapons`` ({mount index: weapon}
replacing the defaults, F-51), ``arrives`` (a Turn, or dice such as ``1D3+2`` meaning that many
Turns after the start, F-55: arrival in Turn N + 1).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from killhouse.core.events import EventLog
from killhouse.rulesets.base import Result
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status, Team
from killhouse.rulesets.firewall.vehicles.build import design_of, design_problems, make_vehicle
from killhouse.rulesets.firewall.vehicles.catalogue import catalogue
from killhouse.rulesets.firewall.vehicles.model import RESERVE, Vehicle
from killhouse.scenario.model import Issue, Scenario

if TYPE_CHECKING:
    from killhouse.rulesets.firewall.state import FirewallState

OBJECT_KEYS = frozenset({"side", "sample", "design", "facing", "gutz", "experience", "drive",
                         "passengers", "weapons", "arrives"})
DICE = re.compile(r"^(\d*)[dD](\d+)(?:\+(\d+))?$")


def read_vehicle(scenario: Scenario, j: int, obj: Any, figures: dict[str, Figure],
                 teams: dict[str, Team], players: tuple[str, ...],
                 issues: list[Issue]) -> Vehicle | None:
    """One vehicle object; its issues on ``objects[j]`` paths."""
    path = f"objects[{j}]"
    ex: Mapping[str, Any] = obj.extra
    side = ex.get("side")
    if side not in players:
        issues.append(Issue(f"{path}.side", f"no player side {side!r}"))
        return None
    if obj.at is None:
        issues.append(Issue(f"{path}.at", "a vehicle is placed on the map",
                            "at: the top-left square of its footprint"))
        return None
    if ("sample" in ex) == ("design" in ex):
        issues.append(Issue(path, "a vehicle names a sample or a design",
                            "sample: " + ", ".join(catalogue().samples)))
        return None
    if "sample" in ex:
        if ex["sample"] not in catalogue().samples:
            issues.append(Issue(f"{path}.sample", f"no sample vehicle {ex['sample']!r}",
                                "known: " + ", ".join(catalogue().samples)))
            return None
        design = design_of(catalogue().samples[ex["sample"]])
        problems = design_problems(design, sample_vehicle=True)
    else:
        if not isinstance(ex["design"], Mapping):
            issues.append(Issue(f"{path}.design", "expected a mapping (chassis, crew, move …)"))
            return None
        try:
            design = design_of(ex["design"])
        except (TypeError, ValueError) as exc:
            issues.append(Issue(f"{path}.design", str(exc)))
            return None
        problems = design_problems(design)
    for p in problems:
        issues.append(Issue(f"{path}.{'design' if 'design' in ex else 'sample'}", p))
    if problems:
        return None
    facing = str(ex.get("facing", "n"))
    if facing not in ("n", "e", "s", "w"):
        issues.append(Issue(f"{path}.facing", f"a vehicle faces n, e, s or w, not {facing!r}"))
        return None
    gutz = ex.get("gutz", 7)
    if not isinstance(gutz, int) or not tables().min_gutz <= gutz <= tables().max_gutz:
        issues.append(Issue(f"{path}.gutz", "expected the crew's Gutz, 2..11"))
        return None
    experience = str(ex.get("experience", "normal"))
    drive = ex.get("drive", 0)
    if not isinstance(drive, int) or not 0 <= drive <= 3:
        issues.append(Issue(f"{path}.drive", "expected a Drive level 0..3"))
        return None
    weapons: dict[int, str] = {}
    for k, w in dict(ex.get("weapons", {})).items():
        try:
            weapons[int(k)] = tables().weapon(str(w)).id
        except (KeyError, ValueError):
            issues.append(Issue(f"{path}.weapons", f"no weapon {w!r} for mount {k!r}"))
            return None
    v = make_vehicle(obj.id, str(side), design, gutz=gutz, experience=experience, drive=drive,
                     anchor=(obj.at.x, obj.at.y), facing=facing, level=obj.at.level,
                     weapons=weapons)
    level = scenario.board.levels[obj.at.level]
    if any(not (0 <= x < level.width and 0 <= y < level.height) for x, y in v.squares()):
        issues.append(Issue(f"{path}.at", "the footprint runs off the map"))
        return None
    arrives = ex.get("arrives")
    if arrives is not None:
        m = DICE.match(str(arrives))
        if isinstance(arrives, int) and arrives >= 1:
            v.arrives = arrives
        elif m:
            v.arrives_roll = (int(m.group(1) or 1), int(m.group(2)), int(m.group(3) or 0))
        else:
            issues.append(Issue(f"{path}.arrives", f"expected a Turn or dice like 1D3+2, not "
                                f"{arrives!r}"))
            return None
        v.status = RESERVE
    riders = ex.get("passengers", [])
    if not isinstance(riders, list) or any(str(r) not in figures for r in riders):
        issues.append(Issue(f"{path}.passengers", "expected a list of figure ids"))
        return None
    if len(riders) > v.capacity:
        issues.append(Issue(f"{path}.passengers", f"{len(riders)} passengers; {v.name} "
                            f"seats {v.capacity}"))
        return None
    for r in riders:
        f = figures[str(r)]
        if f.side != side:
            issues.append(Issue(f"{path}.passengers", f"{r} is not of side {side}"))
            return None
        v.passengers[f.id] = f.status.value if f.status is not Status.RESERVE else "active"
        f.status = Status.ABOARD
        f.aboard = v.id
        f.cell = v.anchor
    if v.team in teams:
        issues.append(Issue(f"{path}.id", f"the crew team {v.team!r} clashes with a team"))
        return None
    teams[v.team] = Team(v.team, v.side, (), None)
    return v


def read_transport(fspec: Any, issues: list[Issue]) -> str | None:
    """A figure's ``transport`` key: pedal_bike, roller_blades or skateboard (§17.1); it
    starts on foot and gets on with a ``ride`` action."""
    kind = str(fspec.extra["transport"])
    if kind not in catalogue().transport:
        issues.append(Issue(f"{fspec.path}.transport", f"no personal transport {kind!r}",
                            "known: " + ", ".join(catalogue().transport)))
        return None
    return kind


def roll_arrivals(state: FirewallState, log: EventLog, chance: Any) -> None:
    """§18.2: "arrives 1D3+2 Turns after the start" is rolled at the first upkeep, seen by
    its side only; N Turns after the start means Turn N + 1 (F-55)."""
    for v in state.vehicles.values():
        if v.arrives_roll is None:
            continue
        n, sides, plus = v.arrives_roll
        dice = chance.dice(n, sides, f"{v.id} arrival", frozenset({v.side}))
        v.arrives = sum(dice) + plus + 1
        v.arrives_roll = None
        log.emit("vehicle-due", {"vehicle": v.id, "turn": v.arrives}, frozenset({v.side}))


def extract_result(state: FirewallState) -> Result | None:
    """§18.2: a side wins when the Mayor leaves by any edge carried by its figure or aboard
    its vehicle; a killed Mayor is a draw (F-55)."""
    target = state.figures[state.objective.target or ""]
    if target.status is Status.KILLED:
        return Result(None, f"{target.id} was killed")
    if target.status is Status.EXITED:
        carrier = state.figures.get(target.carried_by or "")
        vehicle = state.vehicles.get(target.aboard or "")
        side = carrier.side if carrier else vehicle.side if vehicle else target.side
        how = f"carried by {carrier.id}" if carrier else f"aboard {vehicle.id}" if vehicle else ""
        return Result(side, f"{target.id} left the table {how}".strip())
    standing = [s for s in state.players if any(
        f.side == s and f.status in (Status.ACTIVE, Status.ABOARD, Status.RESERVE)
        for f in state.figures.values()) or any(
        v.side == s and v.status in ("active", "reserve") for v in state.vehicles.values())]
    if not standing:
        return Result(None, "no side has anyone left")
    return None


def after_vehicle_action(state: FirewallState, log: EventLog) -> None:
    """After every action: who has seen which vehicle (they may name it from now on), and
    awareness (F-16) from seeing an enemy vehicle or from a crew's own eyes."""
    if not state.vehicles:
        return
    from killhouse.rulesets.firewall.vehicles.sight import figures_seen, vehicles_seen
    for side in state.sides:
        cars = vehicles_seen(state.board, state.figures, state.vehicles, side)
        for vid in cars:
            state.vehicles[vid].seen_by.add(side)
        late = [t for t in state.teams.values() if t.side == side and not t.aware]
        if not late:
            continue
        from killhouse.rulesets.firewall.vehicles.sight import square_sees_vehicle
        enemies = [v for v in state.vehicles.values() if v.side != side and v.on_table]
        for team in late:
            v = next((x for x in state.vehicles.values() if x.team == team.id), None)
            if v is not None:
                woke = v.active and (bool(cars) or any(
                    state.figures[i].active for i in figures_seen(
                        state.board, state.figures, state.vehicles, side)))
            else:
                woke = any(square_sees_vehicle(state.board, f.cell, f.level, e)
                           for m in team.members if (f := state.figures[m]).active
                           for e in enemies if e.active)
            if not woke:
                continue
            team.aware = True
            log.emit("aware", {"team": team.id}, frozenset({side}))
