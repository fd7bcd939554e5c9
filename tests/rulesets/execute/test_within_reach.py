"""A figure's squares within reach are kept under the enemies a walk of its allowance could
meet (``walk_discs``): an enemy at the edge of that allowance counts, one a square past it
does not, and a stair link carries the disc to the other level (E-3, E-4)."""

from __future__ import annotations

import numpy as np

from killhouse.core.cells import Cell
from killhouse.core.geometry import chebyshev
from killhouse.rulesets.execute.movement import (
    destinations,
    start_groups,
    walk_area,
    walk_discs,
    within_reach,
)
from killhouse.rulesets.execute.state import ExecuteState
from tests.rulesets.execute.helpers import (
    RULESET,
    Dice,
    act,
    place,
    scenario,
    state_of,
    to_combat,
)

#: a long hall (zach walks 9 MP) with a stair at its west end up to a long upper hall
WALL = "#" * 32 + "\n"
UPPER = WALL + "#" + "." * 30 + "#\n#<" + "." * 29 + "#\n" + WALL
GROUND = UPPER.replace("<", ">") + "." * 32 + "\n"


def hall() -> ExecuteState:
    st, log = state_of(scenario(levels={"ground": GROUND, "upper": UPPER}, figures=[
        {"id": "zach", "side": "fbi", "card": "zach_dante"},
        {"id": "t1", "side": "terrorists", "card": "standard_terrorist", "at": "ground:25,1"},
    ]))
    to_combat(st, log)
    for _ in range(3):  # both grenade slots and the FBI's task slot: on to movement
        act(st, log, Dice(), st.acting_side(), "done")
    assert st.phase == "movement" and st.acting_side() == st.fbi
    return st


def test_an_enemy_at_the_edge_of_the_allowance_changes_the_squares_one_past_it_does_not() -> None:
    st = hall()
    zach = place(st, "zach", 0, 5, 1)
    assert zach.card.movement == 9
    kept = within_reach(st, zach)
    # one square past the edge (Chebyshev 10): the kept list stands, the very same object
    place(st, "t1", 0, 15, 2)
    assert within_reach(st, zach) is kept
    # at the edge (Chebyshev 9): the walk may meet it, so the list is worked out again
    place(st, "t1", 0, 14, 2)
    again = within_reach(st, zach)
    assert again is not kept
    assert Cell(0, 14, 2) not in dict(again) and Cell(0, 14, 2) in dict(kept)
    assert Cell(0, 14, 2) not in destinations(st, zach)


def test_a_stair_link_carries_the_disc_to_the_level_it_leads_to() -> None:
    st = hall()
    zach = place(st, "zach", 0, 3, 2)
    discs = dict(walk_discs(st, zach, 9))
    assert discs[Cell(0, 3, 2)] == 9
    # the stair at (1, 2) is 2 squares away: one more step up leaves 9 - 2 - 1 = 6
    assert discs[Cell(1, 1, 2)] == 6
    kept = within_reach(st, zach)
    place(st, "t1", 1, 8, 1)  # upstairs, 7 from the stair's top: past the disc
    assert within_reach(st, zach) is kept
    place(st, "t1", 1, 7, 1)  # upstairs, 6 from the stair's top: at the disc's edge
    assert within_reach(st, zach) is not kept


def test_moves_listed_again_after_an_enemy_step_reuse_the_unchanged_moves() -> None:
    st = hall()
    place(st, "zach", 0, 5, 1)
    place(st, "t1", 0, 14, 2)
    before = {a.get("to"): a for a in RULESET.legal_actions(st, "fbi") if a.kind == "move"}
    place(st, "t1", 0, 13, 2)  # into the walk's disc: the list is worked out again
    after = {a.get("to"): a for a in RULESET.legal_actions(st, "fbi") if a.kind == "move"}
    assert Cell(0, 13, 2) not in after and Cell(0, 14, 2) in after
    assert after[Cell(0, 6, 1)] is before[Cell(0, 6, 1)]
    assert after[Cell(0, 14, 2)].hint["cost"] == 9


def test_the_walk_area_is_every_square_inside_a_disc_and_no_other() -> None:
    """``walk_area`` marks exactly the squares some ``walk_discs`` disc holds (on its level),
    clipped to the map: from the hall's west end, with the stair's disc upstairs."""
    st = hall()
    for x, y in ((3, 2), (5, 1), (1, 1), (29, 2)):
        zach = place(st, "zach", 0, x, y)
        discs = walk_discs(st, zach, 9)
        area = walk_area(st, tuple(start_groups(st, zach)), 9)
        for level, lv in enumerate(st.board.levels):
            for sy in range(lv.height):
                for sx in range(lv.width):
                    inside = any(c.level == level and chebyshev(c, Cell(level, sx, sy)) <= r
                                 for c, r in discs)
                    grid = area[level]
                    assert (grid is not None and grid[sy][sx]) == inside


def test_the_squares_read_by_position_by_square_and_whole_agree_on_two_levels() -> None:
    """``Squares`` answers the same by position (``item``), by square (``cost``, ``index``,
    ``positions``) and whole (``items``): over both levels a stair links, and nothing for a
    square out of reach, off the map or on no level."""
    st = hall()
    zach = place(st, "zach", 0, 3, 2)
    squares = within_reach(st, zach)
    by_position = [squares.item(i) for i in range(len(squares))]  # before any pair is made
    whole = squares.items()
    assert by_position == whole
    assert {c.level for c, _ in whole} == {0, 1} and whole == sorted(whole)
    for i, (cell, cost) in enumerate(whole):
        assert squares.cost(cell) == cost
        assert squares.index(cell) == i
    in_reach = dict(whole)
    # positions of a batch of distinct squares on the map: those within reach, in order
    on_map = [Cell(level, x, y) for level in (0, 1) for y in range(6) for x in range(33)
              if st.board.in_bounds(Cell(level, x, y))]
    for batch in (on_map, on_map[::7], on_map[5:40], []):
        arrays = {
            level: (np.array([c.x for c in batch if c.level == level], dtype=np.intp),
                    np.array([c.y for c in batch if c.level == level], dtype=np.intp))
            for level in {c.level for c in batch}
        }
        assert squares.positions(arrays) == sorted(
            squares.index(c) for c in batch if c in in_reach
        )
    for level in (0, 1, 2):
        for y in range(-1, 6):
            for x in range(-1, 33):
                assert squares.cost((level, x, y)) == in_reach.get(Cell(level, x, y))
