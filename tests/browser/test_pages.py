"""The pages a person meets besides a seat's board, as a person uses them: an uploaded scenario
checked with the problems ``killhouse validate`` prints and, when good, opened; the spectator's
and the umpire's links; "play on from here" in the replay."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect
from typer.testing import CliRunner

from killhouse.cli import app
from tests.browser.test_play import TIMEOUT, acted, click_pass, open_game, seat_state, wait_ready
from tests.conformance import SCENARIO_DIR
from tests.live import ServerProcess


def test_an_uploaded_scenario_shows_the_problems_validate_prints_or_opens(
    page: Page, server: ServerProcess, tmp_path: Path
) -> None:
    good = (SCENARIO_DIR / "execute" / "embassy.yaml").read_text()
    bad = tmp_path / "broken.yaml"
    bad.write_text(good.replace("ruleset: execute", "ruleset: exekute", 1))
    printed = CliRunner().invoke(app, ["validate", str(bad)]).output.strip().splitlines()
    assert printed and "exekute" in "\n".join(printed)
    page.goto(server.url + "/")
    page.set_input_files("#upload", str(bad))
    expect(page.locator("#problems")).to_be_visible(timeout=TIMEOUT)
    shown = (page.text_content("#problems") or "").splitlines()
    # the same lines, but for the folder the file was read from
    assert [line.split("broken.yaml", 1)[-1] for line in shown] == \
        [line.split("broken.yaml", 1)[-1] for line in printed]
    fine = tmp_path / "mine.yaml"
    fine.write_text(good)
    page.set_input_files("#upload", str(fine))
    expect(page.locator("#upload-result button.open")).to_be_visible(timeout=TIMEOUT)
    page.locator('#upload-result select[data-side="fbi"]').select_option("human")
    page.click("#upload-result button.open")
    expect(page.locator('a.seat-link[data-side="fbi"]')).to_be_visible(timeout=TIMEOUT)


def test_the_spectator_and_the_umpire_links(page: Page, server: ServerProcess) -> None:
    link = open_game(page, server, "execute/embassy.yaml", {"fbi": "human", "terrorists": "ai"})
    spectator = str(page.get_attribute("a.spectator-link", "href"))
    umpire = str(page.get_attribute("a.umpire-link", "href"))
    page.goto(link)
    page.wait_for_selector("svg.board")
    wait_ready(page)
    state = seat_state(page)
    click_pass(page, state["legal"])
    acted(page, state["actions"])
    page.goto(umpire)
    page.wait_for_selector("svg.board")
    expect(page.locator("#seatname")).to_have_text("seat: umpire")
    page.wait_for_function("() => window.killhouse.seats[0].state", timeout=TIMEOUT)
    # the true state: every figure of both sides, drawn as the umpire's
    truth = page.evaluate("window.killhouse.seats[0].state.view.figures.length")
    assert truth > 0 and page.locator("svg.board g.figure.true").count() > 0
    expect(page.locator("#actions")).to_contain_text("nothing to decide now")
    page.goto(spectator)
    page.wait_for_selector("svg.board")
    expect(page.locator("#seatname")).to_have_text("seat: spectator")
    page.wait_for_function("() => window.killhouse.seats[0].state", timeout=TIMEOUT)
    state = seat_state(page)
    assert set(state["view"]) == {"public"} and state["legal"] == []
    assert page.locator("svg.board g.figure.true, svg.board g.figure.own").count() == 0
    expect(page.locator("#status")).to_contain_text("waiting for")


def test_play_on_from_a_step_of_the_replay(page: Page, server: ServerProcess) -> None:
    link = open_game(page, server, "execute/embassy.yaml", {"fbi": "human", "terrorists": "ai"})
    umpire = str(page.get_attribute("a.umpire-link", "href"))
    page.goto(link)
    page.wait_for_selector("svg.board")
    for _ in range(3):
        wait_ready(page)
        state = seat_state(page)
        click_pass(page, state["legal"])
        acted(page, state["actions"])
    page.goto(umpire.replace("/game/", "/replay/"))
    page.wait_for_selector("svg.board")
    expect(page.locator("#where")).to_contain_text("step", timeout=TIMEOUT)
    steps = int(page.get_attribute("#slider", "max") or 0)
    assert steps >= 3
    page.click("#first")
    page.click("#forward")
    page.click("#forward")
    expect(page.locator("#where")).to_contain_text(f"step 2 of {steps}")
    page.click("#playon")
    seat = page.locator("#newgame a", has_text="play fbi")
    expect(seat).to_be_visible(timeout=TIMEOUT)
    seat.click()
    page.wait_for_url("**/game/**", timeout=TIMEOUT)
    page.wait_for_selector("svg.board")
    wait_ready(page)
    # a new game, from the prefix (its events are there), in which the person plays on
    state = seat_state(page)
    assert state["game"] != link.split("/game/")[1].split("#")[0]
    assert state["index"] > 0 and state["legal"]
    click_pass(page, state["legal"])
    acted(page, state["actions"])
