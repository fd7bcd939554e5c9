"""Wilson intervals against published values, and the batch plan of --until-ci."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from killhouse.sim.batch import GameSummary
from killhouse.sim.lab.records import GameRecord
from killhouse.sim.lab.run import FIRST_BATCH, Plan, Source, play_lab
from killhouse.sim.lab.stats import games_for_width, rate, wilson


@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (Wilson score)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_known_values(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert got == pytest.approx((low, high), abs=5e-5)


def test_wilson_of_no_games_is_the_whole_range_and_bad_counts_are_refused() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    for k, n in ((-1, 5), (6, 5), (0, -1)):
        with pytest.raises(ValueError):
            wilson(k, n)


def test_rate_json_rounds_and_keeps_the_counts() -> None:
    r = rate(81, 263)
    assert r.to_json() == {"count": 81, "games": 263, "rate": 0.308, "low": 0.2553, "high": 0.3662}
    assert r.width == pytest.approx(0.3662 - 0.2553, abs=1e-4)


def test_games_for_width_is_about_what_narrows_the_interval() -> None:
    n = games_for_width(0.5, 0.03)
    assert 4200 <= n <= 4300
    # the estimate is enough: at that many games an even rate's interval is 0.03 or narrower
    assert rate(n // 2, n).width <= 0.03
    assert rate(n // 2, n - 200).width > 0.03


def _records(winners: list[str | None]) -> list[GameRecord]:
    return [GameRecord(i, i, w, "r", 1, {}, (), (), 0) for i, w in enumerate(winners)]


def test_plan_without_until_ci_plays_everything_in_one_batch() -> None:
    plan = Plan(37)
    assert plan.next_batch([], ["a", "b"]) == 37
    assert not plan.done(_records(["a"] * 36), ["a", "b"])
    assert plan.done(_records(["a"] * 37), ["a", "b"])


def test_until_ci_stops_at_the_width_and_at_the_cap() -> None:
    sides = ["a", "b"]
    plan = Plan(10_000, 0.2)
    assert plan.next_batch([], sides) == FIRST_BATCH
    even = _records(["a", "b"] * 50)  # 100 games, 50% each: width 0.19
    assert plan.done(even, sides)
    assert not Plan(10_000, 0.1).done(even, sides)
    assert Plan(100, 0.1).done(even, sides)  # the cap is reached first


def test_until_ci_batches_grow_at_most_by_what_is_played_and_never_past_the_cap() -> None:
    sides = ["a", "b"]
    plan = Plan(1_000, 0.03)
    played = _records(["a", "b"] * 50)
    assert plan.next_batch(played, sides) == 100  # wants ~4,170 more, doubles at most
    assert Plan(150, 0.03).next_batch(played, sides) == 50
    lopsided = _records(["a"] * 100)  # p kept at 0.95: still needs ~800 games
    assert Plan(10_000, 0.03).target(lopsided, sides) > 100


class _Coin:
    """A backend whose game i is won by side a when i is even, by b otherwise: no engine."""

    name = "coin"

    def __init__(self) -> None:
        self.batches: list[tuple[int, int]] = []

    def play(self, source: Source, seed: int, first: int, count: int, progress: Any) -> list[Any]:
        self.batches.append((first, count))
        out = []
        for i in range(first, first + count):
            out.append(GameSummary(i, seed + i, "a" if i % 2 == 0 else "b", "r", 1, {}))
            progress(1)
        return out

    def close(self) -> None:
        return None


def test_play_lab_plays_consecutive_batches_until_the_interval_is_narrow() -> None:
    coin = _Coin()
    seen: list[tuple[int, int]] = []
    records = play_lab(
        Source(Path("x.yaml")),
        ["a", "b"],
        1,
        Plan(5_000, 0.1),
        coin,
        lambda n, t: seen.append((n, t)),
    )
    # 100 games: width 0.19; the estimate (~385) is reached in batches of at most what is played
    assert coin.batches == [(0, 100), (100, 100), (200, 185)]
    assert [r.index for r in records] == list(range(385))
    assert rate(192, 385).width <= 0.1
    assert seen[-1] == (385, 385) and all(n <= t for n, t in seen)
