"""The sight grids kept per observer square (``eye_grid``) equal tracing each line (E-6),
and a door that opens or shuts is seen through, or not, at once."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from killhouse.core.cells import Cell
from killhouse.core.geometry import line_of_sight
from killhouse.core.rng import Rng, derive_seed
from killhouse.core.terrain import Terrain
from killhouse.engine.game import Game
from killhouse.rulesets.execute.state import ExecuteState
from killhouse.rulesets.execute.vision import camera_cells, cells_in_sight, observers
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
