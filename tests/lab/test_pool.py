"""The lab's local workers: one pool for every batch of a run, games played ahead of a batch
used or dropped without changing any result (L-4), and the collector set in each worker."""

from __future__ import annotations

from pathlib import Path

import pytest

from killhouse.sim import batch
from killhouse.sim.lab import run
from killhouse.sim.lab.run import LocalBackend, Source


def test_batches_share_one_pool_and_games_played_ahead_are_the_same_games(
    short_hostage: Path,
) -> None:
    source = Source(short_hostage)
    ahead = LocalBackend(2, lookahead=3)
    try:
        first = ahead.play(source, 9, 0, 2, lambda n: None)
        pool = ahead._pool
        assert pool is not None
        assert len(ahead._ahead) == 3  # games 2, 3 and 4 are under way already
        second = ahead.play(source, 9, 2, 2, lambda n: None)
        assert ahead._pool is pool  # no worker started again for the second batch
    finally:
        ahead.close()
    assert ahead._pool is None and not ahead._ahead
    alone = LocalBackend(1)
    plain = alone.play(source, 9, 0, 4, lambda n: None)
    assert [*first, *second] == plain
    assert [s.index for s in plain] == [0, 1, 2, 3]


def test_a_worker_task_sets_the_collector_once_and_a_plain_chunk_never(
    monkeypatch: pytest.MonkeyPatch, short_hostage: Path
) -> None:
    calls: list[int] = []
    monkeypatch.setattr(batch, "tune_gc_for_games", lambda: calls.append(1))
    monkeypatch.setattr(run, "play_one", lambda scenario, i, seed, probe: (i, seed))
    monkeypatch.setattr(run, "_TUNED", False)
    assert run.play_chunk(str(short_hostage), None, 3, 0, 2) == [(0, 3), (1, 3)]
    assert calls == []
    assert run.worker_chunk(str(short_hostage), None, 3, 2, 1) == [(2, 3)]
    assert run.worker_chunk(str(short_hostage), None, 3, 3, 1) == [(3, 3)]
    assert calls == [1]


def test_progress_lines_give_the_time_left_from_the_rate_since_the_first_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import time

    from killhouse import cli

    clock = iter([60.0, 90.0, 120.0])  # workers start for a minute, then 10 games a minute
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    monkeypatch.setattr(cli, "PROGRESS_EVERY", 0.0)
    note = cli._progress_lines(0.0)
    note("hostage", 0, 100)  # nothing played: no line, no clock read
    note("hostage", 1, 100)
    note("hostage", 6, 100)
    note("hostage", 11, 101)
    lines = capsys.readouterr().err.splitlines()
    assert lines[0] == "hostage: 1/100 games, 1.0 min, …"
    assert lines[1] == "hostage: 6/100 games, 1.5 min, about 9.4 min left"
    assert lines[2] == "hostage: 11/101 games, 2.0 min, about 9.0 min left"


def test_a_refused_bot_action_names_the_game_and_its_seed(
    monkeypatch: pytest.MonkeyPatch, short_hostage: Path
) -> None:
    """A bot's action the rules refuse is a fault in the AI or the rules: the batch stops with
    the game's number and seed, so that one game can be played again to find it."""
    from killhouse.core.rng import derive_seed
    from killhouse.errors import IllegalActionError
    from killhouse.scenario.loader import load_scenario

    def refuse(scenario: object, seed: int, on_step: object = None) -> None:
        raise IllegalActionError("the bot's shot is refused")

    monkeypatch.setattr(batch, "play", refuse)
    with pytest.raises(IllegalActionError) as info:
        batch.play_one(load_scenario(short_hostage), 7, 3)
    assert str(info.value) == (
        f"game 7 of the batch (seed {derive_seed(3, 7)}): the bot's shot is refused"
    )
