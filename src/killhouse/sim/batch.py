"""Many games with bots, in worker processes, summarized as JSON.

Game ``i`` always uses the seed ``derive_seed(base, i)``, and per-game records are
summed in game order, so the summary is identical for any number of workers.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from killhouse.core.rng import derive_seed
from killhouse.scenario.loader import load_scenario
from killhouse.scenario.model import Scenario
from killhouse.sim.play import play
from killhouse.sim.summary import GameSummary, summarize, summarize_game

__all__ = ["GameSummary", "play_one", "run_batch", "run_games", "summarize"]


def play_one(scenario: Scenario, index: int, base_seed: int) -> GameSummary:
    """Play game ``index`` of a batch (seed derived from the base seed) and summarize it."""
    return summarize_game(play(scenario, derive_seed(base_seed, index)), index)


_WORKER_SCENARIO: Scenario | None = None


def _init_worker(path: str) -> None:
    global _WORKER_SCENARIO
    _WORKER_SCENARIO = load_scenario(Path(path))


def _work(task: tuple[int, int]) -> GameSummary:
    assert _WORKER_SCENARIO is not None
    return play_one(_WORKER_SCENARIO, task[0], task[1])


def run_games(path: Path, games: int, seed: int, workers: int = 1) -> Iterator[GameSummary]:
    """Yield one summary per game, in game order, played by ``workers`` processes.

    Never more processes than games: a worker without a game would only cost its start-up.
    """
    tasks = [(i, seed) for i in range(games)]
    workers = min(workers, games)
    if workers <= 1:
        scenario = load_scenario(path)
        for index, base in tasks:
            yield play_one(scenario, index, base)
        return
    context = multiprocessing.get_context("spawn")
    with context.Pool(workers, initializer=_init_worker, initargs=(str(path),)) as pool:
        yield from pool.imap(_work, tasks, chunksize=max(1, min(16, games // (workers * 4) or 1)))


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
