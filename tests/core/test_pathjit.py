"""The compiled Dijkstra of ``core.pathjit`` gives exactly tcod's distances on the same graph
(king steps with enter costs, the squeeze rule on diagonals, one-way stair links)."""

from __future__ import annotations

import numpy as np
import tcod.path
from numpy.typing import NDArray

from killhouse.core.pathjit import UNREACHED, solve_plain

Node = tuple[int, int, int]
CARDINAL = ((0, -1), (1, 0), (0, 1), (-1, 0))
DIAGONAL = ((1, -1), (1, 1), (-1, 1), (-1, -1))


def tcod_distances(cost: NDArray[np.int32], blocked: NDArray[np.bool_],
                   links: frozenset[tuple[Node, Node]], cardinal: int, diagonal: int,
                   roots: list[Node]) -> NDArray[np.int32]:
    """The reference: the same graph built for tcod, as ``paths`` built it before."""
    n, height, width = cost.shape
    graph = tcod.path.CustomGraph((n, height, width))
    for dx, dy in CARDINAL:
        graph.add_edge((0, dy, dx), cardinal, cost=cost)
    for dx, dy in DIAGONAL:
        allowed = (~blocked[:, 1 + dy : 1 + dy + height, 1 : 1 + width]
                   & ~blocked[:, 1 : 1 + height, 1 + dx : 1 + dx + width])
        graph.add_edge((0, dy, dx), diagonal, cost=cost, condition=allowed)
    for a, b in sorted(links):
        condition = np.zeros((n, height, width), dtype=bool)
        condition[a] = True
        graph.add_edge((b[0] - a[0], b[1] - a[1], b[2] - a[2]), cardinal, cost=cost,
                       condition=condition)
    finder = tcod.path.Pathfinder(graph)
    for root in roots:
        finder.add_root(root)
    finder.resolve()
    return np.array(finder.distance)


def test_random_graphs_give_tcods_distances() -> None:
    rng = np.random.default_rng(12)
    for _ in range(200):
        n, height, width = (int(v) for v in rng.integers(1, (3, 10, 10), endpoint=True))
        cost = rng.integers(0, 4, size=(n, height, width)).astype(np.int32)
        blocked = np.ones((n, height + 2, width + 2), dtype=bool)
        blocked[:, 1:-1, 1:-1] = rng.random((n, height, width)) < 0.25

        shape = (n, height, width)

        def node(shape: Node = shape) -> Node:
            return (int(rng.integers(shape[0])), int(rng.integers(shape[1])),
                    int(rng.integers(shape[2])))

        links = frozenset((node(), node()) for _ in range(int(rng.integers(0, 4))))
        cardinal, diagonal = int(rng.integers(1, 4)), int(rng.integers(1, 5))
        roots = [node() for _ in range(int(rng.integers(1, 3)))]
        expected = tcod_distances(cost, blocked, links, cardinal, diagonal, roots)
        got = solve_plain(cost, blocked, links, cardinal, diagonal, roots)
        assert got.dtype == np.int32
        assert np.array_equal(got, expected)


def test_a_blocked_square_stops_a_diagonal_and_a_one_way_link_goes_one_way() -> None:
    cost = np.ones((2, 3, 3), dtype=np.int32)
    blocked = np.zeros((2, 5, 5), dtype=bool)
    blocked[0, 1 + 0, 1 + 1] = True  # (y 0, x 1): the step (0,0) -> (1,1) squeezes past it
    links = frozenset({((0, 2, 2), (1, 0, 0))})
    got = solve_plain(cost, blocked, links, 1, 1, [(0, 0, 0)])
    assert got[0, 1, 1] == 2  # round by (1, 0), not the diagonal
    assert got[1, 0, 0] == got[0, 2, 2] + 1
    back = solve_plain(cost, blocked, links, 1, 1, [(1, 0, 0)])
    assert back[0, 2, 2] == UNREACHED  # no link back down
