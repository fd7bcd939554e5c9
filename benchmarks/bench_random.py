"""Random legal play: actions per second on shipped scenarios (issue 12's 10,000 actions/s goal).

Run: ``python benchmarks/bench_random.py [scenario.yaml ...] [--games N] [--ruleset ID ...]``.
Each step asks ``pending`` and ``legal`` (the legal actions counted at once and made only where
the draw lands: the same action ``legal_actions`` would give at that index) and applies a
uniformly random action (no view is built, as a random player reads none). Prints numbers
per scenario and per ruleset.
``--worker-gc`` sets the garbage collector as ``killhouse sim``'s worker processes do. One
unmeasured game per scenario comes first (compiled kernels load at their first use).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from pathlib import Path

from killhouse.core.rng import Rng, derive_seed
from killhouse.engine.game import Game
from killhouse.scenario.loader import load_scenario

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


MAX_STEPS = 200_000


def play_random(game: Game, rng: Rng) -> int:
    """Play ``game`` to its end with uniformly random legal actions; the number of actions."""
    # ``Game.legal`` counts the list without making it; an older checkout (``compare.py``)
    # has only ``legal_actions``, which makes the same list in the same order
    legal = getattr(game, "legal", game.legal_actions)
    for steps in range(MAX_STEPS):
        pending = game.pending()
        if not pending:
            return steps
        actions = legal(pending[0].side)  # counted at once, made only where drawn
        game.apply(actions[rng.below(len(actions))])
    raise RuntimeError(f"no end within {MAX_STEPS} random actions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("scenarios", nargs="*", type=Path)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--ruleset", action="append", default=None)
    parser.add_argument(
        "--worker-gc",
        action="store_true",
        help="tune the garbage collector as a sim worker process does (tune_gc_for_games)",
    )
    args = parser.parse_args()
    rulesets = args.ruleset or ["execute", "gogogo"]
    paths = args.scenarios or [
        p for r in rulesets for p in sorted((ROOT / "scenarios" / r).glob("*.yaml"))
    ]
    print(f"{'scenario':<40} {'games':>5} {'actions':>8} {'actions/s':>10} {'cpu a/s':>9}")
    totals: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for path in paths:
        scenario = load_scenario(path)
        # the compiled kernels load (or compile, in a fresh checkout) at their first use,
        # which is no part of a game's cost: every one now (a random game may never move a
        # figure), then a game outside the measured ones, for any kernel a ruleset keeps
        load_kernels()
        if args.worker_gc:  # as a sim worker sets it, once its scenario is loaded
            tune_gc_for_games()
        play_random(Game(scenario, derive_seed(2, 0)), Rng.from_seed(derive_seed(2, 99)))
        actions = 0
        start = time.perf_counter()
        cpu_start = time.process_time()
        for i in range(args.games):
            seed = derive_seed(1, i)
            game = Game(scenario, seed)
            actions += play_random(game, Rng.from_seed(derive_seed(seed, 99)))
        elapsed = time.perf_counter() - start
        cpu = time.process_time() - cpu_start
        total = totals[scenario.ruleset]
        total[0] += actions
        total[1] += elapsed
        total[2] += cpu
        name = f"{path.parent.name}/{path.name}"
        print(
            f"{name:<40} {args.games:>5} {actions:>8} {actions / elapsed:>10.0f} "
            f"{actions / cpu:>9.0f}"
        )
    for ruleset, (actions, elapsed, cpu) in totals.items():
        print(
            f"{'all ' + ruleset:<40} {'':>5} {actions:>8.0f} {actions / elapsed:>10.0f} "
            f"{actions / cpu:>9.0f}"
        )


if __name__ == "__main__":
    main()
