"""One lab run or sweep, as the ``killhouse lab`` command asks for it: play, sum up, write."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from killhouse.scenario.loader import load_scenario
from killhouse.sim.lab import report
from killhouse.sim.lab.records import GameRecord
from killhouse.sim.lab.run import Backend, Plan, Source, play_lab
from killhouse.sim.lab.sweep import parse_vary, sweep_summary, variant

#: ``progress(label, played, target)`` after every game
LabProgress = Callable[[str, int, int], None]


@dataclass
class LabOutcome:
    """What a run produced: the summary (or sweep) JSON, the printed table, files written."""

    data: dict[str, Any]
    lines: list[str]
    files: list[Path] = field(default_factory=list)
    records: list[GameRecord] = field(default_factory=list)


def _labelled(progress: LabProgress | None, label: str) -> Callable[[int, int], None] | None:
    if progress is None:
        return None
    report_to = progress
    return lambda played, target: report_to(label, played, target)


def run_lab(
    path: Path,
    seed: int,
    plan: Plan,
    backend: Backend,
    out: Path | None = None,
    progress: LabProgress | None = None,
) -> LabOutcome:
    """Play the scenario at ``path`` as ``plan`` says and sum it up; write files to ``out``."""
    scenario = load_scenario(path)
    records = play_lab(
        Source(path),
        scenario.side_ids(),
        seed,
        plan,
        backend,
        _labelled(progress, scenario.name),
    )
    summary = report.summarize(scenario, seed, records, plan.until_ci, plan.games)
    files = report.write_lab(out, scenario, summary, records) if out is not None else []
    return LabOutcome(summary, report.table_lines(summary), files, records)


def run_sweep(
    path: Path,
    spec: str,
    seed: int,
    plan: Plan,
    backend: Backend,
    out: Path | None = None,
    progress: LabProgress | None = None,
) -> LabOutcome:
    """Play every variant of ``--vary spec`` with the same seeds and compare them.

    Every variant is built and checked before the first game, so a bad value is reported
    at once. With ``out``: a folder per variant with its own lab files, and at the top
    sweep.json, sweep.csv, sweep.png and report.html.
    """
    vary = parse_vary(spec)
    base = load_scenario(path)
    variants = [variant(path, vary, i) for i in range(len(vary.values))]
    rows: list[dict[str, Any]] = []
    files: list[Path] = []
    every: list[tuple[str, GameRecord]] = []
    folders: list[tuple[str, str]] = []
    for i, var in enumerate(variants):
        records = play_lab(
            Source(path, var.text),
            var.scenario.side_ids(),
            seed,
            plan,
            backend,
            _labelled(progress, var.label),
        )
        summary = report.summarize(var.scenario, seed, records, plan.until_ci, plan.games)
        rows.append(summary)
        every.extend((vary.texts[i], r) for r in records)
        if out is not None:
            folder = f"{i + 1:02d}-" + "".join(
                c if c.isalnum() or c in "-_" else "-" for c in vary.texts[i]
            )
            files.extend(report.write_lab(out / folder, var.scenario, summary, records))
            folders.append((var.label, f"{folder}/report.html"))
    sweep = sweep_summary(base, vary, seed, rows)
    if out is not None:
        from killhouse.sim.lab import plots

        out.mkdir(parents=True, exist_ok=True)
        files.append(report.write_json(out / "sweep.json", sweep))
        files.append(_sweep_csv(out / "sweep.csv", every, base.side_ids()))
        picture = plots.sweep_plot(sweep, out)
        page = out / "report.html"
        page.write_text(
            report.report_html(
                rows[0] | {"games": sum(r["games"] for r in rows)},
                [picture],
                title=f"{base.name}: sweep of {vary.path}",
                sweep=sweep,
                links=folders,
            ),
            encoding="utf-8",
        )
        files.extend([picture, page])
    return LabOutcome(sweep, report.sweep_lines(sweep), files)


def _sweep_csv(path: Path, every: list[tuple[str, GameRecord]], sides: list[str]) -> Path:
    """All variants' games in one CSV, each row led by its value."""
    import csv

    from killhouse.sim.lab.records import csv_header, csv_row

    groups = report.groups_of([r for _, r in every], sides)
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["value", *csv_header(sides, groups)])
        for value, record in every:
            writer.writerow([value, *csv_row(record, sides, groups)])
    return path
