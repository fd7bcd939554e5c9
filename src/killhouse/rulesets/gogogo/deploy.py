"""Setup (section 5.1): secret loadouts and hidden deployment, for what the scenario leaves open.

A scenario may fix every position and loadout, and then there is no setup decision.
Otherwise each side, secretly and at the same time, places its unplaced figures in its
zone (T also the hostages, in the location), gives each a facing, picks the grenade of
each terrorist without one, and names the bomb carrier if none is named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from killhouse.core.cells import COMPASS, COMPASS_ORDER, Cell, cell_json
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.gogogo.movement import enterable
from killhouse.rulesets.gogogo.orders import as_cell
from killhouse.rulesets.gogogo.state import (
    HOSTAGE,
    OPERATIVE,
    Figure,
    GoState,
    T,
    as_weapon,
    id_key,
)
from killhouse.rulesets.gogogo.tables import tables

#: what a counter-terrorist may carry (5.1): the automatic weapon or a sniper rifle
WEAPON_CHOICES = ("auto", "sniper")


def setup_figures(state: GoState, side: str) -> list[Figure]:
    """Figures ``side`` must place: its own unplaced ones, and for T the unplaced hostages."""
    out = []
    for f in state.ordered():
        if f.id not in state.deploy:
            continue
        owner = state.side_of[T] if f.kind == HOSTAGE else f.side
        if owner == side:
            out.append(f)
    return out


def weapon_choices(state: GoState, side: str) -> list[str]:
    """``side``'s operatives whose weapon is chosen at setup, secretly (5.1, G-72)."""
    return [i for i in state.needs_weapon if state.fig(i).side == side]


def setup_needed(state: GoState, side: str) -> bool:
    if setup_figures(state, side) or weapon_choices(state, side):
        return True
    return state.team(side) == T and (bool(state.needs_grenade) or state.needs_carrier)


def _standable(state: GoState, cell: Cell) -> bool:
    """Whether a figure may be set up on ``cell``: enterable, and not a closed door."""
    return bool(_standable_mask(state, cell.level)[cell.y, cell.x])


def _standable_mask(state: GoState, level: int) -> NDArray[np.bool_]:
    """``_standable`` for every square of a level at once, kept for the step."""
    key = ("standable", level)
    found: NDArray[np.bool_] | None = state.cache.get(key)
    if found is None:
        terrain = state.board.levels[level].terrain
        found = enterable(state.board, level) & (terrain != Terrain.DOOR_CLOSED)
        state.cache[key] = found
    return found


def _zone_places(state: GoState, side: str, fig: Figure) -> tuple[tuple[Cell, Action], ...]:
    """The figure's zone squares a figure may stand on and no figure on the map holds, in
    (level, y, x) order, each with its ``place`` action.

    Kept for the step (``state.cache``): during setup the map and the figures already on it
    stand still, so only the side's own draft, filtered at each listing, changes the choice."""
    key = ("zone-places", side, fig.id)
    found: tuple[tuple[Cell, Action], ...] | None = state.cache.get(key)
    if found is None:
        taken = frozenset(f.pos for f in state.figures.values() if f.pos is not None)
        zone = state.deploy[fig.id]
        terrain = tuple((lv.terrain.shape, lv.terrain.tobytes()) for lv in state.board.levels)
        lasting = (side, fig.id, zone, taken, terrain)
        found = _ZONES.get(lasting)
        if found is None:
            cells = [c for c in zone if c not in taken and _standable(state, c)]
            cells.sort(key=lambda c: (c.level, c.y, c.x))
            found = tuple((cell, _place_action(side, fig.id, cell)) for cell in cells)
            if len(_ZONES) >= ZONES_SIZE:
                _ZONES.clear()
            _ZONES[lasting] = found
        state.cache[key] = found
    return found


#: each figure's zone places by everything they are made from (its zone, the squares held,
#: the terrain): a scenario's games start from the same map and the same held squares
_ZONES: dict[tuple[Any, ...], tuple[tuple[Cell, Action], ...]] = {}
#: entries ``_ZONES`` holds before it starts afresh (a bound on memory only)
ZONES_SIZE = 512


#: setup actions made before, by what they are made from: an action is a value, and a
#: scenario's games list the same places, facings and loadouts game after game
_MADE: dict[tuple[Any, ...], Action] = {}
#: entries ``_MADE`` holds before it starts afresh (a bound on memory only)
MADE_SIZE = 100_000


def _kept(key: tuple[Any, ...], make: Callable[[], Action]) -> Action:
    """The action ``make`` builds, made once per ``key`` and kept (``_MADE``)."""
    found = _MADE.get(key)
    if found is None:
        if len(_MADE) >= MADE_SIZE:
            _MADE.clear()
        found = _MADE[key] = make()
    return found


def _place_action(side: str, ident: str, cell: Cell) -> Action:
    """``place(figure, at)`` of ``ident`` on ``cell``."""
    return _kept(
        ("place", side, ident, cell),
        lambda: Action.make(
            side,
            "place",
            hint={"role": "setup", "to": cell_json(cell)},
            figure=ident,
            at=cell_json(cell),
        ),
    )


def free_cells(state: GoState, side: str, fig: Figure) -> list[Cell]:
    """Cells of the figure's zone still free on ``side``'s own setup sheet."""
    placed = set(state.drafts[side].places.values())
    return [cell for cell, _ in _zone_places(state, side, fig) if cell not in placed]


def complete(state: GoState, side: str) -> bool:
    draft = state.drafts[side]
    if draft.pending is not None:
        return False
    if any(f.id not in draft.places for f in setup_figures(state, side)):
        return False
    if any(i not in draft.weapons for i in weapon_choices(state, side)):
        return False
    if state.team(side) == T:
        if any(i not in draft.loadouts for i in state.needs_grenade):
            return False
        if state.needs_carrier and draft.carrier is None:
            return False
    return True


def setup_actions(state: GoState, side: str) -> dict[str, list[Action]]:
    """Every action of the setup decision for ``side``, by kind (each kind in listed order):
    split as they are made, since the flow lists kinds in its own order and hundreds of
    place actions sorted into kinds one by one after every setup action cost more."""
    draft = state.drafts[side]
    if draft.committed:
        return {}
    if draft.pending is not None:
        return {"face": list(_facings(state, side, draft.pending, draft.places[draft.pending]))}
    places: list[Action] = []
    placed = set(draft.places.values())
    for fig in setup_figures(state, side):
        if fig.id in draft.places:
            continue
        places.extend(a for cell, a in _zone_places(state, side, fig) if cell not in placed)
    loadouts: list[Action] = []
    for ident in weapon_choices(state, side):
        if ident not in draft.weapons:
            for w in WEAPON_CHOICES:  # G-32: any number may take a sniper rifle
                loadouts.append(_setup_action(side, "loadout", ident, "weapon", w))
    carriers: list[Action] = []
    if state.team(side) == T:
        for ident in state.needs_grenade:
            if ident not in draft.loadouts:
                for g in tables().t_grenade_choices:
                    loadouts.append(_setup_action(side, "loadout", ident, "grenade", g))
        if state.needs_carrier and draft.carrier is None:
            for f in state.side_figures(side):
                if f.kind == OPERATIVE:
                    carriers.append(_setup_action(side, "carrier", f.id))
    out = {"place": places, "loadout": loadouts, "carrier": carriers}
    out = {kind: listed for kind, listed in out.items() if listed}
    if complete(state, side):
        commit = _kept(("commit", side), lambda: Action.make(side, "commit", hint={"role": "pass"}))
        out["commit"] = [commit]
    return out


def _setup_action(side: str, kind: str, ident: str, arg: str = "", value: str = "") -> Action:
    """A ``loadout`` (``arg`` weapon or grenade) or ``carrier`` action of ``ident``, kept."""
    args = {arg: value} if arg else {}
    return _kept(
        (kind, side, ident, arg, value),
        lambda: Action.make(side, kind, hint={"role": "setup"}, figure=ident, **args),
    )


def _facings(state: GoState, side: str, ident: str, at: Cell) -> tuple[Action, ...]:
    """The eight setup ``face`` actions of ``ident`` placed on ``at``, in compass order."""
    out = []
    for name in COMPASS_ORDER:
        ahead = at.step(*COMPASS[name])
        inside = state.board.in_bounds(ahead)
        out.append(
            _kept(
                ("face", side, ident, at, name, inside), _facing(side, ident, name, ahead, inside)
            )
        )
    return tuple(out)


def _facing(side: str, ident: str, name: str, ahead: Cell, inside: bool) -> Callable[[], Action]:
    """How to make one setup ``face`` action (its hint points ahead when that is on the map)."""

    def make() -> Action:
        hint: dict[str, Any] = {"role": "setup", "facing": name}
        if inside:
            hint["to"] = cell_json(ahead)
        return Action.make(side, "face", hint=hint, figure=ident, facing=name)

    return make


def _setup_fig(state: GoState, side: str, action: Action) -> Figure:
    ident = action.get("figure")
    if not isinstance(ident, str) or ident not in state.figures:
        raise IllegalActionError(f"no figure {ident!r}")
    return state.fig(ident)


def check_place(state: GoState, side: str, action: Action) -> tuple[Figure, Cell]:
    draft = state.drafts[side]
    if draft.pending is not None:
        raise IllegalActionError(f"choose the facing of {draft.pending} first")
    fig = _setup_fig(state, side, action)
    if fig not in setup_figures(state, side):
        raise IllegalActionError(f"{fig.id} is not a figure {side} places at setup")
    if fig.id in draft.places:
        raise IllegalActionError(f"{fig.id} is already placed")
    cell = as_cell(action.get("at"), "at")
    if cell not in free_cells(state, side, fig):
        raise IllegalActionError(f"{list(cell)} is not a free square of {fig.id}'s deployment zone")
    return fig, cell


def check_face(state: GoState, side: str, action: Action) -> tuple[Figure, str]:
    draft = state.drafts[side]
    fig = _setup_fig(state, side, action)
    if draft.pending != fig.id:
        raise IllegalActionError(f"{fig.id} is not waiting for a facing")
    facing = action.get("facing")
    if facing not in COMPASS:
        raise IllegalActionError(f"facing must be one of {', '.join(COMPASS_ORDER)}")
    return fig, str(facing)


def check_loadout(state: GoState, side: str, action: Action) -> tuple[Figure, str, str]:
    """A loadout choice: ``(figure, "weapon" | "grenade", choice)``."""
    draft = state.drafts[side]
    if draft.pending is not None:
        raise IllegalActionError(f"choose the facing of {draft.pending} first")
    fig = _setup_fig(state, side, action)
    if action.get("weapon") is not None:
        if action.get("grenade") is not None:
            raise IllegalActionError("choose a weapon or a grenade, one at a time")
        if fig.id not in weapon_choices(state, side) or fig.id in draft.weapons:
            raise IllegalActionError(f"{fig.id} has no weapon to choose")
        weapon = action.get("weapon")
        if weapon not in WEAPON_CHOICES:
            raise IllegalActionError("a counter-terrorist takes auto or sniper (5.1)")
        return fig, "weapon", str(weapon)
    if fig.side != side or fig.id not in state.needs_grenade or fig.id in draft.loadouts:
        raise IllegalActionError(f"{fig.id} has no grenade to choose")
    grenade = action.get("grenade")
    if grenade not in tables().t_grenade_choices:
        raise IllegalActionError("a terrorist takes one of he, smoke or stun")
    return fig, "grenade", str(grenade)


def check_carrier(state: GoState, side: str, action: Action) -> Figure:
    draft = state.drafts[side]
    if draft.pending is not None:
        raise IllegalActionError(f"choose the facing of {draft.pending} first")
    fig = _setup_fig(state, side, action)
    if not state.needs_carrier or draft.carrier is not None:
        raise IllegalActionError("no bomb carrier to name")
    if fig.side != side or fig.kind != OPERATIVE:
        raise IllegalActionError(f"{fig.id} is not one of your operatives")
    return fig


def apply_setup(state: GoState) -> None:
    """Both sides committed: their secret choices take effect."""
    for side in state.sides:
        draft = state.drafts[side]
        for ident, cell in sorted(draft.places.items(), key=lambda kv: id_key(kv[0])):
            fig = state.fig(ident)
            fig.pos = cell
            fig.facing = draft.facings.get(ident, fig.facing)
        for ident, grenade in draft.loadouts.items():
            state.fig(ident).grenades = {grenade: 1}
        for ident, weapon in draft.weapons.items():
            state.fig(ident).weapon = as_weapon(weapon) or "auto"
        if draft.carrier is not None and state.bomb is not None:
            state.bomb.carrier = draft.carrier
            state.fig(draft.carrier).has_bomb = True
    state.deploy = {}
    state.needs_grenade = []
    state.needs_weapon = []
    state.needs_carrier = False
