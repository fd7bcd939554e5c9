"""The lab's results: the summary (JSON), the games (CSV), the printed table and report.html."""

from __future__ import annotations

import csv
import html
import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from statistics import fmean
from typing import Any

from killhouse.scenario.model import Scenario
from killhouse.sim.lab.records import GameRecord, csv_header, csv_row
from killhouse.sim.lab.stats import rate


def groups_of(records: Sequence[GameRecord], sides: Sequence[str]) -> list[str]:
    """Casualty groups: the sides, then any other key the ruleset counts (hostages)."""
    keys = dict.fromkeys(sides)
    for r in records:
        keys.update(dict.fromkeys(r.casualties))
    return list(keys)


def _cells(counter: Counter[tuple[int, int]]) -> list[list[int]]:
    return [[x, y, n] for (x, y), n in sorted(counter.items())]


def summarize(
    scenario: Scenario,
    seed: int,
    records: Sequence[GameRecord],
    until_ci: float | None = None,
    games_cap: int | None = None,
) -> dict[str, Any]:
    """Everything the lab reports of a batch, as JSON; the same records give the same JSON."""
    sides = scenario.side_ids()
    n = len(records)
    levels = [lv.name for lv in scenario.board.levels]
    turns = [r.turns for r in records]
    groups = groups_of(records, sides)
    by_turn: dict[int, list[GameRecord]] = defaultdict(list)
    for r in records:
        by_turn[r.turns].append(r)
    survived: dict[str, list[bool]] = defaultdict(list)
    group_of: dict[str, str] = {}
    fallen: dict[str, dict[int, Counter[tuple[int, int]]]] = defaultdict(
        lambda: defaultdict(Counter)
    )
    shots: dict[str, dict[int, Counter[tuple[int, int]]]] = defaultdict(
        lambda: defaultdict(Counter)
    )
    for r in records:
        for f in r.figures:
            survived[f.id].append(not f.fallen)
            group_of[f.id] = f.group
            if f.fallen and f.at is not None:
                fallen[f.group][f.at[0]][f.at[1], f.at[2]] += 1
        for group, level, x, y in r.shots:
            shots[group][level][x, y] += 1
    widths = {s: rate(sum(1 for r in records if r.winner == s), n).width for s in sides}
    summary: dict[str, Any] = {
        "scenario": scenario.name,
        "ruleset": scenario.ruleset,
        "file": scenario.file,
        "seed": seed,
        "games": n,
        "sides": sides,
        "wins": {s: rate(sum(1 for r in records if r.winner == s), n).to_json() for s in sides},
        "draws": rate(sum(1 for r in records if r.winner is None), n).to_json(),
        "end_reasons": dict(sorted(Counter(r.reason for r in records).items())),
        "turns": {
            "mean": round(fmean(turns), 4) if turns else 0.0,
            "min": min(turns, default=0),
            "max": max(turns, default=0),
            "histogram": {str(t): c for t, c in sorted(Counter(turns).items())},
        },
        "casualties": {
            g: {
                "total": sum(r.casualties.get(g, 0) for r in records),
                "mean": round(fmean(r.casualties.get(g, 0) for r in records), 4) if n else 0.0,
            }
            for g in groups
        },
        "survival": {
            fid: {"group": group_of[fid], **rate(sum(v), len(v)).to_json()}
            for fid, v in sorted(survived.items())
        },
        "win_rate_by_end_turn": {
            str(t): {s: rate(sum(1 for r in rs if r.winner == s), len(rs)).to_json() for s in sides}
            for t, rs in sorted(by_turn.items())
        },
        "heatmaps": {
            "fallen": {
                g: {levels[lv]: _cells(c) for lv, c in sorted(per.items())}
                for g, per in sorted(fallen.items())
            },
            "shots": {
                g: {levels[lv]: _cells(c) for lv, c in sorted(per.items())}
                for g, per in sorted(shots.items())
            },
            "shots_placed": sum(len(r.shots) for r in records),
            "shots_unplaced": sum(r.shots_unplaced for r in records),
        },
        "stop": {
            "until_ci": until_ci,
            "games_cap": games_cap,
            "widest": round(max(widths.values(), default=1.0), 4),
            "reason": (
                "every win-rate interval is narrow enough"
                if until_ci is not None and all(w <= until_ci for w in widths.values())
                else "the number of games was reached"
            ),
        },
    }
    return summary


def _pct(r: Mapping[str, Any]) -> str:
    return f"{100 * r['rate']:5.1f}%  [{100 * r['low']:5.1f}, {100 * r['high']:5.1f}]"


def table_lines(summary: Mapping[str, Any]) -> list[str]:
    """The summary as the table ``killhouse lab`` prints."""
    lines = [
        f"{summary['scenario']} ({summary['ruleset']}), {summary['games']} games, "
        f"seed {summary['seed']}; rates with 95% Wilson intervals",
    ]
    for side, r in summary["wins"].items():
        lines.append(f"  {side + ' wins':<20} {r['count']:>6}  {_pct(r)}")
    lines.append(f"  {'draws':<20} {summary['draws']['count']:>6}  {_pct(summary['draws'])}")
    t = summary["turns"]
    lines.append(f"  turns: mean {t['mean']}, min {t['min']}, max {t['max']}")
    for group, c in summary["casualties"].items():
        lines.append(f"  casualties {group}: {c['total']} (mean {c['mean']} a game)")
    for reason, count in summary["end_reasons"].items():
        lines.append(f"  end: {reason}: {count}")
    survival = ", ".join(f"{fid} {100 * r['rate']:.0f}%" for fid, r in summary["survival"].items())
    if survival:
        lines.append(f"  survival: {survival}")
    stop = summary["stop"]
    if stop["until_ci"] is not None:
        lines.append(
            f"  stopped: {stop['reason']} (widest interval {stop['widest']}, "
            f"asked {stop['until_ci']}, at most {stop['games_cap']} games)"
        )
    return lines


def sweep_lines(sweep: Mapping[str, Any]) -> list[str]:
    """The sweep as a table: win rates and draws against the value."""
    lines = [
        f"{sweep['scenario']}: {sweep['path']} swept, seed {sweep['seed']}; "
        "rates with 95% Wilson intervals"
    ]
    for row in sweep["variants"]:
        cells = [f"{s} {_pct(row['wins'][s])}" for s in sweep["sides"]]
        cells.append(f"draws {_pct(row['draws'])}")
        lines.append(f"  {row['value']!s:<12} {row['games']:>6} games  " + "   ".join(cells))
    lines.append(f"  closest to an even game: {sweep['path']}={sweep['closest_to_even']}")
    return lines


def write_json(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def write_csv(path: Path, records: Sequence[GameRecord], sides: Sequence[str]) -> Path:
    """games.csv: one row per game."""
    groups = groups_of(records, sides)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(csv_header(sides, groups))
        for record in records:
            writer.writerow(csv_row(record, sides, groups))
    return path


_STYLE = """
body { font-family: sans-serif; max-width: 1100px; margin: 1.5em auto; color: #222; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; }
td, th { border: 1px solid #ccc; padding: 3px 8px; text-align: left; font-size: 0.9em; }
th { background: #f0f0f0; } img { max-width: 100%; border: 1px solid #ddd; margin: 0.4em 0; }
"""


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    h = "".join(f"<th>{html.escape(str(c))}</th>" for c in head)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{h}</tr>{body}</table>"


def _interval(r: Mapping[str, Any]) -> str:
    return f"{100 * r['rate']:.1f}% ({100 * r['low']:.1f}–{100 * r['high']:.1f})"


def report_html(
    summary: Mapping[str, Any],
    pictures: Sequence[Path],
    title: str | None = None,
    sweep: Mapping[str, Any] | None = None,
    links: Sequence[tuple[str, str]] = (),
) -> str:
    """One page: the numbers as tables and every picture, by file name beside the page."""
    name = title or f"{summary['scenario']}: balance lab"
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{html.escape(name)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{html.escape(name)}</h1>",
        f"<p>{html.escape(str(summary['file']))} ({html.escape(summary['ruleset'])}), "
        f"{summary['games']} games, seed {summary['seed']}. Rates are given with their 95% "
        "Wilson score intervals.</p>",
    ]
    if sweep is not None:
        parts.append(f"<h2>Sweep of {html.escape(sweep['path'])}</h2>")
        parts.append(
            _table(
                ["value", "games", *(f"{s} wins" for s in sweep["sides"]), "draws"],
                [
                    [
                        row["value"],
                        row["games"],
                        *(_interval(row["wins"][s]) for s in sweep["sides"]),
                        _interval(row["draws"]),
                    ]
                    for row in sweep["variants"]
                ],
            )
        )
        parts.append(
            f"<p>Closest to an even game: <b>{html.escape(sweep['path'])} = "
            f"{html.escape(str(sweep['closest_to_even']))}</b>.</p>"
        )
    if links:
        parts.append(
            "<p>"
            + " · ".join(
                f"<a href='{html.escape(href)}'>{html.escape(text)}</a>" for text, href in links
            )
            + "</p>"
        )
    if sweep is None:
        parts.append("<h2>Result</h2>")
        rows = [[f"{s} wins", r["count"], _interval(r)] for s, r in summary["wins"].items()]
        rows.append(["draws", summary["draws"]["count"], _interval(summary["draws"])])
        parts.append(_table(["outcome", "games", "rate (95% interval)"], rows))
        t = summary["turns"]
        parts.append(f"<p>Turns: mean {t['mean']}, shortest {t['min']}, longest {t['max']}.</p>")
        parts.append("<h2>End reasons</h2>")
        parts.append(_table(["reason", "games"], list(summary["end_reasons"].items())))
        parts.append("<h2>Casualties</h2>")
        parts.append(
            _table(
                ["group", "total", "mean a game"],
                [[g, c["total"], c["mean"]] for g, c in summary["casualties"].items()],
            )
        )
        parts.append("<h2>Survival of each figure</h2>")
        parts.append(
            _table(
                ["figure", "group", "survived (95% interval)"],
                [[fid, r["group"], _interval(r)] for fid, r in summary["survival"].items()],
            )
        )
        maps = summary["heatmaps"]
        parts.append(
            f"<p>Shots placed on the heatmaps: {maps['shots_placed']}; shots whose firer's "
            f"cell was unknown: {maps['shots_unplaced']}.</p>"
        )
    parts.append("<h2>Pictures</h2>")
    for picture in pictures:
        parts.append(
            f"<p><img src='{html.escape(picture.name)}' alt='{html.escape(picture.stem)}'></p>"
        )
    parts.append("</body></html>\n")
    return "\n".join(parts)


def write_lab(
    out: Path, scenario: Scenario, summary: Mapping[str, Any], records: Sequence[GameRecord]
) -> list[Path]:
    """summary.json, games.csv, the PNGs and report.html in ``out``; the files written."""
    from killhouse.sim.lab import plots

    out.mkdir(parents=True, exist_ok=True)
    pictures = [
        plots.win_by_turn(summary, out),
        plots.turns_histogram(summary, out),
        *plots.heatmaps(summary, scenario.board, out),
    ]
    written = [
        write_json(out / "summary.json", summary),
        write_csv(out / "games.csv", records, summary["sides"]),
        *pictures,
    ]
    page = out / "report.html"
    page.write_text(report_html(summary, pictures), encoding="utf-8")
    return [*written, page]
