"""Clipping barbed wire (digest 5.3; rulings C-5, C-9, C-69, C-100, C-159): straight wire next
to him is clipped for 50 TP, concertina for 100, over as many activations as it takes; a
clipped square is clear ground from then on, for everyone."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import ground
from killhouse.rulesets.commando.tables import tables

if TYPE_CHECKING:
    from killhouse.rulesets.commando.state import CommandoState

#: the Task Point Cost Chart row of each wire kind (ruling C-69)
CLIP_COST = {"barbed_wire": "clip_straight_wire", "concertina": "clip_concertina_wire"}
STEPS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def wire_next_to(state: CommandoState, at: Cell) -> list[Cell]:
    """Wire squares next to him on his level (ruling C-159: he clips from beside it)."""
    out = []
    for dx, dy in STEPS:
        cell = Cell(at.level, at.x + dx, at.y + dy)
        if state.board.in_bounds(cell) and ground.cell_kind(state.board, cell) in CLIP_COST:
            out.append(cell)
    return out


def task_key(cell: Cell) -> str:
    return f"clip {cell.level},{cell.x},{cell.y}"


def clip_options(state: CommandoState, side: str) -> Iterable[Action]:
    if state.active_man is None:
        return
    man = state.men[state.active_man]
    if man.tp <= 0 or man.engaged or man.must_leave:
        return
    for cell in wire_next_to(state, state.pos[man.id]):
        yield Action.make(side, "clip", figure=man.id, at=cell_json(cell))


def do_clip(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = flow.current(state)
    at = Cell(*action.get("at"))
    if at not in wire_next_to(state, state.pos[man.id]):  # checked by the options
        raise IllegalActionError("there is no wire next to him there")
    kind = ground.cell_kind(state.board, at)
    cost = tables().cost[CLIP_COST[kind]]
    key = task_key(at)
    carried = man.task == key and state.tasks_done == 0 and \
        state.ordnance.work.get(man.id) == state.turn - 1
    if man.task == key and not carried:
        man.task, man.task_paid = None, 0  # ruling C-100 (C-5): the work done is lost
    state.ordnance.work[man.id] = state.turn
    done = man.work_on(key, cost)
    if done:
        # ruling C-9: clipped wire is removed: the square is clear ground from now on
        state.board.levels[at.level].layers["ground"][at.y, at.x] = 0
        flow.note_sightings(state)
    log.emit("clip", {"figure": man.id, "at": cell_json(at), "wire": kind,
                      "paid": cost if done else man.task_paid, "cost": cost, "done": done},
             flow.audience_of(state, man.id))
    flow.after_task(state, log)
