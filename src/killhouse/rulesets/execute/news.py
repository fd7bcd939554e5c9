"""Telling sides what happened: every event goes only to the sides allowed to know it (6.3).

An event about an action reaches the actor's side, and the other side only if it sees the
actor (every roll and its TN likewise). Ids a receiving side may not name yet are blanked
in its copy, so no event ever names a hidden figure or bomb to the wrong side.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from killhouse.core.events import Audience, EventLog
from killhouse.rulesets.execute.state import ExecuteState
from killhouse.rulesets.execute.vision import visible_ids

#: event fields that name a figure or an object
ID_FIELDS = frozenset(
    {"figure", "target", "hostage", "agent", "leader", "holder", "bomb", "thrower", "firer"}
)


def known_ids(state: ExecuteState, side: str) -> frozenset[str]:
    """Ids ``side`` may name: its own figures, what it saw or was told of, public devices."""
    ids: set[str] = {f.id for f in state.figures.values() if f.side == side}
    ids |= state.known.get(side, set())
    ids |= visible_ids(state, side)
    ids |= set(state.devices)
    if side == state.terrorists:
        ids |= set(state.bombs)
        ids |= {f.id for f in state.hostages()}
    else:
        ids |= set(state.benched)
        ids |= {b.id for b in state.bombs.values() if b.seen_by_fbi}
    return frozenset(ids)


def audience(state: ExecuteState, sides: Iterable[str]) -> Audience:
    """``None`` (everyone) when every side is in ``sides``, else the set of them."""
    chosen = frozenset(sides)
    return None if chosen >= frozenset(state.side_ids()) else chosen


def tell(
    state: ExecuteState,
    log: EventLog,
    kind: str,
    data: Mapping[str, Any],
    sides: Iterable[str],
    brief: Mapping[str, Mapping[str, Any]] | None = None,
) -> None:
    """Emit one event for ``sides``: each gets ``None`` for any id it may not name, and a side
    in ``brief`` gets that shorter account instead of ``data``."""
    full = dict(data)
    chosen = sorted(set(sides))
    views: dict[str, dict[str, Any]] = {}
    for side in chosen:
        told = (brief or {}).get(side, full)
        if any(k in ID_FIELDS and isinstance(v, str) for k, v in told.items()):
            known = known_ids(state, side)  # only an event that names someone needs it
            copy = {
                k: (None if k in ID_FIELDS and isinstance(v, str) and v not in known else v)
                for k, v in told.items()
            }
        else:
            copy = dict(told)
        if copy != full:
            views[side] = copy
    log.emit(kind, full, audience(state, chosen), views)
