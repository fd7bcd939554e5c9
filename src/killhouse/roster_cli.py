"""``killhouse roster``: campaign rosters from the command line (new, show, choose, after).

Only translation: words become the library's calls (``sim.campaign``), results become text.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from killhouse.errors import KillhouseError

roster_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Campaign rosters: roll men up, show them, carry them from game to game.",
)


def _names(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def _choices(
    skills: str | None, wps: str | None, abilities: str | None,
    grunt_skills: str | None = None, grunt_wps: str | None = None,
) -> dict[str, list[str]]:
    out = {"skills": _names(skills), "wps": _names(wps), "abilities": _names(abilities),
           "grunt_skills": _names(grunt_skills), "grunt_wps": _names(grunt_wps)}
    return {k: v for k, v in out.items() if v}


SKILLS_HELP = "skills to take, in order of preference (comma-separated)"
WPS_HELP = "weapon proficiencies to take besides pistol and knife, in order of preference"
ABILITIES_HELP = "Hero abilities to take, in order of preference"


@roster_app.command("new")
def new(
    file: Annotated[Path, typer.Argument(help="the roster file to write (YAML)")],
    ruleset: Annotated[str, typer.Option(help="the ruleset the men are rolled for")] = "commando",
    commandos: Annotated[int, typer.Option(min=0, max=100, help="Commandos to roll")] = 1,
    grunts: Annotated[int, typer.Option(min=0, max=100, help="Grunts to roll")] = 0,
    seed: Annotated[int, typer.Option(min=0, help="the seed: the same seed, the same men")] = 1,
    names: Annotated[
        str | None, typer.Option(help="names, comma-separated (the rest drawn)")
    ] = None,
    name: Annotated[
        str | None, typer.Option(help="the roster's name (default: the file's)")
    ] = None,
    reroll: Annotated[bool, typer.Option(
        "--reroll", help="scrap and roll again every man whose characteristics total 84 or less "
        "(56 for a Grunt): the player's option (13.1 step 7)")] = False,
    joke_abilities: Annotated[bool, typer.Option(
        "--joke-abilities", help="each Commando also rolls a joke auxiliary ability "
        "(1d5, 12.3; ruling C-47)")] = False,
    skills: Annotated[str | None, typer.Option(help=SKILLS_HELP)] = None,
    wps: Annotated[str | None, typer.Option(help=WPS_HELP)] = None,
    abilities: Annotated[str | None, typer.Option(help=ABILITIES_HELP)] = None,
    grunt_skills: Annotated[str | None, typer.Option(
        help="a Grunt's skill, in order of preference (default: --skills)")] = None,
    grunt_wps: Annotated[str | None, typer.Option(
        help="a Grunt's WP, in order of preference (default: --wps)")] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite an existing file")] = False,
    add: Annotated[bool, typer.Option(
        "--add", help="roll recruits into the existing roster FILE (replacements)")] = False,
) -> None:
    """Roll a new roster (every roll kept in FILE's side log, *.rolls.jsonl)."""
    from killhouse.roster.rules import NewMen
    from killhouse.sim.campaign import new_roster, rolls_path

    if commandos + grunts == 0:
        raise KillhouseError("--commandos and --grunts: roll at least one man")
    request = NewMen({"commando": commandos, "grunt": grunts}, _names(names),
                     _choices(skills, wps, abilities, grunt_skills, grunt_wps), reroll,
                     joke_abilities)
    roster = new_roster(file, ruleset, request, seed, name, force, add)
    typer.echo(f"wrote {file}: {len(roster.men)} men (seed {seed}); rolls in {rolls_path(file)}")
    _show(roster, False)


@roster_app.command("show")
def show(
    file: Annotated[Path, typer.Argument(help="a roster file")],
    as_json: Annotated[bool, typer.Option("--json", help="print JSON")] = False,
) -> None:
    """Print the men of a roster as a table (or JSON)."""
    from killhouse.roster.files import load_roster

    _show(load_roster(file), as_json)


def _show(roster: Any, as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(roster.to_json(), indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    from killhouse.roster.files import campaign_rules

    rules = campaign_rules(roster.ruleset) if roster.ruleset else None
    if rules is not None:
        columns, rows = rules.table(roster)
    else:
        columns = ["name", "status", "games", "characteristics", "skills", "wounds"]
        rows = [[m.name, m.status, str(m.games),
                 ", ".join(f"{k} {v}" for k, v in m.characteristics.items()),
                 ", ".join(f"{k} {v}" for k, v in m.skills.items()),
                 ", ".join(f"{k} {v}" for k, v in m.wounds.items())] for m in roster.men]
    table = Table(title=f"{roster.name} ({roster.ruleset or 'no ruleset'})")
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*row)
    Console(width=200).print(table)


@roster_app.command("choose")
def choose(
    file: Annotated[Path, typer.Argument(help="a roster file")],
    man: Annotated[str, typer.Argument(help="the man's name")],
    skills: Annotated[str | None, typer.Option(help=SKILLS_HELP)] = None,
    wps: Annotated[str | None, typer.Option(help=WPS_HELP)] = None,
    abilities: Annotated[str | None, typer.Option(help=ABILITIES_HELP)] = None,
) -> None:
    """Make a man's open choices (skills, WPs, Hero abilities); new skills roll 2d10."""
    from killhouse.sim.campaign import choose as run_choose

    chosen = run_choose(file, man, _choices(skills, wps, abilities))
    left = chosen.record.get("to_choose")
    typer.echo(f"{chosen.name}: skills {dict(chosen.skills)}, wps {chosen.figure.get('wps')}, "
               f"abilities {chosen.figure.get('abilities', [])}"
               + (f"; still to choose {left}" if left else ""))


def _plans(practice: list[str] | None, lose: list[str] | None,
           weeks: int | None) -> dict[str, Any]:
    """``NAME=mk:2,dex:2`` and ``NAME=st`` into the plans the ruleset reads."""
    plans: dict[str, Any] = {"practice": {}, "lose": {}}
    for text in practice or []:
        who, _, spec = text.partition("=")
        months: dict[str, int] = {}
        for part in _names(spec):
            key, _, count = part.partition(":")
            if not who.strip() or not count.strip().isdigit():
                raise KillhouseError(f"--practice {text!r}: expected NAME=mk:2,dex:3")
            months[key.strip()] = int(count)
        plans["practice"][who.strip()] = months
    for text in lose or []:
        who, _, key = text.partition("=")
        if not who.strip() or not key.strip():
            raise KillhouseError(f"--lose {text!r}: expected NAME=st (st, mk, dex or end)")
        plans["lose"][who.strip()] = key.strip()
    if weeks is not None:
        plans["weeks"] = weeks
    return plans


@roster_app.command("after")
def after(
    file: Annotated[Path, typer.Argument(help="the roster the game drew its men from")],
    log: Annotated[Path, typer.Argument(help="the game's log (killhouse sim --log / play --log)")],
    practice: Annotated[list[str] | None, typer.Option(
        help="NAME=mk:2,dex:2: a man's practice months (repeat per man)")] = None,
    lose: Annotated[list[str] | None, typer.Option(
        help="NAME=st: the characteristic a man loses if he must lose one (else 1d4)")] = None,
    weeks: Annotated[int | None, typer.Option(
        min=0, help="weeks until the next mission (default 4 x (1d6+1), ruling C-54)")] = None,
) -> None:
    """Apply the after-mission sequence to the roster from a logged game (once per game)."""
    from killhouse.sim.campaign import apply_game

    outcome = apply_game(file, log, _plans(practice, lose, weeks))
    for line in outcome.lines:
        typer.echo(line)
    typer.echo(f"wrote {file}")
