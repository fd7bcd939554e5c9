"""The board drawing in Chromium: sounds heard by their direction only are arrows from the
hearer (gogogo, cqb and commando tell a side the direction, never the square)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from tests.live import ServerProcess

DRAW = """async (view) => {
  const { drawBoard } = await import("/static/draw.js");
  const row = "1".repeat(12), zeros = "0".repeat(12);
  const board = { levels: [{ name: "ground", width: 12, height: 12,
    terrain: Array(12).fill(row), clutter: Array(12).fill(zeros), cover: Array(12).fill(zeros) }],
    stairs: [], zones: {} };
  const svg = drawBoard(board, { view, level: 0, sides: ["a", "b"] });
  document.body.replaceChildren(svg);
  return [...svg.querySelectorAll("line.sound")].map((l) => ({
    listener: l.dataset.listener, direction: l.dataset.direction,
    x1: +l.getAttribute("x1"), y1: +l.getAttribute("y1"),
    x2: +l.getAttribute("x2"), y2: +l.getAttribute("y2") }));
}"""


def arrows(page: Page, server: ServerProcess, view: dict[str, Any]) -> list[dict[str, Any]]:
    page.goto(server.url + "/")
    found: list[dict[str, Any]] = page.evaluate(DRAW, view)
    return found


def test_a_sound_heard_by_direction_is_an_arrow_from_the_hearer(
    page: Page, server: ServerProcess
) -> None:
    me = {"id": "g-1", "side": "a", "at": [0, 5, 5], "status": "active"}
    view = {"figures": [me], "sounds": [
        {"turn": 1, "kind": "movement", "listener": "g-1", "direction": "nw"},  # cqb, gogogo
        {"turn": 1, "kind": "explosion", "heard_by": "g-1", "direction": "S"},  # commando
        {"turn": 1, "kind": "shot", "heard_by": "g-1", "direction": "here"},  # no arrow
    ]}
    lines = arrows(page, server, view)
    assert [(a["listener"], a["direction"]) for a in lines] == [("g-1", "nw"), ("g-1", "S")]
    centre = 5 * 26 + 13
    for a in lines:
        assert (a["x1"], a["y1"]) == (centre, centre)  # from the hearer
    nw, south = lines
    assert nw["x2"] < centre and nw["y2"] < centre  # up and left: north-west (y grows south)
    assert south["x2"] == centre and south["y2"] > centre
    assert page.locator("text.sound").count() == 3  # a note for each, the one here included


def test_a_sound_of_a_hearer_not_on_the_board_draws_nothing(
    page: Page, server: ServerProcess
) -> None:
    view = {"figures": [], "sounds": [{"kind": "footsteps", "listener": "t1", "direction": "w"}]}
    assert arrows(page, server, view) == []
