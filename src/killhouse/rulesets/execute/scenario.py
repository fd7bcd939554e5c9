"""Reading an Execute scenario: sides, options, objectives, cards, equipment, devices and bombs.

``read_scenario`` is used twice: ``check_scenario`` reports its issues (each with a field
path and a hint), and ``new_state`` builds the game from its result. The scenario file plays
the terrorists' hidden setup (pre-game step 2): it places every terrorist, hostage and bomb.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from killhouse.core.cells import Cell
from killhouse.core.terrain import Terrain, passable_mask
from killhouse.rulesets.execute.scenario_objects import (
    ObjectReader,
    did_you_mean,
    is_bool,
    is_int,
    points_hint,
)
from killhouse.rulesets.execute.state import (
    AGENT,
    HOSTAGE,
    TERRORIST,
    Bomb,
    Device,
    Kind,
    Options,
    WeaponId,
    weapon_id,
)
from killhouse.rulesets.execute.tables import STATS, Card, tables
from killhouse.scenario.model import FigureSpec, Issue, Scenario
from killhouse.scenario.objectives import Objectives, read_objectives

FBI_ROLE, TERRORIST_ROLE = "fbi", "terrorists"
_ROLE_GUESS = {
    "fbi": FBI_ROLE, "hru": FBI_ROLE, "police": FBI_ROLE, "swat": FBI_ROLE,
    "terrorists": TERRORIST_ROLE, "terrorist": TERRORIST_ROLE, "tangos": TERRORIST_ROLE,
    "hostage-takers": TERRORIST_ROLE,
}
OPTION_KEYS = (
    "open_map", "fbi_count", "grenades_per_figure", "max_armour_level", "allow_printed_cards",
    "min_timer", "bomb_level", "default_lock_level", "negotiation", "max_messages",
    "terrorists_use_fbi_cards",
)
# canonical names of the shared vocabulary; the file may write extraction, rescue, deployment
OBJECTIVE_KEYS = ("mission", "entry", "rescue_zone", "defender_start")
MISSIONS = ("hostage-rescue",)
WEAPONS = ("pistol", "smg", "sniper")
_ROMAN = {"0": 0, "i": 1, "ii": 2, "iii": 3, "1": 1, "2": 2, "3": 3}


@dataclass
class FigureSetup:
    """One figure as the scenario gives it, with its card and loadout resolved."""

    id: str
    kind: Kind
    side: str | None
    card: Card
    name: str
    weapon: WeaponId | None
    armour: int
    grenades: int
    at: Cell | None
    custom: bool


@dataclass
class Setup:
    """A scenario read for Execute; ``new_state`` builds the game from it."""

    fbi: str
    terrorists: str
    options: Options
    entry: frozenset[Cell]
    extraction: frozenset[Cell]
    deployment: frozenset[Cell] | None
    figures: list[FigureSetup] = field(default_factory=list)
    devices: list[Device] = field(default_factory=list)
    bombs: list[Bomb] = field(default_factory=list)


class _Reader(ObjectReader):
    """Collects issues while reading one scenario."""

    # -- sides ---------------------------------------------------------------------------
    def sides(self) -> tuple[str, str] | None:
        """The FBI's and the terrorists' side ids (ruling E-57: ``role``, else guessed)."""
        roles: dict[str, str] = {}
        if len(self.scenario.sides) != 2:
            self.add("sides", f"Execute has two sides, the FBI and the terrorists; found "
                     f"{len(self.scenario.sides)}", "give one side role: fbi, one role: terrorists")
            return None
        for i, side in enumerate(self.scenario.sides):
            role = side.extra.get("role")
            if role is None:
                role = _ROLE_GUESS.get(side.id.lower())
                if role is None:
                    self.add(f"sides[{i}]", f"cannot tell whether side {side.id!r} is the FBI or "
                             "the terrorists", "add role: fbi or role: terrorists")
                    continue
            elif role not in (FBI_ROLE, TERRORIST_ROLE):
                self.add(f"sides[{i}].role", f"expected fbi or terrorists, found {role!r}",
                         did_you_mean(str(role), [FBI_ROLE, TERRORIST_ROLE]))
                continue
            if role in roles:
                self.add(f"sides[{i}].role", f"two sides have role {role!r}",
                         "one side is the FBI, the other the terrorists")
                continue
            roles[str(role)] = side.id
        if len(roles) != 2:
            return None
        return roles[FBI_ROLE], roles[TERRORIST_ROLE]

    # -- options -------------------------------------------------------------------------
    def options(self, side_ids: tuple[str, str] | None) -> Options:
        t = tables()
        opts = Options(
            fbi_count=t.defaults["fbi_count"],
            grenades_per_figure=t.grenade["per_figure"],
            min_timer=t.bomb["min_timer"],
            bomb_level=t.bomb["default_level"],
            default_lock_level=t.device["default_lock_level"],
            max_messages=t.defaults["max_messages"],
            turn_limit=self.scenario.turn_limit or t.defaults["turn_limit"],
        )
        raw: Mapping[str, Any] = self.scenario.options
        for key, value in raw.items():
            path = f"options.{key}"
            if key not in OPTION_KEYS:
                self.add(path, f"unknown option {key!r} for ruleset 'execute'",
                         did_you_mean(str(key), list(OPTION_KEYS)))
                continue
            if key in ("open_map", "allow_printed_cards", "negotiation",
                       "terrorists_use_fbi_cards"):
                if not is_bool(value):
                    self.add(path, f"expected true or false, found {value!r}")
                    continue
                setattr(opts, key, bool(value))
            elif key == "max_armour_level":
                self._armour_caps(value, side_ids, opts)
            else:
                low, high = {
                    "fbi_count": (1, 100), "grenades_per_figure": (0, 100), "min_timer": (1, 1000),
                    "bomb_level": (1, 10), "default_lock_level": (1, 10), "max_messages": (0, 100),
                }[key]
                if not is_int(value) or not low <= value <= high:
                    self.add(path, f"expected a whole number from {low} to {high}, found {value!r}")
                    continue
                setattr(opts, key, int(value))
        cap = t.defaults["max_armour_level"]
        if side_ids is not None:
            for sid in side_ids:
                opts.max_armour_level.setdefault(sid, cap)
        return opts

    def _armour_caps(self, value: Any, side_ids: tuple[str, str] | None, opts: Options) -> None:
        path = "options.max_armour_level"
        if is_int(value):
            if not 0 <= value <= 3:
                self.add(path, f"expected an armour level 0 to 3, found {value}")
                return
            for sid in side_ids or ():
                opts.max_armour_level[sid] = int(value)
            return
        if not isinstance(value, Mapping):
            self.add(path, f"expected a level 0 to 3 or a mapping side -> level, found {value!r}")
            return
        for sid, level in value.items():
            if side_ids is not None and sid not in side_ids:
                self.add(f"{path}.{sid}", f"no side {sid!r} in this scenario",
                         did_you_mean(str(sid), list(side_ids)))
            elif not is_int(level) or not 0 <= level <= 3:
                self.add(f"{path}.{sid}", f"expected an armour level 0 to 3, found {level!r}")
            else:
                opts.max_armour_level[str(sid)] = int(level)

    # -- objectives ----------------------------------------------------------------------
    def zone(self, objs: Objectives, key: str, default: str | None) -> frozenset[Cell] | None:
        """The squares of the zone (or zones) an objective names; ``default`` when not given."""
        name = objs.get(key, default)
        if name is None:
            return None
        if isinstance(name, list) and name:  # several zones together
            cells: set[Cell] = set()
            for n in name:
                part = self.zone_named(objs, key, n)
                if part is None:
                    return None
                cells |= part
            return frozenset(cells)
        return self.zone_named(objs, key, name)

    def zone_named(self, objs: Objectives, key: str, name: Any) -> frozenset[Cell] | None:
        zones = self.scenario.board.zones
        if not isinstance(name, str):
            self.add(objs.path(key), f"expected a zone name or a list of them, found "
                     f"{name!r}")
            return None
        if name not in zones:
            self.add(objs.path(key) if key in objs else "objectives",
                     f"no zone {name!r} on the map for the {objs.written(key)} squares",
                     did_you_mean(name, sorted(zones)) if zones else
                     "define it under map.zones or with a legend symbol's zone key")
            return None
        return zones[name]

    def objectives(self) -> tuple[frozenset[Cell], frozenset[Cell], frozenset[Cell] | None]:
        # the shared vocabulary (scenario/objectives.py): extraction and rescue_zone are one
        # key, deployment is defender_start
        objs, issues = read_objectives(self.scenario.objectives, OBJECTIVE_KEYS)
        for issue in issues:
            self.add(issue.path, issue.message, issue.hint)
        mission = objs.get("mission", MISSIONS[0])
        if mission not in MISSIONS:
            self.add(objs.path("mission"), f"unknown mission {mission!r}",
                     did_you_mean(str(mission), list(MISSIONS)))
        entry = self.zone(objs, "entry", "entry") or frozenset()
        board = self.scenario.board
        # each level's passable squares read once (``board.passable`` per square, as a mask)
        open_ = [passable_mask(lv.terrain) for lv in board.levels]
        for cell in sorted(entry):
            passable = board.in_bounds(cell) and bool(open_[cell.level][cell.y, cell.x])
            # ruling E-66: a window may be an entry square (climbed through, never stood in)
            if not passable and board.terrain(cell) != Terrain.WINDOW:
                self.add(objs.path("entry"), f"entry square {self.scenario.cell_name(cell)!r} "
                         "cannot be entered", "entry squares are floor, doors that are not "
                         "locked, windows or stairs (ruling E-34)")
        # ruling E-31: the extraction squares are by default the entry squares
        extraction = entry
        if "rescue_zone" in objs:
            extraction = self.zone(objs, "rescue_zone", None) or frozenset()
        deployment = (self.zone(objs, "defender_start", None)
                      if "defender_start" in objs else None)
        return entry, extraction, deployment

    # -- figures -------------------------------------------------------------------------
    def card(self, spec: FigureSpec, kind: str, opts: Options) -> tuple[Card, bool] | None:
        t = tables()
        path = spec.path
        if spec.card is not None and spec.stats is not None:
            self.add(path, "give either card or stats, not both")
            return None
        budget = t.point_buy["hostage" if kind == HOSTAGE else "combatant"]
        if spec.card is not None:
            pool = t.hostage_cards if kind == HOSTAGE else t.combatant_cards
            if kind == TERRORIST and not opts.terrorists_use_fbi_cards:
                pool = t.terrorist_cards  # E-33: the printed FBI cards are the FBI's
            card = pool.get(spec.card)
            if card is None:
                other = t.card(spec.card)
                if kind == TERRORIST and spec.card in t.fbi_cards:
                    self.add(f"{path}.card", f"card {spec.card!r} is an FBI card; terrorists "
                             "use terrorist cards or stats (ruling E-33)",
                             "set options.terrorists_use_fbi_cards: true to allow it")
                elif other is not None:
                    what = "a hostage" if kind == HOSTAGE else "a combatant"
                    self.add(f"{path}.card", f"card {spec.card!r} is not a card for {what}",
                             "hostages use hostage_* cards; agents and terrorists the others")
                else:
                    self.add(f"{path}.card", f"no stat card {spec.card!r} in ruleset 'execute'",
                             did_you_mean(spec.card, sorted(pool)))
                return None
            if not opts.allow_printed_cards and card.total != budget:
                self.add(f"{path}.card", f"card {spec.card!r} has {card.total} points, not "
                         f"{budget} (ruling E-33)", "set options.allow_printed_cards: true to "
                         "play the printed cards as printed")
                return None
            return card, False
        if spec.stats is None:
            hint = ("for example card: hostage_male" if kind == HOSTAGE
                    else "for example card: standard_terrorist, or stats: {movement: 6, ...}")
            self.add(path, "a figure needs a card or stats", hint)
            return None
        return self.custom(spec, kind, budget)

    def custom(self, spec: FigureSpec, kind: str, budget: int) -> tuple[Card, bool] | None:
        path = f"{spec.path}.stats"
        stats = spec.stats or {}
        bounds = tables().stat_bounds
        ok = True
        for key in stats:
            if key not in STATS:
                self.add(f"{path}.{key}", f"unknown stat {key!r}",
                         did_you_mean(str(key), list(STATS)))
                ok = False
        values: dict[str, int] = {}
        for stat in STATS:
            if stat not in stats:
                self.add(path, f"missing stat {stat!r}", "a card has all six: " + ", ".join(STATS))
                ok = False
                continue
            value = stats[stat]
            low, high = bounds[stat]
            if not is_int(value) or not low <= value <= high:
                self.add(f"{path}.{stat}", f"expected {stat} from {low} to {high} (ruling E-33), "
                         f"found {value!r}")
                ok = False
                continue
            values[stat] = int(value)
        if not ok:
            return None
        total = sum(values.values())
        if total != budget:
            what = "hostage" if kind == HOSTAGE else "combatant"
            self.add(path, f"the stats sum to {total}; a custom {what} card has exactly {budget} "
                     "points (ruling E-33)", points_hint(total - budget))
            return None
        name = spec.name or spec.id
        card = Card(spec.id, name, "custom", values["movement"], values["firearms"],
                    values["grenades"], values["electronics"], values["evasion"],
                    values["vitality"])
        return card, True

    def equipment(self, spec: FigureSpec, kind: str, side: str | None,
                  opts: Options) -> tuple[WeaponId | None, int, int] | None:
        path = f"{spec.path}.equipment"
        if kind == HOSTAGE:
            if spec.equipment:
                self.add(path, "hostages carry nothing (rulings E-11, E-17, E-28)", "remove it")
                return None
            return None, 0, 0
        weapon: WeaponId | None = None
        armour = 0
        grenades: int | None = None
        ok = True
        for i, item in enumerate(spec.equipment):
            token = item.strip().lower()
            if token in WEAPONS:
                if weapon is not None:
                    self.add(f"{path}[{i}]", "a combatant carries exactly one weapon (ruling E-11)")
                    ok = False
                weapon = weapon_id(token)
            elif token.startswith(("armour-", "armor-")):
                level = _ROMAN.get(token.split("-", 1)[1])
                if level is None:
                    self.add(f"{path}[{i}]",
                             f"expected armour-1, armour-2 or armour-3, found {item!r}")
                    ok = False
                    continue
                cap = opts.armour_cap(side or "")
                if level > cap:
                    self.add(f"{path}[{i}]", f"armour level {level} is above this side's cap "
                             f"{cap} (options.max_armour_level, ruling E-17)")
                    ok = False
                armour = level
            elif token == "grenade":
                grenades = (grenades or 0) + 1
            else:
                self.add(f"{path}[{i}]", f"unknown equipment {item!r}",
                         did_you_mean(token, [*WEAPONS, "armour-1", "armour-2", "armour-3",
                                              "grenade"]))
                ok = False
        if not ok:
            return None
        # ruling E-11: SMG by default; ruling E-48: listed grenades override grenades_per_figure
        return (weapon or weapon_id(tables().default_weapon), armour,
                opts.grenades_per_figure if grenades is None else grenades)

    def figures(self, roles: tuple[str, str], opts: Options,
                deployment: frozenset[Cell] | None, entry: frozenset[Cell]) -> list[FigureSetup]:
        fbi, terr = roles
        out: list[FigureSetup] = []
        used_cards: dict[str, str] = {}
        placed: dict[Cell, str] = {}
        board = self.scenario.board
        for spec in self.scenario.figures:
            if spec.kind == "vip":
                self.add(f"{spec.path}.kind", "Execute has no VIPs", "use kind: hostage")
                continue
            if spec.kind == HOSTAGE:
                kind = HOSTAGE
            elif spec.side == fbi:
                kind = AGENT
            elif spec.side == terr:
                kind = TERRORIST
            else:
                continue
            got = self.card(spec, kind, opts)
            gear = self.equipment(spec, kind, spec.side, opts)
            if kind == AGENT:
                if spec.at is not None:
                    self.add(f"{spec.path}.at", "FBI agents start off-map and come in through the "
                             "entry squares (ruling E-34)", "remove at")
                if spec.card is not None:
                    if spec.card in used_cards:
                        self.add(f"{spec.path}.card", f"card {spec.card!r} is already used by "
                                 f"{used_cards[spec.card]!r}", "the roster is of distinct cards "
                                 "(ruling E-36)")
                    used_cards[spec.card] = spec.id
            else:
                if spec.at is None:
                    self.add(spec.path, "terrorists and hostages are placed at setup",
                             "add at: \"level:x,y\"")
                else:
                    where = self.scenario.cell_name(spec.at)
                    if spec.at in placed:
                        self.add(f"{spec.path}.at", f"{where!r} already holds {placed[spec.at]!r}",
                                 "one figure per square (ruling E-4)")
                    placed[spec.at] = spec.id
                    if deployment is not None and spec.at not in deployment:
                        self.add(f"{spec.path}.at", f"{where!r} is outside the deployment zone",
                                 "objectives.deployment names where the terrorists may set up")
                    if spec.at in entry:
                        self.add(f"{spec.path}.at", f"{where!r} is an FBI entry square",
                                 "entry squares are kept free for the insertion (E-34)")
                    if not board.passable(spec.at):
                        self.add(f"{spec.path}.at", f"{where!r} cannot be entered")
            if got is None or gear is None:
                continue
            card, custom = got
            weapon, armour, grenades = gear
            out.append(FigureSetup(spec.id, kind, spec.side, card,
                                   spec.name or (card.name if not custom else spec.id),
                                   weapon, armour, grenades, spec.at, custom))
        # ruling E-62: the file places every terrorist and hostage; E-32's force is advice
        agents = [f for f in out if f.kind == AGENT]
        if len(agents) > opts.fbi_count:
            self.add("figures", f"the FBI lists {len(agents)} agents but fbi_count is "
                     f"{opts.fbi_count}", "raise options.fbi_count or remove agents (E-32)")
        if not any(f.kind == TERRORIST for f in out) and not any(
            s.side == terr for s in self.scenario.figures
        ):
            self.add("figures", "the terrorists have no figures", "add at least one terrorist")
        return out


def read_scenario(scenario: Scenario) -> tuple[Setup | None, list[Issue]]:
    """The scenario read for Execute, or ``None`` with the issues that stop it."""
    reader = _Reader(scenario)
    roles = reader.sides()
    opts = reader.options(roles)
    entry, extraction, deployment = reader.objectives()
    if roles is None:
        return None, reader.issues
    figures = reader.figures(roles, opts, deployment, entry)
    devices, bombs = reader.objects(roles, opts, figures)
    if not entry:
        reader.add("objectives", "the FBI needs entry squares", "name a zone in objectives.entry")
    if reader.issues:
        return None, reader.issues
    return Setup(roles[0], roles[1], opts, entry, extraction, deployment, figures, devices,
                 bombs), []

