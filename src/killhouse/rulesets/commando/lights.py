"""Searchlights in play (digest 6.4, rulings C-13, C-123): scenario objects of type
``searchlight`` with an ``aim`` square; the 5×5 block around the aim is lit. A lit target is
observed at the Day range by anyone with LOS, +30 for observers within 20 squares of it; an
observer standing in a lit block gets −30 against targets outside it. A man next to the light
may re-aim it (Operate searchlight, 50 TP) or put it out (Destroy searchlight, 5 TP).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from types import ModuleType

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import observation
from killhouse.rulesets.commando.dice import distance
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.tables import tables
from killhouse.scenario.model import Scenario


@dataclass(frozen=True)
class Light:
    """One searchlight: where it stands and the square it lights (None: destroyed)."""

    at: Cell
    aim: Cell | None


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def from_scenario(scenario: Scenario) -> dict[str, Light]:
    """The scenario's searchlights, lit at their ``aim`` from the first turn (ruling C-123)."""
    out = {}
    for obj in scenario.objects:
        if obj.type == "searchlight" and obj.at is not None:
            out[obj.id] = Light(obj.at, parse_aim(scenario, obj.extra.get("aim")))
    return out


def parse_aim(scenario: Scenario, text: object) -> Cell | None:
    """A ``level:x,y`` square on the scenario's board, or None if it is not one."""
    if not isinstance(text, str) or ":" not in text:
        return None
    name, _, xy = text.partition(":")
    try:
        level = scenario.board.level_index(name)
        x, y = (int(v) for v in xy.split(","))
    except (KeyError, ValueError):
        return None
    cell = Cell(level, x, y)
    return cell if scenario.board.in_bounds(cell) else None


def lit_cells(state: CommandoState) -> frozenset[Cell]:
    """Every square lit by a working searchlight (C-13's 5×5 block, clipped to the map)."""
    out: set[Cell] = set()
    for light in state.lights.values():
        if light.aim is None:
            continue
        level = state.board.levels[light.aim.level]
        for x, y in observation.lit_square(light.aim.x, light.aim.y, level.width, level.height):
            out.add(Cell(light.aim.level, x, y))
    return frozenset(out)


def near_light(state: CommandoState, observer: Cell, target: Cell) -> bool:
    """C-13's "nearby": the observer within 20 squares of the lit target."""
    return distance(observer.x - target.x, observer.y - target.y,
                    observer.level - target.level) <= tables().searchlight_nearby


def _adjacent(a: Cell, b: Cell) -> bool:
    return a.level == b.level and max(abs(a.x - b.x), abs(a.y - b.y)) <= 1


def operate_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Aim a working light next to him at a square he sees where his side observes or last saw
    an enemy (ruling C-123), 50 TP."""
    f = _flow()
    if state.active_man is None:
        return
    man = f.current(state)
    if man.tp < tables().cost["operate_searchlight"]:
        return
    here = state.pos[man.id]
    spots = {state.pos[t] for t in state.observed[man.side]}
    spots |= {at for at, _ in state.last_seen[man.side].values()}
    for ident, light in sorted(state.lights.items()):
        if light.aim is None or not _adjacent(here, light.at):
            continue
        for spot in sorted(spots):
            if spot != light.aim and f.has_los(state, light.at, spot):
                yield Action.make(side, "operate", figure=man.id, light=ident,
                                  to=cell_json(spot))


def do_operate(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    f = _flow()
    man = f.current(state)
    ident = action.get("light")
    man.spend(tables().cost["operate_searchlight"])
    state.lights[ident] = Light(state.lights[ident].at, Cell(*action.get("to")))
    f.note_sightings(state)
    # a light is seen by everyone: where it points is public
    log.emit("searchlight", {"light": ident, "aim": action.get("to")})
    f.after_task(state, log)


def destroy_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Destroy a working light next to him, 5 TP (C-13)."""
    f = _flow()
    if state.active_man is None:
        return
    man = f.current(state)
    if man.tp < tables().cost["destroy_searchlight"]:
        return
    here = state.pos[man.id]
    for ident, light in sorted(state.lights.items()):
        if light.aim is not None and _adjacent(here, light.at):
            yield Action.make(side, "destroy", figure=man.id, light=ident)


def do_destroy(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    f = _flow()
    man = f.current(state)
    ident = action.get("light")
    man.spend(tables().cost["destroy_searchlight"])
    state.lights[ident] = Light(state.lights[ident].at, None)
    f.note_sightings(state)
    log.emit("searchlight", {"light": ident, "aim": None})
    f.after_task(state, log)
