"""The sight grids kept per observer square (``eye_grid``) equal tracing each line (E-6),
and a door that opens or shuts is seen through, or not, at once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from killhouse.core.cells import Cell
from killhouse.core.geometry import line_of_sight, los_from, los_pairs
from killhouse.core.rng import Rng, derive_seed
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game
from killhouse.rulesets.execute.state import ExecuteState
from killhouse.rulesets.execute.vision import (
    camera_cells,
    cells_in_sight,
    eye_grid,
    observers,
)
from killhouse.scenario.loader import load_scenario

ROOT = Path(__file__).resolve().parents[3]


def traced(state: ExecuteState, side: str, cells: list[Cell]) -> list[bool]:
    eyes = [f.pos for f in observers(state, side) if f.pos is not None]
    covered = camera_cells(state) if side == state.terrorists else frozenset()
    return [c in covered or any(
        e.level == c.level and line_of_sight(state.board.opaque(c.level), (e.x, e.y), (c.x, c.y))
        for e in eyes) for c in cells]


def test_kept_sight_answers_equal_each_line_traced_through_a_game_and_a_door() -> None:
    scenario = load_scenario(ROOT / "scenarios" / "execute" / "embassy.yaml")
    game = Game(scenario, derive_seed(3, 0))
    rng = Rng.from_seed(4)
    state = game.state
    cells = [Cell(lv, int(x), int(y)) for lv, level in enumerate(state.board.levels)
             for y, x in zip(*np.nonzero(level.terrain != Terrain.WALL), strict=True)]
    checked = 0
    for step in range(120):
        pending = game.pending()
        if not pending:
            break
        side = pending[0].side
        if step % 10 == 0 and any(observers(state, s) for s in state.side_ids()):
            for who in state.side_ids():
                assert cells_in_sight(state, who, cells) == traced(state, who, cells)
                checked += 1
        actions = game.legal_actions(side)
        moves = [a for a in actions if a.kind == "move"]
        pool = moves if moves and rng.below(4) else actions
        game.apply(pool[rng.below(len(pool))])
    assert checked
    # shut every door on the map: the answers kept for the old terrain are not served
    for cell in cells:
        if state.board.terrain(cell) == Terrain.DOOR_OPEN:
            state.board.set_terrain(cell, Terrain.DOOR_CLOSED)
    state.touch()
    for who in state.side_ids():
        assert cells_in_sight(state, who, cells) == traced(state, who, cells)


def test_the_eye_book_serves_a_new_game_the_grids_traced_before_and_a_new_door_afresh() -> None:
    """The process-wide eye book: a new game's grids are the ones traced for the same square
    on the same terrain (the very arrays), and equal tracing them; a changed terrain is not
    served an old grid."""
    scenario = load_scenario(ROOT / "scenarios" / "execute" / "bank.yaml")
    first = Game(scenario, derive_seed(5, 0)).state
    second = Game(scenario, derive_seed(5, 1)).state
    spots = sorted({f.pos for s in first.side_ids() for f in observers(first, s)
                    if f.pos is not None})
    assert spots
    every = np.ones(first.board.opaque(spots[0].level).shape, dtype=bool)
    for at in spots:
        grid = eye_grid(second, at)
        assert grid is eye_grid(first, at)
        assert not grid.flags.writeable
        assert (grid == los_from(second.board.opaque(at.level), (at.x, at.y), every)).all()
    # a door on the first spot's level shut or opened: that game's grid is traced again
    at = spots[0]
    level = second.board.levels[at.level]
    doors = [Cell(at.level, int(x), int(y)) for y, x in zip(
        *np.nonzero((level.terrain == Terrain.DOOR_OPEN) | (level.terrain == Terrain.DOOR_CLOSED)),
        strict=True)]
    assert doors
    door = doors[0]
    flipped = (Terrain.DOOR_CLOSED if second.board.terrain(door) == Terrain.DOOR_OPEN
               else Terrain.DOOR_OPEN)
    second.board.set_terrain(door, flipped)
    second.touch()
    fresh = eye_grid(second, at)
    assert fresh is not eye_grid(first, at)
    assert (fresh == los_from(second.board.opaque(at.level), (at.x, at.y), every)).all()


@pytest.mark.parametrize("name", ["bank", "embassy", "airliner"])
def test_a_traced_grid_equals_los_pairs_from_every_square(name: str) -> None:
    """An eye grid is one compiled pass over the level (``los_from``): from every square of
    every level (walls too), it equals ``los_pairs`` to every square, doors shut and open."""
    board = load_scenario(ROOT / "scenarios" / "execute" / f"{name}.yaml").board
    for flip in (False, True):
        if flip:  # every door the other way round
            for lv in board.levels:
                shut = lv.terrain == Terrain.DOOR_CLOSED
                lv.terrain[lv.terrain == Terrain.DOOR_OPEN] = Terrain.DOOR_CLOSED
                lv.terrain[shut] = Terrain.DOOR_OPEN
        for level in range(len(board.levels)):
            opaque = board.opaque(level)
            every = np.ones(opaque.shape, dtype=bool)
            ys, xs = np.indices(opaque.shape)
            targets = np.stack([xs.ravel(), ys.ravel()], axis=1)
            for y in range(opaque.shape[0]):
                for x in range(opaque.shape[1]):
                    origins = np.broadcast_to(np.array([x, y]), targets.shape)
                    expected = los_pairs(opaque, origins, targets).reshape(opaque.shape)
                    assert (los_from(opaque, (x, y), every) == expected).all()
