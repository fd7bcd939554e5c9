"""Commando weapons on the ground on the web board, at every seat (rulings C-179, W-19): the
umpire's board draws every one (the umpire's extras), a side's only those its view holds, the
spectator's none; the replay as the umpire draws them too."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from killhouse.engine.game import canonical_json
from killhouse.engine.record import log_lines
from tests.browser.test_play import TIMEOUT
from tests.live import ServerProcess
from tests.server.helpers import played_until_a_weapon_lies_unseen

EMBASSY = "commando/embassy_rescue.yaml"
#: the role AI on both sides: a gunman falls where the raiders see him, his own side does not
SEED = 2


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    req = urllib.request.Request(url, json.dumps(body).encode(),
                                 {"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        data: dict[str, Any] = json.loads(r.read())
    return data


def _marker(cell: list[int]) -> str:
    return f'svg.board g.weapons[data-cell="{cell[0]}:{cell[1]},{cell[2]}"]'


def test_every_seat_draws_the_weapons_on_the_ground_it_may_know(
    page: Page, server: ServerProcess, artefacts: Path
) -> None:
    played = played_until_a_weapon_lies_unseen(EMBASSY, SEED, "gunmen")
    lying = played.ruleset.umpire_extras(played.state)["weapons"]
    assert isinstance(lying, list)
    theirs = played.view("gunmen", events_since=None).get("weapons", [])
    unseen = next(w for w in lying if w not in theirs)
    assert unseen["at"][0] == 0  # on the ground floor, the level a board opens on
    # the played game as a log, then played on from its last step with every side's seat
    text = "".join(canonical_json(r) + "\n" for r in log_lines(played))
    kept = _post(server.url + "/api/logs", {"text": text, "name": "embassy.jsonl"})
    umpire = kept["replay"].split("#token=")[1]
    game = _post(server.url + "/api/games", {
        "from_game": kept["game"], "token": umpire, "step": kept["steps"],
        "seats": {"raiders": "human", "gunmen": "human"}})
    seats = {**game["links"], "spectator": game["spectator"], "umpire": game["umpire"]}
    drawn = {"umpire": 1, "raiders": 1, "gunmen": 0, "spectator": 0}
    for role, link in seats.items():
        page.goto("about:blank")  # a link of the same game differs only in its fragment
        page.goto(server.url + link)
        page.wait_for_selector("svg.board")
        page.wait_for_function("() => window.killhouse.seats[0].state", timeout=TIMEOUT)
        state = page.evaluate("window.killhouse.seats[0].state")
        assert state["role"] == role
        assert ("extras" in state) == (role == "umpire"), role
        expect(page.locator(_marker(unseen["at"]))).to_have_count(drawn[role], timeout=TIMEOUT)
        if role == "umpire":
            # every weapon on the ground floor, each with its kinds in its title
            ground = [w for w in lying if w["at"][0] == 0]
            expect(page.locator("svg.board g.weapons")).to_have_count(len(ground))
            title = page.locator(_marker(unseen["at"])).locator("title").text_content() or ""
            assert title == f"weapons on the ground: {', '.join(unseen['weapons'])}"
            page.screenshot(path=str(artefacts / "commando-umpire-weapons.png"))
    # the replay, as the umpire (its first perspective) and then as the gunmen
    page.goto("about:blank")
    page.goto(server.url + kept["replay"])
    expect(page.locator(_marker(unseen["at"]))).to_have_count(1, timeout=TIMEOUT)
    page.select_option("#perspective", "gunmen")
    expect(page.locator("svg.board g.figure.own").first).to_be_visible(timeout=TIMEOUT)
    expect(page.locator(_marker(unseen["at"]))).to_have_count(0, timeout=TIMEOUT)
