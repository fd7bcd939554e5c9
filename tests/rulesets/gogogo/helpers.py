"""Building small gogogo games in tests: scenarios from ASCII, scripted dice, a table to drive."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import LiteralScalarString

from killhouse.core.cells import Cell
from killhouse.core.chance import Chance, SeededChance
from killhouse.core.events import Audience, Event, EventLog
from killhouse.core.rng import Rng
from killhouse.rulesets.base import Action
from killhouse.rulesets.gogogo.ruleset import GoGoGoRuleset
from killhouse.rulesets.gogogo.state import GoState
from killhouse.scenario.loader import loads_scenario
from killhouse.scenario.model import Scenario

RULES = GoGoGoRuleset()


def open_rows(width: int, height: int) -> list[str]:
    """A walled room of plain floor, ``width`` × ``height`` including the walls."""
    top = "#" * width
    middle = "#" + "." * (width - 2) + "#"
    return [top, *([middle] * (height - 2)), top]


def fig(
    ident: str,
    side: str | None,
    x: int,
    y: int,
    facing: str = "e",
    kind: str = "operative",
    equipment: Sequence[str] | None = None,
) -> dict[str, Any]:
    """A figure entry; terrorist operatives get an HE grenade unless ``equipment`` says else."""
    out: dict[str, Any] = {"id": ident, "kind": kind, "at": f"ground:{x},{y}", "facing": facing}
    if side is not None:
        out["side"] = side
    if equipment is None and side == "t" and kind == "operative":
        equipment = ["he"]
    if equipment:
        out["equipment"] = list(equipment)
    return out


def scenario(
    rows: Sequence[str],
    figures: Iterable[Mapping[str, Any]],
    mission: str = "hostage",
    zones: Mapping[str, Sequence[str]] | None = None,
    objectives: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    objects: Sequence[Mapping[str, Any]] = (),
    turn_limit: int | None = None,
) -> Scenario:
    """A gogogo scenario (free deployment unless options say otherwise), through the loader."""
    zones = dict(zones or {})
    figures = list(figures)
    if mission == "hostage" and not any(f.get("kind") == "hostage" for f in figures):
        figures.append(fig("h0", None, 1, 1, kind="hostage"))
    if mission == "hostage":
        zones.setdefault("location", ["ground:1,1-1,1"])
        zones.setdefault("rescue", [f"ground:{len(rows[0]) - 2},1-{len(rows[0]) - 2},1"])
    if mission == "destruction":
        zones.setdefault("bomb_a", ["ground:1,1-1,1"])
    if mission == "assassination":
        zones.setdefault("escape", [f"ground:{len(rows[0]) - 2},1-{len(rows[0]) - 2},1"])
    body: dict[str, Any] = {
        "name": "test",
        "ruleset": "gogogo",
        "map": {"levels": {"ground": "\n".join(rows) + "\n"}, "zones": zones},
        "sides": [{"id": "ct", "controller": "ai"}, {"id": "t", "controller": "ai"}],
        "figures": figures,
        "objectives": {"mission": mission, **dict(objectives or {})},
        "options": {"free_deployment": True, **dict(options or {})},
    }
    if objects:
        body["objects"] = list(objects)
    if turn_limit is not None:
        body["turn_limit"] = turn_limit
    return loads_scenario(_yaml(body))


def _yaml(body: Mapping[str, Any]) -> str:
    """The scenario as YAML text, the map rows as a literal block."""
    data = json.loads(json.dumps(body))
    data["map"]["levels"]["ground"] = LiteralScalarString(body["map"]["levels"]["ground"])
    out = io.StringIO()
    YAML().dump(data, out)
    return out.getvalue()


class ScriptedDice(Chance):
    """Dice given in advance, face by face; records every (purpose, face) in order."""

    def __init__(self, faces: Iterable[int] = ()) -> None:
        self.faces = list(faces)
        self.rolled: list[tuple[str, int]] = []
        self.log: EventLog | None = None

    def _choose(self, weights: Sequence[int], what: str, purpose: str, audience: Audience) -> int:
        if not self.faces:
            raise AssertionError(f"no die left for {purpose!r} (rolled so far: {self.rolled})")
        face = self.faces.pop(0)
        assert 1 <= face <= len(weights), f"face {face} for {what}"
        self.rolled.append((purpose, face))
        return face - 1

    def add(self, *faces: int) -> None:
        self.faces.extend(faces)

    def _record(self, kind: str, purpose: str, audience: Audience, **data: object) -> None:
        if self.log is not None:  # dice are events, as with seeded chance
            self.log.emit(kind, {"purpose": purpose, **data}, audience)


class Table:
    """One game driven straight through the ruleset, with scripted or seeded dice."""

    def __init__(self, scn: Scenario, dice: Chance | None = None, seed: int = 1) -> None:
        self.scenario = scn
        self.log = EventLog()
        if isinstance(dice, ScriptedDice):
            dice.log = self.log  # its dice are events too
        self.chance: Chance = (
            dice if dice is not None else SeededChance(Rng.from_seed(seed), self.log)
        )
        self.state: GoState = RULES.new_state(scn, self.chance, self.log)

    # -- actions ------------------------------------------------------------------------
    def act(self, side: str, kind: str, **args: Any) -> list[Event]:
        start = len(self.log)
        RULES.apply(self.state, Action.make(side, kind, **args), self.chance, self.log)
        return self.log.since(start)

    def order(
        self,
        side: str,
        figure: str,
        posture: str = "hold",
        facing: str | None = None,
        to: tuple[int, int] | None = None,
        path: Sequence[tuple[int, int]] | None = None,
        task: str | None = None,
        grenade: str | None = None,
        target: tuple[int, int] | None = None,
    ) -> None:
        args: dict[str, Any] = {"figure": figure, "posture": posture}
        if to is not None:
            args["to"] = [0, to[0], to[1]]
        if path is not None:
            args["path"] = [[0, x, y] for x, y in path]
        if task is not None:
            args["task"] = task
        if grenade is not None:
            args["grenade"] = grenade
        self.act(side, "order", **args)
        if target is not None:
            self.act(side, "target", figure=figure, at=[0, target[0], target[1]])
        here = self.state.fig(figure).facing
        self.act(side, "face", figure=figure, facing=facing or here)

    def commit(self, side: str) -> None:
        self.act(side, "commit")

    def orders(
        self,
        ct: Mapping[str, Mapping[str, Any]] | None = None,
        t: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        """Give orders for both sides and commit (figures not named HOLD)."""
        for side, given in (("ct", ct or {}), ("t", t or {})):
            for figure, order in given.items():
                self.order(side, figure, **order)
        self.commit("ct")
        self.commit("t")

    def fire(self, ct: Mapping[str, str] | None = None, t: Mapping[str, str] | None = None) -> None:
        """Declare fire for both sides and commit."""
        for side, given in (("ct", ct or {}), ("t", t or {})):
            for figure, target in given.items():
                confirm = {"confirm": True} if self.state.fig(target).kind == "hostage" else {}
                self.act(side, "fire", figure=figure, target=target, **confirm)
        self.commit("ct")
        self.commit("t")

    def turn(
        self,
        ct: Mapping[str, Mapping[str, Any]] | None = None,
        t: Mapping[str, Mapping[str, Any]] | None = None,
        fire_ct: Mapping[str, str] | None = None,
        fire_t: Mapping[str, str] | None = None,
    ) -> None:
        self.orders(ct, t)
        if not self.state.over:
            self.fire(fire_ct, fire_t)

    # -- reading -------------------------------------------------------------------------
    def at(self, figure: str) -> tuple[int, int]:
        pos = self.state.fig(figure).pos
        assert pos is not None
        return (pos.x, pos.y)

    def events(self, kind: str) -> list[Event]:
        return [e for e in self.log.events if e.kind == kind]

    def view(self, side: str) -> dict[str, Any]:
        return RULES.view(self.state, side)


def cell(x: int, y: int) -> Cell:
    return Cell(0, x, y)
