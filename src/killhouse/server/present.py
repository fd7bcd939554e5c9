"""What a seat's browser is sent, as JSON: the public floor plan, a side's fog, event copies.

Everything here is translation of what the engine already says a side may know: the
scenario's map (public to every side), the side's own view, and its copies of the events.
The fog (the cells a side sees now) is computed from the side's view alone (its own
figures' places and the doors as it knows them) over the public plan, so it cannot carry
anything the side may not know.
"""

from __future__ import annotations

import logging
from typing import Any

import numpy as np

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.events import Event
from killhouse.core.fov import fields_of_view
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game
from killhouse.sim.seats import side_event

log = logging.getLogger("killhouse.server")

#: statuses in which a figure's eyes no longer count for the fog
_BLIND = frozenset(
    {"dead", "out-of-action", "ooa", "incapacitated", "extracted", "removed", "killed"}
)
_DOOR_STATES = {
    "open": Terrain.DOOR_OPEN,
    "closed": Terrain.DOOR_CLOSED,
    "locked": Terrain.DOOR_LOCKED,
}


def board_json(board: Board) -> dict[str, Any]:
    """The floor plan: per level, rows of terrain codes (``core.terrain.Terrain``), clutter
    and cover digits; the stair links; the named zones."""
    levels = []
    for lv in board.levels:
        levels.append(
            {
                "name": lv.name,
                "width": lv.width,
                "height": lv.height,
                "terrain": ["".join(str(int(v)) for v in row) for row in lv.terrain],
                "clutter": ["".join(str(int(v)) for v in row) for row in lv.clutter],
                "cover": ["".join(str(int(v)) for v in row) for row in lv.cover],
            }
        )
    return {
        "levels": levels,
        "terrain_codes": {t.name.lower(): int(t) for t in Terrain},
        "stairs": [[list(a), list(b)] for a, b in board.stairs.items()],
        "zones": {name: sorted(list(c) for c in cells) for name, cells in board.zones.items()},
    }


def _cell(value: Any) -> Cell | None:
    if isinstance(value, list | tuple) and len(value) == 3:
        try:
            return Cell(int(value[0]), int(value[1]), int(value[2]))
        except (TypeError, ValueError):
            return None
    return None


def known_plan(board: Board, view: dict[str, Any]) -> Board:
    """The public plan with the doors set as ``view`` knows them."""
    plan = board.copy()
    doors = view.get("doors")
    if isinstance(doors, list):
        for door in doors:
            cell = _cell(door.get("at")) if isinstance(door, dict) else None
            state = door.get("state") if isinstance(door, dict) else None
            if cell is not None and plan.in_bounds(cell) and state in _DOOR_STATES:
                plan.set_terrain(cell, _DOOR_STATES[state])
    seen_map = view.get("map")
    if isinstance(seen_map, dict):
        for value in seen_map.get("open_doors") or []:
            cell = _cell(value)
            if cell is not None and plan.in_bounds(cell):
                plan.set_terrain(cell, Terrain.DOOR_OPEN)
    return plan


def fog(board: Board, view: dict[str, Any]) -> list[list[str]]:
    """Per level, rows of ``1`` (seen now by one of the side's figures) and ``0`` (fog)."""
    plan = known_plan(board, view)
    eyes = []
    for fig in view.get("figures") or []:
        if not isinstance(fig, dict) or fig.get("status") in _BLIND:
            continue
        cell = _cell(fig.get("at"))
        if cell is not None and plan.in_bounds(cell):
            eyes.append((cell, None, 180.0))
    masks = [np.zeros((lv.height, lv.width), dtype=bool) for lv in plan.levels]
    for (cell, _, _), seen in zip(eyes, fields_of_view(plan, eyes, veil=False), strict=True):
        masks[cell.level] |= seen
    return [["".join("1" if v else "0" for v in row) for row in mask] for mask in masks]


def narrate(game: Game, event: Event) -> str:
    """The ruleset's line for ``event``; empty if it has none or its narrator fails on this
    copy (a side's redacted copy may lack fields the umpire's has), so a narration bug never
    keeps a seat from its state."""
    try:
        return game.ruleset.narrate(event) or ""
    except Exception:
        log.warning("narration of a %s event failed", event.kind, exc_info=True)
        return ""


def side_events(game: Game, side: str, since: int) -> list[dict[str, Any]]:
    """``side``'s copies of its events numbered ``since`` on (its own dense numbering, which
    counts no hidden event), each with its narration."""
    out = []
    for event in game.log.events_for_side(side, since):
        copy = event.for_side(side)
        if copy is None:  # pragma: no cover - events_for_side keeps the visible ones
            continue
        redacted = side_event(event, side)
        copy["text"] = narrate(game, redacted) if redacted is not None else ""
        out.append(copy)
    return out


def public_events(game: Game, since: int) -> list[dict[str, Any]]:
    """Events every side sees whole (audience all, no redacted copies): the spectators' log,
    numbered densely among themselves from ``since`` on (ruling W-2)."""
    out = []
    for event in game.log.events_for_public(since):
        copy = event.for_public()
        if copy is not None:
            copy["text"] = narrate(game, event)
            out.append(copy)
    return out


def event_count(game: Game, role: str, umpire: str, spectator: str) -> int:
    """How many events ``role`` receives in all: the index its resync counts in."""
    if role == umpire:
        return len(game.log)
    if role == spectator:
        return game.log.public_count()
    return game.log.count_for(role)


def umpire_events(game: Game, since: int) -> list[dict[str, Any]]:
    out = []
    for event in game.log.since(since):
        copy = event.to_json()
        copy["text"] = narrate(game, event)
        out.append(copy)
    return out
