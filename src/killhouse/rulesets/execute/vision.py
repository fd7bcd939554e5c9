"""Who sees what (digest 6.3, ruling E-7): line of sight, cameras, memories and door states.

A side sees a figure when one of its active figures on the map has line of sight to the
figure's square (ruling E-6: 360°, no range limit); the terrorists also see every square a
working camera covers (E-19). With the ``open_map`` option everything on the map is seen.
After every action ``refresh`` updates each side's sightings and memories and tells it, by
events only it receives, what it newly saw or lost sight of.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import Any

import numpy as np
from numpy.typing import NDArray

from killhouse.core.cells import Cell, cell_json
from killhouse.core.events import Audience, EventLog
from killhouse.core.geometry import los_from
from killhouse.core.terrain import door_mask
from killhouse.rulesets.execute.state import (
    ACTIVE,
    HOSTAGE,
    REMOVED,
    ExecuteState,
    Figure,
    Memory,
    newest_stamp,
)


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

    Read from ``side_sight``: one grid per level of the squares the side sees, so asking
    about many cells costs a list lookup each.
    """
    if not cells:
        return []
    grids = side_sight(state, side)
    out = [False] * len(cells)
    for i, c in enumerate(cells):
        grid = grids[c.level]
        if grid is not None and grid[c.y][c.x]:
            out[i] = True
    if side == state.terrorists:
        covered = camera_cells(state)
        for i, c in enumerate(cells):
            if c in covered:
                out[i] = True
    return out


def side_sight(state: ExecuteState, side: str) -> list[list[list[bool]] | None]:
    """Per level, the squares some active figure of ``side`` on the map has LOS to (E-6), as
    nested lists indexed ``[y][x]`` (None for a level with no observer); cameras are not in
    it. The union of the observers' ``eye_grid``s, made once per state change."""
    key = ("side-sight", side)
    found: list[list[list[bool]] | None] | None = state.cache.get(key)
    if found is not None:
        return found
    # the side's observers' squares, as the refresh read them (kept under the figures' stamps)
    spots = sorted(set(_figure_inputs(state)[0][side]))
    # kept in ``state.memo`` under the observers' squares and the terrain: an action that
    # moves nobody of this side, and opens no door, leaves the side's sight as it was
    lasting = (
        "side-sight",
        tuple(spots),
        tuple(terrain_key(state, level) for level in range(len(state.board.levels))),
    )
    found = state.memo.get(lasting)
    if found is None:
        levels: list[Any] = [None] * len(state.board.levels)
        for at in spots:
            grid = eye_grid(state, at)
            prev = levels[at.level]
            levels[at.level] = grid if prev is None else prev | grid
        found = [None if g is None else g.tolist() for g in levels]
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[lasting] = found
    state.cache[key] = found
    state.cache[("side-sight-key", side)] = lasting
    return found


def eye_grid(state: ExecuteState, at: Cell) -> NDArray[np.bool_]:
    """Every square of ``at``'s level that a figure at ``at`` has LOS to (E-6: the exact
    segment rule, ``los_pairs``, to each square), kept in ``state.memo`` under the square and
    its level's terrain (a door that opens or shuts makes a new grid), and in the eye book."""
    key = ("eye-grid", at, terrain_key(state, at.level))
    found: NDArray[np.bool_] | None = state.memo.get(key)
    if found is None:
        terrain = state.board.levels[at.level].terrain
        book_key = (at.x, at.y, terrain.shape, terrain.tobytes())
        found = _EYE_BOOK.get(book_key)
        if found is None:
            opaque = state.board.opaque(at.level)
            every = _EVERY_SQUARE.get(opaque.shape)
            if every is None:
                every = _EVERY_SQUARE[opaque.shape] = np.ones(opaque.shape, dtype=bool)
            found = los_from(opaque, (at.x, at.y), every)  # one compiled pass over the level
            found.setflags(write=False)
            if len(_EYE_BOOK) >= EYE_BOOK_LIMIT:
                _EYE_BOOK.clear()
            _EYE_BOOK[book_key] = found
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[key] = found
    return found


#: The eye book: an observer square's LOS grid by (x, y, level shape, the level's terrain as
#: it is). A grid is a pure function of those (``opaque`` reads only the terrain), so it is
#: kept for the whole process, not per game: a batch of games on one scenario starts every
#: game with the same sight, and its figures stand on the same squares again and again. Read
#: only on a miss of ``state.memo`` and keyed on the terrain read then (not the state's
#: cached ``terrain_key``), so it answers exactly what computing the grid would. Grids are
#: read-only. Bounded: emptied when full.
_EYE_BOOK: dict[tuple[int, int, tuple[int, ...], bytes], NDArray[np.bool_]] = {}
EYE_BOOK_LIMIT = 4096


#: an all-True mask per level shape: ``los_from`` to every square
_EVERY_SQUARE: dict[tuple[int, ...], NDArray[np.bool_]] = {}


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
    """Update every side's sightings, memories, door states and sighted bombs after an action.

    A side whose inputs (``_side_inputs``) are those of its last refresh, with the memories
    and sightings that refresh left, is skipped: it would tell nothing and change nothing (a
    planning step, a ``done``, a shot that missed). Before that, a refresh whose every input
    (``_refresh_token``) is as the last refresh left it puts back what that refresh left in
    ``state.cache`` and stops: neither side would be refreshed, nor a bomb seen."""
    state.touch()
    terrain = tuple([terrain_key(state, level) for level in range(len(state.board.levels))])
    spots, others = _figure_inputs(state)
    token = _refresh_token(state, terrain)
    kept = state.refreshed.get(("all",))
    if kept is not None and kept[0] == token:
        state.cache.update(kept[1])
        return
    _refresh_sides(state, log, terrain, spots, others)
    state.refreshed[("all",)] = (
        _refresh_token(state, terrain),
        {key: state.cache[key] for key in _left_keys(state) if key in state.cache},
    )


def _refresh_token(state: ExecuteState, terrain: tuple[bytes, ...]) -> tuple[Any, ...]:
    """Everything a refresh reads: the turn, the terrain, the figures as the refresh reads
    them (their inputs' kept entry, the same object while no figure is written), the
    cameras, each side's memories and sightings (``seen`` only grows into ``known``), and the
    hidden bombs."""
    return (
        state.turn,
        terrain,
        state.refreshed[("figures",)][1],  # the figure inputs (``_figure_inputs``, read first)
        tuple([(d.type, d.working, d.covers) for d in state.devices.values()]),
        tuple([dict(state.memory.get(side, {})) for side in state.side_ids()]),
        tuple([state.seen.get(side) for side in state.side_ids()]),
        tuple([(b.id, b.at) for b in state.bombs.values()
               if not b.seen_by_fbi and b.state == "armed"]),
    )


def _left_keys(state: ExecuteState) -> list[tuple[str, str]]:
    """The ``state.cache`` entries a refresh leaves for the state (each side's sight)."""
    return [
        (name, side)
        for side in state.side_ids()
        for name in ("visible", "side-sight", "side-sight-key")
    ]


def _refresh_sides(
    state: ExecuteState,
    log: EventLog,
    terrain: tuple[bytes, ...],
    spots: dict[str, tuple[Cell, ...]],
    others: dict[str, tuple[Any, ...]],
) -> None:
    """Each side refreshed unless its inputs are those of its last refresh, then the bombs."""
    for side in state.side_ids():
        inputs = _side_inputs(state, side, terrain, spots[side], others[side])
        last = state.refreshed.get(("sight", side))
        memory = state.memory.get(side)
        seen = state.seen.get(side)
        if (
            last is not None
            and memory is not None
            and seen is not None
            and last[0] == inputs
            and last[1] == tuple(memory.items())
            and last[2] == seen
            and seen <= state.known.get(side, set())
        ):
            # what a full refresh leaves in ``state.cache`` for the rest of this state (the
            # rules read sight from it until the next ``touch``): the same, as nothing changed
            state.cache[("visible", side)] = frozenset(seen)
            if not state.options.open_map:
                if last[3] is not None:
                    state.cache[("side-sight", side)] = last[3]
                    state.cache[("side-sight-key", side)] = last[4]
                else:
                    side_sight(state, side)
            continue
        _refresh_side(state, side, log)
        state.refreshed[("sight", side)] = (
            inputs,
            tuple(state.memory[side].items()),
            frozenset(state.seen[side]),
            state.cache.get(("side-sight", side)),
            state.cache.get(("side-sight-key", side)),
        )
    _refresh_bombs(state, log, terrain, spots[state.fbi])


def _figure_inputs(
    state: ExecuteState,
) -> tuple[dict[str, tuple[Cell, ...]], dict[str, tuple[Any, ...]]]:
    """What each side's refresh reads of the figures: its observers' squares, and every
    other figure on the map as it would see it. Made in one pass over the figures for both
    sides, and kept in ``state.refreshed`` under the figures' write stamps (``Figure.stamp``):
    while no figure is written (a planning step, a ``done``, a missed shot) they are as they
    were, and the refresh's check of its inputs is a comparison of the same objects."""
    kept = state.refreshed.get(("figures",))
    newest = newest_stamp()
    # no figure anywhere took a stamp since, and none joined or left: no need to read them
    if kept is not None and kept[2] == (newest, len(state.figures)):
        found: tuple[dict[str, tuple[Cell, ...]], dict[str, tuple[Any, ...]]] = kept[1]
        return found
    figures = list(state.figures.values())
    stamps = tuple([f.stamp for f in figures])
    if kept is not None and kept[0] == stamps:
        state.refreshed[("figures",)] = (stamps, kept[1], (newest, len(figures)))
        found = kept[1]
        return found
    on_map = [(f.side, _SEEN_FIELDS(f)) for f in figures
              if f.pos is not None and f.status not in REMOVED]
    spots = {
        side: tuple([f.pos for f in figures
                     if f.side == side and f.status == ACTIVE and f.pos is not None])
        for side in state.side_ids()
    }
    others = {side: tuple([seen for owner, seen in on_map if owner != side])
              for side in state.side_ids()}
    state.refreshed[("figures",)] = (stamps, (spots, others), (newest, len(figures)))
    return spots, others


#: what a side's refresh reads of a figure it may see (``seen_info``, ``Memory``, events)
_SEEN_FIELDS = attrgetter(
    "id", "kind", "side", "name", "card", "pos", "status", "weapon", "armour", "leader"
)


def _side_inputs(
    state: ExecuteState,
    side: str,
    terrain: tuple[bytes, ...],
    spots: tuple[Cell | None, ...],
    others: tuple[Any, ...],
) -> tuple[Any, ...]:
    """Everything ``_refresh_side`` reads of the state besides the side's own memories and
    sightings: the turn, the terrain, its observers' squares, every other figure on the map
    as it would see it (``others``), and (for the terrorists) the cameras. Its own figures'
    loadouts are not in it: a planning step changes none of these."""
    return (
        state.turn,
        terrain,
        spots,
        others,
        tuple([(d.type, d.working, d.covers) for d in state.devices.values()])
        if side == state.terrorists
        else (),
    )


def _refresh_side(state: ExecuteState, side: str, log: EventLog) -> None:
    audience = frozenset({side})
    before = state.seen.setdefault(side, set())
    memory = state.memory.setdefault(side, {})
    # one sight test for the figures and the remembered squares (nothing moves here)
    remembered = {fid: Cell(*m.at) for fid, m in memory.items() if m.at is not None}
    if state.options.open_map:
        sight: dict[str, bool] = {}
        now = visible_ids(state, side)
    else:
        key = ("visible", side)
        # every other figure on the map as (id, pos), from the figure inputs (kept under the
        # figures' stamps; ``_SEEN_FIELDS``: id first, pos sixth)
        targets: list[tuple[str, Cell]] = (
            [] if key in state.cache else [(t[0], t[5]) for t in _figure_inputs(state)[1][side]]
        )
        cells = [pos for _, pos in targets]
        flags = cells_in_sight(state, side, [*cells, *remembered.values()])
        if key not in state.cache:
            state.cache[key] = frozenset(
                fid for (fid, _), ok in zip(targets, flags[: len(cells)], strict=True) if ok
            )
        sight = dict(zip(remembered, flags[len(cells) :], strict=True))
        now = visible_ids(state, side)
    known = state.known.setdefault(side, set())
    # what each memory of a figure in sight was made from: the same figure seen the same way
    # in the same turn makes an equal memory and tells nothing, so it is kept as it is
    made: dict[str, tuple[tuple[Any, ...], Memory]] = state.memo.setdefault(("made", side), {})
    for fid in sorted(now):
        figure = state.figures[fid]
        previous = memory.get(fid)
        sign = (state.turn, figure.pos, figure.status, figure.weapon, figure.armour,
                figure.leader, figure.card, figure.name)
        kept = made.get(fid)
        if kept is not None and fid in before and kept[1] is previous and kept[0] == sign:
            known.add(fid)
            continue
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
        fresh = Memory(
            fid,
            info["at"],
            state.turn,
            "seen",
            {k: v for k, v in info.items() if k not in ("id", "at")},
        )
        memory[fid] = fresh
        made[fid] = (sign, fresh)
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
    _refresh_doors(state, side)


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


def _refresh_doors(state: ExecuteState, side: str) -> None:
    """Ruling E-58: a side knows the doors it sees now as they are, the rest as last seen."""
    doors = state.doors.setdefault(side, {})
    if state.options.open_map:
        doors.update(_door_states(state, door_cells(state)))
        return
    doors.update(_doors_in_sight(state, side))
    if side == state.terrorists:
        covered = camera_cells(state)
        if covered:
            doors.update(_door_states(state, [c for c in door_cells(state) if c in covered]))


def _door_states(state: ExecuteState, cells: Sequence[Cell]) -> list[tuple[Cell, int]]:
    return [(c, int(state.board.levels[c.level].terrain[c.y, c.x])) for c in cells]


def _doors_in_sight(state: ExecuteState, side: str) -> list[tuple[Cell, int]]:
    """The door squares ``side``'s figures have LOS to now, with their terrain (cameras
    aside), kept in ``state.memo`` beside the side's sight (``side_sight``): the same
    observers on the same terrain see the same doors in the same states."""
    grids = side_sight(state, side)
    key = ("doors-seen", state.cache[("side-sight-key", side)])
    found: list[tuple[Cell, int]] | None = state.memo.get(key)
    if found is None:
        seen = []
        for c in door_cells(state):
            grid = grids[c.level]
            if grid is not None and grid[c.y][c.x]:
                seen.append(c)
        found = _door_states(state, seen)
        if len(state.memo) >= MEMO_LIMIT:
            state.memo.clear()
        state.memo[key] = found
    return found


def _refresh_bombs(
    state: ExecuteState, log: EventLog, terrain: tuple[bytes, ...], agents: tuple[Any, ...]
) -> None:
    """A bomb becomes known to the FBI once an active agent has LOS to its square (E-23).
    ``terrain`` and ``agents`` (the FBI observers' squares) are the refresh's."""
    hidden = [b for b in state.bombs.values() if not b.seen_by_fbi and b.state == "armed"]
    if not hidden:
        return
    # the same hidden bombs, the same agents' squares, the same terrain: none seen again
    inputs = (terrain, agents, tuple((b.id, b.at) for b in hidden))
    if state.refreshed.get(("bombs",)) == inputs:
        side_sight(state, state.fbi)  # in ``state.cache``, as the check leaves it
        return
    flags = _agent_los(state, [b.at for b in hidden])
    if not any(flags):
        state.refreshed[("bombs",)] = inputs
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
