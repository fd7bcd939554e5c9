"""People play in Chromium: open a game from the start page, move and shoot by clicking, see
the rolls, reload mid-game, pass the screen in hotseat, reach the end screen and the replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.live import ServerProcess

PASSES = ("end_negotiation", "ready", "continue", "done", "commit", "hold")
TIMEOUT = 30_000


def seat_state(page: Page, i: int = 0) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate(f"window.killhouse.seats[{i}].state")
    return state


def wait_ready(page: Page) -> None:
    """Until a seat of the page must decide (with no action in flight) or the game is over."""
    page.wait_for_function(
        """() => window.killhouse.seats.some(s => s.state && !s.outbox && !s.awaiting &&
                 (s.state.result || s.state.legal.length))""",
        timeout=TIMEOUT,
    )


def acted(page: Page, before: int, i: int = 0) -> None:
    page.wait_for_function(
        f"() => window.killhouse.seats[{i}].state.actions > {before} "
        "|| document.getElementById('error').textContent !== ''",
        timeout=TIMEOUT,
    )
    assert page.text_content("#error") == ""


def click_pass(page: Page, legal: list[dict[str, Any]]) -> str:
    """Click a pass-like action, else the first action offered as a button."""
    kind = next((k for k in PASSES if any(a["kind"] == k for a in legal)), None)
    if kind is None:
        if not page.locator("#actions > button.act").count():
            page.locator("button.pick").first.click()  # a figure's own choices (gogogo: face)
        button = page.locator("#actions > button.act").first
        kind = str(button.get_attribute("data-kind"))
        button.click()
        return kind
    page.click(f'#actions > button.act[data-kind="{kind}"]')
    return kind


def open_game(page: Page, server: ServerProcess, scenario: str, seats: dict[str, str]) -> str:
    page.goto(server.url + "/")
    box = page.locator(f'.scenario[data-file="{scenario}"]')
    # the first listing reads every shipped scenario: slow on a loaded machine
    expect(box.locator("svg.minimap")).to_be_visible(timeout=TIMEOUT)
    expect(box.locator("p").first).not_to_be_empty()
    for side, who in seats.items():
        box.locator(f'select[data-side="{side}"]').select_option(who)
    box.locator("button.open").click()
    page.wait_for_selector("#links")
    expect(page.locator("a.spectator-link")).to_be_visible()
    expect(page.locator("a.umpire-link")).to_be_visible()
    humans = [s for s, w in seats.items() if w == "human"]
    if len(humans) > 1:
        return str(page.get_attribute("a.hotseat-link", "href"))
    return str(page.get_attribute(f'a.seat-link[data-side="{humans[0]}"]', "href"))


def rolls(page: Page) -> int:
    return page.locator("#log .ev.roll").count()


def test_execute_against_the_ai_by_clicking(page: Page, server: ServerProcess,
                                            artefacts: Path) -> None:
    link = open_game(page, server, "execute/embassy.yaml", {"fbi": "human", "terrorists": "ai"})
    page.goto(link)
    page.wait_for_selector("svg.board")
    wait_ready(page)
    expect(page.locator("#your-turn")).to_be_visible()
    first_rolls = rolls(page)
    moved = shot = 0
    reloaded = False
    for _ in range(150):
        wait_ready(page)
        state = seat_state(page)
        if state["result"]:
            break
        legal = state["legal"]
        before = state["actions"]
        fires = [a for a in legal if a["kind"] == "fire"]
        moves = [a for a in legal if a["kind"] == "move"]
        if fires and shot < 1:
            a = fires[0]
            page.click(f'button.pick[data-figure="{a["figure"]}"]')
            page.click(f'svg.board g.figure[data-figure="{a["target"]}"]')
            shot += 1
        elif moves and moved < 12:
            # the deepest move into the building of one figure, by clicking its cell
            a = min(moves, key=lambda m: (m["to"][2], -m["hint"].get("cost", 0)))
            level = a["to"][0]
            page.click(f'.levels button[data-level="{level}"]')
            page.click(f'button.pick[data-figure="{a["figure"]}"]')
            cell = f'{level}:{a["to"][1]},{a["to"][2]}'
            expect(page.locator(f'rect.target[data-target="{cell}"]')).to_have_count(1)
            page.click(f'rect.cell[data-cell="{cell}"]')
            if page.locator("#menu button.choice").count() and page.is_visible("#menu"):
                page.locator("#menu button.choice").first.click()
            moved += 1
        else:
            click_pass(page, legal)
        acted(page, before)
        if moved >= 3 and not reloaded:
            # mid-game: keep a screenshot, reload, and carry on from the same place
            page.screenshot(path=str(artefacts / "execute-midgame.png"))
            events = page.locator("#log .ev").count()
            index = seat_state(page)["index"]
            page.reload()
            page.wait_for_selector("svg.board")
            wait_ready(page)
            assert seat_state(page)["index"] >= index
            assert page.locator("#log .ev").count() >= events
            reloaded = True
        if shot and rolls(page) > first_rolls:
            break
    assert moved >= 3 and reloaded
    assert rolls(page) > first_rolls, "no roll of the fight reached the log"
    expect(page.locator("#log .ev.roll").last).to_contain_text("[d")
    if shot:
        expect(page.locator('#log .ev[data-kind="shot"]').first).to_contain_text("TN")


def test_gogogo_orders_against_the_ai_by_clicking(page: Page, server: ServerProcess,
                                                  artefacts: Path) -> None:
    link = open_game(page, server, "gogogo/hostage.yaml", {"ct": "human", "t": "ai"})
    page.goto(link)
    page.wait_for_selector("svg.board")
    ordered: set[int] = set()
    for _ in range(60):
        wait_ready(page)
        state = seat_state(page)
        turn = int(state["view"]["turn"])
        if state["result"] or turn >= 3:
            break
        legal = state["legal"]
        before = state["actions"]
        orders = [a for a in legal if a["kind"] == "order" and "to" in a]
        if orders and turn not in ordered:
            # one figure's move order by clicking its destination
            a = max(orders, key=lambda o: o["to"][1])
            page.click(f'button.pick[data-figure="{a["figure"]}"]')
            page.click(f'rect.cell[data-cell="0:{a["to"][1]},{a["to"][2]}"]')
            if page.is_visible("#menu"):
                page.locator("#menu button.choice").first.click()
            ordered.add(turn)
        else:
            click_pass(page, legal)
        acted(page, before)
    assert len(ordered) >= 2
    wait_ready(page)
    page.screenshot(path=str(artefacts / "gogogo-midgame.png"))
    # the sides' commitments are shown, without the orders of the other side
    committed = page.locator('#log .ev[data-kind="orders-committed"]')
    expect(committed.filter(has_text="t: orders committed").first).to_be_visible()
    expect(committed.filter(has_text="ct: orders committed").first).to_be_visible()


def test_hotseat_covers_the_board_between_sides(page: Page, server: ServerProcess,
                                                artefacts: Path) -> None:
    link = open_game(page, server, "gogogo/hostage.yaml", {"ct": "human", "t": "human"})
    page.goto(link)
    expect(page.locator("#cover")).to_be_visible(timeout=TIMEOUT)
    first = page.text_content("#cover-text") or ""
    assert page.locator("svg.board").count() == 0  # nothing of the board behind the cover
    page.screenshot(path=str(artefacts / "hotseat-cover.png"))
    page.click("#cover-ok")
    page.wait_for_selector("svg.board")
    shown = page.evaluate("window.killhouse.ui.shown.role")
    index = 0 if page.evaluate("window.killhouse.seats[0].role") == shown else 1
    before = seat_state(page, index)["actions"]
    page.click('#actions > button.act[data-kind="commit"]')
    acted(page, before, index)
    # the other side's turn: the cover comes back and names it
    expect(page.locator("#cover")).to_be_visible(timeout=TIMEOUT)
    second = page.text_content("#cover-text") or ""
    assert second != first
    page.click("#cover-ok")
    page.wait_for_selector("svg.board")
    assert page.evaluate("window.killhouse.ui.shown.role") != shown


def test_the_end_screen_reveals_and_replays(page: Page, server: ServerProcess,
                                            artefacts: Path) -> None:
    link = open_game(page, server, "execute/embassy.yaml", {"fbi": "human", "terrorists": "ai"})
    page.goto(link)
    page.wait_for_selector("svg.board")
    for _ in range(10):
        wait_ready(page)
        state = seat_state(page)
        if any(a["kind"] == "concede" for a in state["legal"]):
            break
        before = state["actions"]
        click_pass(page, state["legal"])
        acted(page, before)
    page.click('#actions > button.act[data-kind="concede"]')
    expect(page.locator("#end")).to_be_visible(timeout=TIMEOUT)
    expect(page.locator("#result")).to_contain_text("wins")
    page.screenshot(path=str(artefacts / "end-screen.png"))
    page.click("#reveal")
    page.wait_for_selector("svg.board")
    expect(page.locator("#where")).to_contain_text("step")
    steps = int(page.get_attribute("#slider", "max") or 0)
    assert steps > 0
    page.click("#back")
    expect(page.locator("#where")).to_contain_text(f"step {steps - 1} of {steps}")
    # the umpire's perspective reveals the terrorists the FBI never saw
    assert page.locator("svg.board g.figure").count() > 0
    page.select_option("#perspective", "fbi")
    expect(page.locator("#where")).to_contain_text(f"step {steps - 1} of {steps}")
    page.screenshot(path=str(artefacts / "replay.png"))


def test_no_stale_action_is_offered_between_the_ack_and_the_new_state(
    page: Page, server: ServerProcess
) -> None:
    """The ack comes before the state with the AI's answers (W-6); meanwhile the buttons of
    the old state would send actions the game has moved past, so none is shown."""
    held: list[str] = []
    hold = {"on": False}

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()

        def down(message: str | bytes) -> None:
            text = message if isinstance(message, str) else message.decode()
            if hold["on"] and '"type": "state"' in text:
                held.append(text)
                return
            ws.send(text)

        upstream.on_message(down)

    page.route_web_socket("**/ws/*", route)
    link = open_game(page, server, "execute/embassy.yaml", {"fbi": "human", "terrorists": "ai"})
    page.goto(link)
    page.wait_for_selector("svg.board")
    wait_ready(page)
    hold["on"] = True
    click_pass(page, seat_state(page)["legal"])
    page.wait_for_function("() => window.killhouse.seats[0].awaiting", timeout=TIMEOUT)
    expect(page.locator("#sent")).to_be_visible()
    assert page.locator("#actions button").count() == 0
    assert page.locator("rect.target").count() == 0
    hold["on"] = False
    page.evaluate("window.killhouse.seats[0].ws.send(JSON.stringify({type: 'sync', "
                  "index: window.killhouse.seats[0].index}))")
    wait_ready(page)
    assert held, "no state was held back: the test did not test the gap"
    assert page.locator("#actions button").count() > 0


def test_the_seat_link_in_a_new_browser_plays_on(page: Page, server: ServerProcess,
                                                 browser: Any) -> None:
    """A new tab or machine has no saved count of its actions: it numbers on from the
    server's, so its first action is taken, not answered as a resend of an old one."""
    link = open_game(page, server, "execute/embassy.yaml", {"fbi": "human", "terrorists": "ai"})
    page.goto(link)
    page.wait_for_selector("svg.board")
    for _ in range(2):
        wait_ready(page)
        state = seat_state(page)
        click_pass(page, state["legal"])
        acted(page, state["actions"])
    other = browser.new_context(viewport={"width": 1400, "height": 950}).new_page()
    other.goto(link)
    other.wait_for_selector("svg.board")
    wait_ready(other)
    state = seat_state(other)
    assert other.evaluate("window.killhouse.seats[0].seq") >= 2
    click_pass(other, state["legal"])
    acted(other, state["actions"])
    other.context.close()
