"""Grenades, launchers, satchels, demolition charges, Claymores, smoke and illumination in play
(digest 9; rulings C-28 … C-36 and ours C-87 …).

The pure mechanics are in ``grenades``, ``blasts``, ``claymore`` and ``clouds``; this module
holds what lies on the map between tasks (prepared grenades, devices waiting for the
Bookkeeping, demolition timers, placed Claymores, clouds, loaded launchers) and the moves that
use them. The turn's helpers live in ``flow``, imported when a move runs (``flow`` declares
these moves: ruling C-87).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import Audience, EventLog
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import blasts, claymore, clouds, fire, grenades, ground
from killhouse.rulesets.commando.characters import skill_chance, skill_check
from killhouse.rulesets.commando.dice import percent_check
from killhouse.rulesets.commando.men import ManState, Posture
from killhouse.rulesets.commando.observation import in_range
from killhouse.rulesets.commando.tables import tables
from killhouse.rulesets.commando.turn import burn
from killhouse.rulesets.kit import Arg, Move
from killhouse.scenario.cellref import RefError, blocked_reason, parse_cell
from killhouse.scenario.model import Issue, Scenario

if TYPE_CHECKING:
    from killhouse.rulesets.commando.state import CommandoState

#: thrown devices, and what preparing and throwing each costs (digest 5.2)
GRENADES = ("frag", "smoke", "illumination")
THROWN = (*GRENADES, "satchel")
#: fired rounds (ruling C-33: they go off at once) and how each is made ready again (8.4)
LAUNCHERS = ("rifle_grenade", "thump_gun", "rocket", "law")
LOAD_COST = {"rifle_grenade": "affix_rifle_grenade", "thump_gun": "reload",
             "rocket": "reload_rocket_shell"}
#: every item a scenario may put in a man's ``equipment`` besides firearms (ruling C-88)
ITEMS = (*THROWN, *LAUNCHERS, "claymore", "demolition")
#: the open-ended last bands, "36+" and "68+" (ruling C-31)
OPEN_BANDS = {"rocket": 36, "law": 68}
FACINGS = tuple(blasts.OFFSETS)
#: ruling C-36: a Claymore is set off from up to 20 squares away
DETONATE_REACH = 20
#: ruling C-33: a demolition charge's timer, in turns
TIMER_MAX = 5
#: ruling C-89: scenario zones whose names start so are rooms; "large" ones count as Open
ROOM, LARGE = "room", "large"


@dataclass
class Live:
    """A device that will go off: a thrown grenade or satchel (this Bookkeeping), a dropped
    prepared grenade, or a demolition charge with its timer (ruling C-33, C-77)."""

    id: str
    device: str
    at: Cell
    side: str
    owner: str
    placed: int
    timer: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "device": self.device, "at": cell_json(self.at),
                "timer": self.timer, "owner": self.owner}


@dataclass
class Mine:
    """A placed Claymore: its square and facing (C-36)."""

    id: str
    side: str
    owner: str
    at: Cell
    facing: str

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "at": cell_json(self.at), "facing": self.facing,
                "owner": self.owner}


@dataclass
class Ordnance:
    """What lies on the map between tasks; part of ``CommandoState``."""

    prepared: dict[str, str] = field(default_factory=dict)     # man -> prepared device
    loaded: dict[str, set[str]] = field(default_factory=dict)  # man -> launchers ready
    live: list[Live] = field(default_factory=list)
    mines: list[Mine] = field(default_factory=list)
    clouds: list[clouds.Cloud] = field(default_factory=list)
    work: dict[str, int] = field(default_factory=dict)  # man -> turn he last worked a charge
    seq: int = 0

    def next_id(self, prefix: str) -> str:
        self.seq += 1
        return f"{prefix}{self.seq}"


def scenario_mines(scenario: Scenario) -> tuple[list[tuple[str, Cell, str]], list[Issue]]:
    """Claymores set by the scenario (C-36): ``options.claymores``, a list of ``{side, at,
    facing}``; each bad entry is one issue."""
    raw = scenario.options.get("claymores", [])
    out: list[tuple[str, Cell, str]] = []
    issues: list[Issue] = []
    if not isinstance(raw, list):
        return out, [Issue("options.claymores", "must be a list of {side, at, facing}",
                           'for example [{side: guards, at: "ground:5,4", facing: E}]')]
    names = [lv.name for lv in scenario.board.levels]
    sides = [s.id for s in scenario.sides]
    for i, entry in enumerate(raw):
        path = f"options.claymores[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"side", "at", "facing"}:
            issues.append(Issue(path, "a Claymore needs exactly side, at and facing",
                                '{side: guards, at: "ground:5,4", facing: E}'))
            continue
        if entry["side"] not in sides:
            issues.append(Issue(f"{path}.side", f"unknown side {entry['side']!r}",
                                f"one of {', '.join(sides)}"))
            continue
        if entry["facing"] not in FACINGS:
            issues.append(Issue(f"{path}.facing", f"unknown facing {entry['facing']!r}",
                                f"one of {', '.join(FACINGS)}"))
            continue
        try:
            at = parse_cell(entry["at"], names, scenario.board.levels)
        except RefError as err:
            issues.append(Issue(f"{path}.at", err.message, err.hint))
            continue
        blocked = blocked_reason(scenario.board.levels[at.level], at.x, at.y)
        if blocked:
            issues.append(Issue(f"{path}.at", f"a Claymore cannot lie in {blocked}",
                                "put it on an open square"))
            continue
        out.append((str(entry["side"]), at, str(entry["facing"])))
    return out, issues


def setup(state: CommandoState) -> None:
    """At the start: launchers loaded, rifle grenades not yet affixed (ruling C-88); the
    scenario's Claymores in place (C-36)."""
    for man in state.men.values():
        ready: set[str] = {d for d in ("thump_gun", "rocket") if d in man.carried}
        if ready:
            state.ordnance.loaded[man.id] = ready
    mines, _ = scenario_mines(state.scenario)
    for side, at, facing in mines:
        o = state.ordnance
        o.mines.append(Mine(o.next_id("m"), side, "scenario", at, facing))


# -- the map as the throw sees it --------------------------------------------------------------


def between(a: Cell, b: Cell) -> list[Cell]:
    """The squares strictly between two squares on one level, stepped along the longer axis
    and rounded to the nearest square (ruling C-90)."""
    dx, dy = b.x - a.x, b.y - a.y
    n = max(abs(dx), abs(dy))
    out = []
    for i in range(1, n):
        x = a.x + (dx * i * 2 + n) // (2 * n)
        y = a.y + (dy * i * 2 + n) // (2 * n)
        out.append(Cell(a.level, x, y))
    return out


def by_wall(state: CommandoState, at: Cell) -> bool:
    """Ruling C-90: a square orthogonally next to a wall cell is "adjacent to a wall"."""
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        c = Cell(at.level, at.x + dx, at.y + dy)
        if state.board.in_bounds(c) and state.board.terrain(c) is Terrain.WALL:
            return True
    return False


def room_of(state: CommandoState, at: Cell) -> str | None:
    """The scenario zone that makes ``at`` indoors (ruling C-89), if any."""
    for name in sorted(state.board.zones):
        if name.startswith((ROOM, LARGE)) and state.board.in_zone(at, name):
            return name
    return None


def environment(state: CommandoState, at: Cell) -> str:
    """Ruling C-28 on the map (our C-89): Open outdoors or in a "large" zone; inside a room
    zone, Vented if a door cell next to the room stands open, else Closed (windows are read as
    closed, C-79)."""
    room = room_of(state, at)
    if room is None or room.startswith(LARGE):
        return "open"
    cells = state.board.zone_cells(room)
    for c in cells:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                n = Cell(c.level, c.x + dx, c.y + dy)
                if state.board.in_bounds(n) and state.board.terrain(n) is Terrain.DOOR_OPEN:
                    return "vented"
    return "closed"


def sees_cell(state: CommandoState, side: str, at: Cell) -> bool:
    """Whether a man of ``side`` in action has the square in LOS within observation range."""
    from killhouse.rulesets.commando import flow

    for m in state.up(side):
        p = state.pos[m.id]
        if in_range(flow.rng_between(p, at), state.weather, light_at(state, at)) and \
                flow.has_los(state, p, at):
            return True
    return False


def light_at(state: CommandoState, at: Cell) -> str:
    """Ruling C-35: within 5 squares of an illumination burst targets are seen at Day range."""
    if clouds.illuminated(at, state.ordnance.clouds, state.turn):
        return "day"
    return state.light


def seen_by(state: CommandoState, side: str, men: Iterable[str]) -> bool:
    return all(state.men[m].side == side or m in state.observed[side] for m in men)


def audience_for(state: CommandoState, men: Iterable[str]) -> Audience:
    """The sides that may see the rolls about ``men``: those that see every one of them
    (ruling C-91; ``None`` when both do)."""
    group = list(men)
    sides = frozenset(s for s in state.sides if seen_by(state, s, group))
    return None if len(sides) == len(state.sides) else sides


def witnesses(state: CommandoState, side: str, at: Cell, men: Iterable[str]) -> Audience:
    """Ruling C-91: an explosion is seen by its own side, and by the other when one of its men
    has the square in view or is caught in it."""
    enemy = state.enemy(side)
    caught = any(state.men[m].side == enemy for m in men)
    return None if caught or sees_cell(state, enemy, at) else frozenset({side})


# -- throws and launches --------------------------------------------------------------------


def _count(man: ManState, item: str) -> int:
    return man.carried.count(item)


def _use(man: ManState, item: str) -> None:
    items = list(man.carried)
    items.remove(item)
    man.carried = tuple(items)


def _active(state: CommandoState) -> ManState | None:
    return None if state.active_man is None else state.men[state.active_man]


def _free(man: ManState) -> bool:
    return man.active() and not man.engaged and not man.must_leave


def prepare_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Prepare a grenade (7 TP) or satchel (12) he carries; one prepared item at a time."""
    man = _active(state)
    if man is None or not _free(man) or man.id in state.ordnance.prepared:
        return
    for device in THROWN:
        cost = tables().cost["prepare_satchel" if device == "satchel" else "prepare_grenade"]
        if _count(man, device) and man.tp >= cost:
            yield Action.make(side, "prepare", figure=man.id, device=device)


def do_prepare(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = state.men[action.get("figure")]
    device = str(action.get("device"))
    man.spend(tables().cost["prepare_satchel" if device == "satchel" else "prepare_grenade"])
    _use(man, device)
    state.ordnance.prepared[man.id] = device
    log.emit("prepare", {"figure": man.id, "device": device}, flow.audience_of(state, man.id))
    flow.after_task(state, log)


def throw_situation(state: CommandoState, man: ManState, device: str, at: Cell,
                    grenade_toss: bool = False) -> grenades.Throw:
    """Digest 9.2/9.3 read off the map: terrain (C-83), wall, doors and windows in between,
    posture, wounds and LOS to the square."""
    from killhouse.rulesets.commando import flow

    here = state.pos[man.id]
    path = [state.board.terrain(c) for c in between(here, at)]
    doors = (Terrain.DOOR_OPEN, Terrain.DOOR_CLOSED, Terrain.DOOR_LOCKED)
    return grenades.Throw(
        device, flow.rng_between(here, at), dex=man.ratings.dex, mk=man.ratings.mk,
        hero_combat=man.ratings.hero_combat(), terrain=ground.cell_kind(state.board, at),
        target_higher=at.level > here.level, target_by_wall=by_wall(state, at),
        door_between=any(t in doors for t in path),
        window_or_slit_between=any(t is Terrain.WINDOW for t in path),
        thrower_prone=man.posture is Posture.PRONE, severely_wounded=man.severely_wounded(),
        no_los=not flow.has_los(state, here, at), grenade_toss=grenade_toss,
    )


def why_not_aim(state: CommandoState, man: ManState, device: str, at: Cell) -> str | None:
    """Why the square cannot be thrown or fired at, or ``None``: it must be open ground on
    his level (C-83) within the device's table (P and beyond: C-27, C-31)."""
    from killhouse.rulesets.commando import flow

    here = state.pos[man.id]
    if not state.board.in_bounds(at) or at.level != here.level:
        return "the target square must be on the map, on his level (C-83)"
    if not state.board.passable(at) or state.board.terrain(at) is Terrain.DOOR_CLOSED:
        return "the target square must be open ground, not a wall or closed door"
    rng = flow.rng_between(here, at)
    if grenades.accuracy_base(device, rng) is None:
        return f"a {device} cannot reach range {rng} (P: C-27, C-31)"
    if device in OPEN_BANDS and rng >= OPEN_BANDS[device] and not (
            flow.has_los(state, here, at)
            and in_range(rng, state.weather, light_at(state, at))):
        # ruling C-31: "36+" and "68+" reach only as far as LOS and observation range allow
        return f"beyond {OPEN_BANDS[device] - 1} a {device} needs LOS within observation range"
    reach = tables().preserving_fire_range
    if man.preserving and rng > reach:  # ruling C-93: C-15's 5 squares hold for throws too
        return f"a Preserving man throws or fires only within {reach} squares (C-15)"
    return None


def candidate_cells(state: CommandoState, man: ManState) -> list[Cell]:
    """A useful subset of squares to throw or fire at: observed enemies in action and where
    enemies were last seen; ``check`` accepts any square the rules allow."""
    out: list[Cell] = []
    for t in sorted(state.observed[man.side]):
        if state.men[t].active():
            out.append(state.pos[t])
    for _, (at, _turn) in sorted(state.last_seen[man.side].items()):
        out.append(at)
    return list(dict.fromkeys(out))


def throw_cost(device: str) -> int:
    return tables().cost["throw_satchel" if device == "satchel" else "throw_grenade"]


def throw_options(state: CommandoState, side: str) -> Iterable[Action]:
    man = _active(state)
    if man is None or not _free(man):
        return
    device = state.ordnance.prepared.get(man.id)
    if device is None or man.tp < throw_cost(device):
        return
    for at in candidate_cells(state, man):
        if why_not_aim(state, man, device, at) is None:
            yield Action.make(side, "throw", figure=man.id, at=cell_json(at))


def check_throw(state: CommandoState, action: Action) -> None:
    man = _active(state)
    if man is None or action.get("figure") != man.id:
        raise IllegalActionError("only the active man may throw")
    device = state.ordnance.prepared.get(man.id)
    if device is None:
        raise IllegalActionError(f"{man.id} has nothing prepared: prepare a grenade first")
    if not _free(man):
        raise IllegalActionError(f"{man.id} cannot throw now (engaged or must leave)")
    if man.tp < throw_cost(device):
        raise IllegalActionError(f"{man.id} has {man.tp} TP; a throw costs {throw_cost(device)}")
    reason = why_not_aim(state, man, device, Cell(*action.get("at")))
    if reason:
        raise IllegalActionError(reason)


def deliver(state: CommandoState, man: ManState, device: str, at: Cell, chance: Chance,
            log: EventLog, kind: str) -> Cell:
    """The accuracy roll (after a Grenade Toss roll for thrown items) and, on a miss, the
    scatter, stopped by walls (C-29, C-32). The thrower is observed (digest 6.4, C-86)."""
    from killhouse.rulesets.commando import flow

    toss = False
    skill = man.ratings.skills.get("grenade_toss")
    if skill is not None and device in THROWN:
        toss = skill_check(chance, "grenade_toss", skill.rating, man.ratings.hero_skill(),
                           audience=frozenset({man.side}))  # ruling C-99: his skills are his
    pct = grenades.accuracy(throw_situation(state, man, device, at, toss))
    assert pct is not None, "checked before"
    landing = grenades.land(chance, device, pct)
    lands = at if landing.on_target else blasts.scatter_landing(
        state.board, at, str(landing.direction), landing.distance)
    enemy = state.enemy(man.side)
    state.observed[enemy].add(man.id)
    state.ever_seen[enemy].add(man.id)
    state.last_seen[enemy][man.id] = (state.pos[man.id], state.turn)
    data = {"figure": man.id, "device": device, "at": cell_json(at), "chance": pct,
            "on_target": landing.on_target, "direction": landing.direction,
            "distance": landing.distance, "lands": cell_json(lands), "grenade_toss": toss}
    hidden = {k: v for k, v in data.items() if k not in ("chance", "grenade_toss")}
    log.emit(kind, data, None, {enemy: hidden})  # ruling C-99
    flow.note_sightings(state)
    return lands


def do_throw(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = state.men[action.get("figure")]
    device = state.ordnance.prepared.pop(man.id)
    man.spend(throw_cost(device))
    lands = deliver(state, man, device, Cell(*action.get("at")), chance, log, "throw")
    # ruling C-33: thrown items go off in this turn's Bookkeeping
    o = state.ordnance
    o.live.append(Live(o.next_id("x"), device, lands, man.side, man.id, o.seq))
    flow.after_task(state, log)


def launch_cost(device: str) -> int:
    """Rifle grenade 13 TP, launchers 25 (ruling C-20)."""
    t = tables()
    return t.task_cost["rifle"] if device == "rifle_grenade" else t.cost["fire_launcher"]


def can_launch(state: CommandoState, man: ManState, device: str) -> bool:
    """LAW: one carried; rifle grenade: affixed on his rifle; thump gun and rocket: loaded."""
    if device == "law":
        return _count(man, "law") > 0
    return device in state.ordnance.loaded.get(man.id, set())


def launch_options(state: CommandoState, side: str) -> Iterable[Action]:
    man = _active(state)
    if man is None or not _free(man):
        return
    for device in LAUNCHERS:
        if not can_launch(state, man, device) or man.tp < launch_cost(device):
            continue
        for at in candidate_cells(state, man):
            if why_not_aim(state, man, device, at) is None:
                yield Action.make(side, "launch", figure=man.id, device=device,
                                  at=cell_json(at))


def check_launch(state: CommandoState, action: Action) -> None:
    man = _active(state)
    if man is None or action.get("figure") != man.id:
        raise IllegalActionError("only the active man may fire")
    device = str(action.get("device"))
    if not can_launch(state, man, device):
        raise IllegalActionError(f"{man.id} has no {device} ready (load it first)")
    if not _free(man):
        raise IllegalActionError(f"{man.id} cannot fire now (engaged or must leave)")
    if man.tp < launch_cost(device):
        raise IllegalActionError(f"{man.id} has {man.tp} TP; it costs {launch_cost(device)}")
    reason = why_not_aim(state, man, device, Cell(*action.get("at")))
    if reason:
        raise IllegalActionError(reason)


def do_launch(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = state.men[action.get("figure")]
    device = str(action.get("device"))
    man.spend(launch_cost(device))
    if device == "law":
        _use(man, "law")  # single-shot, thrown away (8.4)
    else:
        state.ordnance.loaded[man.id].discard(device)
    lands = deliver(state, man, device, Cell(*action.get("at")), chance, log, "launch")
    explode(state, device, lands, man.side, man.id, chance, log)  # ruling C-33: at once
    if not flow.check_victory(state, log):
        flow.after_task(state, log)


def load_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Affix a rifle grenade (50, needs a rifle and a rifle grenade), reload a thump gun (25)
    or a rocket launcher's shell (50) (8.4)."""
    man = _active(state)
    if man is None or not _free(man):
        return
    ready = state.ordnance.loaded.get(man.id, set())
    for device, key in LOAD_COST.items():
        if device in ready or _count(man, device) == 0 or man.tp < tables().cost[key]:
            continue
        if device == "rifle_grenade" and "rifle" not in man.carried:
            continue
        yield Action.make(side, "load", figure=man.id, device=device)


def do_load(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = state.men[action.get("figure")]
    device = str(action.get("device"))
    man.spend(tables().cost[LOAD_COST[device]])
    if device == "rifle_grenade":
        _use(man, "rifle_grenade")  # each affixed grenade is one carried (ruling C-88)
    state.ordnance.loaded.setdefault(man.id, set()).add(device)
    log.emit("load", {"figure": man.id, "device": device}, flow.audience_of(state, man.id))
    flow.after_task(state, log)


# -- explosions ------------------------------------------------------------------------------


def explode(state: CommandoState, device: str, at: Cell, side: str, owner: str,
            chance: Chance, log: EventLog) -> None:
    """A device goes off in ``at``: smoke and illumination burst (C-35); anything else blasts
    the flood-filled area of its radius in the square's environment (C-28, C-65, C-89)."""
    if device in (clouds.SMOKE, clouds.ILLUMINATION):
        cloud = clouds.burst(device, at, state.turn)
        state.ordnance.clouds.append(cloud)
        clouds.lay_smoke(state.board, state.ordnance.clouds, state.turn)
        log.emit("burst", {"device": device, "at": cell_json(at), "until": cloud.until})
        return
    env = environment(state, at)
    area = blasts.blast_cells(state.board, at, device, env)
    caught = sorted(m for m, p in state.pos.items()
                    if p.level == at.level and area[p.y, p.x] and not state.men[m].killed
                    and state.men[m].wound().value != "dead")
    log.emit("explosion", {"device": device, "at": cell_json(at), "environment": env},
             witnesses(state, side, at, caught))
    audience = audience_for(state, caught)
    results = grenades.blast(chance, device, env, len(caught), audience)
    for ident, result in zip(caught, results, strict=True):
        man = state.men[ident]
        if result is None:
            man.kill()
        else:
            man.take_damage(result)
        log.emit("blasted", {"figure": ident, "device": device,
                             "result": "killed" if result is None else "damage",
                             "damage": result or 0, "status": man.wound().value},
                 audience_for(state, [ident]))
        man.extra["blasted"] = state.turn  # a preservation condition (C-15 no. 2)


def bookkeeping(state: CommandoState, chance: Chance, log: EventLog) -> None:
    """Bookkeeping steps 1 to 4 (C-64): a prepared grenade whose holder fell drops in his
    square (C-33); timers count down; devices at 0 go off in placement order (C-33, C-77);
    burning men take 1d6 (C-34); smoke and illumination that end this turn are cleared."""
    o = state.ordnance
    for ident in sorted(o.prepared):
        man = state.men[ident]
        if not man.active():
            device = o.prepared.pop(ident)
            o.live.append(Live(o.next_id("x"), device, state.pos[ident], man.side, ident, o.seq))
    due: list[Live] = []
    waiting: list[Live] = []
    for item in sorted(o.live, key=lambda c: c.placed):
        if item.timer <= 0:
            due.append(item)
        else:
            item.timer -= 1
            waiting.append(item)
    o.live = waiting
    for item in due:
        explode(state, item.device, item.at, item.side, item.owner, chance, log)
    for ident, man in sorted(state.men.items()):  # step 3: burning (C-34)
        if man.burning and man.wound().value != "dead":
            audience = audience_for(state, [ident])
            before = man.damage
            burn(chance, man, audience)
            log.emit("burns", {"figure": ident, "damage": man.damage - before,
                               "status": man.wound().value}, audience)
    o.clouds = clouds.active(o.clouds, state.turn + 1)
    clouds.lay_smoke(state.board, o.clouds, state.turn + 1)


# -- demolition charges (12.1, C-33) ----------------------------------------------------------


def demolition_cost(man: ManState) -> int:
    """Demolitions: 150 − rating TP, spread over activations (C-45, C-5)."""
    return 150 - man.ratings.skills["demolitions"].rating


def plant_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Set a demolition charge he carries in his square, timer 0–5 turns (C-33); a man with
    the Demolitions skill only (C-45)."""
    man = _active(state)
    if man is None or not _free(man) or "demolitions" not in man.ratings.skills:
        return
    if _count(man, "demolition") == 0 or man.tp <= 0:
        return
    if man.task is not None and man.task.startswith("demolition") and state.tasks_done:
        return  # ruling C-5: a task carried over must be continued first thing
    for timer in range(TIMER_MAX + 1):
        yield Action.make(side, "plant", figure=man.id, timer=timer)


def do_plant(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = state.men[action.get("figure")]
    timer = int(action.get("timer"))
    at = state.pos[man.id]
    task = f"demolition@{at.level},{at.x},{at.y}"
    cost = demolition_cost(man)
    if man.task == task and state.ordnance.work.get(man.id) != state.turn - 1:
        # ruling C-100 (C-5): work not continued first thing in his next activation is lost
        man.task, man.task_paid = None, 0
    state.ordnance.work[man.id] = state.turn
    done = man.work_on(task, cost)
    audience = flow.audience_of(state, man.id)
    if not done:
        log.emit("plant", {"figure": man.id, "paid": man.task_paid, "cost": cost,
                           "done": False}, frozenset({man.side}))
        flow.after_task(state, log)
        return
    skill = man.ratings.skills["demolitions"]
    pct = skill_chance("demolitions", skill.rating, man.ratings.hero_skill())  # min 35 (C-45)
    ok = percent_check(chance, pct, "skill demolitions", frozenset({man.side}))
    o = state.ordnance
    if ok:  # ruling C-96: a failed roll wastes the TP, not the charge
        _use(man, "demolition")
        o.live.append(Live(o.next_id("c"), "demolition", at, man.side, man.id, o.seq, timer))
    log.emit("plant", {"figure": man.id, "paid": cost, "cost": cost, "done": True,
                       "set": ok, "timer": timer, "chance": pct}, frozenset({man.side}))
    if audience is None:
        log.emit("works", {"figure": man.id}, frozenset({state.enemy(man.side)}))
    flow.after_task(state, log)


# -- Claymores (C-36) -----------------------------------------------------------------------


def emplace_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Place a Claymore he carries in his square, facing one of 8 directions (50 TP)."""
    man = _active(state)
    if man is None or not _free(man) or _count(man, "claymore") == 0:
        return
    if man.tp < tables().cost["place_claymore"]:
        return
    for facing in FACINGS:
        yield Action.make(side, "emplace", figure=man.id, facing=facing)


def do_emplace(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = state.men[action.get("figure")]
    man.spend(tables().cost["place_claymore"])
    _use(man, "claymore")
    o = state.ordnance
    mine = Mine(o.next_id("m"), man.side, man.id, state.pos[man.id], str(action.get("facing")))
    o.mines.append(mine)
    log.emit("emplace", {"figure": man.id, "mine": mine.id, "at": cell_json(mine.at),
                         "facing": mine.facing}, frozenset({man.side}))
    if flow.audience_of(state, man.id) is None:
        log.emit("works", {"figure": man.id}, frozenset({state.enemy(man.side)}))
    flow.after_task(state, log)


def detonate_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Set off one of his side's Claymores within 20 squares (20 TP, C-36)."""
    from killhouse.rulesets.commando import flow

    man = _active(state)
    if man is None or not _free(man) or man.tp < tables().cost["detonate_claymore"]:
        return
    here = state.pos[man.id]
    for mine in state.ordnance.mines:
        if mine.side == man.side and mine.at.level == here.level and \
                flow.rng_between(here, mine.at) <= DETONATE_REACH:
            yield Action.make(side, "detonate", figure=man.id, mine=mine.id)


def do_detonate(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = state.men[action.get("figure")]
    man.spend(tables().cost["detonate_claymore"])
    mine = next(m for m in state.ordnance.mines if m.id == action.get("mine"))
    state.ordnance.mines.remove(mine)
    fire_mine(state, mine, chance, log)
    if not flow.check_victory(state, log):
        flow.after_task(state, log)


def fire_mine(state: CommandoState, mine: Mine, chance: Chance, log: EventLog) -> None:
    """The mine attacks every man in its cone once, in id order (C-36, C-82)."""
    exposed: Mapping[str, claymore.Exposure] = {
        m: claymore.Exposure(p, 0, state.men[m].posture is Posture.PRONE)
        for m, p in state.pos.items() if state.men[m].wound().value != "dead"
    }
    hit = [m for m, e in sorted(exposed.items())
           if claymore.in_cone(state.board, mine.at, mine.facing, e.at)]
    log.emit("claymore", {"mine": mine.id, "at": cell_json(mine.at), "facing": mine.facing},
             witnesses(state, mine.side, mine.at, hit))
    shots = claymore.claymore(chance, state.board, mine.at, mine.facing,
                              {m: exposed[m] for m in hit}, audience_for(state, hit))
    for ident, shot in sorted(shots.items()):
        man = state.men[ident]
        if shot.result == fire.KILL:
            man.kill()
        elif shot.result == fire.WOUND:
            man.take_damage(shot.damage)
        log.emit("blasted", {"figure": ident, "device": "claymore", "result": shot.result,
                             "damage": shot.damage, "status": man.wound().value},
                 audience_for(state, [ident]))


# -- what a side knows of it --------------------------------------------------------------------


def view(state: CommandoState, side: str) -> dict[str, Any]:
    """Its own prepared items, loaded launchers, charges and Claymores; thrown devices waiting
    for the Bookkeeping whose throw it saw (every throw is seen, C-86) and every cloud."""
    o = state.ordnance
    own = {m.id for m in state.side_men(side)}
    return {
        "prepared": {m: d for m, d in sorted(o.prepared.items()) if m in own},
        "loaded": {m: sorted(d) for m, d in sorted(o.loaded.items()) if m in own and d},
        "carried": {m.id: list(m.carried) for m in state.side_men(side) if m.carried},
        "live": [c.to_json() for c in o.live
                 if c.side == side or c.device != "demolition"],
        "mines": [m.to_json() for m in o.mines if m.side == side],
        "clouds": [{"kind": c.kind, "at": cell_json(c.center), "until": c.until}
                   for c in o.clouds],
    }


def snapshot(state: CommandoState) -> dict[str, Any]:
    o = state.ordnance
    return {
        "prepared": dict(sorted(o.prepared.items())),
        "loaded": {m: sorted(d) for m, d in sorted(o.loaded.items())},
        "live": [c.to_json() | {"side": c.side, "placed": c.placed} for c in o.live],
        "mines": [m.to_json() | {"side": m.side} for m in o.mines],
        "clouds": [{"kind": c.kind, "at": cell_json(c.center), "until": c.until}
                   for c in o.clouds],
        "work": dict(sorted(o.work.items())),
        "seq": o.seq,
    }


FIGURE = Arg("figure", "figure", help="the man")
AT = Arg("at", "cell", help="the target square [level, x, y]")
MOVES: tuple[Move[CommandoState], ...] = (
    Move("prepare", (FIGURE, Arg("device", "enum", choices=THROWN)), prepare_options,
         do_prepare, help="prepare a grenade (7 TP) or satchel charge (12 TP)"),
    Move("throw", (FIGURE, AT), throw_options, do_throw, check=check_throw,
         help="throw the prepared grenade (13 TP) or satchel (15 TP); it goes off in the "
              "Bookkeeping (C-33)"),
    Move("launch", (FIGURE, Arg("device", "enum", choices=LAUNCHERS), AT), launch_options,
         do_launch, check=check_launch,
         help="fire a rifle grenade (13 TP), thump gun, rocket or LAW (25 TP); it goes off "
              "where it lands (C-33)"),
    Move("load", (FIGURE, Arg("device", "enum", choices=tuple(LOAD_COST))), load_options,
         do_load, help="affix a rifle grenade (50), reload a thump gun (25) or a rocket (50)"),
    Move("plant", (FIGURE, Arg("timer", "int", minimum=0, maximum=TIMER_MAX)), plant_options,
         do_plant, help="set a demolition charge here (Demolitions, 150 - rating TP over "
                        "activations); it goes off in the Bookkeeping TIMER turns on (C-77)"),
    Move("emplace", (FIGURE, Arg("facing", "enum", choices=FACINGS)), emplace_options,
         do_emplace, help="place a Claymore in his square facing one way (50 TP, C-36)"),
    Move("detonate", (FIGURE, Arg("mine", "id")), detonate_options, do_detonate,
         help="set off a Claymore of his side within 20 squares (20 TP, C-36)"),
)
KINDS = tuple(m.kind for m in MOVES)
