"""The Claymore's cone, reach and attacks (rulings C-36, C-82)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.commando import fire
from killhouse.rulesets.commando.claymore import Exposure, claymore, claymore_chance, in_cone
from tests.core.maps import draw

MAP = "\n".join(["." * 25] * 5 + ["." * 8 + "#" + "." * 16] + ["." * 25] * 5)


class Forced(Chance):
    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = list(faces)

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        return self.faces.pop(0) - 1


MINE = Cell(0, 2, 5)


@pytest.mark.parametrize(
    ("x", "y", "inside"),
    [(9, 5, False),     # range 7 but behind the wall at (8, 5) (C-82)
     (7, 5, True),      # range 5, in front of the wall
     (3, 5, True),      # range 1
     (2, 5, False),     # his own square
     (7, 0, True),      # the 45° edge: dx 5, dy -5
     (6, 0, False),     # just outside the cone
     (12, 2, False),    # dx 10, dy 3: range 11, out of reach
     (12, 4, True),     # dx 10, dy 1: range 10
     (1, 5, False)],    # behind the mine
)
def test_cone_and_reach(x: int, y: int, inside: bool) -> None:
    assert in_cone(draw(MAP).board, MINE, "E", Cell(0, x, y)) is inside


def test_reach_edge() -> None:
    board = draw(MAP).board
    assert in_cone(board, MINE, "E", Cell(0, 12, 4))        # dx 10, dy 1 -> 10
    assert not in_cone(board, MINE, "E", Cell(0, 12, 7))    # dx 10, dy 2 -> 11


def test_claymore_chance_uses_only_terrain_and_prone() -> None:
    assert claymore_chance(1) == 95
    assert claymore_chance(9, terrain=-8, prone=True) == 55 - 8 - 12


def test_each_man_in_the_cone_is_attacked_once() -> None:
    board = draw(MAP).board
    men = {"a": Exposure(Cell(0, 3, 5)), "b": Exposure(Cell(0, 1, 5)),
           "c": Exposure(Cell(0, 6, 5), prone=True)}
    # a: range 1 (95, K 15): roll 15 kills; c: range 4 (90 - 12 = 78): roll 78 wounds, 2d6 3+4
    result = claymore(Forced([15, 78, 3, 4]), board, MINE, "E", men)
    assert set(result) == {"a", "c"}
    assert result["a"].result == fire.KILL
    assert result["c"] == fire.Shot(fire.WOUND, 7)
