"""What a finished game, or a batch of them, adds up to: built once, printed by every face.

Everything here is read from what the ruleset reports, never worked out: ``result()``
(winner, reason in words, details) and ``casualties()``. Hostage and bomb counts come from
the result details under the keys in ``OUTCOME_KEYS``; a ruleset that does not report one
simply has no such line, so nothing is ever guessed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from killhouse.engine.game import Game
from killhouse.rulesets.base import Result
from killhouse.scenario.model import Scenario

#: result-detail counts a summary shows when the ruleset reports them
OUTCOME_KEYS = ("hostages", "rescued", "hostages_killed", "bombs_exploded", "bombs_defused")


@dataclass(frozen=True)
class GameSummary:
    """What one game contributes to a batch summary."""

    index: int
    seed: int
    winner: str | None
    reason: str
    turns: int
    casualties: dict[str, int]
    outcome: dict[str, int] = field(default_factory=dict)
    #: every winning side (several in games of three or more sides; none in a draw)
    winners: tuple[str, ...] = ()
    #: what a probe recorded of the game (the balance lab's positions and statuses)
    extra: Mapping[str, Any] = field(default_factory=dict)


def _outcome(result: Result, casualties: dict[str, int], sides: list[str]) -> dict[str, int]:
    details = result.details
    out = {
        key: int(details[key])
        for key in OUTCOME_KEYS
        if isinstance(details.get(key), int) and not isinstance(details.get(key), bool)
    }
    if "hostages_killed" not in out and "hostages" in casualties and "hostages" not in sides:
        out["hostages_killed"] = casualties["hostages"]
    return out


def summarize_game(
    game: Game, index: int = 0, extra: Mapping[str, Any] | None = None
) -> GameSummary:
    """The summary of a finished game (the one place it is built: batch, log and play)."""
    result = game.result
    if result is None:
        raise ValueError("the game has not ended")
    sides = game.scenario.side_ids()
    casualties = dict(game.ruleset.casualties(game.state))
    return GameSummary(
        index=index,
        seed=game.seed,
        winner=result.winner,
        reason=result.reason,
        turns=int(game.ruleset.snapshot(game.state).get("turn", 0)),
        casualties={s: casualties.get(s, 0) for s in sides},
        outcome=_outcome(result, casualties, sides),
        winners=result.winners,
        extra=dict(extra or {}),
    )


def _stat(values: list[int]) -> dict[str, Any]:
    return {"total": sum(values), "mean": round(fmean(values), 4) if values else 0.0}


def summarize(scenario: Scenario, seed: int, results: list[GameSummary]) -> dict[str, Any]:
    """The batch summary: wins per side, draws, end reasons, turns, casualties, outcomes."""
    sides = scenario.side_ids()
    # a shared win counts for each of its winners; a game with no winner is a draw
    wins = Counter(w for r in results for w in (r.winners or ((r.winner,) if r.winner else ())))
    turns = [r.turns for r in results]
    reported = [k for k in OUTCOME_KEYS if results and all(k in r.outcome for r in results)]
    summary: dict[str, Any] = {
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
        "casualties": {s: _stat([r.casualties.get(s, 0) for r in results]) for s in sides},
    }
    outcomes = {key: _stat([r.outcome[key] for r in results]) for key in reported}
    for key in reported:
        outcomes[key]["games"] = sum(1 for r in results if r.outcome[key] > 0)
    summary["outcomes"] = outcomes
    return summary


def _percent(n: int, games: int) -> str:
    return f"{100.0 * n / games:.1f}%" if games else "0.0%"


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """The batch summary as the text ``killhouse sim`` prints."""
    games = int(summary["games"])
    lines = [f"{summary['scenario']} ({summary['ruleset']}), {games} games, seed {summary['seed']}"]
    for side, n in summary["wins"].items():
        lines.append(f"  {side:<12} wins {n:>6}  ({_percent(n, games)})")
    draws = int(summary["draws"])
    lines.append(f"  {'draws':<12}      {draws:>6}  ({_percent(draws, games)})")
    turns = summary["turns"]
    lines.append(f"  turns: mean {round(turns['mean'], 2)}, min {turns['min']}, max {turns['max']}")
    lines.append(
        "  casualties per game: "
        + ", ".join(
            f"{side} {round(c['mean'], 2)} (total {c['total']})"
            for side, c in summary["casualties"].items()
        )
    )
    outcomes = summary.get("outcomes", {})
    hostages = [
        f"{word} {round(outcomes[key]['mean'], 2)} per game (total {outcomes[key]['total']})"
        for key, word in (("rescued", "rescued"), ("hostages_killed", "killed"))
        if key in outcomes
    ]
    if hostages and outcomes.get("hostages", {}).get("total", 1):
        lines.append("  hostages: " + ", ".join(hostages))
    for key, word in (("bombs_exploded", "went off"), ("bombs_defused", "were defused")):
        if key in outcomes and outcomes[key]["total"]:
            n = outcomes[key]["games"]
            lines.append(f"  bombs {word} in {n} of {games} games ({_percent(n, games)})")
    lines.append("  how the games ended:")
    for reason, n in summary["end_reasons"].items():
        lines.append(f"    {n:>6}  {reason}")
    return lines


def outcome_lines(game: Game) -> list[str]:
    """The end-of-game summary ``killhouse play`` prints: who won and why, then the counts."""
    result = game.result
    if result is None:
        return ["# the game has not ended"]
    one = summarize_game(game)
    names = {s.id: s.name for s in game.scenario.sides}
    winner = names.get(result.winner, result.winner) if result.winner else "nobody (a draw)"
    lines = [
        "# ---- end of the game ----",
        f"# winner: {winner}, after {one.turns} turns",
        f"# why: {result.reason}",
        "# out of the fight: "
        + ", ".join(f"{names.get(s, s)} {n}" for s, n in one.casualties.items()),
    ]
    facts = one.outcome
    if facts.get("hostages", 1) and ("rescued" in facts or "hostages_killed" in facts):
        parts = []
        if "rescued" in facts:
            of = f" of {facts['hostages']}" if "hostages" in facts else ""
            parts.append(f"{facts['rescued']}{of} rescued")
        if "hostages_killed" in facts:
            parts.append(f"{facts['hostages_killed']} killed")
        lines.append("# hostages: " + ", ".join(parts))
    bombs = []
    if facts.get("bombs_exploded"):
        n = facts["bombs_exploded"]
        bombs.append(f"{n} went off" if n > 1 else "the bomb went off")
    if facts.get("bombs_defused"):
        n = facts["bombs_defused"]
        bombs.append(f"{n} defused" if n > 1 else "the bomb was defused")
    if bombs:
        lines.append("# bombs: " + ", ".join(bombs))
    return lines
