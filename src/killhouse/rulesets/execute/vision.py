"""Who sees what (digest 6.3, ruling E-7): line of sight, cameras, memories and door states.

A side sees a figure when one of its active figures on the map has line of sight to the
figure's square (ruling E-6: 360°, no range limit); the terrorists also see every square a
working camera covers (E-19). With the ``open_map`` option everything on the map is seen.
After every action ``refresh`` updates each side's sightings and memories and tells it, by
events only it receives, what it newly saw or lost sight of.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from killhouse.core.cells import Cell, cell_json
from killhouse.core.events import Audience, EventLog
from killhouse.core.geometry import los_pairs
from killhouse.core.terrain import door_mask
from killhouse.rulesets.execute.state import HOSTAGE, REMOVED, ExecuteState, Figure, Memory


def observers(state: ExecuteState, side: str) -> list[Figure]:
    """The side's figures that can see: active and on the map."""
    return [f for f in state.figures.values() if f.side == side and f.active and f.pos is not None]


def camera_cells(state: ExecuteState) -> frozenset[Cell]:
    """Squares covered by the terrorists' working cameras (ruling E-19)."""
    cells: set[Cell] = set()
    for device in state.devices.values():
        if device.type == "camera" and device.working:
            cells |= device.covers
    return frozenset(cells)


def cells_in_sight(state: ExecuteState, side: str, cells: Sequence[Cell]) -> list[bool]:
    """For each cell, whether ``side`` sees it now (LOS from an observer, or a camera).

    Each observer square keeps the answers it has traced (``eye_book``) under its level's
    terrain, so after an action only the lines from a figure that moved, or to a square
    not asked before, are traced (in one batch per level); a cell one observer is known to
    see needs no line from the others.
    """
    if not cells:
        return []
    out = [False] * len(cells)
    by_level: dict[int, list[Cell]] = {}
    for f in observers(state, side):
        assert f.pos is not None
        by_level.setdefault(f.pos.level, []).append(f.pos)
    for level, spots in by_level.items():
        books = [(at, eye_book(state, at)) for at in dict.fromkeys(spots)]
        todo: list[tuple[int, Cell, dict[Cell, bool], Cell]] = []
        for i, c in enumerate(cells):
            if c.level != level:
                continue
            unknown = []
            for at, book in books:
                known = book.get(c)
                if known is None:
                    unknown.append((i, at, book, c))
                elif known:
                    out[i] = True
                    break
            else:
                todo += unknown
        if todo:
            seen = los_pairs(
                state.board.opaque(level),
                [(at.x, at.y) for _, at, _, _ in todo],
                [(c.x, c.y) for _, _, _, c in todo],
            ).tolist()
            for (i, _, book, c), ok in zip(todo, seen, strict=True):
                book[c] = ok
                if ok:
                    out[i] = True
    if side == state.terrorists:
        covered = camera_cells(state)
        for i, c in enumerate(cells):
            if c in covered:
                out[i] = True
    return out


#: entries ``state.memo`` keeps before it starts afresh (shared with ``movement.reach``)
MEMO_LIMIT = 2048


def terrain_key(state: ExecuteState, level: int) -> bytes:
    """The level's terrain as bytes, made once per state change (a memo key part: bytes keep
    their hash, so a lookup does not read the map again)."""
    key = ("terrain-key", level)
    found: bytes | None = state.cache.get(key)
    if found is None:
        found = state.cache[key] = state.board.levels[level].terrain.tobytes()
    return found


def eye_book(state: ExecuteState, at: Cell) -> dict[Cell, bool]:
    """The squares traced from ``at`` and whether each is in sight (E-6), kept in
    ``state.memo`` under the square and its level's terrain (a door that opens or shuts
    starts a new book)."""
    key = ("eye", at, terrain_key(state, at.level))
    found: dict[Cell, bool] | None = state.memo.get(key)
    if found is None:
        found = {}
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[key] = found
    return found


def _targets(state: ExecuteState, side: str) -> list[Figure]:
    """Figures ``side`` could see: everyone on the map who is not its own."""
    return [f for f in state.figures.values() if f.side != side and f.on_map]


def visible_ids(state: ExecuteState, side: str) -> frozenset[str]:
    """Ids of the other figures ``side`` sees now (cached until the state changes)."""
    key = ("visible", side)
    cached = state.cache.get(key)
    if cached is not None:
        result: frozenset[str] = cached
        return result
    targets = _targets(state, side)
    if state.options.open_map:
        result = frozenset(f.id for f in targets)
    else:
        cells = [f.pos for f in targets if f.pos is not None]
        flags = cells_in_sight(state, side, cells)
        result = frozenset(f.id for f, ok in zip(targets, flags, strict=True) if ok)
    state.cache[key] = result
    return result


def sees(state: ExecuteState, side: str, figure: Figure) -> bool:
    """Whether ``side`` knows what ``figure`` is doing now: its own, or in sight."""
    return figure.side == side or figure.id in visible_ids(state, side)


def witnesses(state: ExecuteState, *figures: Figure) -> set[str]:
    """The sides that see any of ``figures`` now (a figure's own side always does)."""
    out: set[str] = set()
    for side in state.side_ids():
        if any(sees(state, side, f) for f in figures):
            out.add(side)
    return out


def seen_info(state: ExecuteState, figure: Figure, side: str) -> dict[str, Any]:
    """What a side sees of another figure (6.3): place, card, status, weapon, armour."""
    info: dict[str, Any] = {
        "id": figure.id,
        "kind": figure.kind,
        "side": figure.side,
        "name": figure.name,
        "card": figure.card.to_json(),
        "at": cell_json(figure.pos),
        "status": figure.status,
        "weapon": figure.weapon,
        "armour": figure.armour,
    }
    if figure.kind == HOSTAGE and side == state.fbi:
        info["leader"] = figure.leader
    return info


def _emit(log: EventLog, kind: str, data: dict[str, Any], audience: Audience) -> None:
    log.emit(kind, data, audience)


def refresh(state: ExecuteState, log: EventLog) -> None:
    """Update every side's sightings, memories, door states and sighted bombs after an action."""
    state.touch()
    for side in state.side_ids():
        _refresh_side(state, side, log)
    _refresh_bombs(state, log)


def _refresh_side(state: ExecuteState, side: str, log: EventLog) -> None:
    audience = frozenset({side})
    before = state.seen.setdefault(side, set())
    memory = state.memory.setdefault(side, {})
    doors = door_cells(state)
    # one sight test for the figures, the remembered squares and the doors (nothing moves here)
    remembered = {fid: Cell(*m.at) for fid, m in memory.items() if m.at is not None}
    if state.options.open_map:
        sight: dict[str, bool] = {}
        door_flags = [True] * len(doors)
        now = visible_ids(state, side)
    else:
        key = ("visible", side)
        targets = [] if key in state.cache else _targets(state, side)
        cells = [f.pos for f in targets if f.pos is not None]
        flags = cells_in_sight(state, side, [*cells, *remembered.values(), *doors])
        if key not in state.cache:
            state.cache[key] = frozenset(
                f.id for f, ok in zip(targets, flags[: len(cells)], strict=True) if ok
            )
        sight = dict(zip(remembered, flags[len(cells) : len(cells) + len(remembered)],
                         strict=True))
        door_flags = flags[len(cells) + len(remembered) :]
        now = visible_ids(state, side)
    known = state.known.setdefault(side, set())
    for fid in sorted(now):
        figure = state.figures[fid]
        info = seen_info(state, figure, side)
        previous = memory.get(fid)
        if fid not in before:
            _emit(log, "sighted", {**info, "observer": side}, audience)
        elif previous is not None and (
            previous.at != info["at"] or previous.info.get("status") != figure.status
        ):
            _emit(
                log,
                "observed",
                {
                    "observer": side,
                    "figure": fid,
                    "from": previous.at,
                    "to": info["at"],
                    "status": figure.status,
                },
                audience,
            )
        memory[fid] = Memory(
            fid,
            info["at"],
            state.turn,
            "seen",
            {k: v for k, v in info.items() if k not in ("id", "at")},
        )
        known.add(fid)
    for fid in sorted(before - now):
        figure = state.figures[fid]
        last = memory.get(fid)
        _emit(
            log,
            "lost_sight",
            {"observer": side, "figure": fid, "at": last.at if last else None},
            audience,
        )
        if figure.status in REMOVED:
            memory.pop(fid, None)
    # a remembered square seen empty of its figure is no longer a last-known position (E-29)
    stale = [m for fid, m in memory.items() if fid not in now and m.at is not None]
    for m in stale:
        if state.options.open_map or sight.get(m.id, False):
            memory.pop(m.id, None)
    state.seen[side] = set(now)
    _refresh_doors(state, side, door_flags)


def door_cells(state: ExecuteState) -> list[Cell]:
    """Every door square of the map, in a fixed order (kept in ``state.memo`` under the
    terrain, so a door blown away is never listed again)."""
    key = ("doors-all", *(terrain_key(state, i) for i in range(len(state.board.levels))))
    cached = state.memo.get(key)
    if cached is None:
        cells: list[Cell] = []
        for level, lv in enumerate(state.board.levels):
            ys, xs = np.nonzero(door_mask(lv.terrain))
            cells.extend(Cell(level, int(x), int(y)) for y, x in zip(ys, xs, strict=True))
        cached = sorted(cells)
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[key] = cached
    result: list[Cell] = cached
    return result


def _refresh_doors(state: ExecuteState, side: str, flags: Sequence[bool]) -> None:
    """Ruling E-58: a side knows the doors it sees now (``flags``, one per door square of
    ``door_cells``) as they are, the rest as last seen."""
    doors = state.doors.setdefault(side, {})
    cells = door_cells(state)
    for cell, ok in zip(cells, flags, strict=True):
        if ok:
            doors[cell] = int(state.board.levels[cell.level].terrain[cell.y, cell.x])


def _refresh_bombs(state: ExecuteState, log: EventLog) -> None:
    """A bomb becomes known to the FBI once an active agent has LOS to its square (E-23)."""
    hidden = [b for b in state.bombs.values() if not b.seen_by_fbi and b.state == "armed"]
    if not hidden:
        return
    flags = _agent_los(state, [b.at for b in hidden])
    for bomb, ok in zip(hidden, flags, strict=True):
        if ok:
            bomb.seen_by_fbi = True
            state.known.setdefault(state.fbi, set()).add(bomb.id)
            log.emit(
                "bomb_spotted", {"bomb": bomb.id, **bomb_info(state, bomb)}, frozenset({state.fbi})
            )


def _agent_los(state: ExecuteState, cells: Sequence[Cell]) -> list[bool]:
    """LOS from active agents only: bombs ignore the open_map option (ruling E-49)."""
    return cells_in_sight(state, state.fbi, cells)


def bomb_info(state: ExecuteState, bomb: Any) -> dict[str, Any]:
    """What the FBI sees of a bomb: square, level, and turns remaining on a timer (E-23)."""
    info: dict[str, Any] = {"at": cell_json(bomb.at), "level": bomb.level, "state": bomb.state}
    if bomb.mode == "timer" and bomb.explode_turn is not None:
        info["mode"] = "timer"
        info["turns_remaining"] = max(0, bomb.explode_turn - max(state.turn, 1) + 1)
    else:
        info["mode"] = "remote"
    return info
