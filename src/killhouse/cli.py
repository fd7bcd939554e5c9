"""The killhouse command: validate scenarios, list rulesets, play, simulate, the lab, replay, odds.

The CLI only translates: it parses words, calls the library, and prints.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from killhouse.errors import KillhouseError, ReplayError, ScenarioError
from killhouse.roster_cli import roster_app

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="killhouse: an umpire for hostage-rescue and close-quarters-battle skirmish wargames.",
)

DEFAULT_DEMO = Path("scenarios/execute/embassy.yaml")
app.add_typer(roster_app, name="roster")


def _print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, sort_keys=False))


@app.command()
def validate(
    files: Annotated[list[Path], typer.Argument(help="scenario YAML files")],
) -> None:
    """Check scenario files: print ok or one line per problem (file:line: field: ...).

    Warnings (a side sealed off from every objective and enemy) are printed too, but
    leave the exit code 0.
    """
    from killhouse.scenario.loader import check_file_with_warnings

    bad = False
    for path in files:
        problems, warnings = check_file_with_warnings(path)
        if problems:
            bad = True
            for problem in problems:
                typer.echo(str(problem), err=False)
            continue
        for warning in warnings:
            typer.echo(str(warning))
        typer.echo(f"{path}: ok" if len(files) > 1 else "ok")
    if bad:
        raise typer.Exit(2)


@app.command()
def rulesets(
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """List the registered rulesets with their sources, metadata and action schemas."""
    from killhouse.rulesets import get_ruleset, ruleset_ids

    rows = [
        {**get_ruleset(r).describe(), "actions": get_ruleset(r).schemas()} for r in ruleset_ids()
    ]
    if as_json:
        _print_json(rows)
        return
    for row in rows:
        typer.echo(f"{row['id']:<10} {row['title']}  [{row['source']}]")


@app.command()
def actions(
    ruleset: Annotated[str, typer.Argument(help="ruleset id")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON Schemas")] = False,
) -> None:
    """The action kinds of a ruleset with their arguments (JSON Schema with --json)."""
    from killhouse.rulesets import get_ruleset

    schemas = get_ruleset(ruleset).schemas()
    if as_json:
        _print_json(schemas)
        return
    for kind, schema in schemas.items():
        props = schema["properties"]
        args = [
            f"{name}{'' if name in schema['required'] else '?'}:{_arg_type(props[name])}"
            for name in props
            if name not in ("kind", "side")
        ]
        text = f"{kind:<16} {' '.join(args)}".rstrip()
        typer.echo(f"{text}  {schema.get('description', '')}".rstrip())


def _arg_type(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        return "|".join(schema["enum"])
    if schema.get("description") == "[level, x, y]":
        return "cell"
    return str(schema.get("type", "?"))


@app.command()
def sim(
    scenario: Annotated[Path, typer.Argument(help="scenario YAML file")],
    games: Annotated[int, typer.Option(min=1, help="number of games")] = 100,
    seed: Annotated[
        int, typer.Option(help="base seed; game i uses a seed derived from (seed, i)")
    ] = 1,
    workers: Annotated[int, typer.Option(min=1, help="worker processes")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
    log: Annotated[Path | None, typer.Option(help="write the game's log (needs --games 1)")] = None,
) -> None:
    """Play games between bots and print a summary (wins, draws, end reasons, turns, casualties)."""
    from killhouse.sim.batch import run_batch

    if log is not None:
        if games != 1:
            raise KillhouseError("--log writes one game's log: use it with --games 1")
        _sim_logged(scenario, seed, log, as_json)
        return
    show = sys.stderr.isatty() and not os.environ.get("CI")
    if show:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task(f"{scenario.name}", total=games)
            summary = run_batch(
                scenario, games, seed, workers, progress=lambda n: bar.update(task, completed=n)
            )
    else:
        summary = run_batch(scenario, games, seed, workers)
    if as_json:
        _print_json(summary)
    else:
        _print_summary(summary)


def _sim_logged(path: Path, seed: int, log: Path, as_json: bool) -> None:
    from killhouse.core.rng import derive_seed
    from killhouse.engine.record import write_log
    from killhouse.scenario.loader import load_scenario
    from killhouse.sim.play import play
    from killhouse.sim.summary import summarize, summarize_game

    scenario = load_scenario(path)
    game = play(scenario, derive_seed(seed, 0))
    write_log(game, log)
    summary = summarize(scenario, seed, [summarize_game(game)])
    summary["log"] = str(log)
    if as_json:
        _print_json(summary)
    else:
        _print_summary(summary)


def _print_summary(summary: dict[str, Any]) -> None:
    from killhouse.sim.summary import summary_lines

    for line in summary_lines(summary):
        typer.echo(line)


#: seconds between two progress lines of a lab run whose output is not a terminal
PROGRESS_EVERY = 30.0


def _progress_lines(start: float) -> Callable[[str, int, int], None]:
    """A lab's progress as a plain line on stderr at most every ``PROGRESS_EVERY`` seconds
    (output to a file or a pipe, where a bar cannot show): games played of the games the
    results so far call for, and the time left at the rate since the first game came in
    (so the workers' start-up does not count as playing)."""
    import time

    last = [start]
    first: dict[str, tuple[float, int]] = {}  # each variant's first game: when, how many

    def note(label: str, played: int, target: int) -> None:
        if played == 0:
            return
        now = time.perf_counter()
        since, base = first.setdefault(label, (now, played))
        if now - last[0] < PROGRESS_EVERY:
            return
        last[0] = now
        rate = (played - base) / (now - since) if played > base and now > since else 0.0
        left = f"about {max(0, target - played) / rate / 60:.1f} min left" if rate else "…"
        typer.echo(
            f"{label}: {played}/{target} games, {(now - start) / 60:.1f} min, {left}", err=True
        )

    return note


@app.command()
def lab(
    scenario: Annotated[Path, typer.Argument(help="scenario YAML file")],
    games: Annotated[
        int | None,
        typer.Option(
            min=1, help="games to play (at most, with --until-ci) [100; 10000 with --until-ci]"
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option(help="base seed; game i uses a seed derived from (seed, i)")
    ] = 1,
    workers: Annotated[
        int | None,
        typer.Option(min=1, help="worker processes (CPUs for a local Ray) [this machine's CPUs]"),
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="folder for summary.json, games.csv, PNGs, report.html")
    ] = None,
    until_ci: Annotated[
        float | None,
        typer.Option(
            "--until-ci",
            min=0.001,
            max=1.0,
            help="play batches until every side's 95% win-rate interval is at most this wide",
        ),
    ] = None,
    vary: Annotated[
        str | None,
        typer.Option(help="sweep one scenario value: PATH=v1,v2,… (e.g. turn_limit=15,20,25)"),
    ] = None,
    backend: Annotated[str, typer.Option(help="local (processes) or ray")] = "local",
    address: Annotated[
        str | None, typer.Option(help="HOST:PORT of a Ray cluster (--backend ray)")
    ] = None,
) -> None:
    """The balance lab: win rates with 95% intervals, end reasons, survival, heatmaps, sweeps."""
    import time

    from killhouse.sim.lab.run import Plan, make_backend
    from killhouse.sim.lab.session import run_lab, run_sweep

    cap = games if games is not None else (10_000 if until_ci is not None else 100)
    plan = Plan(cap, until_ci)
    start = time.perf_counter()
    # the same seed gives the same results with any number of workers (L-4), so a lab run
    # uses every CPU unless told otherwise
    engine = make_backend(backend, workers or os.cpu_count() or 1, address)
    try:
        show = sys.stderr.isatty() and not os.environ.get("CI")
        if show:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            columns = (
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
            )
            with Progress(*columns, transient=True) as bar:
                tasks: dict[str, Any] = {}

                def tick(label: str, played: int, target: int) -> None:
                    if label not in tasks:
                        tasks[label] = bar.add_task(label, total=target)
                    bar.update(tasks[label], completed=played, total=target)

                outcome = (
                    run_sweep(scenario, vary, seed, plan, engine, out, tick)
                    if vary
                    else run_lab(scenario, seed, plan, engine, out, tick)
                )
        else:
            note = None if os.environ.get("CI") else _progress_lines(start)
            outcome = (
                run_sweep(scenario, vary, seed, plan, engine, out, note)
                if vary
                else run_lab(scenario, seed, plan, engine, out, note)
            )
    finally:
        engine.close()
    for line in outcome.lines:
        typer.echo(line)
    typer.echo(f"  wall time {time.perf_counter() - start:.1f} s ({engine.name} backend)")
    if out is not None:
        typer.echo(f"  wrote {len(outcome.files)} files to {out} (open {out / 'report.html'})")


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(help="a game log written by sim --log")],
    scenario: Annotated[
        Path | None, typer.Option(help="the scenario file, for an old log that holds only its path")
    ] = None,
) -> None:
    """Re-run a logged game: print identical and the state hash, or where it diverged (exit 1).

    A log carries its scenario's text, so it replays from any folder. Anything wrong with
    the log is one line and exit 1.
    """
    from killhouse.engine.record import logged_scenario, read_log
    from killhouse.engine.record import replay as run_replay
    from killhouse.scenario.loader import load_scenario, loads_scenario

    try:
        records = read_log(log)
        scn = None if scenario is not None else logged_scenario(records, loads_scenario)
        if scn is None:
            named = records[0].get("scenario")
            if scenario is None and not isinstance(named, str):
                raise ReplayError(f"{log}: the log names no scenario: give it with --scenario")
            scn = load_scenario(scenario or Path(str(named)))
        report = run_replay(records, scn)
    except ScenarioError as exc:
        typer.echo(f"error: {log}: the logged scenario does not load: {exc.problems[0]}")
        raise typer.Exit(1) from None
    except KillhouseError as exc:
        where = "" if str(exc).startswith(str(log)) else f"{log}: "
        typer.echo(f"error: {where}{exc}")
        raise typer.Exit(1) from None
    if report.identical:
        typer.echo(f"identical {report.state_hash}")
        return
    typer.echo(f"diverged: {report.message}")
    raise typer.Exit(1)


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def odds(
    ctx: typer.Context,
    ruleset: Annotated[str, typer.Argument(help="ruleset id")],
    roll: Annotated[str | None, typer.Argument(help="the roll's name (see --list)")] = None,
    list_rolls: Annotated[bool, typer.Option("--list", help="list the ruleset's rolls")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
    empirical: Annotated[
        int, typer.Option(min=0, max=1_000_000, help="also run the roll N times with --seed")
    ] = 0,
    seed: Annotated[int, typer.Option(help="seed for --empirical")] = 1,
) -> None:
    """Exact odds of one named roll (--name value parameters), by enumerating the real code."""
    from killhouse.sim import odds as odds_mod

    if list_rolls or roll is None:
        rows = odds_mod.list_rolls(ruleset)
        if as_json:
            _print_json(rows)
            return
        for row in rows:
            params = " ".join(
                f"--{p['name']}" + ("" if p["type"] == "bool" else f" <{_bounds(p)}>")
                for p in row["params"]
            )
            typer.echo(f"{row['roll']:<14} {params}")
            typer.echo(f"{'':<14} {row['help']}")
        return
    report = odds_mod.odds_report(ruleset, roll, list(ctx.args), empirical, seed)
    if as_json:
        _print_json(report)
        return
    typer.echo(f"{ruleset} {roll} {report['params']}")
    for name, p in report["exact"].items():
        line = f"  {name:<16} {report['exact_fractions'][name]:>8}  {p:.4f}"
        if "empirical" in report:
            line += f"   empirical {report['empirical'].get(name, 0.0):.4f}"
        typer.echo(line)


def _bounds(param: dict[str, Any]) -> str:
    """``int 1-10`` for a bounded number in ``odds --list``; the type name otherwise."""
    low, high = param.get("min"), param.get("max")
    if low is None and high is None:
        return str(param["type"])
    return f"{param['type']} {'' if low is None else low}-{'' if high is None else high}"


@app.command()
def play(
    scenario: Annotated[Path, typer.Argument(help="scenario YAML file")] = DEFAULT_DEMO,
    seed: Annotated[
        int | None, typer.Option(help="the game's seed (default: the scenario's seed, else 1)")
    ] = None,
    human: Annotated[
        list[str] | None,
        typer.Option(
            "--as",
            help="play this side yourself (repeat for several sides at one terminal)",
        ),
    ] = None,
    board: Annotated[
        bool, typer.Option("--board", help="draw the map as text at the start of each turn")
    ] = False,
    view: Annotated[
        str | None,
        typer.Option("--view", help="with --board: draw only what this side knows"),
    ] = None,
    log: Annotated[
        Path | None,
        typer.Option(help="write the game's log (JSONL, as sim --log), to replay or review"),
    ] = None,
) -> None:
    """Play a scenario and print it turn by turn (umpire's view), then a summary of the end;
    --as SIDE lets you decide for that side while the AI plays the others. --log FILE keeps
    the game (also one left unfinished when the input ends) for `killhouse replay` and the
    web's replay page."""
    from killhouse.scenario.loader import load_scenario
    from killhouse.sim.boardtext import side_board, umpire_board
    from killhouse.sim.play import play as play_game
    from killhouse.sim.summary import outcome_lines
    from killhouse.sim.transcript import footer, header, narrate_new

    scn = load_scenario(scenario)
    for option, side in [("--view", view), *(("--as", h) for h in human or [])]:
        if side is not None and side not in scn.side_ids():
            from killhouse.scenario.fields import suggest

            raise KillhouseError(
                f"{option}: no side {side!r} in this scenario ({suggest(side, scn.side_ids())})"
            )
    game_seed = seed if seed is not None else (scn.seed if scn.seed is not None else 1)
    for line in header(scn, game_seed):
        typer.echo(line)
    if human:
        _play_human(scn, game_seed, human, log)
        return
    cursor = 0
    drawn_turn: object = None

    def draw(game: Any) -> None:
        nonlocal drawn_turn
        snapshot = game.ruleset.snapshot(game.state)
        turn = snapshot.get("turn")
        if turn == drawn_turn and not game.over:
            return
        drawn_turn = turn
        if view is None:
            lines = umpire_board(scn, snapshot, game.ruleset.umpire_extras(game.state))
        else:
            lines = side_board(scn, game.view(view, events_since=None))
        for line in lines:
            typer.echo(line)

    def show(game: Any) -> None:
        nonlocal cursor
        cursor = narrate_new(game, cursor, typer.echo)
        if board:
            draw(game)

    finished = play_game(scn, game_seed, on_step=show)
    if log is not None:
        from killhouse.engine.record import write_log

        write_log(finished, log)
    typer.echo(footer(finished))
    for line in outcome_lines(finished):
        typer.echo(line)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[
        str,
        typer.Option(help="database: a SQLite file path, sqlite:///path or postgresql://…"),
    ] = "data/killhouse.sqlite3",
    scenarios: Annotated[
        Path | None, typer.Option(help="folder of shipped scenarios (default: ./scenarios)")
    ] = None,
) -> None:
    """Run the game server: play in the browser against the AI or each other."""
    try:
        from killhouse.server.app import serve as run_server
    except ImportError as exc:
        raise KillhouseError(
            f"the server needs the server extra: pip install -e '.[server]' ({exc.name} missing)"
        ) from exc
    run_server(host, port, db, scenarios)


def _read_line(prompt: str) -> str | None:
    """One line typed by the human (the prompt goes to the terminal), ``None`` at end of input."""
    typer.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        typer.echo("")
        return None
    return line.rstrip("\n")


def _play_human(scn: Any, seed: int, sides: list[str], log: Path | None = None) -> None:
    from killhouse.engine.record import write_log
    from killhouse.sim.terminal import TerminalGame
    from killhouse.sim.transcript import footer

    table = TerminalGame(scn, seed, sides, _read_line, typer.echo)
    try:
        game = table.run()
    finally:
        # the log holds what was played, also when the input ended first
        if log is not None:
            write_log(table.game, log)
            typer.echo(f"log: {log}")
    typer.echo(footer(game))


def main() -> None:
    """Entry point: every user error becomes one clear message and exit code 2."""
    try:
        app()
    except ScenarioError as exc:
        for problem in exc.problems:
            typer.echo(str(problem), err=True)
        sys.exit(2)
    except KillhouseError as exc:
        typer.echo(f"error: {exc}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
