"""Many games with bots, in worker processes, summarized as JSON.

Game ``i`` always uses the seed ``derive_seed(base, i)``, and per-game records are
summed in game order, so the summary is identical for any number of workers.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

from killhouse.core.rng import derive_seed
from killhouse.scenario.loader import load_scenario
from killhouse.scenario.model import Scenario
from killhouse.sim.play import play


@dataclass(frozen=True)
class GameSummary:
    """What one game contributes to a batch summary."""

    index: int
    seed: int
    winner: str | None
    reason: str
    turns: int
    casualties: dict[str, int]
    #: every winning side (several in games of three or more sides; none in a draw)
    winners: tuple[str, ...] = ()


def play_one(scenario: Scenario, index: int, base_seed: int) -> GameSummary:
    seed = derive_seed(base_seed, index)
    game = play(scenario, seed)
    result = game.result
    assert result is not None
    snapshot = game.ruleset.snapshot(game.state)
    return GameSummary(
        index=index,
        seed=seed,
        winner=result.winner,
        reason=result.reason,
        turns=int(snapshot.get("turn", 0)),
        casualties=game.ruleset.casualties(game.state),
        winners=result.winners,
    )


_WORKER_SCENARIO: Scenario | None = None


def _init_worker(path: str) -> None:
    global _WORKER_SCENARIO
    _WORKER_SCENARIO = load_scenario(Path(path))


def _work(task: tuple[int, int]) -> GameSummary:
    assert _WORKER_SCENARIO is not None
    return play_one(_WORKER_SCENARIO, task[0], task[1])


def run_games(path: Path, games: int, seed: int, workers: int = 1) -> Iterator[GameSummary]:
    """Yield one summary per game, in game order, played by ``workers`` processes."""
    tasks = [(i, seed) for i in range(games)]
    if workers <= 1:
        scenario = load_scenario(path)
        for index, base in tasks:
            yield play_one(scenario, index, base)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=_init_worker, initargs=(str(path),)) as pool:
        yield from pool.imap(_work, tasks, chunksize=max(1, min(16, games // (workers * 4) or 1)))


def summarize(scenario: Scenario, seed: int, results: list[GameSummary]) -> dict[str, Any]:
    """The batch summary: wins per side, draws, end reasons, turns, casualties per side."""
    sides = scenario.side_ids()
    # a shared win counts for each of its winners; a game with no winner is a draw
    wins = Counter(w for r in results for w in (r.winners or ((r.winner,) if r.winner else ())))
    turns = [r.turns for r in results]
    casualties: dict[str, list[int]] = {s: [] for s in sides}
    for r in results:
        for s in sides:
            casualties[s].append(r.casualties.get(s, 0))
    return {
        "scenario": scenario.name,
        "ruleset": scenario.ruleset,
        "seed": seed,
        "games": len(results),
        "wins": {s: wins.get(s, 0) for s in sides},
        "draws": sum(1 for r in results if r.winner is None and not r.winners),
        "end_reasons": dict(sorted(Counter(r.reason for r in results).items())),
        "turns": {
            "mean": round(fmean(turns), 4) if turns else 0.0,
            "min": min(turns, default=0),
            "max": max(turns, default=0),
            "distribution": {str(k): v for k, v in sorted(Counter(turns).items())},
        },
        "casualties": {
            s: {"total": sum(v), "mean": round(fmean(v), 4) if v else 0.0}
            for s, v in casualties.items()
        },
    }


def run_batch(
    path: Path,
    games: int,
    seed: int,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    scenario = load_scenario(path)
    results: list[GameSummary] = []
    for summary in run_games(path, games, seed, workers):
        results.append(summary)
        if progress is not None:
            progress(len(results))
    return summarize(scenario, seed, results)
