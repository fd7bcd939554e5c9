"""Controls built from the action schemas: a form per kind, figure and cell arguments picked on
the board, enums as selects, bounded whole numbers, optional arguments marked; the server checks
the schema and the page shows its ``malformed-action`` reason."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.test_play import TIMEOUT, acted, click_pass, open_game, seat_state, wait_ready
from tests.live import ServerProcess


def compose(page: Page, kind: str) -> None:
    page.select_option("#kind", kind)
    expect(page.locator(f'#compose[data-kind="{kind}"]')).to_be_visible()


def test_schema_forms_pick_on_the_board_and_show_the_servers_reason(
    page: Page, server: ServerProcess, artefacts: Path
) -> None:
    link = open_game(page, server, "execute/embassy.yaml", {"fbi": "human", "terrorists": "ai"})
    page.goto(link)
    page.wait_for_selector("svg.board")
    wait_ready(page)
    # negotiation: free text
    compose(page, "talk")
    page.fill('#compose [data-arg="text"] + input', "release them")
    before = seat_state(page)["actions"]
    page.click("#send")
    acted(page, before)
    expect(page.locator("#log")).to_contain_text("release them")
    before = seat_state(page)["actions"]
    page.click('#actions > button.act[data-kind="end_negotiation"]')
    acted(page, before)
    wait_ready(page)
    # planning: the loadout form: an enum select, a bounded number, an optional number
    compose(page, "loadout")
    armour = page.locator('#compose [data-arg="armour"] + input[type="number"]')
    assert armour.get_attribute("min") == "0" and armour.get_attribute("max") == "3"
    expect(page.locator('#compose label.optional[data-arg="grenades"]')).to_contain_text(
        "(optional)")
    legal = next(a for a in seat_state(page)["legal"] if a["kind"] == "loadout")
    figure = legal["figure"]
    page.fill('#compose [data-arg="figure"] + span input', figure)
    page.locator('#compose [data-arg="figure"] + span input').dispatch_event("change")
    page.select_option('#compose [data-arg="weapon"] + select', "smg")
    armour.fill("4")
    armour.dispatch_event("change")
    before = seat_state(page)["actions"]
    page.click("#send")
    # one past the bound: the server's schema check refuses it, and says why
    expect(page.locator("#error")).to_contain_text("malformed-action", timeout=TIMEOUT)
    expect(page.locator("#error")).to_contain_text("'armour' is 4; the most is 3")
    assert seat_state(page)["actions"] == before
    # a legal loadout, filled in the same form, is taken
    page.select_option('#compose [data-arg="weapon"] + select', legal["weapon"])
    armour.fill(str(legal["armour"]))
    armour.dispatch_event("change")
    expect(page.locator("#send")).to_contain_text("(legal)")
    page.click("#send")
    acted(page, before)
    # movement: the move form takes its cell (and, once on the board, its figure) from clicks
    figure_clicked = False
    for _ in range(60):
        wait_ready(page)
        state = seat_state(page)
        moves = [a for a in state["legal"] if a["kind"] == "move"]
        if state["result"] or figure_clicked:
            break
        if not moves:
            before = state["actions"]
            click_pass(page, state["legal"])
            acted(page, before)
            continue
        placed = {f["id"] for f in state["view"].get("figures", []) if f.get("at")}
        move = next((a for a in moves if a["figure"] in placed), moves[0])
        compose(page, "move")
        level = move["to"][0]
        page.click(f'.levels button[data-level="{level}"]')
        figure_input = page.locator('#compose [data-arg="figure"] + span input')
        if move["figure"] in placed:
            page.click(f'svg.board g.figure[data-figure="{move["figure"]}"]')
            figure_clicked = True
        else:  # an agent still off the board: typed (the legal ids are suggested)
            figure_input.fill(move["figure"])
            figure_input.dispatch_event("change")
        expect(figure_input).to_have_value(move["figure"])
        cell = f"{level}:{move['to'][1]},{move['to'][2]}"
        # the legal destinations of that figure guide the click
        expect(page.locator(f'rect.target[data-target="{cell}"]')).to_have_count(1)
        page.click(f'rect.cell[data-cell="{cell}"]')
        expect(page.locator('#compose [data-arg="to"] + span code')).to_have_text(cell)
        expect(page.locator('#compose label.optional[data-arg="via"]')).to_be_visible()
        if figure_clicked:
            page.screenshot(path=str(artefacts / "execute-schema-form.png"))
        before = state["actions"]
        page.click("#send")
        acted(page, before)
        assert page.locator("#compose").count() == 0  # the form closes once the move is taken
    assert figure_clicked, "no figure of the FBI reached the board to be clicked"
