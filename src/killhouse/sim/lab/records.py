"""One row per game: what the lab reads from a finished game, and the probe that reads it.

The probe is ruleset-blind. It reads the snapshot's ``figures`` list (``id``, ``side``,
``kind``, ``status``, ``at``) and the events' cell fields, never a ruleset's own code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from killhouse.engine.game import Game
from killhouse.rulesets.kit.view import Status
from killhouse.sim.batch import GameSummary

#: statuses of a figure that has fallen: the shared vocabulary and the names rulesets used
#: before they were ported to it (ruling L-2)
FALLEN = frozenset(
    {Status.DEAD.value, Status.OUT_OF_ACTION.value, Status.INCAPACITATED.value, "ooa", "killed"}
)
#: event kinds that are a shot fired
SHOT_KINDS = frozenset({"shot", "shots", "fire", "fired", "shoot"})
#: fields of a shot event that may hold the firer's cell, in order of preference (ruling L-3)
FIRER_CELL_FIELDS = ("from", "firer_at", "firer")
#: fields of a shot event that may name the firer
FIRER_ID_FIELDS = ("firer", "shooter", "figure")

Cell = tuple[int, int, int]


def as_cell(value: Any) -> Cell | None:
    """``[level, x, y]`` as a tuple; ``None`` for anything else."""
    if (
        isinstance(value, list | tuple)
        and len(value) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return int(value[0]), int(value[1]), int(value[2])
    return None


def group_of(figure: Mapping[str, Any]) -> str:
    """The figure's side, or its kind for figures of no side (hostages)."""
    side = figure.get("side")
    if isinstance(side, str) and side:
        return side
    kind = figure.get("kind")
    return kind if isinstance(kind, str) and kind else "none"


def shot_of(data: Mapping[str, Any]) -> tuple[str | None, Cell | None]:
    """The firer's id and cell as far as one shot event tells them."""
    cell = next((c for f in FIRER_CELL_FIELDS if (c := as_cell(data.get(f))) is not None), None)
    firer = next((v for f in FIRER_ID_FIELDS if isinstance(v := data.get(f), str)), None)
    return firer, cell


def _positions(game: Game) -> dict[str, Cell | None]:
    figures = game.ruleset.snapshot(game.state).get("figures", [])
    return {str(f.get("id")): as_cell(f.get("at")) for f in figures if isinstance(f, dict)}


class LabProbe:
    """Watches one game: where each shot is fired from; at the end, every figure's fate.

    A shot event that carries no cell of its firer is placed at the firer's cell in the
    snapshot right after the action that resolved it (ruling L-3).
    """

    def __init__(self) -> None:
        self.cursor = 0
        self.shots: list[tuple[str | None, Cell | None]] = []

    def step(self, game: Game) -> None:
        events = game.log.events
        positions: dict[str, Cell | None] | None = None
        for event in events[self.cursor :]:
            if event.kind not in SHOT_KINDS:
                continue
            firer, cell = shot_of(event.data)
            if cell is None and firer is not None:
                if positions is None:
                    positions = _positions(game)
                cell = positions.get(firer)
            self.shots.append((firer, cell))
        self.cursor = len(events)

    def finish(self, game: Game) -> dict[str, Any]:
        self.step(game)
        figures = [
            f for f in game.ruleset.snapshot(game.state).get("figures", []) if isinstance(f, dict)
        ]
        groups = {str(f.get("id")): group_of(f) for f in figures}
        return {
            "figures": [
                {
                    "id": str(f.get("id")),
                    "group": group_of(f),
                    "status": str(f.get("status")),
                    "at": list(c) if (c := as_cell(f.get("at"))) is not None else None,
                }
                for f in figures
            ],
            "shots": [
                [groups.get(firer or "", "unknown"), *cell] if cell is not None else None
                for firer, cell in self.shots
            ],
        }


@dataclass(frozen=True)
class FigureEnd:
    """A figure at the end of a game: its group (side, or kind), status and last cell."""

    id: str
    group: str
    status: str
    at: Cell | None

    @property
    def fallen(self) -> bool:
        return self.status in FALLEN


@dataclass(frozen=True)
class GameRecord:
    """One game's row: result, length, casualties, figures' fates, the cells shots came from."""

    index: int
    seed: int
    winner: str | None
    reason: str
    turns: int
    casualties: Mapping[str, int]
    figures: tuple[FigureEnd, ...]
    #: (group, level, x, y) of each shot whose firer's cell is known
    shots: tuple[tuple[str, int, int, int], ...]
    #: shots whose firer's cell could not be found
    shots_unplaced: int

    @classmethod
    def from_summary(cls, summary: GameSummary) -> GameRecord:
        extra = summary.extra
        figures = tuple(
            FigureEnd(f["id"], f["group"], f["status"], as_cell(f["at"]))
            for f in extra.get("figures", [])
        )
        shots = [s for s in extra.get("shots", []) if s is not None]
        return cls(
            index=summary.index,
            seed=summary.seed,
            winner=summary.winner,
            reason=summary.reason,
            turns=summary.turns,
            casualties=dict(summary.casualties),
            figures=figures,
            shots=tuple((str(g), int(lv), int(x), int(y)) for g, lv, x, y in shots),
            shots_unplaced=sum(1 for s in extra.get("shots", []) if s is None),
        )

    def fallen(self) -> list[FigureEnd]:
        return [f for f in self.figures if f.fallen]


def csv_header(sides: Iterable[str], groups: Iterable[str]) -> list[str]:
    """The columns of games.csv."""
    return [
        "game",
        "seed",
        "winner",
        "reason",
        "turns",
        *(f"casualties.{g}" for g in groups),
        *(f"shots.{s}" for s in sides),
        "fallen",
    ]


def csv_row(record: GameRecord, sides: Iterable[str], groups: Iterable[str]) -> list[str]:
    """One game as CSV cells: the winner is empty for a draw; fallen ids space-separated."""
    shots = {s: 0 for s in sides}
    for group, *_ in record.shots:
        if group in shots:
            shots[group] += 1
    return [
        str(record.index),
        str(record.seed),
        record.winner or "",
        record.reason,
        str(record.turns),
        *(str(record.casualties.get(g, 0)) for g in groups),
        *(str(n) for n in shots.values()),
        " ".join(f.id for f in record.fallen()),
    ]
