"""Destroying a searchlight by fire (digest C-13: "one hit with any fire task destroys it (use
the target's terrain modifier only)"; rulings C-181, C-182).

A man whose loaded weapon in hand reaches a burning light he has in LOS (any range: a burning
light is seen from afar) spends a plain fire task on it: the weapon's fire cost, its number of
fires, each a d100 against the Fire Combat Table's base at that range plus the terrain
modifier of the light's own square and the firer's own additions (Hero, Mk, proficiency or
its penalty, an enemy weapon's −15, ×0.5 seriously wounded); nothing for a man's posture,
motion or a wall. One hit puts it out. Then the Mag Chk, and the firer is observed (C-86).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import fire, ground, pickup
from killhouse.rulesets.commando.dice import d100
from killhouse.rulesets.commando.lights import Light
from killhouse.rulesets.commando.men import ManState
from killhouse.rulesets.commando.state import CommandoState


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def chance_to_hit(state: CommandoState, man: ManState, light: str) -> int | None:
    """Ruling C-181: the hit chance of one fire at the light; None where the weapon may not
    fire at that range (P, or range 0)."""
    f = _flow()
    weapon = man.in_hand or "pistol"
    at = state.lights[light].at
    terrain = fire.terrain_modifier(ground.cell_kind(state.board, at))
    return fire.hit_chance(fire.FireSituation(
        weapon, f.rng_between(state.pos[man.id], at), mk=man.ratings.mk,
        hero_combat=man.ratings.hero_combat(), wp=man.ratings.wp(weapon), terrain=terrain,
        enemy_weapon=pickup.enemy_weapon(man, weapon),
        severely_wounded=man.severely_wounded()))


def options(state: CommandoState, side: str) -> Iterable[Action]:
    f = _flow()
    if state.active_man is None or not state.lights:
        return
    man = f.current(state)
    weapon = man.in_hand or "pistol"
    if man.engaged or man.must_leave or weapon in man.empty or man.tp < fire.fire_cost(weapon):
        return
    here = state.pos[man.id]
    for ident, light in sorted(state.lights.items()):
        if light.aim is not None and f.has_los(state, here, light.at) and \
                chance_to_hit(state, man, ident) is not None:
            yield Action.make(side, "shoot_light", figure=man.id, light=ident)


def do_shoot_light(state: CommandoState, action: Action, chance: Chance,
                   log: EventLog) -> None:
    f = _flow()
    man = f.current(state)
    ident = str(action.get("light"))
    weapon = man.in_hand or "pistol"
    h = chance_to_hit(state, man, ident)
    assert h is not None
    man.spend(fire.fire_cost(weapon))
    enemy = state.enemy(man.side)
    # ruling C-86: a man who fires is observed by the enemy
    state.observed[enemy].add(man.id)
    if enemy == f.defending_side(state) and state.alarm_turn is None:
        state.alarm_turn = state.turn  # ruling C-122
    state.ever_seen[enemy].add(man.id)
    state.last_seen[enemy][man.id] = (state.pos[man.id], state.turn)
    rolls = [d100(chance, f"fire at searchlight {ident}") for _ in range(fire.fires(weapon))]
    hit = any(r <= h for r in rolls)  # ruling C-182: every fire is rolled, one hit is enough
    emptied = fire.mag_check(chance, weapon)
    if emptied:
        man.empty = man.empty | {weapon}
    if hit:
        state.lights[ident] = Light(state.lights[ident].at, None)
    f.note_sightings(state)
    # where the lights point is public (C-123), and so is a light going out
    data = {"figure": man.id, "light": ident, "weapon": weapon, "rolls": rolls, "hit": hit,
            "emptied": emptied}
    # the shot is seen by all (the firer is observed, C-86); the chance is his side's (C-99)
    log.emit("shoot-light", {**data, "chance": h}, None, {enemy: data})
    if hit:
        log.emit("searchlight", {"light": ident, "aim": None})
    f.after_task(state, log)
