"""The devices of digest 9 and what lies on the map between tasks (rulings C-28 … C-36, C-88):
the kinds of ordnance a man may carry, prepared grenades, loaded launchers, live devices waiting
for the Bookkeeping, placed Claymores and clouds, and what each side knows of them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from killhouse.core.cells import Cell, cell_json
from killhouse.rulesets.commando import blasts, clouds
from killhouse.rulesets.commando.men import ManState
from killhouse.scenario.cellref import RefError, blocked_reason, parse_cell
from killhouse.scenario.model import Issue, Scenario

if TYPE_CHECKING:
    from killhouse.rulesets.commando.state import CommandoState


#: thrown devices, and what preparing and throwing each costs (digest 5.2)
GRENADES = ("frag", "smoke", "illumination")

THROWN = (*GRENADES, "satchel")

#: fired rounds (ruling C-33: they go off at once) and how each is made ready again (8.4)
LAUNCHERS = ("rifle_grenade", "thump_gun", "rocket", "law")

LOAD_COST = {"rifle_grenade": "affix_rifle_grenade", "thump_gun": "reload",
             "rocket": "reload_rocket_shell"}

#: every item a scenario may put in a man's ``equipment`` besides firearms (ruling C-88)
ITEMS = (*THROWN, *LAUNCHERS, "claymore", "demolition")

#: the open-ended last bands, "36+" and "68+" (ruling C-31)
OPEN_BANDS = {"rocket": 36, "law": 68}

FACINGS = tuple(blasts.OFFSETS)

#: ruling C-36: a Claymore is set off from up to 20 squares away
DETONATE_REACH = 20

#: ruling C-33: a demolition charge's timer, in turns
TIMER_MAX = 5



@dataclass
class Live:
    """A device that will go off: a thrown grenade or satchel (this Bookkeeping), a dropped
    prepared grenade, or a demolition charge with its timer (ruling C-33, C-77)."""

    id: str
    device: str
    at: Cell
    side: str
    owner: str
    placed: int
    timer: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "device": self.device, "at": cell_json(self.at),
                "timer": self.timer, "owner": self.owner}



@dataclass
class Mine:
    """A placed Claymore: its square and facing (C-36)."""

    id: str
    side: str
    owner: str
    at: Cell
    facing: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "at": cell_json(self.at), "facing": self.facing,
                "owner": self.owner}



@dataclass
class Ordnance:
    """What lies on the map between tasks; part of ``CommandoState``."""

    prepared: dict[str, str] = field(default_factory=dict)     # man -> prepared device
    loaded: dict[str, set[str]] = field(default_factory=dict)  # man -> launchers ready
    live: list[Live] = field(default_factory=list)
    mines: list[Mine] = field(default_factory=list)
    clouds: list[clouds.Cloud] = field(default_factory=list)
    work: dict[str, int] = field(default_factory=dict)  # man -> turn he last worked a charge
    seq: int = 0

    def next_id(self, prefix: str) -> str:
        self.seq += 1
        return f"{prefix}{self.seq}"



def scenario_mines(scenario: Scenario) -> tuple[list[tuple[str, Cell, str]], list[Issue]]:
    """Claymores set by the scenario (C-36): ``options.claymores``, a list of ``{side, at,
    facing}``; each bad entry is one issue."""
    raw = scenario.options.get("claymores", [])
    out: list[tuple[str, Cell, str]] = []
    issues: list[Issue] = []
    if not isinstance(raw, list):
        return out, [Issue("options.claymores", "must be a list of {side, at, facing}",
                           'for example [{side: guards, at: "ground:5,4", facing: E}]')]
    names = [lv.name for lv in scenario.board.levels]
    sides = [s.id for s in scenario.sides]
    for i, entry in enumerate(raw):
        path = f"options.claymores[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"side", "at", "facing"}:
            issues.append(Issue(path, "a Claymore needs exactly side, at and facing",
                                '{side: guards, at: "ground:5,4", facing: E}'))
            continue
        if entry["side"] not in sides:
            issues.append(Issue(f"{path}.side", f"unknown side {entry['side']!r}",
                                f"one of {', '.join(sides)}"))
            continue
        if entry["facing"] not in FACINGS:
            issues.append(Issue(f"{path}.facing", f"unknown facing {entry['facing']!r}",
                                f"one of {', '.join(FACINGS)}"))
            continue
        try:
            at = parse_cell(entry["at"], names, scenario.board.levels)
        except RefError as err:
            issues.append(Issue(f"{path}.at", err.message, err.hint))
            continue
        blocked = blocked_reason(scenario.board.levels[at.level], at.x, at.y)
        if blocked:
            issues.append(Issue(f"{path}.at", f"a Claymore cannot lie in {blocked}",
                                "put it on an open square"))
            continue
        out.append((str(entry["side"]), at, str(entry["facing"])))
    return out, issues



def setup(state: CommandoState) -> None:
    """At the start: launchers loaded, rifle grenades not yet affixed (ruling C-88); the
    scenario's Claymores in place (C-36)."""
    for man in state.men.values():
        ready: set[str] = {d for d in ("thump_gun", "rocket") if d in man.carried}
        if ready:
            state.ordnance.loaded[man.id] = ready
    mines, _ = scenario_mines(state.scenario)
    for side, at, facing in mines:
        o = state.ordnance
        o.mines.append(Mine(o.next_id("m"), side, "scenario", at, facing))



def count_of(man: ManState, item: str) -> int:
    return man.carried.count(item)



def use_one(man: ManState, item: str) -> None:
    items = list(man.carried)
    items.remove(item)
    man.carried = tuple(items)



def active_man(state: CommandoState) -> ManState | None:
    return None if state.active_man is None else state.men[state.active_man]



def free(man: ManState) -> bool:
    return man.active() and not man.engaged and not man.must_leave



def view(state: CommandoState, side: str) -> dict[str, Any]:
    """Its own prepared items, loaded launchers, charges and Claymores; thrown devices waiting
    for the Bookkeeping whose throw it saw (every throw is seen, C-86) and every cloud."""
    o = state.ordnance
    own = {m.id for m in state.side_men(side)}
    return {
        "prepared": {m: d for m, d in sorted(o.prepared.items()) if m in own},
        "loaded": {m: sorted(d) for m, d in sorted(o.loaded.items()) if m in own and d},
        "carried": {m.id: list(m.carried) for m in state.side_men(side) if m.carried},
        "live": [c.to_json() for c in o.live
                 if c.side == side or c.device != "demolition"],
        "mines": [m.to_json() for m in o.mines if m.side == side],
        "clouds": [{"kind": c.kind, "at": cell_json(c.center), "until": c.until}
                   for c in o.clouds],
    }



def snapshot(state: CommandoState) -> dict[str, Any]:
    o = state.ordnance
    return {
        "prepared": dict(sorted(o.prepared.items())),
        "loaded": {m: sorted(d) for m, d in sorted(o.loaded.items())},
        "live": [c.to_json() | {"side": c.side, "placed": c.placed} for c in o.live],
        "mines": [m.to_json() | {"side": m.side} for m in o.mines],
        "clouds": [{"kind": c.kind, "at": cell_json(c.center), "until": c.until}
                   for c in o.clouds],
        "work": dict(sorted(o.work.items())),
        "seq": o.seq,
    }
