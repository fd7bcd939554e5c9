"""Playing the lab's games in batches, on local worker processes or on Ray.

Game ``i`` always uses ``derive_seed(seed, i)`` and results are kept in game order; batch
boundaries depend only on the results so far, never on the backend or the number of
workers, so the same seed gives the same records everywhere (ruling L-4).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from killhouse.errors import KillhouseError
from killhouse.scenario.model import Scenario
from killhouse.sim.batch import GameSummary, play_one, run_games
from killhouse.sim.lab.records import GameRecord, LabProbe
from killhouse.sim.lab.stats import games_for_width, rate

#: games in the first batch of an ``--until-ci`` run
FIRST_BATCH = 100
#: the fewest games a Ray task plays, so Ray's per-task cost (~1 ms) is negligible
RAY_MIN_CHUNK = 20

Progress = Callable[[int], None]


@dataclass(frozen=True)
class Source:
    """A scenario to play: its file, and the edited text when it is a sweep variant."""

    path: Path
    text: bytes | None = None


class Backend(Protocol):
    """Plays games ``first`` … ``first + count - 1`` and returns them in game order."""

    name: str

    def play(
        self, source: Source, seed: int, first: int, count: int, progress: Progress
    ) -> list[GameSummary]: ...

    def close(self) -> None: ...


class LocalBackend:
    """Worker processes on this machine, or this process alone (one worker).

    The pool is started once and kept for every batch (and every sweep variant) of a run,
    so each worker loads killhouse, the compiled kernels and the scenario once, not once a
    batch. The workers also keep busy past the end of a batch: ``lookahead`` games past it
    are already under way when it is summed up. Game ``i`` is the same game whenever it is
    played, so a game played ahead and then needed is simply used, and one the plan turns
    out not to need is dropped: what is played never depends on the look-ahead (L-4).
    """

    name = "local"

    def __init__(self, workers: int = 1, lookahead: int | None = None) -> None:
        self.workers = max(1, workers)
        self.lookahead = 2 * self.workers if lookahead is None else max(0, lookahead)
        self._pool: Any = None
        self._ahead: dict[tuple[Source, int, int], Any] = {}

    def play(
        self, source: Source, seed: int, first: int, count: int, progress: Progress
    ) -> list[GameSummary]:
        if self.workers <= 1:
            out: list[GameSummary] = []
            for summary in run_games(
                source.path, count, seed, 1, first=first, text=source.text, probe=LabProbe
            ):
                out.append(summary)
                progress(1)
            return out
        if self._pool is None:
            import multiprocessing

            context = multiprocessing.get_context("spawn")
            self._pool = context.Pool(self.workers)
        # what was played ahead for another source or seed will not be asked for again
        self._ahead = {k: v for k, v in self._ahead.items() if k[:2] == (source, seed)}
        for i in range(first, first + count + self.lookahead):
            key = (source, seed, i)
            if key not in self._ahead:
                self._ahead[key] = self._pool.apply_async(
                    worker_chunk, (str(source.path), source.text, seed, i, 1)
                )
        out = []
        for i in range(first, first + count):
            out.extend(self._ahead.pop((source, seed, i)).get())
            progress(1)
        return out

    def close(self) -> None:
        if self._pool is not None:
            self._pool.terminate()  # games played ahead and never needed are dropped
            self._pool.join()
            self._pool = None
        self._ahead = {}


_CHUNK_SCENARIOS: dict[tuple[str, bytes | None], Scenario] = {}


def play_chunk(path: str, text: bytes | None, seed: int, first: int, count: int) -> list[Any]:
    """Games ``first`` … ``first + count - 1``, the scenario loaded once per process."""
    from killhouse.scenario.loader import load_scenario, loads_scenario

    key = (path, text)
    scenario = _CHUNK_SCENARIOS.get(key)
    if scenario is None:
        scenario = load_scenario(path) if text is None else loads_scenario(text, path)
        _CHUNK_SCENARIOS.clear()
        _CHUNK_SCENARIOS[key] = scenario
    return [play_one(scenario, i, seed, LabProbe) for i in range(first, first + count)]


_TUNED = False


def worker_chunk(path: str, text: bytes | None, seed: int, first: int, count: int) -> list[Any]:
    """``play_chunk`` as a task of a process that only plays games (a local pool worker or a
    Ray worker): its first task also sets the garbage collector for games
    (``tune_gc_for_games``), once the scenario is loaded, so that is frozen too."""
    global _TUNED
    games = play_chunk(path, text, seed, first, count)
    if not _TUNED:
        from killhouse.sim.batch import tune_gc_for_games

        _TUNED = True
        tune_gc_for_games()
    return games


def chunks(first: int, count: int, slots: int) -> list[tuple[int, int]]:
    """Split games into Ray tasks: about four per slot, never fewer than RAY_MIN_CHUNK games
    in a task (unless there are fewer games than that)."""
    size = max(RAY_MIN_CHUNK, math.ceil(count / max(1, 4 * slots)))
    return [
        (start, min(size, first + count - start)) for start in range(first, first + count, size)
    ]


class RayBackend:
    """Ray tasks of many games each, on a cluster at ``address`` or a local Ray started here."""

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        try:
            import ray
        except ImportError as exc:
            raise KillhouseError(
                "--backend ray needs Ray: pip install 'killhouse[ray]' "
                f"(on every machine of the cluster) ({exc})"
            ) from exc
        self.ray: Any = ray
        self.started = False
        if not ray.is_initialized():
            try:
                if address:
                    ray.init(address=address, include_dashboard=False, log_to_driver=False)
                else:
                    ray.init(
                        num_cpus=workers or os.cpu_count() or 1,
                        include_dashboard=False,
                        log_to_driver=False,
                    )
            except Exception as exc:  # a cluster that cannot be reached ends in a message
                where = f"at {address}" if address else "locally"
                raise KillhouseError(f"could not start or join Ray {where}: {exc}") from exc
            self.started = True
        self.task = self.ray.remote(worker_chunk)
        self.slots = max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def play(
        self, source: Source, seed: int, first: int, count: int, progress: Progress
    ) -> list[GameSummary]:
        text = self.ray.put(source.text) if source.text is not None else None
        refs = [
            (n, self.task.remote(str(source.path), text, seed, start, n))
            for start, n in chunks(first, count, self.slots)
        ]
        out: list[GameSummary] = []
        for n, ref in refs:
            out.extend(self.ray.get(ref))
            progress(n)
        return out

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def make_backend(name: str, workers: int, address: str | None) -> Backend:
    if name == "local":
        if address:
            raise KillhouseError("--address is for --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(address, workers)
    raise KillhouseError(f"unknown backend {name!r}: expected local or ray")


@dataclass(frozen=True)
class Plan:
    """How many games to play: at most ``games``; with ``until_ci``, stop once every side's
    win-rate interval is at most that wide."""

    games: int
    until_ci: float | None = None

    def done(self, records: Sequence[GameRecord], sides: Sequence[str]) -> bool:
        if len(records) >= self.games:
            return True
        if self.until_ci is None or not records:
            return False
        return all(w <= self.until_ci for w in widths(records, sides).values())

    def target(self, records: Sequence[GameRecord], sides: Sequence[str]) -> int:
        """The games the run will end at, as far as the results so far tell."""
        if self.until_ci is None:
            return self.games
        if not records:
            return min(self.games, games_for_width(0.5, self.until_ci))
        n = len(records)
        need = max(games_for_width(win_share(records, s), self.until_ci) for s in sides)
        return min(self.games, max(need, n))

    def next_batch(self, records: Sequence[GameRecord], sides: Sequence[str]) -> int:
        """The size of the next batch: everything at once without ``until_ci``; otherwise
        the estimated remainder, at least a tenth of what is played (20 games or more) and at
        most as many again, so a noisy early estimate cannot overshoot far."""
        n = len(records)
        left = self.games - n
        if self.until_ci is None:
            return left
        if n == 0:
            return min(left, FIRST_BATCH)
        wanted = self.target(records, sides) - n
        return max(1, min(left, n, max(wanted, 20, n // 10)))


def win_share(records: Sequence[GameRecord], side: str) -> float:
    return sum(1 for r in records if r.winner == side) / len(records)


def widths(records: Sequence[GameRecord], sides: Sequence[str]) -> dict[str, float]:
    """The width of each side's win-rate interval."""
    n = len(records)
    return {s: rate(sum(1 for r in records if r.winner == s), n).width for s in sides}


def play_lab(
    source: Source,
    sides: Sequence[str],
    seed: int,
    plan: Plan,
    backend: Backend,
    progress: Callable[[int, int], None] | None = None,
) -> list[GameRecord]:
    """Play batches until the plan is done; ``progress(played, target)`` after every game."""
    records: list[GameRecord] = []
    target = plan.target(records, sides)
    played = 0

    def tick(n: int) -> None:
        nonlocal played
        played += n
        if progress is not None:
            progress(played, max(target, played))

    while not plan.done(records, sides):
        count = plan.next_batch(records, sides)
        batch = backend.play(source, seed, len(records), count, tick)
        records.extend(GameRecord.from_summary(s) for s in batch)
        target = plan.target(records, sides)
        if progress is not None:
            progress(len(records), max(target, len(records)))
    return records
