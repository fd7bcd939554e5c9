"""Commando hostages on the web board (rulings C-170, C-171): the umpire's board draws every
hostage still on the map where he stands, as a person sees it."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.test_play import TIMEOUT, open_game
from tests.live import ServerProcess


def test_the_umpire_board_draws_the_embassy_hostages(page: Page, server: ServerProcess) -> None:
    open_game(page, server, "commando/embassy_rescue.yaml", {"raiders": "human", "gunmen": "ai"})
    umpire = str(page.get_attribute("a.umpire-link", "href"))
    page.goto(umpire)
    page.wait_for_selector("svg.board")
    page.wait_for_function("() => window.killhouse.seats[0].state", timeout=TIMEOUT)
    hostages = page.evaluate("window.killhouse.seats[0].state.view.hostages")
    # Adair downstairs, Brenn upstairs: the ground floor's board shows the one who is there
    ground = [h for h in hostages if h["at"][0] == 0]
    assert len(hostages) == 2 and len(ground) == 1
    drawn = page.locator("svg.board g.figure.hostage")
    expect(drawn).to_have_count(1, timeout=TIMEOUT)
    assert drawn.first.get_attribute("data-figure") == ground[0]["id"]
    assert "hostage" in (drawn.first.locator("title").text_content() or "")
