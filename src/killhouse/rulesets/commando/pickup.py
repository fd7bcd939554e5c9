"""Picking up a weapon (Task Point Cost Chart: 10 TP; rulings C-178 … C-180).

A man out of action (incapacitated or dead) drops the firearms he had, in hand and carried,
on his square. A man in action on or next to that square, who sees it, may pick one up (10 TP):
it is then in his hand, loaded or empty as it fell. A weapon picked up from a man of the other
side fires at −15 ("Using enemy weapon to fire", Fire Combat Modifications) unless he carried
one of his own of that kind. A side sees the weapons lying on the squares it sees.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType
from typing import Any

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando.men import ManState
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.tables import tables

#: ``ManState.extra`` keys: what lies on a fallen man's square, and the enemy weapons a man
#: holds (the −15)
LYING, ENEMY = "lying", "enemy_weapons"


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def lying(man: ManState) -> list[str]:
    """Ruling C-178: the firearms a man out of action dropped and nobody has taken yet; his
    weapon in hand first, then the others in equipment order, each kind once."""
    if man.active():
        return []
    if LYING in man.extra:
        return list(man.extra[LYING])
    firearms = tables().firearms
    held = [man.in_hand] if man.in_hand is not None and man.in_hand in firearms else []
    return list(dict.fromkeys([*held, *(w for w in man.carried if w in firearms)]))


def on_the_ground(state: CommandoState) -> dict[Cell, list[tuple[str, str]]]:
    """Every square with weapons lying on it: (fallen man, weapon) pairs."""
    out: dict[Cell, list[tuple[str, str]]] = {}
    for ident, man in sorted(state.men.items()):
        for weapon in lying(man):
            out.setdefault(state.pos[ident], []).append((ident, weapon))
    return out


def view(state: CommandoState, side: str) -> list[dict[str, Any]]:
    """Ruling C-179: the weapons lying on the squares the side sees (the kinds, not whose)."""
    from killhouse.rulesets.commando.hostages import sees_cell

    return [w for w in everywhere(state) if sees_cell(state, side, Cell(*w["at"]))]


def everywhere(state: CommandoState) -> list[dict[str, Any]]:
    """Every square with weapons lying on it, in the view's shape (the umpire's board)."""
    return [{"at": cell_json(at), "weapons": sorted(w for _, w in items)}
            for at, items in sorted(on_the_ground(state).items())]


def _near(a: Cell, b: Cell) -> bool:
    return a.level == b.level and max(abs(a.x - b.x), abs(a.y - b.y)) <= 1


def options(state: CommandoState, side: str) -> Iterable[Action]:
    """A man not engaged, with 10 TP, on or next to a square he sees with weapons lying on it."""
    f = _flow()
    if state.active_man is None:
        return
    man = f.current(state)
    if man.engaged or man.tp < tables().cost["pick_up_weapon"]:
        return
    here = state.pos[man.id]
    for at, items in sorted(on_the_ground(state).items()):
        if _near(here, at) and f.has_los(state, here, at):
            for fallen, weapon in items:
                yield Action.make(side, "pickup", figure=man.id, fallen=fallen, weapon=weapon)


def do_pickup(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    f = _flow()
    man = f.current(state)
    fallen = state.men[action.get("fallen")]
    weapon = str(action.get("weapon"))
    man.spend(tables().cost["pick_up_weapon"])
    left = lying(fallen)
    left.remove(weapon)
    fallen.extra[LYING] = tuple(left)
    fallen.carried = tuple(w for i, w in enumerate(fallen.carried)
                           if w != weapon or weapon in fallen.carried[:i])
    if fallen.in_hand == weapon:  # a revived man holds what was left him
        fallen.in_hand = left[0] if left else None
    # ruling C-180: in his hand now; the −15 when it is the enemy's and he has none of his own
    if fallen.side != man.side and weapon not in man.carried:
        man.extra[ENEMY] = frozenset({*man.extra.get(ENEMY, ()), weapon})
    man.carried = (*man.carried, weapon)
    man.in_hand = weapon
    man.empty = man.empty | {weapon} if weapon in fallen.empty else man.empty - {weapon}
    log.emit("pickup", {"figure": man.id, "weapon": weapon, "at": cell_json(state.pos[fallen.id])},
             f.audience_of(state, man.id))
    f.after_task(state, log)


def enemy_weapon(man: ManState, weapon: str) -> bool:
    """Ruling C-180: he fires an enemy weapon he picked up (Fire Combat Modifications −15)."""
    return weapon in man.extra.get(ENEMY, ())
