"""Reading the objects of an Execute scenario: locks, cameras, alarms, the power and bombs
(5.7, 5.8; rulings E-19, E-20, E-23, E-44), each checked with a field path and a hint."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any, Protocol, cast

from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain, door_mask
from killhouse.rulesets.execute.state import (
    TERRORIST,
    Bomb,
    BombMode,
    Device,
    DeviceType,
    Kind,
    Options,
)
from killhouse.rulesets.execute.tables import tables
from killhouse.scenario.model import Issue, ObjectSpec, Scenario

DEVICE_TYPES = ("lock", "camera", "alarm", "security", "power")
OBJECT_TYPES = (*DEVICE_TYPES, "bomb")


def did_you_mean(word: str, options: list[str]) -> str:
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    return f"did you mean {close[0]!r}?" if close else "known: " + ", ".join(options)


def points_hint(excess: int) -> str:
    n = abs(excess)
    points = f"{n} point{'s' if n != 1 else ''}"
    return f"take {points} off" if excess > 0 else f"add {points}"


def is_bool(value: Any) -> bool:
    return isinstance(value, bool)


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class FigureLike(Protocol):
    """What reading the objects needs of a figure read before them (a remote bomb's holder)."""

    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> Kind: ...


class ObjectReader:
    """Collects issues while reading one scenario; this part reads its objects."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.issues: list[Issue] = []

    def add(self, path: str, message: str, hint: str = "") -> None:
        self.issues.append(Issue(path, message, hint))

    # -- objects -------------------------------------------------------------------------
    def _level(self, obj: ObjectSpec, default: int | None) -> int | None:
        if "level" in obj.extra and "skill" in obj.extra:
            self.add(f"{obj.path}.skill", "give level or skill (the same thing), not both")
            return None
        value = obj.extra.get("level", obj.extra.get("skill", default))
        low, high = tables().device["min_level"], tables().device["max_level"]
        if value is None:
            self.add(obj.path, f"a {obj.type} needs a level", f"add level: N ({low}-{high}, E-20)")
            return None
        if not is_int(value) or not low <= value <= high:
            self.add(f"{obj.path}.level", f"expected a level from {low} to {high}, found {value!r}")
            return None
        return int(value)

    def _covers(self, obj: ObjectSpec) -> frozenset[Cell] | None:
        value = obj.extra.get("covers")
        zones = self.scenario.board.zones
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not names:
            self.add(obj.path, f"a {obj.type} needs covers: a zone name or a list of them",
                     "the squares it watches (ruling E-19)")
            return None
        cells: set[Cell] = set()
        for i, name in enumerate(names):
            if not isinstance(name, str) or name not in zones:
                self.add(f"{obj.path}.covers" + (f"[{i}]" if len(names) > 1 else ""),
                         f"no zone {name!r} on the map",
                         did_you_mean(str(name), sorted(zones)) if zones else "define map.zones")
                return None
            cells |= zones[name]
        return frozenset(cells)

    def objects(self, roles: tuple[str, str], opts: Options,
                figures: Sequence[FigureLike]) -> tuple[list[Device], list[Bomb]]:
        board = self.scenario.board
        devices: list[Device] = []
        bombs: list[Bomb] = []
        lock_cells: dict[Cell, str] = {}
        terrorists = {f.id for f in figures if f.kind == TERRORIST}
        allowed_keys = {
            "lock": {"level", "skill"}, "camera": {"level", "skill", "covers"},
            "alarm": {"level", "skill", "covers"}, "security": {"level", "skill", "covers"},
            "power": {"level", "skill", "links"},
            "bomb": {"level", "skill", "mode", "timer", "holder"},
        }
        for obj in self.scenario.objects:
            if obj.type not in OBJECT_TYPES:
                self.add(f"{obj.path}.type", f"unknown object type {obj.type!r} in Execute",
                         did_you_mean(obj.type, list(OBJECT_TYPES)))
                continue
            for key in obj.extra:
                if key not in allowed_keys[obj.type]:
                    self.add(f"{obj.path}.{key}", f"a {obj.type} has no key {key!r}",
                             "it takes: " + ", ".join(sorted(allowed_keys[obj.type])))
            if obj.at is None:
                self.add(obj.path, f"a {obj.type} needs at: \"level:x,y\"")
                continue
            if obj.type == "bomb":
                bomb = self._bomb(obj, opts, terrorists)
                if bomb is not None:
                    bombs.append(bomb)
                continue
            level = self._level(obj, None)
            if obj.type == "lock":
                if not bool(door_mask(board.levels[obj.at.level].terrain)[obj.at.y, obj.at.x]):
                    self.add(f"{obj.path}.at", f"{self.scenario.cell_name(obj.at)!r} is not a door",
                             "a lock is on a door square")
                    continue
                if level is not None:
                    devices.append(Device(obj.id, "lock", obj.at, level))
                    lock_cells[obj.at] = obj.id
                continue
            kind: DeviceType = "alarm" if obj.type == "security" else cast(DeviceType, obj.type)
            if kind == "power":
                if level is not None:
                    links = obj.extra.get("links")
                    devices.append(Device(obj.id, kind, obj.at, level,
                                          links=tuple(links) if isinstance(links, list) else ()))
                continue
            covers = self._covers(obj)
            if level is not None and covers is not None:
                devices.append(Device(obj.id, kind, obj.at, level, covers=covers))
        # power links: default every camera and alarm (ruling E-19)
        watched = [d.id for d in devices if d.type in ("camera", "alarm")]
        for d in devices:
            if d.type != "power":
                continue
            obj = next(o for o in self.scenario.objects if o.id == d.id)
            if "links" not in obj.extra:
                d.links = tuple(watched)
                continue
            raw_links = obj.extra.get("links")
            if not isinstance(raw_links, list) or not all(isinstance(x, str) for x in raw_links):
                self.add(f"{obj.path}.links", "expected a list of camera and alarm ids")
                continue
            for j, link in enumerate(raw_links):
                if link not in watched:
                    self.add(f"{obj.path}.links[{j}]", f"no camera or alarm {link!r}",
                             did_you_mean(link, watched) if watched else "")
        # locked doors drawn on the map without a lock object (ruling E-44 default level)
        for level_index, lv in enumerate(board.levels):
            ys, xs = (lv.terrain == Terrain.DOOR_LOCKED).nonzero()
            for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
                cell = Cell(level_index, x, y)
                if cell in lock_cells:
                    continue
                drawn = int(lv.lock[y, x])
                level = drawn if drawn > 0 else opts.default_lock_level
                if level > tables().device["max_level"]:
                    self.add("map", f"the lock at {self.scenario.cell_name(cell)!r} has level "
                             f"{level}; locks are 1-10 (ruling E-20)")
                    continue
                devices.append(Device(f"lock@{self.scenario.cell_name(cell)}", "lock", cell, level))
        return devices, bombs

    def _bomb(self, obj: ObjectSpec, opts: Options, terrorists: set[str]) -> Bomb | None:
        board = self.scenario.board
        assert obj.at is not None
        if not board.passable(obj.at):
            self.add(f"{obj.path}.at", f"{self.scenario.cell_name(obj.at)!r} cannot hold a bomb",
                     "bombs are left on a floor square")
            return None
        level = self._level(obj, opts.bomb_level)
        mode = obj.extra.get("mode", "timer")
        if mode not in ("timer", "remote"):
            self.add(f"{obj.path}.mode", f"expected timer or remote, found {mode!r}",
                     did_you_mean(str(mode), ["timer", "remote"]))
            return None
        timer = obj.extra.get("timer")
        holder = obj.extra.get("holder")
        if mode == "timer":
            if timer is None:
                timer = opts.min_timer
            if not is_int(timer) or timer < opts.min_timer:
                self.add(f"{obj.path}.timer", f"a timer bomb explodes at the end of a turn "
                         f"≥ min_timer ({opts.min_timer}); found {timer!r}", "ruling E-23")
                return None
            if holder is not None:
                self.add(f"{obj.path}.holder", "only a remote bomb has a trigger holder")
                return None
        else:
            if timer is not None:
                self.add(f"{obj.path}.timer", "a remote bomb has no timer", "remove timer")
                return None
            if not isinstance(holder, str) or holder not in terrorists:
                self.add(f"{obj.path}.holder" if holder is not None else obj.path,
                         f"a remote bomb needs holder: a terrorist id, found {holder!r}",
                         did_you_mean(str(holder), sorted(terrorists)) if terrorists else "")
                return None
        if level is None:
            return None
        return Bomb(obj.id, obj.at, level, cast(BombMode, mode),
                    int(timer) if mode == "timer" and timer is not None else None,
                    holder if mode == "remote" else None)
