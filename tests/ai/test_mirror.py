"""The role bots' shared map mirror: caches answer from the side's copy and never go stale."""

from __future__ import annotations

from killhouse.ai.mirror import BoolArray, SideMirror
from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell
from killhouse.core.geometry import line_of_sight
from killhouse.core.paths import DistanceField, StepRules, distance_field
from killhouse.core.terrain import Terrain, passable_mask


def corridor() -> Board:
    """A 7x3 floor with a door at x=3 across the middle row and walls above and below it."""
    level = Level.blank("ground", 7, 3)
    level.terrain[:, 3] = Terrain.WALL
    level.terrain[1, 3] = Terrain.DOOR_CLOSED
    return Board([level])


def walk(board: Board) -> DistanceField:
    cost = [passable_mask(lv.terrain).astype("int32") for lv in board.levels]
    return distance_field(board, [Cell(0, 0, 1)], cost, StepRules())


A, B = Cell(0, 1, 1), Cell(0, 5, 1)


def test_the_mirror_is_a_copy_the_true_board_never_sees_changed() -> None:
    board = corridor()
    mirror = SideMirror(board)
    mirror.set_terrain([(Cell(0, 3, 1), Terrain.DOOR_OPEN)])
    assert board.terrain(Cell(0, 3, 1)) == Terrain.DOOR_CLOSED
    assert mirror.board.terrain(Cell(0, 3, 1)) == Terrain.DOOR_OPEN


def test_sight_is_cached_until_a_door_changes_then_answered_afresh() -> None:
    mirror = SideMirror(corridor())
    assert not mirror.sees(A, B)  # the closed door
    assert mirror.set_terrain([(Cell(0, 3, 1), Terrain.DOOR_OPEN)])
    assert mirror.sees(A, B)
    # writing the same state again changes nothing and keeps the cache
    version = mirror.sight_version
    assert not mirror.set_terrain([(Cell(0, 3, 1), Terrain.DOOR_OPEN)])
    assert mirror.sight_version == version
    assert mirror.counts_in_sight([A, Cell(0, 0, 0)], [B, B]) == {A: 2, Cell(0, 0, 0): 2}
    # (1, 1) to (5, 0) crosses the wall at (3, 0): one of the two
    assert mirror.count_in_sight(A, [B, Cell(0, 5, 0)]) == 1


def test_smoke_veils_sight_only_when_the_mirror_says_so() -> None:
    veiled, bare = SideMirror(corridor()), SideMirror(corridor(), veil=False)
    for mirror in (veiled, bare):
        mirror.set_terrain([(Cell(0, 3, 1), Terrain.DOOR_OPEN)])
        assert mirror.sees(A, B)
        assert mirror.set_smoke([Cell(0, 4, 1)])
    assert not veiled.sees(A, B)
    assert bare.sees(A, B)
    assert not veiled.set_smoke([Cell(0, 4, 1)])  # the same smoke: no change
    assert veiled.set_smoke([])
    assert veiled.sees(A, B)


def test_sight_matches_the_core_rule_on_the_copy() -> None:
    mirror = SideMirror(corridor())
    cells = [Cell(0, x, y) for x in range(7) for y in range(3)]
    mirror.prime((a, b) for a in cells for b in cells)
    opaque = mirror.board.opaque(0)
    for a in cells:
        for b in cells:
            assert mirror.sees(a, b) == line_of_sight(opaque, (a.x, a.y), (b.x, b.y))
    assert not mirror.sees(A, Cell(1, 1, 1))  # across levels: never


def test_fields_are_kept_per_terrain_and_rebuilt_when_it_changes() -> None:
    board = corridor()
    board.set_terrain(Cell(0, 3, 1), Terrain.DOOR_LOCKED)
    mirror = SideMirror(board)
    builds: list[int] = []

    def build(board: Board) -> DistanceField:
        builds.append(1)
        return walk(board)

    shut = mirror.field("walk", build)
    assert shut is not None and shut.cost(B) is None
    assert mirror.field("walk", build) is shut and len(builds) == 1
    mirror.set_smoke([Cell(0, 1, 1)])  # smoke does not slow a walk: the field stands
    assert mirror.field("walk", build) is shut and len(builds) == 1
    mirror.set_terrain([(Cell(0, 3, 1), Terrain.DOOR_OPEN)])
    opened = mirror.field("walk", build)
    assert opened is not None and opened.cost(B) == 5 and len(builds) == 2
    mirror.forget_fields()
    assert mirror.field("walk", build) is not opened and len(builds) == 3


def test_masks_follow_the_terrain() -> None:
    mirror = SideMirror(corridor())
    door = Cell(0, 3, 1)

    def passable(board: Board, level: int) -> BoolArray:
        return board.passable_mask(level)

    assert mirror.mask("passable", 0, passable)[door.y, door.x]  # a closed door opens
    mirror.set_terrain([(door, Terrain.WALL)])
    assert not mirror.mask("passable", 0, passable)[door.y, door.x]
