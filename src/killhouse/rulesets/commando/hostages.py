"""Hostages on the map and the rescue mission (rulings C-170 … C-176, C-190 … C-192).

A hostage is a scenario figure of ``kind: hostage`` (the core's figure model: no side). He is
no man of either side: he never acts, is never the target of a fire task, and does not count
against a square's stacking; but a blast or Claymore that reaches his square and stray fire into
it harm him like a man, on his own Endurance (C-190, C-191). A man next to him (or on his
square) takes charge of him (``lead``, 5 TP: a raider to bring him out, a captor to walk him
away, C-192); from then on he walks with his escort, into every
square the escort reaches, until he is brought into the ``rescue_zone`` (rescued, off the map)
by a raider, or the escort falls or is caught in hand-to-hand (then he stays where he is). A
defender next to a held hostage, or leading him, may kill him (``execute``: the fire cost of
his weapon, one d100 against the weapon's range 0-1 band). A side sees a hostage while one of
its men in action has him in LOS within observation range.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import Audience, EventLog
from killhouse.rulesets.base import Action, Result
from killhouse.rulesets.commando import fire, lights, observation, surroundings
from killhouse.rulesets.commando.dice import d100
from killhouse.rulesets.commando.state import CommandoState
from killhouse.scenario.model import Scenario

HELD, LED, RESCUED, DEAD = "held", "led", "rescued", "dead"
#: ruling C-172: taking charge of a hostage costs what opening a door does (C-62)
LEAD_TP = 5
#: ruling C-190: a hostage's Endurance when the scenario gives none (a civilian, below the
#: 4d6-kept average of a man rolled up in 13.1)
DEFAULT_END = 10


@dataclass
class Hostage:
    """One hostage: where he stands (a led hostage stands on his escort's square), his
    Endurance and the damage he has taken (C-190)."""

    id: str
    at: Cell
    status: str = HELD
    escort: str | None = None
    end: int = DEFAULT_END
    damage: int = 0


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def from_scenario(scenario: Scenario) -> dict[str, Hostage]:
    """The scenario's hostage figures (ruling C-170), held where they are placed."""
    return {f.id: Hostage(f.id, f.at, end=hostage_end(f.stats))
            for f in scenario.figures if f.kind == "hostage" and f.at is not None}


def hostage_end(stats: Any) -> int:
    """Ruling C-190: ``stats: {end: N}`` on the hostage figure, else ``DEFAULT_END``."""
    if isinstance(stats, Mapping) and isinstance(stats.get("end"), int):
        return int(stats["end"])
    return DEFAULT_END


def check_stats(stats: Any) -> str | None:
    """Why a hostage's ``stats`` are refused (only ``end``, 1 to 40), or None (C-190)."""
    if stats is None:
        return None
    if not isinstance(stats, Mapping) or set(stats) - {"end"}:
        return "a hostage has only an Endurance: stats: {end: N}"
    end = stats.get("end")
    if not isinstance(end, int) or isinstance(end, bool) or not 1 <= end <= 40:
        return f"a hostage's end must be a whole number from 1 to 40, not {end!r}"
    return None


def where(state: CommandoState, h: Hostage) -> Cell:
    return state.pos[h.escort] if h.status == LED and h.escort is not None else h.at


def on_map(state: CommandoState) -> list[Hostage]:
    """Hostages still on the map, alive (held or led)."""
    return [h for _, h in sorted(state.hostages.items()) if h.status in (HELD, LED)]


def sees_cell(state: CommandoState, side: str, cell: Cell) -> bool:
    """Ruling C-171: one of the side's men in action has the square in LOS within the
    observation range of the weather and the light there (lit squares at the Day range)."""
    f = _flow()
    light = surroundings.light_at(state, cell)
    if state.lights and cell in lights.lit_cells(state):
        light = "day"
    for man in state.up(side):
        at = state.pos[man.id]
        if observation.in_range(f.rng_between(at, cell), state.weather, light) and \
                f.has_los(state, at, cell):
            return True
    return False


def seen(state: CommandoState, side: str) -> list[Hostage]:
    """The hostages (dead ones too) that the side sees now (C-171)."""
    return [h for _, h in sorted(state.hostages.items())
            if h.status != RESCUED and sees_cell(state, side, where(state, h))]


def note(state: CommandoState) -> None:
    """Remember where each side last saw each hostage, and how (C-171)."""
    for side in state.sides:
        book = state.hostage_seen.setdefault(side, {})
        for h in seen(state, side):
            book[h.id] = (where(state, h), state.turn, h.status)


def view(state: CommandoState, side: str) -> list[dict[str, Any]]:
    """What the side knows of the hostages: those it sees now, where it last saw the others,
    and the rescued ones (public, C-174)."""
    now = {h.id for h in seen(state, side)}
    out: list[dict[str, Any]] = []
    for ident, h in sorted(state.hostages.items()):
        if h.status == RESCUED:
            out.append({"id": ident, "status": RESCUED})
        elif ident in now:
            escort = h.escort if h.escort is not None and \
                state.men[h.escort].side == side else None
            out.append({"id": ident, "at": cell_json(where(state, h)), "status": h.status,
                        "escort": escort, "seen": True})
        elif ident in state.hostage_seen.get(side, {}):
            at, when, status = state.hostage_seen[side][ident]
            out.append({"id": ident, "at": cell_json(at), "status": status, "turn": when,
                        "seen": False})
    return out


def on_square(state: CommandoState, cell: Cell) -> list[str]:
    """The living hostages standing on ``cell`` (held there or led by a man there)."""
    return [h.id for h in on_map(state) if where(state, h) == cell]


def sides_seeing(state: CommandoState, cell: Cell) -> frozenset[str]:
    return frozenset(s for s in state.sides if sees_cell(state, s, cell))


def told(state: CommandoState, ident: str, audience: Audience = None) -> Audience:
    """``audience`` narrowed to the sides that see hostage ``ident``'s square (C-91, C-171):
    a roll about him would tell where he is."""
    seers = sides_seeing(state, where(state, state.hostages[ident]))
    if audience is not None:
        seers = seers & audience
    return None if len(seers) == len(state.sides) else seers


def harm(state: CommandoState, ident: str, killed: bool, damage: int, cause: str,
         log: EventLog, audience: Audience = None) -> None:
    """Ruling C-190: a Kill result, or damage that brings his E = End − D to 0 or less, kills
    a hostage (DEAD); lesser wounds leave him walking. The event goes to ``audience`` (all
    when None)."""
    h = state.hostages[ident]
    h.damage += max(0, damage)
    if killed or h.end - h.damage <= 0:
        if h.status == LED:
            h.at = where(state, h)
        h.status, h.escort = DEAD, None
    log.emit("hostage-hit", {"hostage": ident, "cause": cause,
                             "result": "killed" if killed else "damage",
                             "damage": 0 if killed else damage,
                             "status": h.status}, audience)
    note(state)


def stray(state: CommandoState, shots: Iterable[tuple[str, fire.Shot]], weapon: str,
          log: EventLog) -> None:
    """Ruling C-191: the fires of a task whose victim drawn in the target's square was a
    hostage hit him (a Kill or the weapon's damage); told to both sides (each has eyes on
    that square: the firer sees his target, the target's side stands in it)."""
    for victim, shot in shots:
        if victim in state.hostages and shot.result != fire.MISS and \
                state.hostages[victim].status in (HELD, LED):
            harm(state, victim, shot.result == fire.KILL, shot.damage, weapon, log)


def _adjacent(a: Cell, b: Cell) -> bool:
    return a.level == b.level and max(abs(a.x - b.x), abs(a.y - b.y)) <= 1


def _enemy_on(state: CommandoState, side: str, cell: Cell) -> bool:
    return any(p == cell and state.men[m].side != side and state.men[m].active()
               for m, p in state.pos.items())


def leading(state: CommandoState, man: str) -> Hostage | None:
    return next((h for h in state.hostages.values() if h.status == LED and h.escort == man),
                None)


def lead_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Ruling C-172: a raider in action, not engaged and leading nobody, takes charge of a held
    hostage on or next to his square, in his LOS and with no enemy in action on it (5 TP).
    Ruling C-192: a captor (a man of the second side) may do the same, to walk him away."""
    f = _flow()
    if state.active_man is None or not state.hostages:
        return
    man = f.current(state)
    if man.side != side or man.engaged or man.tp < LEAD_TP or \
            leading(state, man.id) is not None:
        return
    here = state.pos[man.id]
    for ident, h in sorted(state.hostages.items()):
        if h.status == HELD and _adjacent(here, h.at) and f.has_los(state, here, h.at) and \
                not _enemy_on(state, side, h.at):
            yield Action.make(side, "lead", figure=man.id, hostage=ident)


def do_lead(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    f = _flow()
    man = f.current(state)
    h = state.hostages[action.get("hostage")]
    man.spend(LEAD_TP)
    h.status, h.escort = LED, man.id
    h.at = state.pos[man.id]
    f.note_sightings(state)
    log.emit("lead", {"figure": man.id, "hostage": h.id}, f.audience_of(state, man.id))
    f.after_task(state, log)


def execute_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Ruling C-173: a defender in action and not engaged, whose weapon in hand is loaded and
    who has its fire cost, may fire at a held hostage on or next to his square in his LOS, or
    at the one he leads himself (C-192)."""
    f = _flow()
    if state.active_man is None or side != state.sides[1] or not state.hostages:
        return
    man = f.current(state)
    weapon = man.in_hand or "pistol"
    if man.engaged or weapon in man.empty or man.tp < fire.fire_cost(weapon) or \
            fire.base_chance(weapon, 1) is None:
        return
    here = state.pos[man.id]
    for ident, h in sorted(state.hostages.items()):
        mine = h.status == LED and h.escort == man.id  # the one he leads (C-192)
        if mine or (h.status == HELD and _adjacent(here, h.at) and f.has_los(state, here, h.at)):
            yield Action.make(side, "execute", figure=man.id, hostage=ident)


def do_execute(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    f = _flow()
    man = f.current(state)
    h = state.hostages[action.get("hostage")]
    h.at = where(state, h)
    weapon = man.in_hand or "pistol"
    man.spend(fire.fire_cost(weapon))
    # the enemy learns of it when it sees the hostage or observes the firer (C-173)
    enemy = state.enemy(man.side)
    seen_by_enemy = sees_cell(state, enemy, h.at) or man.id in state.observed[enemy]
    audience = None if seen_by_enemy else frozenset({man.side})
    band = fire.base_chance(weapon, 1)  # the table's "0-1" column: he is on or next to him
    assert band is not None
    roll = d100(chance, f"{man.id} fires at hostage {h.id}", audience)
    killed = roll <= band
    if killed:
        h.status, h.escort = DEAD, None
    report = fire.mag_check(chance, weapon, False, audience)
    if report:
        man.empty = man.empty | {weapon}
    log.emit("execute", {"figure": man.id, "hostage": h.id, "weapon": weapon, "roll": roll,
                         "chance": band, "killed": killed}, audience)
    note(state)
    f.after_task(state, log)


def update(state: CommandoState, log: EventLog, zone: frozenset[Cell]) -> None:
    """A led hostage walks with his escort; in the rescue zone he is rescued (C-174); an
    escort out of action or engaged in hand-to-hand lets go of him (C-172)."""
    for h in on_map(state):
        if h.status != LED or h.escort is None:
            continue
        escort = state.men[h.escort]
        h.at = state.pos[escort.id]
        if not escort.active() or escort.engaged:
            h.status, h.escort = HELD, None
            log.emit("let-go", {"hostage": h.id, "at": cell_json(h.at)},
                     _flow().audience_of(state, escort.id))
        elif h.at in zone and escort.side == state.sides[0]:  # a captor rescues nobody (C-192)
            h.status, h.escort = RESCUED, None
            log.emit("rescued", {"hostage": h.id})  # public (C-174)
    note(state)


def verdict(state: CommandoState) -> Result | None:
    """Ruling C-175: the rescuers win when no hostage is left on the map and one or more is
    rescued; the captors win when every hostage is dead."""
    if not state.hostages or on_map(state):
        return None
    rescued = sum(h.status == RESCUED for h in state.hostages.values())
    if rescued:
        total = len(state.hostages)
        return Result(state.sides[0], f"{rescued} of {total} hostages rescued")
    return Result(state.sides[1], "every hostage is dead")

