"""Grenades, satchels and launchers delivered (digest 9.2/9.3, 8.4; rulings C-29 … C-33): the
prepare, throw, launch and load moves and the accuracy roll and scatter they share. The
turn's helpers live in ``flow``, imported when a move runs (ruling C-87)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.terrain import Terrain
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import blasts, grenades, ground, morale
from killhouse.rulesets.commando.characters import skill_check
from killhouse.rulesets.commando.devices import (
    LAUNCHERS,
    LOAD_COST,
    OPEN_BANDS,
    THROWN,
    Live,
    active_man,
    count_of,
    free,
    use_one,
)
from killhouse.rulesets.commando.explosions import explode
from killhouse.rulesets.commando.men import ManState, Posture
from killhouse.rulesets.commando.observation import in_range
from killhouse.rulesets.commando.surroundings import between, by_wall, light_at
from killhouse.rulesets.commando.tables import tables

if TYPE_CHECKING:
    from killhouse.rulesets.commando.state import CommandoState


def prepare_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Prepare a grenade (7 TP) or satchel (12) he carries; one prepared item at a time."""
    man = active_man(state)
    if man is None or not free(man) or man.id in state.ordnance.prepared:
        return
    for device in THROWN:
        cost = tables().cost["prepare_satchel" if device == "satchel" else "prepare_grenade"]
        if count_of(man, device) and man.tp >= cost:
            yield Action.make(side, "prepare", figure=man.id, device=device)



def do_prepare(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = state.men[action.get("figure")]
    device = str(action.get("device"))
    man.spend(tables().cost["prepare_satchel" if device == "satchel" else "prepare_grenade"])
    use_one(man, device)
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
    man = active_man(state)
    if man is None or not free(man):
        return
    device = state.ordnance.prepared.get(man.id)
    if device is None or man.tp < throw_cost(device):
        return
    for at in candidate_cells(state, man):
        if why_not_aim(state, man, device, at) is None:
            yield Action.make(side, "throw", figure=man.id, at=cell_json(at))



def check_throw(state: CommandoState, action: Action) -> None:
    man = active_man(state)
    if man is None or action.get("figure") != man.id:
        raise IllegalActionError("only the active man may throw")
    device = state.ordnance.prepared.get(man.id)
    if device is None:
        raise IllegalActionError(f"{man.id} has nothing prepared: prepare a grenade first")
    if not free(man):
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
                           audience=frozenset({man.side}), who=man.id)  # C-99: his skills are his
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
            "distance": landing.distance, "lands": cell_json(lands), "grenade_toss": toss,
            "roll": landing.roll}
    hidden = {k: v for k, v in data.items() if k not in ("chance", "grenade_toss")}
    log.emit(kind, data, None, {enemy: hidden})  # ruling C-99
    morale.blast_near(state, lands)  # preservation condition 2 (C-189)
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
        return count_of(man, "law") > 0
    return device in state.ordnance.loaded.get(man.id, set())



def launch_options(state: CommandoState, side: str) -> Iterable[Action]:
    man = active_man(state)
    if man is None or not free(man):
        return
    for device in LAUNCHERS:
        if not can_launch(state, man, device) or man.tp < launch_cost(device):
            continue
        for at in candidate_cells(state, man):
            if why_not_aim(state, man, device, at) is None:
                yield Action.make(side, "launch", figure=man.id, device=device,
                                  at=cell_json(at))



def check_launch(state: CommandoState, action: Action) -> None:
    man = active_man(state)
    if man is None or action.get("figure") != man.id:
        raise IllegalActionError("only the active man may fire")
    device = str(action.get("device"))
    if not can_launch(state, man, device):
        raise IllegalActionError(f"{man.id} has no {device} ready (load it first)")
    if not free(man):
        raise IllegalActionError(f"{man.id} cannot fire now (engaged or must leave)")
    if man.tp < launch_cost(device):
        raise IllegalActionError(f"{man.id} has {man.tp} TP; it costs {launch_cost(device)}")
    reason = why_not_aim(state, man, device, Cell(*action.get("at")))
    if reason:
        raise IllegalActionError(reason)



def do_launch(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    """Rulings C-128, C-151: the other side is asked about Mobile Overwatch before a launch
    resolves, whoever stands in the aimed square; its men in action there may answer."""
    from killhouse.rulesets.commando import overwatch

    man = state.men[action.get("figure")]
    at = Cell(*action.get("at"))
    there = [m for m, p in sorted(state.pos.items())
             if p == at and state.men[m].side != man.side and state.men[m].active()]
    overwatch.declare(state, man.id, "launch",
                      {"device": str(action.get("device")), "at": cell_json(at)}, there)


def run_launch(state: CommandoState, man: ManState, args: dict[str, Any], chance: Chance,
               log: EventLog) -> None:
    """The declared launch: pay, use the round up, roll accuracy and scatter, and the round
    goes off where it lands at once (ruling C-33)."""
    device = str(args["device"])
    man.spend(launch_cost(device))
    if device == "law":
        use_one(man, "law")  # single-shot, thrown away (8.4)
    else:
        state.ordnance.loaded[man.id].discard(device)
    lands = deliver(state, man, device, Cell(*args["at"]), chance, log, "launch")
    explode(state, device, lands, man.side, man.id, chance, log)  # ruling C-33: at once



def load_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Affix a rifle grenade (50, needs a rifle and a rifle grenade), reload a thump gun (25)
    or a rocket launcher's shell (50) (8.4)."""
    man = active_man(state)
    if man is None or not free(man):
        return
    ready = state.ordnance.loaded.get(man.id, set())
    for device, key in LOAD_COST.items():
        if device in ready or count_of(man, device) == 0 or man.tp < tables().cost[key]:
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
        use_one(man, "rifle_grenade")  # each affixed grenade is one carried (ruling C-88)
    state.ordnance.loaded.setdefault(man.id, set()).add(device)
    log.emit("load", {"figure": man.id, "device": device}, flow.audience_of(state, man.id))
    flow.after_task(state, log)
