"""Movement: path costs (G-TV4-6), lock-step (G-TV30-33, G-4) and hostages following (G-25)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from killhouse.core.board import Board, Level
from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.gogogo.movement import (
    LockStep,
    cost_of,
    follow_path,
    lockstep,
    longest_prefix,
)

from .helpers import Table, fig, open_rows, scenario

# digest steps with y north -> map steps (y south)
STEP = {"E": (1, 0), "N": (0, -1), "NE": (1, -1), "SE": (1, 1), "S": (0, 1)}


def walk(start: Cell, steps: list[str]) -> list[Cell]:
    out, here = [], start
    for s in steps:
        here = here.step(*STEP[s])
        out.append(here)
    return out


def open_board(w: int = 20, h: int = 20) -> Board:
    return Board([Level.blank("ground", w, h)])


START = Cell(0, 5, 10)


@pytest.mark.parametrize(
    ("vector", "steps", "cost"),
    [
        ("G-TV4", ["E", "E", "NE", "NE", "NE"], 6),
        ("G-TV5a", ["NE"] * 4, 6),
        ("G-TV5b", ["NE"] * 5, 7),
        ("G-TV5c", ["NE", "E"], 2),
        ("G-TV5d", ["NE", "NE"], 3),
    ],
)
def test_path_costs(vector: str, steps: list[str], cost: int) -> None:
    assert cost_of(open_board(), START, walk(START, steps), None) == cost, vector


def test_g_tv4_and_5_legality_through_orders() -> None:
    rows = open_rows(20, 20)
    table = Table(scenario(rows, [fig("c1", "ct", 5, 10), fig("t1", "t", 15, 3)]))
    ne = [(6, 9), (7, 8), (8, 7), (9, 6)]
    table.order("ct", "c1", "move", path=[(6, 10), (7, 10), (8, 9), (9, 8), (10, 7)])  # G-TV4
    with pytest.raises(IllegalActionError, match="allowance"):
        table.order("t", "t1", "stealth", path=[(16, 3), (17, 3), (18, 2)])
    table2 = Table(scenario(rows, [fig("c1", "ct", 5, 10), fig("t1", "t", 15, 3)]))
    table2.order("ct", "c1", "move", path=ne)  # four diagonals: 6
    with pytest.raises(IllegalActionError, match="costs 7"):
        table2.order("t", "t1", "move", path=[(14, 4), (13, 5), (12, 6), (11, 7), (10, 8)])
    table2.order("t", "t1", "stealth", path=[(14, 4), (13, 4)])  # 1 diagonal + 1 orthogonal
    table3 = Table(scenario(rows, [fig("c1", "ct", 5, 10), fig("t1", "t", 15, 3)]))
    with pytest.raises(IllegalActionError, match="costs 3"):
        table3.order("ct", "c1", "stealth", path=[(6, 9), (7, 8)])


def test_no_squeezing_between_walls_or_past_windows() -> None:
    board = open_board()
    board.levels[0].terrain[9, 5] = Terrain.WALL  # north of START
    assert cost_of(board, START, [Cell(0, 6, 9)], None) is None
    board.levels[0].terrain[9, 5] = Terrain.WINDOW
    assert cost_of(board, START, [Cell(0, 6, 9)], None) is None
    board.levels[0].terrain[9, 5] = Terrain.DOOR_OPEN
    assert cost_of(board, START, [Cell(0, 6, 9)], None) == 1
    # a door a side does not know to be open still blocks the squeeze on its map (G-44)
    assert cost_of(board, START, [Cell(0, 6, 9)], set()) is None


def test_g_tv6_stunned_mover_is_cut() -> None:
    path = walk(START, ["NE", "NE", "E"])
    assert cost_of(open_board(), START, path, None) == 4
    assert longest_prefix(START, path, 3) == path[:2]


def c(x: int, y: int = 0) -> Cell:
    return Cell(0, x, y)


def test_g_tv30_swap_blocks_both() -> None:
    res = lockstep({"A": c(0), "B": c(1)}, {"A": [c(1)], "B": [c(0)]})
    assert res.final == {"A": c(0), "B": c(1)}


def test_g_tv31_contest_blocks_both() -> None:
    res = lockstep({"A": c(0), "B": c(2)}, {"A": [c(1)], "B": [c(1)]})
    assert res.final == {"A": c(0), "B": c(2)}


def test_g_tv32_a_file_follows() -> None:
    res = lockstep({"A": c(0), "B": c(1)}, {"A": [c(1), c(2)], "B": [c(2), c(3)]})
    assert res.final == {"A": c(2), "B": c(3)}


def test_g_tv33_held_square_blocks_all_turn() -> None:
    res = lockstep({"A": c(0), "C": c(1)}, {"A": [c(1), c(2)]})
    assert res.final["A"] == c(0)
    assert res.blocked_at == {"A": 1}


def test_a_cycle_of_three_is_blocked() -> None:
    res = lockstep(
        {"A": c(0, 0), "B": c(1, 0), "C": c(1, 1)},
        {"A": [c(1, 0)], "B": [c(1, 1)], "C": [c(0, 0)]},
    )
    assert res.final == {"A": c(0, 0), "B": c(1, 0), "C": c(1, 1)}


def test_a_blocked_mover_blocks_the_file_behind_it() -> None:
    # C holds; B is blocked by C; A behind B is then blocked too (rule 4)
    res = lockstep(
        {"A": c(0), "B": c(1), "C": c(2)},
        {"A": [c(1), c(2)], "B": [c(2), c(3)]},
    )
    assert res.final == {"A": c(0), "B": c(1), "C": c(2)}


def test_a_blocked_figure_stops_for_the_rest_of_the_turn() -> None:
    # step 1: B and D contest (2,0)... B blocked; A follows into B? No: B stays, so A blocked
    res = lockstep(
        {"A": c(0), "B": c(1), "D": c(3)},
        {"A": [c(1), c(2)], "B": [c(2)], "D": [c(2)]},
    )
    assert res.final == {"A": c(0), "B": c(1), "D": c(3)}
    # a figure whose way clears later does not restart
    res = lockstep({"A": c(0), "B": c(2)}, {"A": [c(1), c(2), c(3)], "B": [c(3)]})
    assert res.final == {"A": c(2), "B": c(3)}


def test_hostage_follows_to_a_free_square_beside_its_leader() -> None:
    board = open_board()
    route = follow_path(board, c(2, 5), c(8, 5), [c(8, 5)], 6)
    assert route[-1] == c(7, 5)
    # out of reach: it goes as far as the allowance lets it
    short = follow_path(board, c(2, 5), c(12, 5), [c(12, 5)], 2)
    assert short == [c(3, 5), c(4, 5)]
    # already beside the leader: it stays
    assert follow_path(board, c(7, 5), c(8, 5), [c(8, 5)], 6) == []
    # tie-break: cost, then squared distance to the leader, then (y, x)
    route = follow_path(board, c(5, 5), c(5, 8), [c(5, 8)], 6)
    assert route[-1] == c(5, 7)


def _follow_path_whole(
    board: Any, hostage_at: Cell, leader_at: Cell, occupied: list[Cell], allowance: int
) -> list[Cell]:
    """``follow_path`` as it read before its first search was bounded: the whole field."""
    from killhouse.core.geometry import euclidean_sq
    from killhouse.rulesets.gogogo.movement import enterable, field_from, longest_prefix

    others = {c for c in occupied if c != hostage_at}
    walk = enterable(board, leader_at.level)
    goals = [
        c
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if (dx, dy) != (0, 0)
        for c in [leader_at.step(dx, dy)]
        if board.in_bounds(c) and c not in others and walk[c.y, c.x]
    ]
    if not goals or hostage_at in goals:
        return []
    dist = field_from(board, hostage_at, None, blocked=others)
    reached = [c for c in goals if dist.cost(c) is not None]
    if not reached:
        return []
    goal = min(reached, key=lambda c: (dist.cost(c), euclidean_sq(c, leader_at), c.y, c.x))
    return longest_prefix(hostage_at, dist.path_to(goal), allowance)


def test_a_following_hostage_walks_as_the_whole_field_says_near_and_far() -> None:
    """The bounded first search of ``follow_path`` picks the goal and path the whole field
    picks: leaders near and far (past the bound: the whole field decides), walls and figures
    in the way, goals out of reach."""
    from killhouse.core.rng import Rng

    rng = Rng.from_seed(21)
    rows = [
        "####################",
        "#........#.........#",
        "#..##....#....#....#",
        "#..#.....+....#....#",
        "#..#..####....###..#",
        "#.................##",
        "#....#.....#.......#",
        "####################",
    ]
    board = Table(scenario(rows, [fig("c1", "ct", 2, 1), fig("t1", "t", 18, 6)])).state.board
    free = [Cell(0, x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch in ".+"]
    far = walked = 0
    for _ in range(300):
        hostage = free[rng.below(len(free))]
        leader = free[rng.below(len(free))]
        if leader == hostage:
            continue
        occupied = [leader, hostage] + [free[rng.below(len(free))] for _ in range(rng.below(4))]
        allowance = 1 + rng.below(6)
        got = follow_path(board, hostage, leader, occupied, allowance)
        assert got == _follow_path_whole(board, hostage, leader, occupied, allowance)
        walked += bool(got)
        far += max(abs(hostage.x - leader.x), abs(hostage.y - leader.y)) > 8
    assert walked > 100 and far > 20
    # a leader two squares away behind a long wall: past the bound, the whole field decides
    rows = ["#######", "#..#..#", "#..#..#", "#..#..#", "#..#..#", "#..#..#", "#.....#", "#######"]
    board = Table(scenario(rows, [fig("c1", "ct", 1, 6), fig("t1", "t", 5, 6)])).state.board
    hostage, leader = Cell(0, 2, 1), Cell(0, 4, 1)
    got = follow_path(board, hostage, leader, [hostage, leader], 30)
    assert got and got[-1] == Cell(0, 4, 2)
    assert got == _follow_path_whole(board, hostage, leader, [hostage, leader], 30)


def test_a_following_hostage_on_a_map_with_stairs_walks_by_the_core_search() -> None:
    """A map with stair links keeps the core's search (bounded, then whole): the same goal
    and path as the whole field."""
    board = Board(
        [Level.blank("ground", 12, 7), Level.blank("upper", 12, 7)],
        {Cell(0, 9, 3): Cell(1, 9, 3), Cell(1, 9, 3): Cell(0, 9, 3)},
    )
    for hostage, leader in ((Cell(0, 2, 3), Cell(0, 7, 3)), (Cell(0, 1, 1), Cell(0, 10, 5))):
        occupied = [hostage, leader, Cell(0, 5, 3)]
        got = follow_path(board, hostage, leader, occupied, 6)
        assert got and got == _follow_path_whole(board, hostage, leader, occupied, 6)


def _lockstep_reference(
    positions: Mapping[str, Cell], paths: Mapping[str, Sequence[Cell]]
) -> LockStep:
    """``lockstep`` as it read before its free-squares shortcut: every rule tried at every step."""
    pos = dict(positions)
    trail: dict[str, list[Cell]] = {f: [] for f in paths}
    blocked_at: dict[str, int] = {}
    moving = {f for f, p in paths.items() if p}
    step = 0
    while moving:
        step += 1
        want = {f: paths[f][step - 1] for f in moving if len(paths[f]) >= step}
        moving = set(want)
        if not want:
            break
        holder = {cell: f for f, cell in pos.items()}
        blocked: set[str] = set()
        count: dict[Cell, int] = {}
        for cell in want.values():
            count[cell] = count.get(cell, 0) + 1
        for f, cell in want.items():
            if count[cell] > 1:
                blocked.add(f)  # rule 2: contest
            other = holder.get(cell)
            if other is not None and other in want and want[other] == pos[f]:
                blocked.add(f)  # rule 3: swap
        changed = True
        while changed:
            changed = False
            for f, cell in want.items():
                if f in blocked:
                    continue
                other = holder.get(cell)
                if other is not None and (other not in want or other in blocked):
                    blocked.add(f)  # rules 1 and 4
                    changed = True
            if changed:
                continue
            for f in sorted(want):
                if f in blocked:
                    continue
                chain = [f]
                current = f
                while True:
                    nxt = holder.get(want[current])
                    if nxt is None or nxt not in want or nxt in blocked:
                        break
                    if nxt == f:
                        blocked.update(chain)  # rule 5: a cycle of three or more
                        changed = True
                        break
                    if nxt in chain:
                        break
                    chain.append(nxt)
                    current = nxt
                if changed:
                    break
        for f in want:
            if f in blocked:
                blocked_at[f] = step
                moving.discard(f)
        for f, cell in want.items():
            if f not in blocked:
                pos[f] = cell
                trail[f].append(cell)
    return LockStep(pos, trail, blocked_at)


def test_lockstep_equals_every_rule_tried_at_every_step() -> None:
    """The shortcut (every mover entering a square of its own that nobody holds) leaves the
    outcome of G-4 as trying every rule: random files, contests, swaps and cycles."""
    from killhouse.core.rng import Rng

    rng = Rng.from_seed(13)
    squares = [Cell(0, x, y) for x in range(5) for y in range(4)]
    shortcuts = blocks = 0
    for _ in range(3000):
        spots = list(squares)
        for i in range(len(spots) - 1, 0, -1):
            j = rng.below(i + 1)
            spots[i], spots[j] = spots[j], spots[i]
        figures = [f"f{i}" for i in range(2 + rng.below(7))]
        positions = dict(zip(figures, spots, strict=False))
        paths: dict[str, list[Cell]] = {}
        for f in figures:
            if rng.below(3) == 0:
                continue
            here, path = positions[f], []
            for _ in range(1 + rng.below(5)):
                here = Cell(
                    0,
                    min(4, max(0, here.x + rng.below(3) - 1)),
                    min(3, max(0, here.y + rng.below(3) - 1)),
                )
                path.append(here)
            paths[f] = path
        got = lockstep(positions, paths)
        want = _lockstep_reference(positions, paths)
        assert (got.final, got.trail, got.blocked_at) == (want.final, want.trail, want.blocked_at)
        blocks += bool(want.blocked_at)
        shortcuts += not want.blocked_at and any(paths.values())
    assert blocks > 300 and shortcuts > 200
