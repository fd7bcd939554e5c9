"""A person drives and fires a firewall vehicle in "Escape from Ash End" through the page's
controls built from the action schemas (issue 17): the crew's Fire Team activated by its
button, the drive form (the vehicle picked by clicking it, speed from its select, the route
clicked on the board), the vehicle-fire form (crew position, mount, the target clicked)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.test_controls import compose
from tests.browser.test_play import TIMEOUT, acted, seat_state, wait_ready
from tests.live import ServerProcess

ASH_END = "firewall/escape_from_ash_end.yaml"
# the UAV comes on, drives and then has a target in sight of its mount in Turn 4 (after the
# set-up's edge roll, F-212; checked headlessly through the same seats, the browser is absent)
SEED = 2


def open_seeded(page: Page, server: ServerProcess) -> str:
    page.goto(server.url + "/")
    box = page.locator(f'.scenario[data-file="{ASH_END}"]')
    expect(box.locator("svg.minimap")).to_be_visible(timeout=TIMEOUT)
    box.locator('select[data-side="mayor"]').select_option("human")
    box.locator('select[data-side="gang"]').select_option("ai")
    box.locator("input[type=number]").first.fill(str(SEED))
    box.locator("button.open").click()
    page.wait_for_selector("#links")
    return str(page.get_attribute('a.seat-link[data-side="mayor"]', "href"))


def click_cell(page: Page, cell: list[int]) -> None:
    page.locator(f'rect.cell[data-cell="{cell[0]}:{cell[1]},{cell[2]}"]').dispatch_event("click")


def test_a_person_drives_and_fires_a_vehicle_through_the_forms(
    page: Page, server: ServerProcess, artefacts: Path
) -> None:
    page.goto(open_seeded(page, server))
    page.wait_for_selector("svg.board")
    for _ in range(40):  # to the UAV crew's activation: the bodyguards' team does nothing
        wait_ready(page)
        state = seat_state(page)
        kinds = {a["kind"] for a in state["legal"]}
        if "drive" in kinds:
            break
        before = state["actions"]
        crew = page.locator('#actions > button.act[data-kind="activate"]',
                            has_text="team=uav-crew")
        if "edge" in kinds:  # set-up (F-212): the edge the file is drawn for
            page.locator('#actions > button.act[data-kind="edge"]', has_text="edge=s").click()
        elif crew.count():
            crew.click()
        elif "end" in kinds:
            page.click('#actions > button.act[data-kind="end"]')
        else:
            page.locator('#actions > button.act[data-kind="activate"]').first.click()
        acted(page, before)
    state = seat_state(page)
    drive = next(a for a in state["legal"] if a["kind"] == "drive")
    uav = page.locator(f'svg.board g.vehicle[data-vehicle="{drive["vehicle"]}"]')
    expect(uav).to_have_count(1)
    # the drive form: the vehicle by clicking it, the speed, the route by clicking its squares
    compose(page, "drive")
    uav.locator("rect").first.dispatch_event("click")
    expect(page.locator('#compose [data-arg="vehicle"] + span input')).to_have_value(
        drive["vehicle"])
    page.select_option('#compose [data-arg="speed"] + select', drive["speed"])
    for cell in drive["path"]:
        key = f"{cell[0]}:{cell[1]},{cell[2]}"
        expect(page.locator(f'rect.target[data-target="{key}"]')).to_have_count(1)
        click_cell(page, cell)
    expect(page.locator("#send")).to_contain_text("(legal)")
    page.screenshot(path=str(artefacts / "firewall-drive-form.png"))
    before = state["actions"]
    page.click("#send")
    acted(page, before)
    expect(page.locator('#log .ev[data-kind="drive"]').last).to_contain_text(
        f"{drive['vehicle']} drives at {drive['speed']}")
    # the vehicle-fire form: the vehicle clicked, crew position and mount, the target clicked
    wait_ready(page)
    state = seat_state(page)
    fire = next(a for a in state["legal"] if a["kind"] == "vehicle-fire")
    compose(page, "vehicle-fire")
    uav.locator("rect").first.dispatch_event("click")
    crew_input = page.locator('#compose [data-arg="crew"] + input[type="number"]')
    crew_input.fill(str(fire["crew"]))
    crew_input.dispatch_event("change")
    mount = page.locator('#compose [data-arg="mount"] + span input')
    # the mounts that can fire are suggested
    assert fire["mount"] in page.locator("#dl-mount option").evaluate_all(
        "os => os.map(o => o.value)")
    mount.fill(fire["mount"])
    mount.dispatch_event("change")
    # the target is armed next (the mount filled in): a click on the figure fills it
    expect(page.locator('#compose [data-arg="target"] + span button.arm.on')).to_have_count(1)
    page.locator(f'svg.board g.figure[data-figure="{fire["target"]}"]').dispatch_event("click")
    expect(page.locator('#compose [data-arg="target"] + span input')).to_have_value(fire["target"])
    expect(page.locator("#send")).to_contain_text("(legal)")
    rolls = page.locator("#log .ev.roll").count()
    before = state["actions"]
    page.click("#send")
    acted(page, before)
    page.screenshot(path=str(artefacts / "firewall-vehicle-fire.png"))
    assert page.locator("#log .ev.roll").count() > rolls  # the mount's shot is rolled in the log
    expect(page.locator("#log")).to_contain_text(fire["target"])


def test_the_vehicle_is_selected_and_driven_the_quick_way(
    page: Page, server: ServerProcess
) -> None:
    """Select the vehicle (its button or a click on it), click the highlighted square its
    route ends on, choose the speed from the menu."""
    page.goto(open_seeded(page, server))
    page.wait_for_selector("svg.board")
    for _ in range(40):
        wait_ready(page)
        state = seat_state(page)
        kinds = {a["kind"] for a in state["legal"]}
        if "drive" in kinds:
            break
        before = state["actions"]
        crew = page.locator('#actions > button.act[data-kind="activate"]',
                            has_text="team=uav-crew")
        if "edge" in kinds:  # set-up (F-212): the edge the file is drawn for
            page.locator('#actions > button.act[data-kind="edge"]', has_text="edge=s").click()
        elif crew.count():
            crew.click()
        elif "end" in kinds:
            page.click('#actions > button.act[data-kind="end"]')
        else:
            page.locator('#actions > button.act[data-kind="activate"]').first.click()
        acted(page, before)
    drive = next(a for a in state["legal"] if a["kind"] == "drive")
    page.locator(f'svg.board g.vehicle[data-vehicle="{drive["vehicle"]}"] rect').first \
        .dispatch_event("click")
    assert page.evaluate("window.killhouse.ui.selected") == drive["vehicle"]
    end = drive["path"][-1]
    expect(page.locator(f'rect.target[data-target="{end[0]}:{end[1]},{end[2]}"]')).to_have_count(1)
    click_cell(page, end)
    if page.is_visible("#menu"):
        page.locator("#menu button.choice", has_text=f"speed={drive['speed']}").first.click()
    acted(page, state["actions"])
    expect(page.locator('#log .ev[data-kind="drive"]').last).to_contain_text(drive["vehicle"])
