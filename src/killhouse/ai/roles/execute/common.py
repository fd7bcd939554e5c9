"""Shared machinery of the Execute role bots: the side's floor plan, distance fields over it,
batched sight counts, and what shots and blasts are worth (scoring lives here, not in the
rules)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from killhouse.ai.baseline import BaselineBot, cell_of
from killhouse.ai.mirror import SideMirror
from killhouse.core.board import Board
from killhouse.core.cells import Cell
from killhouse.core.geometry import chebyshev, los_pairs
from killhouse.core.paths import UNREACHABLE, DistanceField, field_on
from killhouse.core.rng import Rng
from killhouse.core.steps import Steps
from killhouse.core.terrain import Terrain
from killhouse.rulesets.base import Action
from killhouse.rulesets.execute import facts
from killhouse.rulesets.execute.facts import success_chance
from killhouse.scenario.model import Scenario

_DOOR_CODES = {"open": Terrain.DOOR_OPEN, "closed": Terrain.DOOR_CLOSED,
               "locked": Terrain.DOOR_LOCKED}
#: the path cost the planner gives a locked door: picking it takes a turn or two
LOCK_COST = 4
#: sight masks kept at most (one per enemy square asked about; doors rarely change)
SIGHT_TARGETS = 512
#: move actions ``move_list`` keeps read before it starts afresh
READ_LIMIT = 50_000
#: a move as the bots read it: the action, its figure, its destination, the destination
#: packed in one integer (``pack``; -1 for none) and the figure's number (``figure_number``)
MoveRead = tuple[Action, str, Cell | None, int, int]
#: each action ``move_list`` has read, by id, for the whole process: a read is a value of
#: the action alone, and the ruleset lists the same action objects decision after decision
#: and game after game (its moves are kept by figure, square and cost), while a bot lives
#: for one game. An entry holds a move, ``_OTHERS`` any other action read as ``()``, so no
#: id is reused while kept
_READS: dict[int, MoveRead | tuple[()]] = {}
_OTHERS: dict[int, Action] = {}
#: a number per figure id, for the process (``figure_number``)
_FIGURE_NUMBERS: dict[str, int] = {}
#: step models kept per bot (``step_model``) before it starts afresh
STEPS_LIMIT = 32
#: flat cost arrays kept per bot (``flat_costs``) before it starts afresh
FLAT_LIMIT = 64
#: no known gunman: no shot counts (the compiled scorers)
NO_SHOTS = np.zeros(0, dtype=np.int64)
#: per level shape, every square's (x, y) in row-major order (``sight_to``'s origins)
_EVERY_SQUARE: dict[tuple[int, ...], NDArray[np.int64]] = {}
_PACKED = itemgetter(3)
_NUMBER = itemgetter(4)
#: what shutting off each kind of device is worth to the FBI (a lock opens the way on)
TASK_VALUE = {"lock": 0.6, "camera": 0.4, "alarm": 0.4, "power": 0.5}


def pack(cell: Cell) -> int:
    """A square as one integer: level, row and column in bits 32 up, 16-31 and 0-15 (a map
    of at most 65,536 squares a side), so a decision's destinations go to numpy in one call."""
    return (cell.level << 32) | (cell.y << 16) | cell.x


def figure_number(fid: str) -> int:
    """A small number for ``fid``, the same for the whole process (an index into the
    per-figure arrays a decision builds)."""
    found = _FIGURE_NUMBERS.get(fid)
    if found is None:
        found = _FIGURE_NUMBERS[fid] = len(_FIGURE_NUMBERS)
    return found


def shot_value(view: dict[str, Any], target: object) -> float:
    """What a hit on ``target`` is worth to the side: a gunman on his feet 1, one already down
    0.3, a hostage a loss (the FBI's own people to save; a terrorist's bargaining chip)."""
    seen = next((s for s in view.get("seen", []) if s.get("id") == target), None)
    if seen is None:
        return 0.0
    if seen.get("kind") == "hostage":
        return -2.0 if view.get("role") == "fbi" else -0.5
    return 1.0 if seen.get("status") == "active" else 0.3


class ExecuteBot(BaselineBot):
    """Shared machinery: the floor plan as the side knows it, and distance fields over it."""

    name = "execute-role"

    def __init__(self, scenario: Scenario, side: str) -> None:
        super().__init__(scenario, side)
        #: the public floor plan, doors as this side knows them (smoke does not enter E-6)
        self.mirror = SideMirror(scenario.board, veil=False)
        self.plan = self.mirror.board
        self._door_key: tuple[Any, ...] = ()
        self._costs: list[NDArray[np.int32]] = []
        #: squares believed held by an unseen enemy (a stair whose far end will not let us in)
        self.blocked: dict[Cell, int] = {}
        #: locked doors nobody on the side can pick: walls to the planner
        self.sealed: frozenset[Cell] = frozenset()
        self.own_list: list[dict[str, Any]] = []
        #: per target square, the squares with a clear segment to it (``sight_to``)
        self._sight_to: dict[Cell, NDArray[np.bool_]] = {}
        self._sight_version = -1
        self._moves_of: Sequence[Action] | None = None
        self._moves: list[MoveRead] = []
        #: where each level starts in a flat array of the plan's squares, and its width
        shapes = [lv.terrain.shape for lv in self.plan.levels]
        self._offsets = np.cumsum([0] + [h * w for h, w in shapes[:-1]], dtype=np.int64)
        self._widths = np.array([w for _, w in shapes], dtype=np.int64)
        #: step models by the squares walled off (``step_model``), for the costs they were
        #: made from
        self._steps: dict[tuple[Cell, ...], Steps] = {}
        self._steps_of: list[NDArray[np.int32]] | None = None
        #: the last ``los_flat`` asked, under its others and the plan's sight version
        self._los_flat: tuple[Any, NDArray[np.int64]] = ((), NO_SHOTS)
        #: the view's doors list ``sync`` last read (a view shares it while they stand)
        self._doors_read: list[Any] | None = None
        #: each distance field's flat costs (``flat_costs``), by the field's id
        self._flat_costs: dict[int, tuple[DistanceField, NDArray[np.int64]]] = {}

    # -- what the side knows of the map --------------------------------------------------
    def sync(self, view: dict[str, Any]) -> None:
        """Bring the door states of the plan up to date with the view."""
        listed = view.get("doors", [])
        if listed is self._doors_read and self._costs:
            return  # the very list read last time: the doors as they were
        self._doors_read = listed
        doors = tuple((tuple(d["at"]), d["state"]) for d in listed)
        if doors == self._door_key and self._costs:
            return
        self._door_key = doors
        self.before_plan_change()
        changed = self.mirror.set_terrain(
            (Cell(*at), _DOOR_CODES.get(state, Terrain.DOOR_OPEN)) for at, state in doors
        )
        if self._costs and not changed:
            return
        entry = [c for c in (cell_of(x) for x in view.get("public", {}).get("entry", []))
                 if c is not None]
        self._costs = facts.step_costs(self.plan, entry)
        for lv, cost in zip(self.plan.levels, self._costs, strict=True):
            cost[lv.terrain == Terrain.DOOR_LOCKED] = LOCK_COST

    def before_plan_change(self) -> None:
        """Called before ``sync`` writes the view's doors to the plan: work kept for the
        plan as it stands is finished here (the FBI's explored squares)."""

    def distances(self, goals: Iterable[Cell]) -> DistanceField | None:
        """Walking distance on the known plan to the nearest of ``goals`` (locks cost extra)."""
        blocked = tuple(sorted(self.blocked | dict.fromkeys(self.sealed, 0)))
        targets = tuple(sorted(set(goals)))
        if not targets:
            return None

        def build(board: Board) -> DistanceField:
            return field_on(board, self.step_model(blocked), list(targets))

        return self.mirror.field(("distances", targets, blocked), build)

    def step_model(self, blocked: tuple[Cell, ...]) -> Steps:
        """The known plan's step model (``facts.distances``'s: its step costs, locks at
        ``LOCK_COST``, no squeezing past solid squares) with ``blocked`` walled off, kept
        while the plan's costs stand: a decision's fields all search one model instead of
        building one each."""
        if self._steps_of is not self._costs:
            self._steps_of = self._costs
            self._steps.clear()
        found = self._steps.get(blocked)
        if found is None:
            costs = [c.copy() for c in self._costs]
            for cell in blocked:
                costs[cell.level][cell.y, cell.x] = 0
            walls = [self.plan.solid(i) for i in range(len(self.plan.levels))]
            if len(self._steps) >= STEPS_LIMIT:
                self._steps.clear()
            found = self._steps[blocked] = Steps(self.plan, costs, facts.STEP_RULES, walls)
        return found

    def los_count(self, cell: Cell, others: Sequence[Cell]) -> int:
        """How many of ``others`` (same level) have line of sight to ``cell`` on the known plan."""
        return self.los_counts([cell], others)[cell]

    def los_counts(self, cells: Iterable[Cell], others: Sequence[Cell]) -> dict[Cell, int]:
        """``los_count`` for many cells at once: per level, the sum of each other's sight mask
        (``sight_to``), read off for every cell; an other listed twice counts twice."""
        sums = self.los_grids(others)
        out: dict[Cell, int] = {}
        for c in cells:
            found = sums.get(c.level)
            out[c] = 0 if found is None else found[c.y][c.x]
        return out

    def los_grids(self, others: Sequence[Cell]) -> dict[int, list[list[int]]]:
        """Per level with any of ``others``, how many of them have line of sight to each
        square (``[y][x]``; a level missing here counts none): ``los_counts`` without a
        dict entry per cell, for a caller that reads only some of thousands."""
        sums: dict[int, list[list[int]]] = {}
        by_level: dict[int, list[Cell]] = {}
        for o in others:
            by_level.setdefault(o.level, []).append(o)
        for level, group in by_level.items():
            total = np.zeros(self.plan.levels[level].terrain.shape, dtype=np.int64)
            for o in group:
                total += self.sight_to(o)
            sums[level] = cast(list[list[int]], total.tolist())
        return sums

    def sight_to(self, target: Cell) -> NDArray[np.bool_]:
        """Per square of ``target``'s level, whether the segment from it to ``target`` is clear
        on the known plan: one compiled batch per target, kept until a door changes."""
        if self._sight_version != self.mirror.sight_version:
            self._sight_version = self.mirror.sight_version
            self._sight_to.clear()
        found = self._sight_to.get(target)
        if found is None:
            shape = self.plan.levels[target.level].terrain.shape
            origins = _EVERY_SQUARE.get(shape)
            if origins is None:  # every square's (x, y), row by row, kept per level shape
                ys, xs = np.indices(shape)
                origins = _EVERY_SQUARE[shape] = np.stack([xs.ravel(), ys.ravel()], axis=1)
            ends = np.empty_like(origins)
            ends[:, 0] = target.x
            ends[:, 1] = target.y
            found = los_pairs(self.plan.opaque(target.level), origins, ends).reshape(shape)
            if len(self._sight_to) >= SIGHT_TARGETS:
                self._sight_to.clear()
            self._sight_to[target] = found
        return found

    def flat_costs(self, field: DistanceField) -> NDArray[np.int64]:
        """``field``'s cost of every square of the plan (-1 out of reach), level after level
        and row by row (``_offsets``, ``_widths``), made once per field."""
        found = self._flat_costs.get(id(field))
        if found is None or found[0] is not field:
            if len(self._flat_costs) >= FLAT_LIMIT:
                self._flat_costs.clear()
            rows = [np.where(r == UNREACHABLE, -1, r // field.rules.divisor).ravel()
                    for r in field.raw]
            found = self._flat_costs[id(field)] = (field, np.concatenate(rows).astype(np.int64))
        return found[1]

    def los_flat(self, others: list[Cell]) -> NDArray[np.int64] | None:
        """``los_grids`` flat in the order of ``flat_costs`` (0 on a level with none of
        ``others``), or None with no others."""
        if not others:
            return None
        key = (tuple(others), self.mirror.sight_version)
        if self._los_flat[0] == key:
            return self._los_flat[1]  # the same gunmen on the same plan as last asked
        grids = [np.zeros(lv.terrain.shape, dtype=np.int64) for lv in self.plan.levels]
        for o in others:
            grids[o.level] += self.sight_to(o)
        found = np.concatenate([g.ravel() for g in grids])
        self._los_flat = (key, found)
        return found

    def flat_index(self, cell: Cell) -> int:
        """``cell``'s place in the flat arrays (``flat_costs``)."""
        return int(self._offsets[cell.level]) + cell.y * int(self._widths[cell.level]) + cell.x

    def move_arrays(self, moves: list[MoveRead]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """The moves' squares (packed) and figure numbers as arrays, for a compiled scorer."""
        n = len(moves)
        return (np.fromiter(map(_PACKED, moves), np.int64, n),
                np.fromiter(map(_NUMBER, moves), np.int64, n))

    @staticmethod
    def pick_scored(moves: list[MoveRead], score: NDArray[np.float64], rng: Rng) -> Action | None:
        """``pick`` over the moves with a score (not NaN): the best, ties within 1e-9 broken
        by the generator in list order, as ``pick`` breaks them on the scored list."""
        scored = ~np.isnan(score)
        if not scored.any():
            return None
        tied = np.flatnonzero(score >= score[scored].max() - 1e-9).tolist()
        return moves[tied[rng.below(len(tied))]][0]

    # -- helpers ---------------------------------------------------------------------------
    @staticmethod
    def dest(action: Action) -> Cell | None:
        """Where a move goes: its ``to`` argument (a cell as listed), else the hint's."""
        to = action.get("to")
        return to if type(to) is Cell else cell_of(action.hint.get("to"))

    def move_list(self, actions: Sequence[Action]) -> list[MoveRead]:
        """Every move of ``actions`` read (``MoveRead``), once per decision: a turn lists
        thousands of moves and the scoring passes over them more than once."""
        if self._moves_of is actions:
            return self._moves
        # each action is read once for the process and kept by identity (``_READS``); an
        # action other than a move reads as ``()``, which the filter leaves out. Looked up
        # and filtered in C: a decision lists hundreds
        read = _READS
        if len(read) > READ_LIMIT:
            read.clear()
            _OTHERS.clear()
        got: list[MoveRead | tuple[()] | None] = list(map(read.get, map(id, actions)))
        if None in got:
            for i in [i for i, found in enumerate(got) if found is None]:
                a = actions[i]
                if a.kind == "move":
                    got[i] = read[id(a)] = self.read_move(a)
                else:
                    _OTHERS[id(a)] = a
                    got[i] = read[id(a)] = ()
        out = cast("list[MoveRead]", list(filter(None, got)))
        self._moves_of, self._moves = actions, out
        return out

    @classmethod
    def read_move(cls, a: Action) -> MoveRead:
        """A move as (action, figure, destination, packed destination, figure number)."""
        args = a.args
        to: Cell | None
        # the ruleset lists a move as (("figure", id), ("to", cell)): read it in place
        if (len(args) == 2 and args[0][0] == "figure" and args[1][0] == "to"
                and type(args[1][1]) is Cell):
            fid, to = str(args[0][1]), args[1][1]
        else:
            fid, to = str(a.get("figure")), cls.dest(a)
        return (a, fid, to, -1 if to is None else pack(to), figure_number(fid))

    @staticmethod
    def places(mine: dict[str, dict[str, Any]]) -> dict[str, Cell | None]:
        """Each own figure's square, read from the view once per decision."""
        return {fid: cell_of(f.get("at")) for fid, f in mine.items()}

    @staticmethod
    def first(actions: Sequence[Action], kind: str) -> Action | None:
        return next((a for a in actions if a.kind == kind), None)

    @staticmethod
    def own(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
        return {f["id"]: f for f in view.get("figures", [])}

    def pick(self, scored: list[tuple[float, Action]], rng: Rng) -> Action | None:
        """The best-scored action (ties broken by the bot's generator), or None if empty."""
        if not scored:
            return None
        best = max(s for s, _ in scored)
        tied = [a for s, a in scored if s >= best - 1e-9]
        return tied[rng.below(len(tied))]

    def best_shot(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng,
                  floor: float) -> Action | None:
        """The shot with the best chance times what the hit is worth."""
        scored = [(float(a.hint.get("p", 0)) * shot_value(view, a.get("target")), a)
                  for a in actions if a.kind == "fire"]
        return self.pick([(s, a) for s, a in scored if s > floor], rng)

    def blast_value(self, view: dict[str, Any], center: Cell) -> float:
        """What a blast on ``center`` is worth, judged on the side's own figures and those it
        sees (E-27: radius 3 on the level, in sight of the square; friends and hostages
        count against it)."""
        fbi = view.get("role") == "fbi"
        near: list[tuple[dict[str, Any], Cell]] = []
        for f in [*view.get("figures", []), *view.get("seen", [])]:
            at = cell_of(f.get("at"))
            if (at is not None and at.level == center.level
                    and chebyshev(at, center) <= facts.BLAST_RADIUS
                    and f.get("status") in ("active", "incapacitated")):
                near.append((f, at))
        if not near:
            return 0.0
        ok = los_pairs(self.plan.opaque(center.level), [(center.x, center.y)] * len(near),
                       [(at.x, at.y) for _, at in near])
        value = 0.0
        own = {f["id"] for f in view.get("figures", [])}
        for (f, _), hit in zip(near, ok, strict=True):
            if not hit:
                continue
            if f["id"] in own:
                value -= 1.5
            elif f.get("kind") == "hostage":
                value -= 2.0 if fbi else 0.0
            else:
                value += 1.0 if f.get("status") == "active" else 0.3
        return value

    def best_throw(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng,
                   floor: float) -> Action | None:
        """The throw most likely to catch enemies in its blast (on target or 1-3 long, E-27)."""
        scored = []
        mine = {f["id"]: cell_of(f.get("at")) for f in self.own_list}
        for a in actions:
            if a.kind != "throw":
                continue
            here, aim = mine.get(str(a.get("figure"))), cell_of(a.get("at"))
            if aim is None or (here is not None and chebyshev(here, aim) <= facts.BLAST_RADIUS):
                continue  # never inside one's own blast (E-27)
            tn = int(a.hint.get("tn", 99))
            # the d8 may fall up to the blast radius short and still catch the target
            p_blast = float(success_chance(facts.GRENADE_DIE, tn - facts.BLAST_RADIUS))
            scored.append((p_blast * self.blast_value(view, aim), a))
        return self.pick([(s, a) for s, a in scored if s > floor], rng)

    def pregame(self, view: dict[str, Any], actions: Sequence[Action]) -> Action | None:
        """Set-up, negotiation and planning as the scenario wrote them; never concede."""
        for kind in ("ready", "end_negotiation", "continue"):
            chosen = self.first(actions, kind)
            if chosen is not None:
                return chosen
        return None

    def choose(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action:
        if not actions:
            raise ValueError("no legal action to choose from")
        self._moves_of = None
        self.sync(view)
        self.own_list = list(view.get("figures", []))
        chosen = self.pregame(view, actions) if view.get("phase") not in (
            "grenades", "tasks", "movement", "firing") else self.combat(view, actions, rng)
        if chosen is None:
            chosen = self.first(actions, "done") or super().choose(view, actions, rng)
        return chosen

    def combat(self, view: dict[str, Any], actions: Sequence[Action], rng: Rng) -> Action | None:
        raise NotImplementedError
