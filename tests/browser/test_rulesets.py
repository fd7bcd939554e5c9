"""cqb and commando in Chromium against the AI: moves through the schema forms and by clicking,
a reaction window answered (cqb: interrupt) and an opportunity-fire plot (commando), rolls in
the log, and a reload mid-game that carries on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from tests.browser.test_play import acted, open_game, rolls, seat_state, wait_ready
from tests.live import ServerProcess


def pick(page: Page, figure: str) -> None:
    """Select a figure by its button (once)."""
    if page.evaluate("window.killhouse.ui.selected") != figure:
        page.click(f'button.pick[data-figure="{figure}"]')


def quick(page: Page, a: dict[str, Any]) -> None:
    """The selected figure's one-click button of the action's kind."""
    pick(page, a["figure"])
    page.locator(f'#actions > button.act[data-kind="{a["kind"]}"]').first.click()


def shoot(page: Page, a: dict[str, Any]) -> None:
    """Select the firer, click the target figure (a menu if several shots fit)."""
    pick(page, a["figure"])
    page.click(f'svg.board g.figure[data-figure="{a["target"]}"]')
    if page.is_visible("#menu"):
        page.locator("#menu button.choice").first.click()


def bare(page: Page, kind: str) -> None:
    page.click(f'#actions > button.act[data-kind="{kind}"]')


def reload_and_continue(page: Page) -> None:
    events = page.locator("#log .ev").count()
    index = seat_state(page)["index"]
    page.reload()
    page.wait_for_selector("svg.board")
    wait_ready(page)
    assert seat_state(page)["index"] >= index
    assert page.locator("#log .ev").count() >= events


def test_cqb_against_the_ai_with_a_reaction_window(
    page: Page, server: ServerProcess, artefacts: Path
) -> None:
    link = open_game(page, server, "cqb/overwatch.yaml", {"snipers": "human", "kidnappers": "ai"})
    page.goto(link)
    page.wait_for_selector("svg.board")
    answered = moved = 0
    reloaded = False
    for _ in range(60):
        wait_ready(page)
        state = seat_state(page)
        if state["result"] or (answered and moved and reloaded and rolls(page)):
            break
        legal = state["legal"]
        kinds = {a["kind"] for a in legal}
        before = state["actions"]
        if "interrupt" in kinds:
            # the reaction window: cut in on the enemy in sight
            page.screenshot(path=str(artefacts / "cqb-reaction-window.png"))
            quick(page, next(a for a in legal if a["kind"] == "interrupt"))
            answered += 1
        elif "let-pass" in kinds:
            bare(page, "let-pass")
            answered += 1
        elif "move" in kinds and not moved:
            # a move through the schema form: figure, mode, and the path cell by cell
            routes = [m for m in legal if m["kind"] == "move" and 2 <= len(m["path"]) <= 4]
            a = routes[0] if routes else next(m for m in legal if m["kind"] == "move")
            pick(page, a["figure"])
            page.select_option("#kind", "move")
            page.select_option('#compose [data-arg="mode"] + select', a["mode"])
            for cell in a["path"]:
                page.click(f'.levels button[data-level="{cell[0]}"]')
                key = f"{cell[0]}:{cell[1]},{cell[2]}"
                expect(page.locator(f'rect.target[data-target="{key}"]')).to_have_count(1)
                page.locator(f'rect.cell[data-cell="{key}"]').dispatch_event("click")
            expect(page.locator("#send")).to_contain_text("(legal)")
            page.click("#send")
            moved += 1
        elif "hold" in kinds:
            quick(page, next(a for a in legal if a["kind"] == "hold"))
        else:
            quick(page, next(a for a in legal if a["kind"] == "wait"))
        acted(page, before)
        if answered and not reloaded:
            page.screenshot(path=str(artefacts / "cqb-midgame.png"))
            reload_and_continue(page)
            reloaded = True
    assert answered and moved and reloaded
    assert rolls(page), "no roll reached the log"
    expect(page.locator("#log .ev.roll").last).to_contain_text("[")


def test_commando_against_the_ai_with_an_opfire_plot(
    page: Page, server: ServerProcess, artefacts: Path
) -> None:
    link = open_game(page, server, "commando/radar_raid.yaml", {"raiders": "human", "guards": "ai"})
    page.goto(link)
    page.wait_for_selector("svg.board")
    plotted = stepped = 0
    reloaded = False
    for _ in range(60):
        wait_ready(page)
        state = seat_state(page)
        if state["result"] or (plotted and stepped >= 2 and reloaded and rolls(page)):
            break
        legal = state["legal"]
        kinds = {a["kind"] for a in legal}
        before = state["actions"]
        if "plot" in kinds and not plotted:
            # the secret opportunity-fire plot of one man
            quick(page, next(a for a in legal if a["kind"] == "plot"))
            plotted += 1
        elif "opfire" in kinds:
            shoot(page, next(a for a in legal if a["kind"] == "opfire"))
        elif "commit" in kinds:
            bare(page, "commit")
        elif "fire" in kinds:
            shoot(page, next(a for a in legal if a["kind"] == "fire"))
        elif "step" in kinds and stepped < 3:
            # a step through the schema form: the figure selected, the direction a select
            a = next(a for a in legal if a["kind"] == "step")
            pick(page, a["figure"])
            page.select_option("#kind", "step")
            expect(page.locator('#compose [data-arg="figure"] + span input')).to_have_value(
                a["figure"])
            page.select_option('#compose [data-arg="dir"] + select', a["dir"])
            page.click("#send")
            stepped += 1
        elif "activate" in kinds:
            quick(page, next(a for a in legal if a["kind"] == "activate"))
        else:
            bare(page, "end" if "end" in kinds else "hold")
        acted(page, before)
        if stepped >= 2 and not reloaded:
            page.screenshot(path=str(artefacts / "commando-midgame.png"))
            reload_and_continue(page)
            reloaded = True
    assert plotted and stepped >= 2 and reloaded
    assert rolls(page), "no roll reached the log"
    expect(page.locator("#log .ev.roll").last).to_contain_text("[")


def test_firewall_against_the_ai_by_clicking(
    page: Page, server: ServerProcess, artefacts: Path
) -> None:
    link = open_game(page, server, "firewall/swat_tenement.yaml", {"swat": "human", "gang": "ai"})
    page.goto(link)
    page.wait_for_selector("svg.board")
    activated = moved = shot = 0
    reloaded = False
    for _ in range(120):
        wait_ready(page)
        state = seat_state(page)
        if state["result"] or (moved >= 3 and reloaded and rolls(page) and (shot or moved >= 12)):
            break
        legal = state["legal"]
        kinds = {a["kind"] for a in legal}
        before = state["actions"]
        shots = [a for a in legal if a["kind"] == "shoot"]
        moves = sorted((a for a in legal if a["kind"] == "move" and a["speed"] == "walk"),
                       key=lambda a: -len(a["path"]))
        if shots and not shot:
            shoot(page, shots[0])
            shot += 1
        elif "activate" in kinds:
            # a fire team takes the initiative: one click on its button
            a = next(a for a in legal if a["kind"] == "activate")
            page.locator('#actions > button.act[data-kind="activate"]',
                         has_text=f'team={a["team"]}').click()
            activated += 1
        elif moves and moved < 12:
            # one man's move by clicking the far end of a route on the board
            a = moves[0]
            pick(page, a["figure"])
            end = a["path"][-1]
            key = f"{end[0]}:{end[1]},{end[2]}"
            page.click(f'.levels button[data-level="{end[0]}"]')
            expect(page.locator(f'rect.target[data-target="{key}"]')).to_have_count(1)
            page.locator(f'rect.cell[data-cell="{key}"]').dispatch_event("click")
            if page.is_visible("#menu"):
                page.locator("#menu button.choice").first.click()
            moved += 1
        else:
            bare(page, "end")
        acted(page, before)
        if moved >= 3 and not reloaded:
            page.screenshot(path=str(artefacts / "firewall-midgame.png"))
            reload_and_continue(page)
            reloaded = True
    assert activated and moved >= 3 and reloaded
    assert rolls(page), "no roll reached the log"
    expect(page.locator("#log .ev.roll").last).to_contain_text("[")
