"""Engine speed: decisions (steps) per second and games per second with bots on shipped scenarios.

Run: ``python benchmarks/bench_engine.py [scenario.yaml ...] [--games N]``. Prints numbers:
wall-clock rates and CPU games/s (process time, steadier on a machine shared with other work).
``--worker-gc`` sets the garbage collector as ``killhouse sim``'s worker processes do. One
unmeasured game per scenario comes first (compiled kernels load at their first use).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from killhouse.core.rng import derive_seed
from killhouse.scenario.loader import load_scenario
from killhouse.sim.play import play

ROOT = Path(__file__).resolve().parents[1]

try:
    from killhouse.sim.batch import tune_gc_for_games
except ImportError:  # an older checkout, measured for comparison by ``compare.py``

    def tune_gc_for_games() -> None:
        """Older checkouts had no collector setting for games: nothing to set."""


try:
    from killhouse.core.kernels import load_all as load_kernels
except ImportError:  # an older checkout: its first game loads what it uses

    def load_kernels() -> None:
        """Older checkouts had no kernel loader: nothing to load."""




def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("scenarios", nargs="*", type=Path)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument(
        "--worker-gc",
        action="store_true",
        help="tune the garbage collector as a sim worker process does (tune_gc_for_games)",
    )
    args = parser.parse_args()
    paths = args.scenarios or sorted((ROOT / "scenarios").glob("*/*.yaml"))
    print(
        f"{'scenario':<40} {'games':>5} {'steps':>8} {'events':>8} {'steps/s':>9} "
        f"{'games/s':>8} {'cpu g/s':>8}"
    )
    for path in paths:
        scenario = load_scenario(path)
        load_kernels()  # compiled kernels load (or compile) at first use: none in a game
        if args.worker_gc:  # as a sim worker sets it, once its scenario is loaded
            tune_gc_for_games()
        play(scenario, derive_seed(2, 0))  # unmeasured: any kernel a ruleset loads itself
        steps = events = 0
        start = time.perf_counter()
        cpu_start = time.process_time()
        for i in range(args.games):
            game = play(scenario, derive_seed(1, i))
            steps += len(game.actions)
            events += len(game.log)
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        name = f"{path.parent.name}/{path.name}"
        print(
            f"{name:<40} {args.games:>5} {steps:>8} {events:>8} "
            f"{steps / elapsed:>9.0f} {args.games / elapsed:>8.2f} {args.games / cpu:>8.2f}"
        )


if __name__ == "__main__":
    main()
