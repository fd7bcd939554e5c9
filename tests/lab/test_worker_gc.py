"""A batch worker process sets its garbage collector for playing games, and only it does."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from killhouse.sim import batch

ROOT = Path(__file__).resolve().parents[2]


def test_tuning_freezes_what_is_loaded_and_raises_the_young_threshold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = gc.get_threshold()
    calls: list[int] = []
    # the compiled kernels are loaded first, to be frozen with the rest
    monkeypatch.setattr(batch, "load_kernels", lambda: calls.append(1))
    try:
        batch.tune_gc_for_games()
        assert calls == [1]
        assert gc.get_threshold() == (batch.WORKER_GC_THRESHOLD, *before[1:])
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_a_worker_tunes_and_a_batch_in_this_process_does_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[int] = []
    monkeypatch.setattr(batch, "tune_gc_for_games", lambda: calls.append(1))
    path = ROOT / "scenarios" / "execute" / "bank.yaml"
    batch._init_worker(str(path))
    assert calls == [1]
    calls.clear()
    monkeypatch.setattr(batch, "play_one", lambda *args: args[1])
    assert len(list(batch.run_games(path, 2, 1, workers=1))) == 2
    assert calls == []
