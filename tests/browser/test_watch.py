"""The start page offers a delayed spectator link for one side; its page says how far behind
it is and offers no decision."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.test_play import TIMEOUT
from tests.live import ServerProcess


def test_a_delayed_spectator_link_from_the_start_page(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    box = page.locator('.scenario[data-file="gogogo/hostage.yaml"]')
    box.locator("select.delayed-side").select_option("t")
    box.locator("input.delayed-turns").fill("3")
    box.locator("button.open").click()
    link = page.locator('a.delayed-link[data-side="t"]')
    expect(link).to_be_visible()
    page.goto(str(link.get_attribute("href")))
    page.wait_for_selector("svg.board")
    expect(page.locator("#seatname")).to_contain_text("3 turns behind", timeout=TIMEOUT)
    expect(page.locator("#delayed")).to_contain_text("opens once 3 turn(s)")
    expect(page.locator("#actions")).to_contain_text("nothing to decide")
    assert page.locator("svg.board g.figure").count() == 0  # nothing shown before it opens
