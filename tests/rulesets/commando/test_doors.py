"""Doors and locks (ruling C-62) on a drawn board."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.core.terrain import Terrain
from killhouse.rulesets.commando.doors import (
    force_chance,
    force_door,
    pick_lock,
    shotgun_breach,
    toggle_door,
)
from killhouse.rulesets.commando.men import Kind, ManState, Ratings, SkillRating
from killhouse.rulesets.commando.tasks import TaskRefused
from tests.core.maps import draw

MAP = """
.....
##+##
.....
##L##
.....
"""


class Forced(Chance):
    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        return self.faces.pop(0) - 1


def man(st: int = 22, **skills: int) -> ManState:
    m = ManState("m", "x", Ratings(Kind.COMMANDO, st, 13, 13, 14, lead=10, hero=15, skills={
        k: SkillRating(k, v) for k, v in skills.items()}))
    m.start_turn()
    return m


def test_open_and_close_cost_five_each() -> None:
    board = draw(MAP).board
    m = man()
    door = Cell(0, 2, 1)
    assert toggle_door(board, m, Cell(0, 2, 0), door) is Terrain.DOOR_OPEN
    assert toggle_door(board, m, Cell(0, 1, 2), door) is Terrain.DOOR_CLOSED
    assert m.tp == 40
    with pytest.raises(TaskRefused, match="next to"):
        toggle_door(board, m, Cell(0, 2, 4), door)
    with pytest.raises(TaskRefused, match="locked"):
        toggle_door(board, m, Cell(0, 2, 2), Cell(0, 2, 3))


@pytest.mark.parametrize(("roll", "opened"), [(49, True), (50, False)])
def test_force_a_locked_door_edge(roll: int, opened: bool) -> None:
    board = draw(MAP).board
    m = man()
    assert force_chance(m) == 49  # 40 + 9
    assert force_door(Forced([roll]), board, m, Cell(0, 2, 2), Cell(0, 2, 3)) is opened
    assert m.tp == 25
    assert (board.terrain(Cell(0, 2, 3)) is Terrain.DOOR_CLOSED) is opened


def test_pick_lock_spreads_over_turns_at_multiple_two() -> None:
    board = draw(MAP).board
    m = man(safe_cracking=12)
    m.tp = 30
    assert pick_lock(Forced([]), board, m, Cell(0, 2, 2), Cell(0, 2, 3)) is None
    m.start_turn()
    assert pick_lock(Forced([24]), board, m, Cell(0, 2, 2), Cell(0, 2, 3)) is True  # SDL 24
    assert board.terrain(Cell(0, 2, 3)) is Terrain.DOOR_CLOSED and m.tp == 30
    with pytest.raises(TaskRefused, match="Safe-Cracking"):
        pick_lock(Forced([]), draw(MAP).board, man(), Cell(0, 2, 2), Cell(0, 2, 3))


@pytest.mark.parametrize(("weapon", "rng", "opened"),
                         [("shotgun", 1, True), ("shotgun", 2, False), ("rifle", 1, False)])
def test_shotgun_breach(weapon: str, rng: int, opened: bool) -> None:
    board = draw(MAP).board
    assert shotgun_breach(board, Cell(0, 2, 3), weapon, rng, True) is opened
