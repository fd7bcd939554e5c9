"""``killhouse play --as SIDE``: the human decides for its side, the AI for the others."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from killhouse.cli import app
from killhouse.scenario.loader import load_scenario
from killhouse.sim.terminal import TerminalGame
from tests.conformance import ROOT

runner = CliRunner()
EMBASSY = ROOT / "scenarios" / "execute" / "embassy.yaml"
HOSTAGE = ROOT / "scenarios" / "gogogo" / "hostage.yaml"
MENU = re.compile(r"^\s+(\d+)\. (\S+)")
PASSES = ("end_negotiation", "commit", "done", "continue", "ready", "hold", "end")


def test_piped_input_plays_numbered_choices_and_stops_cleanly_at_end_of_input() -> None:
    result = runner.invoke(
        app, ["play", str(EMBASSY), "--as", "fbi", "--seed", "3"], input="x\n99\n3\n"
    )
    assert result.exit_code == 2 or result.exception is not None
    out = result.output
    assert "== fbi: turn 0" in out and "-- fbi decides" in out
    assert "type the number of an action, 1 to 3" in out
    assert "no action 99: choose 1 to 3" in out
    # the third line chose end_negotiation: the game went on to the FBI's planning
    assert "fbi decides (plan)" in out


def test_end_of_input_is_one_clear_message() -> None:
    from killhouse.cli import main  # noqa: F401  (main maps the error to exit code 2)
    from killhouse.errors import KillhouseError

    result = runner.invoke(app, ["play", str(EMBASSY), "--as", "fbi"], input="")
    assert isinstance(result.exception, KillhouseError)
    assert "input ended before the game did" in str(result.exception)


def test_unknown_side_is_a_clear_error() -> None:
    result = runner.invoke(app, ["play", str(EMBASSY), "--as", "swat"], input="")
    assert "no side 'swat'" in str(result.exception)


def _scripted(scenario_path: object, side: str) -> tuple[TerminalGame, list[str]]:
    """A player that always takes the first 'pass'-like action of the printed menu."""
    out: list[str] = []
    menu: list[tuple[int, str]] = []

    def write(line: str) -> None:
        out.append(line)
        m = MENU.match(line)
        if m:
            menu.append((int(m.group(1)), m.group(2)))
        elif line.startswith("-- "):
            menu.clear()

    def read(prompt: str) -> str | None:
        pick = next((n for n, kind in menu if kind in PASSES), menu[-1][0])
        return str(pick)

    game = TerminalGame(load_scenario(scenario_path), 2, [side], read, write)  # type: ignore[arg-type]
    return game, out


def test_a_scripted_human_plays_a_gogogo_game_to_the_end() -> None:
    game, out = _scripted(HOSTAGE, "ct")
    finished = game.run()
    assert finished.over
    assert any(line.startswith("-- ct decides (orders)") for line in out)
    # the human's decisions are exactly the actions of side ct: the AI never chose for it
    ct_actions = [a for a in finished.actions if a.side == "ct"]
    assert ct_actions and all(a.kind in PASSES for a in ct_actions)


def test_the_human_side_sees_only_its_own_copies_of_events() -> None:
    holder: dict[str, TerminalGame] = {}
    checked = 0

    def write(line: str) -> None:
        nonlocal checked
        g = holder["game"].game
        hidden = g.ruleset.secret_ids(g.state, "ct") - g.ruleset.known_ids(g.state, "ct")
        for name in hidden:
            assert not re.search(rf"\b{re.escape(name)}\b", line), (name, line)
        checked += bool(hidden)

    def read(prompt: str) -> str | None:
        actions = holder["game"].game.legal_actions("ct")
        kinds = [a.kind for a in actions]
        return str(next((i for i, k in enumerate(kinds, 1) if k in PASSES), len(kinds)))

    holder["game"] = TerminalGame(load_scenario(HOSTAGE), 2, ["ct"], read, write)
    holder["game"].run()
    assert checked > 0  # there were hidden figures while the ct player read its screen


def test_the_readme_starts_with_make_play() -> None:
    text = (ROOT / "README.md").read_text()
    quick = text[text.index("## Quick start"):]
    first = next(line for line in quick.splitlines() if line.startswith("make "))
    assert first.startswith("make play")
    assert "make demo" in quick and "make test" in quick
    assert "play:" in (ROOT / "Makefile").read_text()
    assert "/data/" in (ROOT / ".gitignore").read_text()
