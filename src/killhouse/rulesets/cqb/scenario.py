"""Reading a scenario's CQB keys: side roles, figure abilities and equipment, options."""

from __future__ import annotations

from dataclasses import dataclass, fields

from killhouse.core.cells import Cell
from killhouse.rulesets.cqb.state import DEVICE_EFFECTS, HOSTAGES, Device, Figure, Options
from killhouse.rulesets.cqb.tables import ABILITIES, tables
from killhouse.scenario.model import Issue, Scenario

ROLES = ("rescuers", "terrorists")
ARMOUR = {"soft-armour": "soft", "hard-plates": "plates", "helmet": "helmet",
          "respirator": "respirator"}
OPTION_NAMES = tuple(f.name for f in fields(Options))


@dataclass(frozen=True)
class Setup:
    options: Options
    sides: tuple[str, ...]
    rescuers: str
    figures: tuple[Figure, ...]
    devices: tuple[Device, ...] = ()


def _option(name: str) -> str:
    return name.removeprefix("cqb.")


def read_scenario(scenario: Scenario) -> tuple[Setup | None, list[Issue]]:
    """The set-up a scenario describes, or the issues that stop it (each on its field path)."""
    issues: list[Issue] = []
    if len(scenario.sides) != 2:
        issues.append(Issue("sides", "CQB is played by two sides: rescuers and terrorists",
                            "hostages need no side: give them kind: hostage"))
    roles = {s.id: s.extra.get("role", ROLES[i] if i < 2 else "") for i, s in
             enumerate(scenario.sides)}
    for i, s in enumerate(scenario.sides):
        if roles[s.id] not in ROLES:
            issues.append(Issue(f"sides[{i}].role", f"unknown role {roles[s.id]!r}",
                                "rescuers or terrorists"))
        if s.id == HOSTAGES:
            issues.append(Issue(f"sides[{i}].id", f"{HOSTAGES!r} is the hostages' own side"))
    if sorted(roles.values()) != sorted(ROLES) and not issues:
        issues.append(Issue("sides", "one side must be the rescuers and one the terrorists"))
    opts: dict[str, object] = {}
    for key, value in scenario.options.items():
        name = _option(str(key))
        if name not in OPTION_NAMES:
            issues.append(Issue(f"options.{key}", f"unknown option {key!r}",
                                "known: " + ", ".join(OPTION_NAMES)))
        elif name == "max_hostage_losses":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                issues.append(Issue(f"options.{key}", "expected a whole number, 0 or more"))
            else:
                opts[name] = value
        elif not isinstance(value, bool):
            issues.append(Issue(f"options.{key}", "expected true or false"))
        else:
            opts[name] = value
    t = tables()
    figures: list[Figure] = []
    for fspec in scenario.figures:
        path = fspec.path
        if fspec.at is None:
            issues.append(Issue(f"{path}.at", "every CQB figure starts on the map"))
            continue
        hostage = fspec.kind == "hostage"
        if fspec.kind == "vip":
            issues.append(Issue(f"{path}.kind", "CQB has no VIPs", "operative or hostage"))
            continue
        side = HOSTAGES if hostage else (fspec.side or "")
        ability = str(fspec.extra.get("ability", "novice" if hostage else "experienced"))
        if ability not in ABILITIES:
            issues.append(Issue(f"{path}.ability", f"unknown ability {ability!r}",
                                ", ".join(ABILITIES)))
            continue
        fig = Figure(fspec.id, side, "hostage" if hostage else "operative", ability,
                     Cell(*fspec.at))
        guns: list[str] = []
        for j, item in enumerate(fspec.equipment):
            if item in t.weapons:
                guns.append(item)
            elif item in ARMOUR:
                setattr(fig, ARMOUR[item], True)
            elif item in ("stun", "cs"):
                fig.grenades[item] = fig.grenades.get(item, 0) + 1
            elif item == "charge":
                fig.charges += 1
            else:
                known = sorted([*t.weapons, *ARMOUR, "stun", "cs", "charge"])
                issues.append(Issue(f"{path}.equipment[{j}]", f"unknown equipment {item!r}",
                                    "known: " + ", ".join(known)))
        if hostage and (guns or fig.grenades):
            issues.append(Issue(f"{path}.equipment", "hostages carry no weapons (ruling Q-30)"))
        if not hostage and not guns:
            issues.append(Issue(f"{path}.equipment", "an operative needs a weapon",
                                "e.g. equipment: [mp5, pistol, soft-armour]"))
        if len(guns) > 2:
            issues.append(Issue(f"{path}.equipment", "at most a main weapon and a sidearm"))
        fig.weapon = guns[0] if guns else None
        fig.sidearm = guns[1] if len(guns) > 1 else None
        spare = fspec.extra.get("magazines", t.spare_magazines)
        if not isinstance(spare, int) or isinstance(spare, bool) or spare < 0:
            issues.append(Issue(f"{path}.magazines", "expected a whole number, 0 or more",
                                "spare magazines per weapon (option track_ammo)"))
            spare = 0
        if opts.get("track_ammo"):  # ruling Q-60: each weapon loaded, with spare magazines
            for slot, gun in (("main", fig.weapon), ("sidearm", fig.sidearm)):
                if gun is not None:
                    fig.loaded[slot] = t.weapons[gun].magazine
                    fig.spares[slot] = spare
        figures.append(fig)
    devices = read_devices(scenario, issues)
    if issues:
        return None, issues
    rescuers = next(s for s, r in roles.items() if r == "rescuers")
    return Setup(Options(**opts), tuple(s.id for s in scenario.sides), rescuers,  # type: ignore[arg-type]
                 tuple(figures), devices), []


def read_devices(scenario: Scenario, issues: list[Issue]) -> tuple[Device, ...]:
    """Objects of type ``device`` (ruling Q-64): a place, an ``effect`` (stun, cs or fire;
    default stun) and an optional ``timer`` (the turn it goes off)."""
    out = []
    for i, obj in enumerate(scenario.objects):
        path = f"objects[{i}]"
        if obj.type != "device":
            issues.append(Issue(f"{path}.type", f"CQB has no {obj.type!r} objects", "device"))
            continue
        if obj.at is None:
            issues.append(Issue(f"{path}.at", "a device stands on the map"))
            continue
        effect = obj.extra.get("effect", "stun")
        if effect not in DEVICE_EFFECTS:
            issues.append(Issue(f"{path}.effect", f"unknown effect {effect!r}",
                                ", ".join(DEVICE_EFFECTS)))
            continue
        timer = obj.extra.get("timer")
        if timer is not None and (not isinstance(timer, int) or isinstance(timer, bool)
                                  or timer < 1):
            issues.append(Issue(f"{path}.timer", "expected a turn number, 1 or more"))
            continue
        out.append(Device(obj.id, obj.at, str(effect), timer))
    return tuple(out)
