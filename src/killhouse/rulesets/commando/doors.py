"""Doors and locks for hostage rescue (ruling C-62): open or close 5 TP, force a locked door
25 TP on d100 ≤ 40 + CharMod(St), pick a lock with Safe-Cracking at multiple 2 (50 TP, may be
spread over turns, C-5), and a shotgun hit at range 1 breaks a lock."""

from __future__ import annotations

from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.core.terrain import Terrain
from killhouse.rulesets.commando.characters import charmod, skill_check
from killhouse.rulesets.commando.dice import percent_check
from killhouse.rulesets.commando.men import ManState
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.commando.tasks import TaskRefused


def _next_to(man_at: Cell, door: Cell) -> bool:
    return man_at.level == door.level and max(abs(man_at.x - door.x), abs(man_at.y - door.y)) == 1


def _check(board: Board, man: ManState, man_at: Cell, door: Cell, cost: int) -> None:
    if not _next_to(man_at, door):
        raise TaskRefused(f"{man.id} must stand next to the door")
    if man.tp < cost:
        raise TaskRefused(f"{man.id} has {man.tp} TP; this costs {cost}")


def toggle_door(board: Board, man: ManState, man_at: Cell, door: Cell) -> Terrain:
    """Open a closed door or close an open one without passing through it: 5 TP (C-62)."""
    kind = board.terrain(door)
    if kind not in (Terrain.DOOR_CLOSED, Terrain.DOOR_OPEN):
        raise TaskRefused("that is not a closed or open door" + (
            " (it is locked)" if kind is Terrain.DOOR_LOCKED else ""))
    _check(board, man, man_at, door, tables().cost["open_close_door"])
    man.spend(tables().cost["open_close_door"])
    new = Terrain.DOOR_OPEN if kind is Terrain.DOOR_CLOSED else Terrain.DOOR_CLOSED
    board.set_terrain(door, new)
    return new


def force_chance(man: ManState) -> int:
    """Ruling C-62: 40 + CharMod(St)."""
    return tables().force_door_base + charmod(man.ratings.st)


def force_door(
    chance: Chance, board: Board, man: ManState, man_at: Cell, door: Cell,
    audience: Audience = None,
) -> bool:
    """Force a locked door: 25 TP whatever the result; success leaves it closed, unlocked."""
    if board.terrain(door) is not Terrain.DOOR_LOCKED:
        raise TaskRefused("that door is not locked")
    cost = tables().cost["force_door"]
    _check(board, man, man_at, door, cost)
    man.spend(cost)
    ok = percent_check(chance, force_chance(man), "force door", audience)
    if ok:
        board.set_terrain(door, Terrain.DOOR_CLOSED)
    return ok


def pick_lock(
    chance: Chance, board: Board, man: ManState, man_at: Cell, door: Cell,
    audience: Audience = None,
) -> bool | None:
    """Safe-Cracking at multiple 2 (C-62): pays into a 50 TP task that may span turns (C-5);
    ``None`` while unfinished, then the skill roll decides."""
    if board.terrain(door) is not Terrain.DOOR_LOCKED:
        raise TaskRefused("that door is not locked")
    skill = man.ratings.skills.get("safe_cracking")
    if skill is None:
        raise TaskRefused(f"{man.id} has no Safe-Cracking skill (C-45)")
    if not _next_to(man_at, door):
        raise TaskRefused(f"{man.id} must stand next to the door")
    if man.tp <= 0:
        raise TaskRefused(f"{man.id} has no TP left")
    lock_mult = float(tables().safe_cracking_lock_mult)
    if not man.work_on(f"pick-lock {door.level},{door.x},{door.y}", tables().cost_safe_cracking):
        return None
    ok = skill_check(chance, "safe_cracking", skill.rating, man.ratings.hero_skill(),
                     lock_mult, audience, who=man.id)
    if ok:
        board.set_terrain(door, Terrain.DOOR_CLOSED)
    return ok


def shotgun_breach(board: Board, door: Cell, weapon: str, rng: int, hit: bool) -> bool:
    """Ruling C-62: a shotgun hit on a locked door at range 1 opens its lock."""
    if hit and weapon == "shotgun" and rng <= 1 and board.terrain(door) is Terrain.DOOR_LOCKED:
        board.set_terrain(door, Terrain.DOOR_CLOSED)
        return True
    return False
