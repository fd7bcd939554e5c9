"""Time field of view, exact line of sight and movement fields on a 200x200 map of rooms.

Run: ``python benchmarks/bench_fov.py``. Not a test: it prints plain numbers (best of
several repeats, in milliseconds) so runs on one machine can be compared.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
import tcod.map

from killhouse.core.board import Board, Level
from killhouse.core.cells import COMPASS_ORDER, Cell
from killhouse.core.fov import ALGORITHM, field_of_view, fields_of_view, transparency
from killhouse.core.geometry import line_of_sight, los_pairs
from killhouse.core.paths import StepRules, distance_field
from killhouse.core.terrain import Terrain, passable_mask, stairs_mask

SIZE = 200
ROOM = 10  # walls every 10 cells: rooms of 9x9 floor
OBSERVERS = 64
PAIRS = 1000
REPEATS = 5


def build_map() -> Board:
    """A deterministic grid of rooms; each shared wall has one door, open, closed or a window."""
    level = Level.blank("ground", SIZE, SIZE)
    terrain = level.terrain
    ys, xs = np.indices((SIZE, SIZE))
    walls = (ys % ROOM == 0) | (xs % ROOM == 0) | (ys == SIZE - 1) | (xs == SIZE - 1)
    terrain[walls] = Terrain.WALL
    rooms = np.arange(ROOM, SIZE - 1, ROOM)
    mids = np.arange(ROOM // 2, SIZE - 1, ROOM)
    kinds = np.array(
        [
            Terrain.DOOR_OPEN,
            Terrain.DOOR_CLOSED,
            Terrain.DOOR_OPEN,
            Terrain.DOOR_CLOSED,
            Terrain.WINDOW,
        ]
    )
    # one opening in each vertical wall (x = 10, 20, ...) at the room's middle row, and likewise
    # in each horizontal wall; the kind cycles so that most rooms connect
    wx, wy = np.meshgrid(rooms, mids)
    terrain[wy, wx] = kinds[(wx // ROOM * 7 + wy // ROOM * 3) % len(kinds)]
    hy, hx = np.meshgrid(rooms, mids)
    terrain[hy, hx] = kinds[(hx // ROOM * 3 + hy // ROOM * 7 + 2) % len(kinds)]
    return Board([level])


def best_ms(run: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return 1000.0 * min(times)


def main() -> None:
    board = build_map()
    floor_ys, floor_xs = np.nonzero(board.levels[0].terrain == Terrain.FLOOR)
    pick = np.linspace(0, floor_xs.size - 1, OBSERVERS).astype(int)
    cells = [Cell(0, int(floor_xs[i]), int(floor_ys[i])) for i in pick]
    clear = transparency(board, 0)

    def direct() -> None:
        for c in cells:
            tcod.map.compute_fov(clear, (c.y, c.x), light_walls=True, algorithm=ALGORITHM)

    def all_round() -> None:
        for c in cells:
            field_of_view(board, c)

    def front_half() -> None:
        for i, c in enumerate(cells):
            field_of_view(board, c, COMPASS_ORDER[i % 8], 90.0)

    observers = [(c, COMPASS_ORDER[i % 8], 90.0) for i, c in enumerate(cells)]

    def batched_front_half() -> None:
        fields_of_view(board, observers)

    t_direct = best_ms(direct)
    t_round = best_ms(all_round)
    t_front = best_ms(front_half)
    t_batch = best_ms(batched_front_half)
    round_observers = [(c, None, 180.0) for c in cells]
    t_batch_round = best_ms(lambda: fields_of_view(board, round_observers))
    t_exact = best_ms(lambda: fields_of_view(board, round_observers, exact=True))
    print(f"map {SIZE}x{SIZE}, {OBSERVERS} observers, best of {REPEATS} (ms)")
    print(f"{f'tcod.map.compute_fov x{OBSERVERS}':38s} {t_direct:9.2f}")
    for name, ms in (
        (f"field_of_view all-round x{OBSERVERS}", t_round),
        (f"field_of_view ±90° x{OBSERVERS}", t_front),
        ("fields_of_view ±90° (one call)", t_batch),
        ("fields_of_view all-round (one call)", t_batch_round),
        ("fields_of_view all-round, exact", t_exact),
    ):
        print(f"{name:38s} {ms:9.2f}  ratio {ms / t_direct:.2f}")

    gen = np.random.default_rng(12345)  # fixed pairs, so runs compare
    opaque = board.opaque(0)
    smoke = board.smoke(0)
    ia = gen.integers(0, floor_xs.size, PAIRS)
    ib = gen.integers(0, floor_xs.size, PAIRS)
    far_a = np.stack([floor_xs[ia], floor_ys[ia]], axis=1)
    far_b = np.stack([floor_xs[ib], floor_ys[ib]], axis=1)
    near_b = np.clip(far_a + gen.integers(-12, 13, (PAIRS, 2)), 0, SIZE - 1)
    for label, a, b in (("across the map", far_a, far_b), ("within 12", far_a, near_b)):
        pairs = [
            ((int(p[0]), int(p[1])), (int(q[0]), int(q[1]))) for p, q in zip(a, b, strict=True)
        ]

        def batched(a: np.ndarray = a, b: np.ndarray = b) -> None:
            los_pairs(opaque, a, b, smoke)

        def one_by_one(pairs: list[tuple[tuple[int, int], tuple[int, int]]] = pairs) -> None:
            for p, q in pairs:
                line_of_sight(opaque, p, q, smoke)

        seen = int(los_pairs(opaque, a, b, smoke).sum())
        mean_len = float(np.abs(a - b).max(axis=1).mean())
        print(f"exact LOS, {PAIRS} pairs {label} (mean length {mean_len:.1f}, {seen} in sight)")
        print(f"{'  los_pairs, one batched call':38s} {best_ms(batched):9.2f}")
        print(f"{'  line_of_sight, one call per pair':38s} {best_ms(one_by_one):9.2f}")

    terrain = board.levels[0].terrain
    enter = [np.where(passable_mask(terrain), np.where(stairs_mask(terrain), 2, 1), 0)]
    start = cells[0]
    execute = StepRules()
    gogogo = StepRules(cardinal=2, diagonal=3, divisor=2, squeeze="solid+window")
    fresh = [enter[0].copy()]
    spot = (cells[1].y, cells[1].x)

    def new_graph() -> None:
        # a changed enter cost at each call: the graph cannot be reused and is built again
        fresh[0][spot] = fresh[0][spot] % 7 + 1
        distance_field(board, [start], fresh, execute)

    t_cold = best_ms(new_graph)
    t_ex = best_ms(lambda: distance_field(board, [start], enter, execute))
    t_go = best_ms(lambda: distance_field(board, [start], enter, gogogo))
    t_bound = best_ms(lambda: distance_field(board, [start], enter, execute, max_cost=12))
    field = distance_field(board, [start], enter, execute)
    far = max(field.reachable(10_000), key=lambda c: field.cost(c) or 0)
    t_path = best_ms(lambda: field.path_to(far))
    print(f"{'distance_field, king steps, new graph':38s} {t_cold:9.2f}")
    print(f"{'distance_field, king steps':38s} {t_ex:9.2f}")
    print(f"{'distance_field, 2/3 over 2':38s} {t_go:9.2f}")
    print(f"{'distance_field, king steps, max_cost 12':38s} {t_bound:9.2f}")
    print(
        f"{'path_to the farthest cell':38s} {t_path:9.2f}  (cost {field.cost(far)}, "
        f"{len(field.path_to(far))} steps, {len(field.reachable(10_000))} cells reachable)"
    )


if __name__ == "__main__":
    main()
