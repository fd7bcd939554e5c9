"""Many games with bots, in worker processes, summarized as JSON.

Game ``i`` always uses the seed ``derive_seed(base, i)``, and per-game records are
summed in game order, so the summary is identical for any number of workers.
"""

from __future__ import annotations

import gc
import multiprocessing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

from killhouse.core.kernels import load_all as load_kernels
from killhouse.core.rng import derive_seed
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError
from killhouse.scenario.loader import load_scenario, loads_scenario
from killhouse.scenario.model import Scenario
from killhouse.sim.play import play
from killhouse.sim.summary import GameSummary, summarize, summarize_game

__all__ = [
    "GameSummary",
    "Probe",
    "ProbeFactory",
    "play_one",
    "run_batch",
    "run_games",
    "summarize",
]


class Probe(Protocol):
    """Watches one game without touching it: after every action, then once at the end."""

    def step(self, game: Game) -> None: ...

    def finish(self, game: Game) -> dict[str, Any]: ...


#: makes a fresh probe per game; a top-level class or function, so worker processes can use it
ProbeFactory = Callable[[], Probe]


def play_one(
    scenario: Scenario, index: int, base_seed: int, probe: ProbeFactory | None = None
) -> GameSummary:
    """Play game ``index`` of a batch (seed derived from the base seed) and summarize it."""
    watch = probe() if probe is not None else None
    seed = derive_seed(base_seed, index)
    try:
        game = play(scenario, seed, on_step=watch.step if watch is not None else None)
    except IllegalActionError as exc:
        # a bot's action refused is a fault to reproduce: name the game and its seed
        raise IllegalActionError(f"game {index} of the batch (seed {seed}): {exc}") from exc
    return summarize_game(game, index, watch.finish(game) if watch is not None else None)


_WORKER_SCENARIO: Scenario | None = None
_WORKER_PROBE: ProbeFactory | None = None


def _load(path: str | Path, text: bytes | None) -> Scenario:
    """The scenario at ``path``, or the one in ``text`` (a variant) named after ``path``."""
    return load_scenario(Path(path)) if text is None else loads_scenario(text, str(path))


#: the youngest generation's threshold in a worker process (Python's default is 700)
WORKER_GC_THRESHOLD = 50_000


def tune_gc_for_games() -> None:
    """Set the collector for a process that only plays games (a batch worker): what is loaded
    by now (modules, the compiled kernels, tables, the scenario) lives as long as the process,
    so it is frozen out of every collection, and the young generation is collected far less
    often (a game allocates many short-lived actions, arrays and dicts, and most collections
    found nothing to free). Every compiled kernel is loaded first (``core.kernels``), as a
    game would load them and numba's modules with them: loaded now, they are frozen too, not
    left in the young generation for the first collection to walk through.
    Process-wide, so never called in a server or a shared process."""
    load_kernels()
    gc.collect()
    gc.freeze()
    _, second, third = gc.get_threshold()
    gc.set_threshold(WORKER_GC_THRESHOLD, second, third)


def _init_worker(path: str, text: bytes | None = None, probe: ProbeFactory | None = None) -> None:
    global _WORKER_SCENARIO, _WORKER_PROBE
    _WORKER_SCENARIO = _load(path, text)
    _WORKER_PROBE = probe
    tune_gc_for_games()


def _work(task: tuple[int, int]) -> GameSummary:
    assert _WORKER_SCENARIO is not None
    return play_one(_WORKER_SCENARIO, task[0], task[1], _WORKER_PROBE)


def run_games(
    path: Path,
    games: int,
    seed: int,
    workers: int = 1,
    *,
    first: int = 0,
    text: bytes | None = None,
    probe: ProbeFactory | None = None,
) -> Iterator[GameSummary]:
    """Yield one summary per game, in game order, played by ``workers`` processes.

    The games are ``first`` … ``first + games - 1``; ``text`` replaces the file's contents
    (a scenario variant) and ``probe`` watches each game. Never more processes than games:
    a worker without a game would only cost its start-up.
    """
    tasks = [(i, seed) for i in range(first, first + games)]
    workers = min(workers, games)
    if workers <= 1:
        scenario = _load(path, text)
        for index, base in tasks:
            yield play_one(scenario, index, base, probe)
        return
    context = multiprocessing.get_context("spawn")
    args = (str(path), text, probe)
    with context.Pool(workers, initializer=_init_worker, initargs=args) as pool:
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
