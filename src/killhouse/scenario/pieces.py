"""The ``sides``, ``figures`` and ``objects`` sections of a scenario file, checked into specs.

Figures and objects share one id space (actions and logs name either by id).
Keys outside the core set are the ruleset's: they are accepted only if the
ruleset lists them in ``scenario_keys`` and land in the spec's ``extra``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from killhouse.core.cells import Cell, parse_facing
from killhouse.roster.files import RosterError, load_roster, loads_roster
from killhouse.roster.model import Man, Roster
from killhouse.scenario import limits
from killhouse.scenario.cellref import RefError, blocked_reason, parse_cell
from killhouse.scenario.fields import Fields, Report, suggest
from killhouse.scenario.mapsection import MapParts
from killhouse.scenario.model import FigureSpec, ObjectSpec, SideSpec
from killhouse.scenario.yamlsource import describe, item

SIDE_KEYS = ("id", "name", "controller", "umpire")
FIGURE_KEYS = (
    "id",
    "side",
    "kind",
    "card",
    "stats",
    "name",
    "at",
    "facing",
    "equipment",
    "hidden",
    "from_roster",
)
OBJECT_KEYS = ("id", "type", "at")
KINDS = ("operative", "hostage", "vip")
#: ids appear in commands and logs: letters, digits and - _ . only
ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
CONTROLLER = re.compile(r"^(human|ai|ai:[A-Za-z0-9][A-Za-z0-9_.-]*)$")


@dataclass(frozen=True)
class Extras:
    """The extra keys the ruleset allows per section; ``known`` is False if it could not load."""

    keys: Mapping[str, frozenset[str]]
    known: bool

    def allowed(self, section: str, core: Collection[str]) -> frozenset[str]:
        return frozenset(core) | self.keys.get(section, frozenset())


def _id(fields: Fields, what: str) -> str | None:
    if "id" not in fields.node:
        return None
    value = fields.raw("id")
    if isinstance(value, str) and ID.match(value):
        return value
    hint = (
        f'quote it: id: "{value}"'
        if isinstance(value, int | float)
        else ("for example gunman-1 or team_a")
    )
    fields.report.add(
        fields.at("id"),
        f"expected {what} id of letters, digits, '-', '_' or '.', found {describe(value)}",
        hint,
    )
    return None


def _entries(top: Fields, key: str, one: str, limit: int) -> list[tuple[str, Mapping[Any, Any]]]:
    """The mappings of the list at ``key`` with their paths; other items are reported.

    ``one`` names a single item in messages ("a figure"); a list longer than ``limit`` is
    refused whole, before any item is checked.
    """
    node = top.sequence(key, f"a list of {key}")
    if node is None:
        return []
    if len(node) > limit:
        top.report.add(key, f"the scenario has {len(node)} {key}; the limit is {limit}")
        return []
    out: list[tuple[str, Mapping[Any, Any]]] = []
    for i, raw in enumerate(node):
        path = item(key, i)
        if isinstance(raw, Mapping):
            out.append((path, raw))
        else:
            top.report.add(
                path,
                f"expected a mapping describing {one}, found {describe(raw)}",
                "each item starts with '- id: ...'",
            )
    return out


def _extra(fields: Fields, core: Collection[str], allowed: Collection[str]) -> dict[str, Any]:
    return {
        str(k): fields.plain(str(k))
        for k in fields.node
        if isinstance(k, str) and k not in core and k in allowed
    }


def parse_sides(top: Fields, extras: Extras, bots: Collection[str] = ()) -> list[SideSpec]:
    """The sides; at least one, ids unique, controller human | ai | ai:<bot>.

    ``bots`` are the bot names ``ai:<bot>`` may give (none given: any name is let through).
    """
    sides: list[SideSpec] = []
    seen: dict[str, str] = {}
    entries = _entries(top, "sides", "a side", limits.MAX_SIDES)
    if top.has("sides") and isinstance(top.raw("sides"), list) and not top.raw("sides"):
        top.report.add("sides", "a scenario needs at least one side")
    allowed = extras.allowed("side", SIDE_KEYS)
    for path, raw in entries:
        fields = Fields(raw, path, top.report)
        fields.check_keys(allowed, "a side", unsure=not extras.known)
        fields.require("id")
        side_id = _id(fields, "a side")
        name = fields.text("name")
        controller = "human"
        if fields.has("controller"):
            value = fields.raw("controller")
            bot = value.split(":", 1)[1] if isinstance(value, str) and ":" in value else None
            if isinstance(value, str) and CONTROLLER.match(value) and bots and bot is not None:
                if bot in bots:
                    controller = value
                else:
                    fields.report.add(
                        fields.at("controller"),
                        f"no bot named {bot!r}",
                        suggest(bot, bots),
                    )
            elif isinstance(value, str) and CONTROLLER.match(value):
                controller = value
            else:
                fields.report.add(
                    fields.at("controller"),
                    f"expected human, ai or ai:<bot name>, found {describe(value)}",
                    suggest(value, ("human", "ai"), listing=False)
                    if isinstance(value, str)
                    else "",
                )
        # umpire: true marks the game master's side (neutral figures; it never wins)
        role = "umpire" if fields.boolean("umpire") else "player"
        if side_id is None:
            continue
        if side_id in seen:
            top.report.add(
                fields.at("id"), f"duplicate side id {side_id!r}: {seen[side_id]} has it too"
            )
            continue
        seen[side_id] = path
        sides.append(
            SideSpec(
                side_id,
                name or side_id,
                controller,
                path,
                _extra(fields, SIDE_KEYS, allowed),
                role=role,
            )
        )
    return sides


class Ids:
    """The one id space of figures and objects."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.first: dict[str, str] = {}

    def claim(self, ident: str, path: str) -> bool:
        if ident in self.first:
            self.report.add(
                f"{path}.id",
                f"duplicate id {ident!r}: {self.first[ident]} has it too",
                "figures and objects share one set of ids",
            )
            return False
        self.first[ident] = path
        return True


def _position(fields: Fields, parts: MapParts, *, enterable: bool) -> Cell | None:
    if not fields.has("at"):
        return None
    value = fields.raw("at")
    try:
        cell = parse_cell(value, parts.names, parts.levels)
    except RefError as exc:
        fields.report.add(fields.at("at"), exc.message, exc.hint)
        return None
    if enterable and parts.levels is not None:
        reason = blocked_reason(parts.levels[cell.level], cell.x, cell.y)
        if reason is not None:
            fields.report.add(
                fields.at("at"), f"{value!r} is {reason}", "a figure starts on a cell it may enter"
            )
            return None
    return cell


def _equipment(fields: Fields) -> tuple[str, ...]:
    items = fields.sequence("equipment", "a list of equipment names such as [smg, grenade]")
    if items is None:
        return ()
    out: list[str] = []
    for i, value in enumerate(items):
        if isinstance(value, str) and value.strip():
            out.append(str(value))
        else:
            fields.report.add(
                item(fields.at("equipment"), i),
                f"expected an equipment name, found {describe(value)}",
            )
    return tuple(out)


def _facing(fields: Fields) -> str | None:
    if not fields.has("facing"):
        return None
    value = fields.raw("facing")
    try:
        return parse_facing(value)
    except ValueError as exc:
        fields.report.add(
            fields.at("facing"),
            f"{exc}, found {describe(value)}",
            "n, ne, e, se, s, sw, w, nw, north … north-west, or degrees with 0 = north",
        )
        return None


def _side(fields: Fields, kind: str | None, side_ids: list[str]) -> str | None:
    if kind == "hostage":
        if fields.has("side"):
            fields.report.add(
                fields.at("side"),
                "a hostage belongs to no side",
                "remove the side key: hostages belong to nobody",
            )
        return None
    if not fields.has("side"):
        fields.report.add(
            fields.path,
            "missing required key 'side'",
            "operatives and VIPs belong to a side; hostages have kind: hostage",
        )
        return None
    side = fields.raw("side")
    if isinstance(side, str) and side in side_ids:
        return str(side)
    if not isinstance(side, str):
        fields.expected("side", "a side id")
    else:
        fields.report.add(
            fields.at("side"), f"no side {side!r} in this scenario", suggest(side, side_ids)
        )
    return None


def parse_figures(
    top: Fields, extras: Extras, parts: MapParts, sides: list[SideSpec], ids: Ids,
    roster: Roster | None = None,
) -> list[FigureSpec]:
    """The figures: kind, side, card or stats, place, facing, equipment, secrecy; a figure
    ``from_roster`` draws a man of ``roster`` (see ``scenario_roster``)."""
    side_ids = [s.id for s in sides]
    allowed = extras.allowed("figure", FIGURE_KEYS)
    # a ruleset adds figure kinds (dogs, vehicles, crews) in scenario_keys["kind"]
    kinds = (*KINDS, *sorted(extras.keys.get("kind", frozenset()) - set(KINDS)))
    figures: list[FigureSpec] = []
    drawn: dict[str, str] = {}
    for path, raw in _entries(top, "figures", "a figure", limits.MAX_FIGURES):
        fields = Fields(raw, path, top.report)
        before = top.report.count()
        fields.check_keys(allowed, "a figure", unsure=not extras.known)
        fields.require("id")
        ident = _id(fields, "a figure")
        kind = (
            fields.choice("kind", kinds, ", ".join(kinds[:-1]) + " or " + kinds[-1])
            if fields.has("kind")
            else ("operative")
        )
        side = _side(fields, kind, side_ids)
        card = fields.text("card")
        stats = fields.mapping("stats", "a mapping of stat names to values")
        name = fields.text("name")
        at = _position(fields, parts, enterable=True)
        facing = _facing(fields)
        equipment = _equipment(fields)
        hidden = fields.boolean("hidden")
        extra = _extra(fields, FIGURE_KEYS, allowed)
        plain_stats = fields.plain("stats") if stats is not None else None
        man = _from_roster(fields, roster, drawn)
        if man is not None:
            if stats is not None:
                fields.report.add(
                    fields.at("stats"),
                    "a figure from the roster takes its stats from the roster",
                    "remove stats, or remove from_roster",
                )
            plain_stats = dict(man.characteristics)
            name = name or man.name
            extra = {
                **man.figure,  # the ruleset's keys he brings; the scenario's own keys win
                **extra,
                "roster": man.name,
                "skills": dict(man.skills),
                "wounds": dict(man.wounds),
            }
        if ident is None or not ids.claim(ident, path) or top.report.count() != before:
            continue
        figures.append(
            FigureSpec(
                id=ident,
                side=side,
                kind=kind or "operative",
                path=path,
                card=card,
                stats=plain_stats,
                at=at,
                facing=facing,
                equipment=equipment,
                hidden=bool(hidden),
                name=name,
                extra=extra,
            )
        )
    return figures


def scenario_roster(top: Fields, text: str | None = None) -> tuple[Roster | None, str]:
    """The scenario's ``roster: FILE`` (relative to the scenario file) and the file's text, or
    ``(None, "")``. ``text`` stands in for the file: a game log carries the roster it was
    played with, so a replay draws the same men after the file has moved on (ruling K-16)."""
    if not top.has("roster"):
        return None, ""
    value = top.text("roster")
    if value is None:
        return None, ""
    path = Path(top.report.file).parent / value
    try:
        if text is not None:
            return loads_roster(text, str(path)), text
        roster = load_roster(path)
        return roster, path.read_text(encoding="utf-8")
    except RosterError as exc:
        for problem in exc.problems:
            top.report.add("roster", f"the roster file has a problem: {problem}")
        return None, ""


def _from_roster(fields: Fields, roster: Roster | None, drawn: dict[str, str]) -> Man | None:
    """The man ``from_roster`` names (or ``next``: the first not yet drawn), checked."""
    if not fields.has("from_roster"):
        return None
    wanted = fields.text("from_roster")
    if wanted is None:
        return None
    if roster is None:
        fields.report.add(
            fields.at("from_roster"),
            "the scenario names no roster",
            "add roster: FILE at the top level",
        )
        return None
    if wanted == "next" or wanted.startswith("next:"):
        # ruling K-16: resting (healing), retired and dead men are never drawn;
        # "next:KEY=VALUE" takes the next man whose figure key KEY is VALUE (next:man=commando)
        key, _, value = wanted.removeprefix("next").removeprefix(":").partition("=")
        if wanted != "next" and (not key or not value):
            fields.report.add(
                fields.at("from_roster"),
                f"expected next or next:KEY=VALUE, found {wanted!r}",
                "next:man=commando takes the next man whose man is commando",
            )
            return None
        free = [
            m for m in roster.men
            if m.name not in drawn and m.available()
            and (not key or str(m.figure.get(key)) == value)
        ]
        if not free:
            away = [m for m in roster.men if not m.available()]
            which = f" with {key}={value}" if key else ""
            fields.report.add(
                fields.at("from_roster"),
                f"every man{which} of roster {roster.name!r} is drawn already"
                + (f" ({len(away)} more resting, retired or dead)" if away else ""),
                "recruit more men: killhouse roster new FILE --add" if away else "",
            )
            return None
        man = free[0]
    else:
        try:
            man = roster.man(wanted)
        except KeyError:
            fields.report.add(
                fields.at("from_roster"),
                f"no man {wanted!r} in roster {roster.name!r}",
                suggest(wanted, roster.names()),
            )
            return None
        if man.name in drawn:
            fields.report.add(
                fields.at("from_roster"), f"{man.name!r} is drawn already by {drawn[man.name]}"
            )
            return None
        if man.status == "dead":
            fields.report.add(fields.at("from_roster"), f"{man.name!r} is dead")
            return None
        if not man.available():
            fields.report.add(
                fields.at("from_roster"),
                f"{man.name!r} is {man.status} and misses this game",
                "draw another man, or from_roster: next",
            )
            return None
    drawn[man.name] = fields.path
    return man


def parse_objects(top: Fields, extras: Extras, parts: MapParts, ids: Ids) -> list[ObjectSpec]:
    """The objects (bombs, locks, cameras …): id, type, place and the ruleset's own keys."""
    allowed = extras.allowed("object", OBJECT_KEYS)
    objects: list[ObjectSpec] = []
    for path, raw in _entries(top, "objects", "an object", limits.MAX_OBJECTS):
        fields = Fields(raw, path, top.report)
        before = top.report.count()
        fields.check_keys(allowed, "an object", unsure=not extras.known)
        fields.require("id", "type")
        ident = _id(fields, "an object")
        kind = fields.text("type")
        at = _position(fields, parts, enterable=False)
        extra = _extra(fields, OBJECT_KEYS, allowed)
        if ident is None or not ids.claim(ident, path) or top.report.count() != before:
            continue
        objects.append(ObjectSpec(id=ident, type=kind or "", path=path, at=at, extra=extra))
    return objects
