"""Before and after in one run: the engine benchmarks on an older revision and on this tree.

Run: ``python benchmarks/compare.py --before REV [--rounds R] [--games N] [--random-games M]``.
Prints numbers, not a test. REV (a commit, tag or branch) is checked out into a temporary git
worktree, removed at the end. Each round runs ``bench_engine.py`` (bot-vs-bot games) and
``bench_random.py`` (uniformly random legal play) of this tree on both checkouts, their order
alternating from round to round, every time on the execute and gogogo scenarios each
checkout ships, each scenario in a process of its own (as a ``sim`` worker plays one); then
each checkout's own ``bench_fov.py`` once, whose ratios are measured against bare tcod calls
within that run. Rates are per CPU second (``time.process_time``), the
median over the rounds, so other work on the machine moves them less than wall time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULESETS = ("execute", "gogogo")


def scenarios(tree: Path) -> list[str]:
    """The scenario files of the compared rulesets that ``tree`` ships."""
    return [
        str(path.relative_to(tree))
        for ruleset in RULESETS
        for path in sorted((tree / "scenarios" / ruleset).glob("*.yaml"))
    ]


def run(tree: Path, script: Path, args: list[str]) -> str:
    """One benchmark script of this tree, importing ``tree``'s engine, from ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    done = subprocess.run(
        [sys.executable, str(script), *args],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{script.name} on {tree} failed:\n{done.stderr[-2000:]}")
    return done.stdout


def bench(tree: Path, kind: str, names: list[str], games: int) -> str:
    """This tree's ``bench_<kind>.py`` on ``tree``'s engine and scenarios, collector as a
    batch worker sets it, each scenario in a process of its own as a batch worker plays one:
    the process-wide caches one scenario fills (sight grids, kept actions) would otherwise
    make every later collection of the next scenario's process scan them."""
    script = ROOT / "benchmarks" / f"bench_{kind}.py"
    tables = [run(tree, script, [name, "--games", str(games), "--worker-gc"]) for name in names]
    header = tables[0].splitlines()[0] if tables else ""
    lines = [line for table in tables for line in table.splitlines()[1:]
             if line.split() and line.split()[0] != "all"]
    return "\n".join([header, *lines])


def rows(output: str) -> dict[str, list[str]]:
    """A benchmark table as {first column: the other columns}, its header left out."""
    table: dict[str, list[str]] = {}
    for line in output.splitlines()[1:]:
        parts = line.split()
        if parts and parts[0] != "all":
            table[parts[0]] = parts[1:]
    return table


def engine_rates(output: str) -> dict[str, tuple[float, float]]:
    """``bench_engine`` rows as (decisions per CPU second, games per CPU second)."""
    out = {}
    for name, cols in rows(output).items():
        games, steps, cpu_games = int(cols[0]), int(cols[1]), float(cols[5])
        out[name] = (steps * cpu_games / games, cpu_games)
    return out


def random_rates(output: str) -> dict[str, float]:
    """``bench_random`` rows as actions per CPU second."""
    return {name: float(cols[3]) for name, cols in rows(output).items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the revision to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=5, help="bot games per scenario and round")
    parser.add_argument("--random-games", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        before = Path(tmp) / "before"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach", str(before), args.before],
            check=True,
        )
        try:
            trees = {"before": before, "after": ROOT}
            engine: dict[str, dict[str, list[tuple[float, float]]]] = {
                t: defaultdict(list) for t in trees
            }
            randoms: dict[str, dict[str, list[float]]] = {t: defaultdict(list) for t in trees}
            for r in range(args.rounds):
                order = list(trees) if r % 2 == 0 else list(reversed(trees))
                for label in order:
                    tree = trees[label]
                    names = scenarios(tree)
                    bots = bench(tree, "engine", names, args.games)
                    for name, rate in engine_rates(bots).items():
                        engine[label][name].append(rate)
                    played = bench(tree, "random", names, args.random_games)
                    for name, value in random_rates(played).items():
                        randoms[label][name].append(value)
                print(f"round {r + 1} of {args.rounds} done", file=sys.stderr, flush=True)
            report(args.before, engine, randoms)
            for label, tree in trees.items():
                named = args.before if label == "before" else "this tree"
                print(f"\nbench_fov.py of {label} ({named})")
                print(run(tree, tree / "benchmarks" / "bench_fov.py", []).rstrip())
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before)],
                check=False,
            )


def report(
    rev: str,
    engine: dict[str, dict[str, list[tuple[float, float]]]],
    randoms: dict[str, dict[str, list[float]]],
) -> None:
    """The before/after table: medians over the rounds, and after ÷ before."""
    names = sorted(set(engine["before"]) | set(engine["after"]))
    print(f"before = {rev}, after = this tree; per CPU second, median of the rounds")
    print(
        f"{'scenario':<34} {'bot dec/s':>19} {'x':>5} {'bot games/s':>17} {'x':>5} "
        f"{'random act/s':>19} {'x':>5}"
    )

    def med(values: list[float]) -> float | None:
        return statistics.median(values) if values else None

    def pair(a: float | None, b: float | None, width: int, fmt: str) -> str:
        left = "-" if a is None else format(a, fmt)
        right = "-" if b is None else format(b, fmt)
        return f"{left + ' -> ' + right:>{width}}"

    def ratio(a: float | None, b: float | None) -> str:
        return f"{b / a:>5.1f}" if a and b else f"{'':>5}"

    for name in names:
        db = med([d for d, _ in engine["before"].get(name, [])])
        da = med([d for d, _ in engine["after"].get(name, [])])
        gb = med([g for _, g in engine["before"].get(name, [])])
        ga = med([g for _, g in engine["after"].get(name, [])])
        rb = med(randoms["before"].get(name, []))
        ra = med(randoms["after"].get(name, []))
        print(
            f"{name:<34} {pair(db, da, 19, '.0f')} {ratio(db, da)} {pair(gb, ga, 17, '.2f')} "
            f"{ratio(gb, ga)} {pair(rb, ra, 19, '.0f')} {ratio(rb, ra)}"
        )


if __name__ == "__main__":
    main()
