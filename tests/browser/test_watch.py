"""The start page offers a delayed spectator link for one side; its page says how far behind
it is and offers no decision."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.test_play import TIMEOUT
from tests.live import ServerProcess


def test_a_delayed_spectator_link_from_the_start_page(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    box = page.locator('.scenario[data-file="gogogo/hostage.yaml"]')
    expect(box.locator("svg.minimap")).to_be_visible(timeout=TIMEOUT)
    box.locator("select.delayed-side").select_option("t")
    box.locator("input.delayed-turns").fill("3")
    box.locator("button.open").click()
    link = page.locator('a.delayed-link[data-side="t"]')
    expect(link).to_be_visible(timeout=TIMEOUT)  # opening a game is slow on a loaded machine
    page.goto(str(link.get_attribute("href")))
    page.wait_for_selector("svg.board")
    expect(page.locator("#seatname")).to_contain_text("3 turns behind", timeout=TIMEOUT)
    expect(page.locator("#delayed")).to_contain_text("opens once 3 turn(s)")
    expect(page.locator("#actions")).to_contain_text("nothing to decide")
    assert page.locator("svg.board g.figure").count() == 0  # nothing shown before it opens


def test_a_log_uploaded_on_the_start_page_replays_and_jumps_to_a_turn(
    page: Page, server: ServerProcess, tmp_path: Path, artefacts: Path
) -> None:
    from tests.server.test_replay import _log_text, _played

    played = _played("execute/embassy.yaml", 4, 80)
    log = tmp_path / "game.jsonl"
    log.write_text(_log_text(played), encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not a log\n", encoding="utf-8")
    page.goto(server.url + "/")
    page.set_input_files("#log-upload", str(bad))
    expect(page.locator("#log-problems")).to_have_text(
        "error: bad.jsonl:1: not a killhouse game log (not JSON: Expecting value)",
        timeout=TIMEOUT)  # the page may still be reading the shipped scenarios
    page.set_input_files("#log-upload", str(log))
    page.wait_for_url("**/replay/**", timeout=TIMEOUT)
    page.wait_for_selector("svg.board")
    steps = len(played.actions)
    expect(page.locator("#where")).to_contain_text(f"step {steps} of {steps}")
    page.fill("#turn", "1")
    page.click("#goturn")
    expect(page.locator("#where")).to_contain_text("turn 1")
    page.screenshot(path=str(artefacts / "replay-uploaded-log.png"))
    page.fill("#turn", "999")
    page.click("#goturn")
    expect(page.locator("#error")).to_contain_text("bad-index")


def test_firewall_vehicles_are_drawn_on_the_board(
    page: Page, server: ServerProcess, tmp_path: Path, artefacts: Path
) -> None:
    """Ruling F-141's footprints on the web board: the umpire sees every vehicle on the table
    by its squares; a side sees an enemy vehicle only while it is in its view."""
    from tests.server.test_replay import _log_text, _played

    played = _played("firewall/escape_from_ash_end.yaml", 3, 40)
    apc = played.state.vehicles["apc"]
    assert apc.on_table
    log = tmp_path / "ash.jsonl"
    log.write_text(_log_text(played), encoding="utf-8")
    page.goto(server.url + "/")
    page.set_input_files("#log-upload", str(log))
    page.wait_for_url("**/replay/**", timeout=TIMEOUT)
    page.wait_for_selector("svg.board")
    vehicle = page.locator('svg.board g.vehicle[data-vehicle="apc"]')
    expect(vehicle).to_have_count(1, timeout=TIMEOUT)
    assert vehicle.locator("rect").count() == len(apc.squares())
    page.screenshot(path=str(artefacts / "firewall-vehicle.png"))
    seen = played.ruleset.view(played.state, "mayor").get("vehicles", [])
    page.select_option("#perspective", "mayor")
    expect(page.locator('svg.board g.vehicle[data-vehicle="apc"]')).to_have_count(
        1 if any(v["id"] == "apc" for v in seen) else 0, timeout=TIMEOUT)
