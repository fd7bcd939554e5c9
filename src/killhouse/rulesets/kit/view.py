"""The view contract: the keys every ruleset's view has, and one vocabulary of figure status.

A view is what one viewer knows. The viewer is a side, or a seat (one player of a side) where
a ruleset keeps per-player views. Rulesets add keys of their own (``doors``, ``orders`` …);
the keys here are the ones faces and bots may rely on for every ruleset.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, NotRequired, TypedDict

JSON = Any


class Status(StrEnum):
    """A figure's state in play, in one vocabulary across rulesets."""

    ACTIVE = "active"
    STUNNED = "stunned"
    WOUNDED = "wounded"
    INCAPACITATED = "incapacitated"
    OUT_OF_ACTION = "out-of-action"
    DEAD = "dead"
    RELEASED = "released"
    RESCUED = "rescued"
    ESCAPED = "escaped"
    OFF_MAP = "off-map"


#: statuses in which a figure takes no further part in the game
OUT_OF_PLAY = frozenset(
    {
        Status.INCAPACITATED,
        Status.OUT_OF_ACTION,
        Status.DEAD,
        Status.RELEASED,
        Status.RESCUED,
        Status.ESCAPED,
    }
)


class Viewer(TypedDict):
    """Who the view is for: a side, and the seat within it where views are per player."""

    side: str
    seat: str | None


class View(TypedDict):
    """The keys every view has. ``figures`` are the viewer's own (full state), ``seen`` others
    in sight now, ``remembered`` last sightings with their turn, ``sounds`` directions heard,
    ``goals`` cells the mission draws the side to, ``public`` what everyone knows."""

    side: str
    viewer: Viewer
    turn: int
    phase: str
    figures: list[dict[str, JSON]]
    seen: list[dict[str, JSON]]
    remembered: list[dict[str, JSON]]
    sounds: list[dict[str, JSON]]
    goals: list[list[int]]
    public: dict[str, JSON]
    events: NotRequired[list[dict[str, JSON]]]


REQUIRED_KEYS: tuple[str, ...] = (
    "side",
    "viewer",
    "turn",
    "phase",
    "figures",
    "seen",
    "remembered",
    "sounds",
    "goals",
    "public",
)
_LISTS = ("figures", "seen", "remembered", "sounds", "goals")


def viewer(side: str, seat: str | None = None) -> Viewer:
    return {"side": side, "seat": seat}


def view_problems(view: Mapping[str, JSON]) -> list[str]:
    """How ``view`` breaks the contract (empty if it keeps it): missing keys, wrong types,
    figures without an id or with a status outside the vocabulary."""
    problems = [f"missing key {k!r}" for k in REQUIRED_KEYS if k not in view]
    if problems:
        return problems
    if not isinstance(view["side"], str) or not isinstance(view["turn"], int):
        problems.append("side must be text and turn a whole number")
    who = view["viewer"]
    if not isinstance(who, dict) or who.get("side") != view["side"] or "seat" not in who:
        problems.append(f"viewer {who!r} must be {{'side': {view['side']!r}, 'seat': …}}")
    for key in _LISTS:
        if not isinstance(view[key], list):
            problems.append(f"{key} must be a list")
    if not isinstance(view["public"], dict):
        problems.append("public must be an object")
    statuses = {s.value for s in Status}
    for key in ("figures", "seen", "remembered"):
        for item in view[key] if isinstance(view[key], list) else ():
            if not isinstance(item, dict) or not isinstance(item.get("id"), str):
                problems.append(f"an entry of {key} has no id: {item!r}"[:200])
                continue
            status = item.get("status")
            if status is not None and status not in statuses:
                problems.append(f"{key} {item['id']}: status {status!r} is not in the vocabulary")
    return problems
