"""Trees (Task Point Cost Chart: Climb tree 50, Drop from tree 20; rulings C-10, C-53, C-188).

A man standing in a square with a tree (drawn ``tree: 1``, or any woods or forest square)
may climb it as a task of 50 TP and come down as a task of 20. Up a tree he counts one
elevation level higher for sight (C-10): he sees over woods and walls lower than both ends,
and is seen the same way. He may fire, throw, launch, reload and set off devices from it, but
not step, go prone or do anything else until he comes down; no enemy can step into his square
to engage him. Fire and observation at him keep the square's own terrain modifiers.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import ground
from killhouse.rulesets.commando.men import Posture
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.tables import tables


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def tree_options(state: CommandoState, side: str) -> Iterable[Action]:
    f = _flow()
    if state.active_man is None:
        return
    man = f.current(state)
    cost = tables().cost
    if man.engaged or man.must_leave:
        return
    if man.aloft:
        if man.tp >= cost["drop_from_tree"]:
            yield Action.make(side, "tree", figure=man.id, to="down")
        return
    if man.posture is Posture.STANDING and man.tp >= cost["climb_tree"] and \
            ground.has_tree(state.board, state.pos[man.id]):
        yield Action.make(side, "tree", figure=man.id, to="up")


def do_tree(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    f = _flow()
    man = f.current(state)
    up = action.get("to") == "up"
    man.spend(tables().cost["climb_tree" if up else "drop_from_tree"])
    man.aloft = up
    man.moved_this_turn = True
    f.note_sightings(state)
    log.emit("tree", {"figure": man.id, "to": action.get("to")}, f.audience_of(state, man.id))
    f.after_task(state, log)
