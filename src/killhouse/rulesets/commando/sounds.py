"""Sounds (digest 15 "What each side knows", ruling C-63, C-161): gunfire and explosions are
heard by every man within 30 squares, direction only.

Fire is always known to the enemy (the firer gives himself away, C-86), so what a side learns
only by ear is an explosion it does not see (C-91) and a successful sniper's shot (C-95). The
hearing side gets the turn, what it heard and, from its nearest man in action within 30
squares, the compass direction: never the square.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from killhouse.core.cells import Cell
from killhouse.core.events import EventLog
from killhouse.rulesets.commando.dice import distance

if TYPE_CHECKING:
    from killhouse.rulesets.commando.state import CommandoState

#: how far gunfire and explosions carry, in squares (C-63)
REACH = 30
#: the eight directions, counter-clockwise from east as the angle grows (y grows southward)
DIRECTIONS = ("E", "NE", "N", "NW", "W", "SW", "S", "SE")


def direction(a: Cell, b: Cell) -> str:
    """The compass direction from ``a`` to ``b`` in eight sectors of 45 degrees."""
    angle = math.atan2(a.y - b.y, b.x - a.x)
    return DIRECTIONS[round(angle / (math.pi / 4)) % 8]


def hear(state: CommandoState, side: str, at: Cell, what: str, log: EventLog) -> None:
    """``side`` hears ``what`` at ``at`` when a man of it in action is within 30 squares
    (ruling C-161: C-1 range, storeys counted; the nearest such man, ties by id, is the
    hearer); it is told the direction from him only."""
    near = sorted((distance(at.x - p.x, at.y - p.y, at.level - p.level), m)
                  for m, p in state.pos.items()
                  if state.men[m].side == side and state.men[m].active())
    near = [(d, m) for d, m in near if d <= REACH]
    if not near:
        return
    hearer = near[0][1]
    here = state.pos[hearer]
    sound: dict[str, Any] = {"turn": state.turn, "kind": what, "heard_by": hearer,
                             "direction": "here" if here == at else direction(here, at)}
    state.sounds.setdefault(side, []).append(sound)
    log.emit("sound", sound, frozenset({side}))
