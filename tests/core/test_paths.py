"""Movement costs and paths on multi-level boards (rulings E-2, E-3, G-3)."""

from __future__ import annotations

import heapq
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from killhouse.core.board import Board
from killhouse.core.cells import COMPASS, Cell
from killhouse.core.geometry import octile
from killhouse.core.paths import (
    SMALL_MAP,
    UNREACHABLE,
    StepRules,
    distance_field,
    field_on,
    path_cost,
    squeeze_mask,
)
from killhouse.core.steps import Steps
from killhouse.core.terrain import Terrain, passable_mask, stairs_mask

from .maps import draw, link, open_floor

EXECUTE = StepRules()  # ruling E-2: every king step costs 1
GOGOGO = StepRules(cardinal=2, diagonal=3, divisor=2, squeeze="solid+window")  # ruling G-3


def execute_costs(board: Board) -> list[np.ndarray]:
    """Enter costs as execute sets them: 1, or 2 for any stair cell (ruling E-3), 0 if barred."""
    return [
        np.where(passable_mask(lv.terrain), np.where(stairs_mask(lv.terrain), 2, 1), 0)
        for lv in board.levels
    ]


def unit_costs(board: Board) -> list[np.ndarray]:
    return [passable_mask(lv.terrain).astype(np.int32) for lv in board.levels]


def walk(start: Cell, *moves: str) -> list[Cell]:
    cells = [start]
    for move in moves:
        dx, dy = COMPASS[move]
        cells.append(cells[-1].step(dx, dy))
    return cells


# -- stairs (ruling E-3, E-TV19) ----------------------------------------------------------

TWO_FLOORS = (
    """
    #######
    #a..>.#
    #######
    """,
    """
    #######
    #..b<.#
    #######
    """,
)


def _two_floors() -> tuple[Board, dict[str, Cell]]:
    m = draw(*TWO_FLOORS)
    link(m.board, Cell(0, 4, 1), Cell(1, 4, 1))
    return m.board, m.marks


def test_e_tv19_two_flat_two_stair_one_flat_is_seven() -> None:
    board, marks = _two_floors()
    a, b = marks["a"], marks["b"]
    path = [a, Cell(0, 2, 1), Cell(0, 3, 1), Cell(0, 4, 1), Cell(1, 4, 1), b]
    assert path_cost(board, path, execute_costs(board), EXECUTE) == 2 + 2 * 2 + 1
    field = distance_field(board, [a], execute_costs(board), EXECUTE)
    assert field.cost(b) == 7
    assert field.path_to(b) == path[1:]
    assert b in field.reachable(7)
    # one more flat step is 8: out of a movement of 7
    further = Cell(1, 2, 1)
    assert field.cost(further) == 8
    assert further not in field.reachable(7)
    assert path_cost(board, [*path, further], execute_costs(board), EXECUTE) == 8


def test_path_up_the_stairs_and_back() -> None:
    board, marks = _two_floors()
    costs = execute_costs(board)
    field = distance_field(board, [marks["b"]], costs, EXECUTE)
    assert field.path_to(marks["a"]) == [
        Cell(1, 4, 1),
        Cell(0, 4, 1),
        Cell(0, 3, 1),
        Cell(0, 2, 1),
        marks["a"],
    ]
    assert field.cost(marks["a"]) == 2 + 2 + 1 + 1 + 1


def test_unlinked_levels_are_unreachable() -> None:
    m = draw(*TWO_FLOORS)  # no link
    field = distance_field(m.board, [m["a"]], execute_costs(m.board), EXECUTE)
    assert field.cost(m["b"]) is None
    assert all(c.level == 0 for c in field.reachable(100))
    with pytest.raises(ValueError, match="cannot be reached"):
        field.path_to(m["b"])
    assert path_cost(m.board, [Cell(0, 4, 1), Cell(1, 4, 1)], execute_costs(m.board)) is None


def test_links_between_different_cells_and_level_sizes() -> None:
    # a staircase that lands one column over, onto a smaller level
    m = draw(
        """
        a...>
        .....
        .....
        """,
        """
        .<.
        ..b
        """,
    )
    link(m.board, Cell(0, 4, 0), Cell(1, 1, 0))
    costs = unit_costs(m.board)
    field = distance_field(m.board, [m["a"]], costs, EXECUTE)
    assert field.cost(Cell(1, 1, 0)) == 5
    assert field.cost(m["b"]) == 6
    assert field.path_to(m["b"])[-2:] == [Cell(1, 1, 0), m["b"]]
    back = distance_field(m.board, [m["b"]], costs, EXECUTE)
    assert back.cost(m["a"]) == 6
    assert back.cost(Cell(1, 3, 0)) is None  # off the smaller level
    assert field.raw[1].shape == (2, 3)


# -- corners (rulings E-2, G-3) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("picture", "rules", "cost"),
    [
        ("a#\n.b", EXECUTE, 2),  # a wall on one side: no corner cutting
        ("a+\n.b", EXECUTE, 2),  # a closed door counts as solid
        ("a'\n.b", EXECUTE, 1),  # an open door does not
        ("a=\n.b", EXECUTE, 1),  # execute: windows are no squeeze
        ("a=\n.b", GOGOGO, 2),  # gogogo: windows are (2 + 2) // 2
        ("a.\n.b", GOGOGO, 1),  # an open diagonal: 3 // 2
        ("a#\n.b", StepRules(squeeze="none"), 1),
    ],
)
def test_no_corner_cutting(picture: str, rules: StepRules, cost: int) -> None:
    m = draw(picture)
    costs = unit_costs(m.board)
    field = distance_field(m.board, [m["a"]], costs, rules)
    assert field.cost(m["b"]) == cost
    direct = path_cost(m.board, [m["a"], m["b"]], costs, rules)
    assert direct == (cost if cost == 1 else None)


def test_explicit_squeeze_mask_wins_over_the_mode() -> None:
    m = draw("a.\n.b")
    costs = unit_costs(m.board)
    shut = [np.array([[False, True], [False, False]])]
    assert path_cost(m.board, [m["a"], m["b"]], costs, EXECUTE, shut) is None
    assert distance_field(m.board, [m["a"]], costs, EXECUTE, shut).cost(m["b"]) == 2
    assert squeeze_mask(m.board, 0, "none").shape == (2, 2)
    with pytest.raises(ValueError, match="squeeze mode"):
        squeeze_mask(m.board, 0, "walls")


def test_diagonal_squeeze_through_a_gap_in_a_diagonal_wall() -> None:
    m = draw(
        """
        a.#
        .#.
        #.b
        """
    )
    field = distance_field(m.board, [m["a"]], unit_costs(m.board), EXECUTE)
    assert field.cost(m["b"]) is None  # every way out needs a squeeze past a wall


# -- G-3 costs ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("moves", "cost"),
    [
        (("e", "e", "ne", "ne", "ne"), 6),  # G-TV4: a legal MOVE (6), an illegal STEALTH (2)
        (("ne",) * 4, 6),  # G-TV5
        (("ne",) * 5, 7),
        (("ne", "n"), 2),
        (("ne", "ne"), 3),
        (("se", "se", "s"), 4),  # G-TV6: 3 + 1 > 3 for a stunned mover...
        (("se", "se"), 3),  # ...cut to the two diagonals
    ],
)
def test_gogogo_test_vectors_via_path_cost(moves: tuple[str, ...], cost: int) -> None:
    board = open_floor(12, 12)
    path = walk(Cell(0, 1, 6), *moves)
    assert path_cost(board, path, unit_costs(board), GOGOGO) == cost


def test_g3_alternating_diagonals_equal_octile_on_open_ground() -> None:
    # cardinal 2, diagonal 3, divisor 2: the cheapest raw total on open ground is
    # 2o + 3d with d = min(|dx|,|dy|) (a diagonal, 3, beats two orthogonals, 4), and
    # floor((2o + 3d) / 2) = o + d + floor(d/2): exactly ruling G-3, for every cell
    board = open_floor(17, 13)
    for start in (Cell(0, 0, 0), Cell(0, 8, 6), Cell(0, 16, 3)):
        field = distance_field(board, [start], unit_costs(board), GOGOGO)
        ys, xs = np.indices((13, 17))
        adx, ady = np.abs(xs - start.x), np.abs(ys - start.y)
        d = np.minimum(adx, ady)
        o = np.maximum(adx, ady) - d
        assert (field.raw[0] == 2 * o + 3 * d).all()
        assert (field.raw[0] // 2 == o + d + d // 2).all()
        for cell in (Cell(0, 5, 9), Cell(0, 16, 12), Cell(0, 3, 2)):
            assert field.cost(cell) == octile(start, cell)
            assert path_cost(board, [start, *field.path_to(cell)], unit_costs(board), GOGOGO) == (
                octile(start, cell)
            )


def test_stealth_allowance_two() -> None:
    board = open_floor(7, 7)
    field = distance_field(board, [Cell(0, 3, 3)], unit_costs(board), GOGOGO)
    reach = set(field.reachable(2))
    # two orthogonal steps, one diagonal plus one orthogonal, but never two diagonals (3)
    assert Cell(0, 5, 3) in reach and Cell(0, 5, 2) in reach
    assert Cell(0, 5, 5) not in reach and Cell(0, 1, 1) not in reach
    assert len(reach) == 21  # the 5x5 square less its 4 corners
    assert field.within(2)[0].sum() == 21


# -- general behaviour ---------------------------------------------------------------------


def test_unreachable_room_and_barred_cells() -> None:
    m = draw(
        """
        #########
        #a..#...#
        #...L.b.#
        #...#...#
        #########
        """
    )
    costs = unit_costs(m.board)  # a locked door cannot be entered
    field = distance_field(m.board, [m["a"]], costs, EXECUTE)
    assert field.cost(m["b"]) is None
    assert field.cost(Cell(0, 0, 0)) is None  # a wall
    assert field.cost(Cell(0, 99, 0)) is None  # off the board
    assert field.raw[0][m["b"].y, m["b"].x] == UNREACHABLE
    assert len(field.reachable(10)) == 9
    assert field.reachable(0) == [m["a"]]
    assert field.reachable(-1) == []
    m.board.set_terrain(Cell(0, 4, 2), Terrain.DOOR_CLOSED)  # picked: entering opens it
    field = distance_field(m.board, [m["a"]], unit_costs(m.board), EXECUTE)
    assert field.cost(m["b"]) == 5


def test_several_starts_and_the_nearest_wins() -> None:
    board = open_floor(10, 1)
    field = distance_field(board, [Cell(0, 0, 0), Cell(0, 9, 0)], unit_costs(board), EXECUTE)
    assert [field.cost(Cell(0, x, 0)) for x in range(10)] == [0, 1, 2, 3, 4, 4, 3, 2, 1, 0]
    assert field.path_to(Cell(0, 7, 0)) == [Cell(0, 8, 0), Cell(0, 7, 0)]
    assert field.path_to(Cell(0, 9, 0)) == []


def test_enter_costs_weight_the_destination() -> None:
    board = open_floor(5, 3)
    costs = unit_costs(board)
    costs[0][1, 1:4] = 5  # a muddy strip in the middle row
    field = distance_field(board, [Cell(0, 0, 1)], costs, EXECUTE)
    assert field.cost(Cell(0, 4, 1)) == 4  # around the mud: diagonal, 2 straight, diagonal
    assert all(c.y != 1 for c in field.path_to(Cell(0, 4, 1))[:-1])
    assert path_cost(board, walk(Cell(0, 0, 1), "e", "e"), costs, EXECUTE) == 10


def test_tie_break_is_documented_and_stable() -> None:
    board = open_floor(6, 6)
    costs = unit_costs(board)
    field = distance_field(board, [Cell(0, 0, 0)], costs, EXECUTE)
    # the last step prefers N, E, S, W, then diagonals: (3,1) is reached by SE, then E, E
    assert field.path_to(Cell(0, 3, 1)) == [Cell(0, 1, 1), Cell(0, 2, 1), Cell(0, 3, 1)]
    again = distance_field(board, [Cell(0, 0, 0)], costs, EXECUTE)
    assert again.path_to(Cell(0, 5, 3)) == field.path_to(Cell(0, 5, 3))


def test_path_cost_rejects_illegal_paths() -> None:
    m = draw("a.#.\n....")
    costs = unit_costs(m.board)
    a = m["a"]
    assert path_cost(m.board, [a], costs) == 0
    assert path_cost(m.board, [], costs) is None
    assert path_cost(m.board, [a, Cell(0, 2, 0)], costs) is None  # a jump
    assert path_cost(m.board, [a, Cell(0, 1, 0), Cell(0, 2, 0)], costs) is None  # into a wall
    assert path_cost(m.board, [a, a], costs) is None  # standing still is no step
    assert path_cost(m.board, [a, Cell(0, -1, 0)], costs) is None  # off the map
    assert path_cost(m.board, [Cell(0, 9, 9)], costs) is None
    assert path_cost(m.board, walk(a, "e", "se"), costs) is None  # squeeze past the wall
    assert path_cost(m.board, walk(a, "se", "e", "ne"), costs) is None
    assert path_cost(m.board, walk(a, "se", "e", "e", "n"), costs) == 4


def test_bad_arguments() -> None:
    board = open_floor(3, 3)
    with pytest.raises(ValueError, match="levels"):
        distance_field(board, [Cell(0, 0, 0)], [], EXECUTE)
    with pytest.raises(ValueError, match="shape"):
        distance_field(board, [Cell(0, 0, 0)], [np.ones((2, 2), dtype=int)], EXECUTE)
    with pytest.raises(ValueError, match="negative"):
        distance_field(board, [Cell(0, 0, 0)], [-np.ones((3, 3), dtype=int)], EXECUTE)
    with pytest.raises(ValueError, match="off the board"):
        distance_field(board, [Cell(0, 3, 0)], unit_costs(board), EXECUTE)
    with pytest.raises(ValueError, match="positive"):
        StepRules(diagonal=0)
    with pytest.raises(ValueError, match="squeeze"):
        StepRules(squeeze="walls")


# -- against a slow reference Dijkstra -------------------------------------------------------


def reference_costs(
    shapes: list[tuple[int, int]],
    costs: list[np.ndarray],
    squeeze: list[np.ndarray],
    links: dict[Cell, Cell],
    start: Cell,
    rules: StepRules,
) -> dict[Cell, int]:
    best = {start: 0}
    queue = [(0, start)]
    while queue:
        dist, cell = heapq.heappop(queue)
        if dist > best[cell]:
            continue
        h, w = shapes[cell.level]
        moves: list[tuple[Cell, int]] = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nx, ny = cell.x + dx, cell.y + dy
                if (dx, dy) == (0, 0) or not (0 <= nx < w and 0 <= ny < h):
                    continue
                level = squeeze[cell.level]
                if dx and dy and (level[cell.y, nx] or level[ny, cell.x]):
                    continue
                mult = rules.diagonal if dx and dy else rules.cardinal
                moves.append((Cell(cell.level, nx, ny), mult))
        if cell in links:
            moves.append((links[cell], rules.cardinal))
        for nxt, mult in moves:
            enter = int(costs[nxt.level][nxt.y, nxt.x])
            if enter <= 0:
                continue
            total = dist + enter * mult
            if total < best.get(nxt, UNREACHABLE):
                best[nxt] = total
                heapq.heappush(queue, (total, nxt))
    return best


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_distance_field_matches_reference_dijkstra(data: st.DataObject) -> None:
    seed = data.draw(st.integers(0, 2**32 - 1))
    gen = np.random.default_rng(seed)
    n = int(gen.integers(1, 4))
    shapes = [(int(gen.integers(1, 8)), int(gen.integers(1, 8))) for _ in range(n)]
    board = Board([])
    for i, (h, w) in enumerate(shapes):
        board.levels.append(open_floor(w, h).levels[0])
        board.levels[-1].name = f"l{i}"
    costs = [np.where(gen.random(s) < 0.25, 0, gen.integers(1, 4, s)) for s in shapes]
    squeeze = [gen.random(s) < 0.3 for s in shapes]
    for _ in range(int(gen.integers(0, 4))):
        la, lb = int(gen.integers(0, n)), int(gen.integers(0, n))
        a = Cell(la, int(gen.integers(0, shapes[la][1])), int(gen.integers(0, shapes[la][0])))
        b = Cell(lb, int(gen.integers(0, shapes[lb][1])), int(gen.integers(0, shapes[lb][0])))
        if a != b and a not in board.stairs and b not in board.stairs:
            link(board, a, b)
    rules = data.draw(st.sampled_from([EXECUTE, GOGOGO, StepRules(3, 4, 3)]))
    start = Cell(0, int(gen.integers(0, shapes[0][1])), int(gen.integers(0, shapes[0][0])))
    field = distance_field(board, [start], costs, rules, squeeze)
    expected = reference_costs(shapes, costs, squeeze, board.stairs, start, rules)
    undivided = replace(rules, divisor=1)
    for level, (h, w) in enumerate(shapes):
        for y in range(h):
            for x in range(w):
                cell = Cell(level, x, y)
                raw = expected.get(cell)
                assert field.cost(cell) == (None if raw is None else raw // rules.divisor)
                if raw is not None:
                    path = field.path_to(cell)
                    assert path_cost(board, [start, *path], costs, undivided, squeeze) == raw
                    assert (path[-1] if path else start) == cell
                    # the compiled parents give exactly the step-by-step walk back
                    assert path == field._walk(cell)


# -- the reused graph (a cache keyed on the content of the cost arrays) --------------------


def test_reused_graph_follows_the_board_when_a_door_opens_in_place() -> None:
    m = draw(
        """
        #########
        #a..#...#
        #...+.b.#
        #...#...#
        #########
        """
    )
    costs = [
        np.where(m.board.levels[0].terrain == Terrain.DOOR_CLOSED, 0, c)
        for c in unit_costs(m.board)
    ]
    first = distance_field(m.board, [m["a"]], costs, EXECUTE)
    assert first.cost(m["b"]) is None
    # the very same array objects, changed in place: a cache keyed on identity would be stale
    costs[0][2, 4] = 1
    m.board.set_terrain(Cell(0, 4, 2), Terrain.DOOR_OPEN)
    opened = distance_field(m.board, [m["a"]], costs, EXECUTE)
    assert opened.cost(m["b"]) == 5
    assert first.cost(m["b"]) is None  # an earlier field never changes
    costs[0][2, 4] = 0
    again = distance_field(m.board, [m["a"]], costs, EXECUTE)
    assert again.cost(m["b"]) is None


def test_reused_graph_gives_the_reference_costs_from_every_start() -> None:
    gen = np.random.default_rng(7)
    board = open_floor(9, 7)
    costs = [np.where(gen.random((7, 9)) < 0.25, 0, gen.integers(1, 4, (7, 9)))]
    squeeze = [gen.random((7, 9)) < 0.3]
    for rules in (EXECUTE, GOGOGO):
        for y in range(7):
            for x in range(9):
                start = Cell(0, x, y)
                field = distance_field(board, [start], costs, rules, squeeze)
                expected = reference_costs([(7, 9)], costs, squeeze, {}, start, rules)
                for cy in range(7):
                    for cx in range(9):
                        raw = expected.get(Cell(0, cx, cy))
                        want = None if raw is None else raw // rules.divisor
                        assert field.cost(Cell(0, cx, cy)) == want


def test_field_is_read_only_and_cost_checks_every_bound() -> None:
    board = open_floor(4, 3)
    field = distance_field(board, [Cell(0, 0, 0)], unit_costs(board), EXECUTE)
    with pytest.raises(ValueError, match="read-only"):
        field.raw[0][0, 0] = 5
    assert field.cost(Cell(0, 3, 2)) == 3
    for outside in (Cell(0, 4, 0), Cell(0, 0, 3), Cell(0, -1, 0), Cell(0, 0, -1), Cell(1, 0, 0)):
        assert field.cost(outside) is None
        assert field.exact_cost(outside) is None


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_bounded_field_equals_the_unbounded_one_up_to_max_cost(data: st.DataObject) -> None:
    """``max_cost``: the same costs up to the bound, unreachable beyond it, window or not."""
    gen = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    h, w = int(gen.integers(1, 16)), int(gen.integers(1, 16))
    board = open_floor(w, h)
    with_link = data.draw(st.booleans())
    if with_link:  # a second level behind a stair link: no window, the full search is cut
        board.levels.append(open_floor(w, h).levels[0])
        board.levels[-1].name = "upper"
        link(board, Cell(0, 0, 0), Cell(1, w - 1, h - 1))
    n = len(board.levels)
    costs = [np.where(gen.random((h, w)) < 0.2, 0, gen.integers(1, 4, (h, w))) for _ in range(n)]
    squeeze = [gen.random((h, w)) < 0.3 for _ in range(n)]
    rules = data.draw(st.sampled_from([EXECUTE, GOGOGO, StepRules(3, 4, 3)]))
    starts = [
        Cell(0, int(gen.integers(0, w)), int(gen.integers(0, h)))
        for _ in range(data.draw(st.integers(1, 3)))
    ]
    max_cost = data.draw(st.integers(-1, 14))
    full = distance_field(board, starts, costs, rules, squeeze)
    cut = distance_field(board, starts, costs, rules, squeeze, max_cost=max_cost)
    for level in range(n):
        for y in range(h):
            for x in range(w):
                cell = Cell(level, x, y)
                cost = full.cost(cell)
                assert cut.cost(cell) == (cost if cost is not None and cost <= max_cost else None)
    assert cut.reachable(max_cost) == full.reachable(max_cost)
    for cell in cut.reachable(max_cost):
        assert cut.path_to(cell) == full.path_to(cell)


def test_fields_on_one_built_step_model_equal_fresh_ones() -> None:
    """``field_on``: one ``Steps`` serves many starts and bounds, each field the same as
    ``distance_field`` builds with its own model, stair links and windows included."""
    gen = np.random.default_rng(7)
    board = open_floor(12, 9)
    board.levels.append(open_floor(12, 9).levels[0])
    board.levels[-1].name = "upper"
    link(board, Cell(0, 2, 2), Cell(1, 9, 6))
    costs = [np.where(gen.random((9, 12)) < 0.2, 0, gen.integers(1, 4, (9, 12))) for _ in "ab"]
    squeeze = [gen.random((9, 12)) < 0.3 for _ in "ab"]
    single = open_floor(12, 9)  # one level, no links: bounded searches run on a window
    for plan, enter, mask in ((board, costs, squeeze), (single, costs[:1], squeeze[:1])):
        steps = Steps(plan, enter, GOGOGO, mask)
        for start in (Cell(0, 0, 0), Cell(0, 6, 4), Cell(0, 11, 8)):
            for max_cost in (None, 0, 3, 7):
                kept = field_on(plan, steps, [start], max_cost)
                fresh = distance_field(plan, [start], enter, GOGOGO, mask, max_cost=max_cost)
                assert all(np.array_equal(a, b) for a, b in zip(kept.raw, fresh.raw, strict=True))


def test_bounded_field_at_the_edge_of_the_allowance_and_one_past() -> None:
    board = open_floor(30, 3)
    costs = unit_costs(board)
    field = distance_field(board, [Cell(0, 10, 1)], costs, EXECUTE, max_cost=4)
    assert field.cost(Cell(0, 14, 1)) == 4  # at the bound
    assert field.cost(Cell(0, 15, 1)) is None  # one step past it
    assert field.cost(Cell(0, 6, 1)) == 4 and field.cost(Cell(0, 5, 1)) is None
    assert field.path_to(Cell(0, 14, 1))[-1] == Cell(0, 14, 1)
    gogogo = distance_field(board, [Cell(0, 10, 1)], costs, GOGOGO, max_cost=2)
    assert gogogo.cost(Cell(0, 12, 1)) == 2 and gogogo.cost(Cell(0, 13, 1)) is None


def test_compiled_paths_equal_the_walk_back_on_ties_and_stairs() -> None:
    """Open floor has many equally cheap paths: ``path_to`` (pointers from the compiled
    kernel) picks the same first cheapest predecessor as the walk back, stairs included."""
    board = open_floor(9, 7)
    board.levels.append(open_floor(9, 7).levels[0])
    board.levels[-1].name = "upper"
    link(board, Cell(0, 4, 3), Cell(1, 4, 3))
    link(board, Cell(0, 4, 4), Cell(1, 5, 4))  # an adjacent-looking link on another level
    costs = unit_costs(board)
    squeeze = [np.zeros((7, 9), dtype=bool), np.zeros((7, 9), dtype=bool)]
    squeeze[0][2, 3] = True
    for rules in (EXECUTE, GOGOGO):
        field = distance_field(board, [Cell(0, 0, 0), Cell(0, 8, 6)], costs, rules, squeeze)
        for level in range(2):
            for y in range(7):
                for x in range(9):
                    cell = Cell(level, x, y)
                    if field.cost(cell) is not None:
                        assert field.path_to(cell) == field._walk(cell)
                        walk = tuple((c.level, c.x, c.y) for c in field._walk(cell))
                        assert field.path_tuples([cell]) == {cell: walk}
        reached = [c for c in field.reachable(10**6)]
        together = field.path_tuples(reached)
        assert together == {c: tuple((p.level, p.x, p.y) for p in field._walk(c)) for c in reached}
        upper = field.path_to(Cell(1, 4, 0))
        assert upper[-1] == Cell(1, 4, 0)
        assert upper[0].level == 0  # up a stair: the pointers cross levels


def test_one_path_walks_back_and_more_share_the_pointers() -> None:
    """On a large map a field asked for one path walks back from it (no pointers for the
    whole map); from the second path on, the pointers are worked out once. A small map
    (``SMALL_MAP`` squares or fewer) takes them at the first. The paths are the same."""
    side = 65  # 4,225 squares: just over SMALL_MAP
    assert side * side > SMALL_MAP >= (side - 1) * (side - 1)
    board = open_floor(side, side)
    field = distance_field(board, [Cell(0, 0, 0)], unit_costs(board), GOGOGO)
    first = field.path_to(Cell(0, 5, 7))
    assert "_parents" not in field.__dict__
    second = field.path_to(Cell(0, 9, 2))
    assert "_parents" in field.__dict__
    assert first == field._walk(Cell(0, 5, 7)) and second == field._walk(Cell(0, 9, 2))
    assert field.path_to(Cell(0, 5, 7)) == first
    small = open_floor(side - 1, side - 1)
    field = distance_field(small, [Cell(0, 0, 0)], unit_costs(small), GOGOGO)
    assert field.path_to(Cell(0, 5, 7)) == field._walk(Cell(0, 5, 7))
    assert "_parents" in field.__dict__
