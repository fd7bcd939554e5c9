"""Panic and preservation in play (digest 7, rulings C-14, C-15, C-124, C-125).

A Grunt or Doofus checks panic once a turn, before he first spends TP (at his activation or his
first op fire); the result is played out here (prone, forced fire, run away). In the
Bookkeeping each of them with a preservation condition checks whether he is Preserving until
the next Bookkeeping; a Preserving man may not step closer to an observed enemy and fires only
within 5 squares. Rolls go to his own side only (C-63).
"""

from __future__ import annotations

from types import ModuleType

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.terrain import Terrain
from killhouse.rulesets.commando import fire, inspire, panic, tasks
from killhouse.rulesets.commando.men import Kind, ManState, Posture
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.tables import tables

#: "within 10 squares" of the Panic Modifiers and preservation conditions (digest 7)
NEAR = 10
#: a Preserving man fires only at enemies within 5 squares (digest 7.2)
PRESERVING_REACH = 5
#: the compass steps in C-80's tie order
COMPASS = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def lead_of(state: CommandoState, man: ManState) -> int:
    """His leader's Lead; a Doofus with no leader uses Lead 10 (C-3)."""
    leader = state.men.get(man.leader) if man.leader else None
    if leader is not None and leader.ratings.lead is not None:
        return leader.ratings.lead
    return 10


def _rng(state: CommandoState, a: str, b: str) -> int:
    f = _flow()
    return int(f.rng_between(state.pos[a], state.pos[b]))


def sees_observed_enemy(state: CommandoState, man: ManState) -> bool:
    """Digest 7.1: an enemy his side observes is in his LOS."""
    f = _flow()
    return any(f.has_los(state, state.pos[man.id], state.pos[t])
               for t in state.observed[man.side] if state.men[t].active())


def conditions(state: CommandoState, man: ManState) -> int:
    """The six preservation conditions of digest 7.2 that hold for him (ruling C-124)."""
    f = _flow()
    here = state.pos[man.id]
    leader = state.men.get(man.leader) if man.leader else None
    friends_fell = any(
        other.side == man.side and other.id != man.id and not other.active()
        and other.id in state.up_at_start and _rng(state, man.id, other.id) <= NEAR
        and f.has_los(state, here, state.pos[other.id])
        for other in state.men.values())
    leader_gone = leader is not None and (
        not leader.active() or _rng(state, man.id, leader.id) > NEAR)
    weapon = man.in_hand
    no_ammo = weapon is None or weapon not in tables().firearms or weapon in man.empty
    enemies = sum(1 for t in state.observed[man.side]
                  if state.men[t].active() and _rng(state, man.id, t) <= NEAR)
    friends = sum(1 for m in state.up(man.side) if _rng(state, man.id, m.id) <= NEAR)
    return panic.preservation_conditions(
        wounded=man.damage > 0, fired_at=man.id in state.fired_at,
        friend_fell_nearby=friends_fell, leader_gone=leader_gone, no_ammunition=no_ammo,
        outnumbered=enemies > friends)


def panic_situation(state: CommandoState, man: ManState) -> panic.PanicSituation:
    """The Panic Modifiers Table's conditions for him now (digest 7.1)."""
    seen = sees_observed_enemy(state, man)
    near = any(
        m.id != man.id and (m.ratings.kind is Kind.COMMANDO or m.ratings.lead is not None)
        and _rng(state, man.id, m.id) <= NEAR
        for m in state.up(man.side))
    return panic.PanicSituation(
        lead=lead_of(state, man), wound=man.wound(), observed_enemy=seen,
        first_sighting=seen and not man.seen_enemy, leader_near=near,
        conditions=conditions(state, man), dry_humour=dry_humour(state, man))


def dry_humour(state: CommandoState, man: ManState) -> bool:
    """Ruling C-47: with ``options.joke_abilities``, a Grunt whose leader has Dry Humour
    panics 2 % less often."""
    if state.scenario.options.get("joke_abilities") is not True:
        return False
    if man.ratings.kind is not Kind.GRUNT:
        return False
    leader = state.men.get(man.leader) if man.leader else None
    return leader is not None and leader.ratings.auxiliary == "dry_humour"


def check_panic(state: CommandoState, man: ManState, chance: Chance, log: EventLog,
                ask: bool = False) -> str:
    """His once-a-turn panic check (C-14); ``steady`` or the result, applied to the man.

    A panic costs his plot; "prone" drops him prone. The caller plays out "fire" and "run" and
    ends the activation (``play_out``). With ``ask`` (his activation) a panic a Commando could
    cancel is not applied but waits for the side's answer (``state.forced``, ruling C-185)."""
    if not man.checks_panic() or man.panic_checked:
        return panic.STEADY
    situation = panic_situation(state, man)
    if situation.observed_enemy:
        man.seen_enemy = True
    own = frozenset({man.side})
    result = panic.panic_check(chance, panic.panic_chance(situation), own)
    held = ask and result != panic.STEADY and inspire.hold_panic(state, man, result)
    if not held:
        tasks.apply_panic(man, result)
    if result != panic.STEADY:
        f = _flow()
        log.emit("panic", {"figure": man.id, "result": result}, f.audience_of(state, man.id))
    return result


def play_out(state: CommandoState, man: ManState, result: str, chance: Chance,
             log: EventLog) -> None:
    """Ruling C-14: "fire" makes one unaimed fire task at the nearest observed enemy in his LOS
    (into the air without one); "run" spends his TP stepping away (C-80). His TP are then
    lost."""
    f = _flow()
    if result == "fire":
        weapon = man.in_hand or "pistol"
        if weapon not in man.empty and man.tp >= fire.fire_cost(weapon):
            target = forced_target(state, man)
            if target is not None:
                f.shoot(state, man, target, chance, log)
            else:
                man.spend(fire.fire_cost(weapon))
                enemy = state.enemy(man.side)  # ruling C-86: firing gives him away
                state.observed[enemy].add(man.id)
                state.ever_seen[enemy].add(man.id)
                state.last_seen[enemy][man.id] = (state.pos[man.id], state.turn)
                emptied = fire.mag_check(chance, weapon, audience=frozenset({man.side}))
                if emptied:
                    man.empty = man.empty | {weapon}
                log.emit("fire-in-air", {"figure": man.id, "weapon": weapon})
    elif result == "run":
        start = state.pos[man.id]
        for cell in run_route(state, man):
            state.pos[man.id] = cell
        if state.pos[man.id] != start:
            man.moved_this_turn = True
            f.note_sightings(state)
            log.emit("run", {"figure": man.id, "to": cell_json(state.pos[man.id])},
                     f.audience_of(state, man.id))
    man.tp = 0
    man.move_tp = 0


def forced_target(state: CommandoState, man: ManState) -> str | None:
    """Ruling C-80: the nearest observed enemy in his LOS his weapon may fire at, ties by id."""
    f = _flow()
    options = [(_rng(state, man.id, t), t) for t in f.targets(state, man)]
    return min(options)[1] if options else None


def run_route(state: CommandoState, man: ManState) -> list[Cell]:
    """Panic "run" (C-14, C-80): every step increases his range to the nearest known enemy;
    prefer a step out of every known enemy's LOS, then the longer range, then the cheaper
    step, then compass order; he pays each step from his TP and stops when none qualifies."""
    f = _flow()
    from killhouse.rulesets.commando import ground

    known = [state.pos[t] for t in state.observed[man.side] if state.men[t].active()]
    known += [at for t, (at, _) in state.last_seen[man.side].items()
              if t not in state.observed[man.side] and state.men[t].active()]
    route: list[Cell] = []
    if not known or man.aloft:  # ruling C-188: up a tree he cannot run
        return route
    here, left = state.pos[man.id], man.tp + man.move_tp
    prone = man.posture is Posture.PRONE
    for _ in range(64):
        now = min(f.rng_between(here, e) for e in known)
        best: tuple[tuple[int, int, int, int], Cell, int] | None = None
        for order, (dx, dy) in enumerate(COMPASS):
            nxt = Cell(here.level, here.x + dx, here.y + dy)
            if nxt in route or not f.standable(state, nxt, man.id) \
                    or state.board.terrain(nxt) is Terrain.WINDOW or any(
                    p == nxt for m, p in state.pos.items() if m != man.id):
                continue
            cost = ground.step_tp(state.board, here, nxt, prone=prone,
                                  carrying_flamethrower="flamethrower" in man.carried)
            if cost is None or cost > left:
                continue
            far = min(f.rng_between(nxt, e) for e in known)
            if far <= now:
                continue
            hidden = not any(f.has_los(state, nxt, e) for e in known)
            key = (0 if hidden else 1, -far, cost, order)
            if best is None or key < best[0]:
                best = (key, nxt, cost)
        if best is None:
            break
        _, here, cost = best
        left -= cost
        route.append(here)
    return route


def bookkeeping(state: CommandoState, chance: Chance, log: EventLog) -> None:
    """Digest 7.2 in phase 7: last turn's Preserving ends; every Grunt and Doofus in action
    with a condition checks again (C-15)."""
    for man in sorted(state.men.values(), key=lambda m: m.id):
        man.preserving = False
    for man in sorted(state.men.values(), key=lambda m: m.id):
        if not man.checks_panic() or not man.active():
            continue
        count = conditions(state, man)
        if count <= 0:
            continue
        own = frozenset({man.side})
        if panic.preservation_check(chance, lead_of(state, man), count, own):
            man.preserving = True
            log.emit("preserving", {"figure": man.id, "conditions": count}, own)


def blast_near(state: CommandoState, at: Cell) -> None:
    """Preservation condition 2 (digest 7.2: "a grenade or blast landed within 1 square of
    him", ruling C-189): every man within C-1 range 1 of where it landed or went off counts as
    fired at this turn."""
    f = _flow()
    for ident, p in sorted(state.pos.items()):
        if p.level == at.level and f.rng_between(p, at) <= 1:
            state.fired_at.add(ident)


def start_turn(state: CommandoState) -> None:
    """Per-turn records the conditions read: who was fired at, who stood at the start."""
    state.fired_at = set()
    state.up_at_start = {m.id for m in state.men.values() if m.active()}


def step_allowed(state: CommandoState, man: ManState, to: Cell) -> bool:
    """Digest 7.2: a Preserving man may not move closer to any observed enemy."""
    if not man.preserving:
        return True
    f = _flow()
    here = state.pos[man.id]
    return all(f.rng_between(to, state.pos[t]) >= f.rng_between(here, state.pos[t])
               for t in state.observed[man.side] if state.men[t].active())


def fire_allowed(state: CommandoState, man: ManState, target: str) -> bool:
    """Digest 7.2: a Preserving man fires only at enemies within 5 squares."""
    return not man.preserving or _rng(state, man.id, target) <= PRESERVING_REACH

