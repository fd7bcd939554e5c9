"""Destroying a searchlight by fire (digest C-13: "one hit with any fire task destroys it (use
the target's terrain modifier only)"; rulings C-181, C-182, C-194, C-195).

A man whose loaded weapon in hand reaches a burning light he has in LOS (any range: a burning
light is seen from afar) spends a fire task on it: plain fire, or (``mode``) aimed (his only
task, all his TP, +10, C-24), semi-automatic (one fire, Mag Chk halved, C-20), spray (+7 TP,
each fire at a burning light within 2 squares of the first, C-25) or a sniper's shot (+10 TP;
on a successful Sniping roll he stays unobserved, 12.1, C-95), at the costs of ``firing.py``.
Each fire is a d100 against the Fire Combat Table's base at that range plus the terrain
modifier of the light's own square and the firer's own additions (Hero, Mk, proficiency or its
penalty, an enemy weapon's −15, aimed +10, ×0.5 seriously wounded); nothing for a man's
posture, motion or a wall. One hit puts a light out. Then the Mag Chk, and the firer is
observed (C-86) unless his Sniping roll succeeded. Op fire is never at a light (C-195).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import fire, ground, pickup, sounds
from killhouse.rulesets.commando.characters import skill_check
from killhouse.rulesets.commando.dice import d100
from killhouse.rulesets.commando.lights import Light
from killhouse.rulesets.commando.men import ManState
from killhouse.rulesets.commando.state import CommandoState
from killhouse.rulesets.commando.tables import tables

#: the fire tasks a man may put on a light (ruling C-194); ``fire`` is the plain one (C-181)
MODES = ("fire", "aim", "semi", "spray", "snipe")


def _flow() -> ModuleType:
    from killhouse.rulesets.commando import flow

    return flow


def chance_to_hit(state: CommandoState, man: ManState, light: str,
                  aimed: bool = False) -> int | None:
    """Ruling C-181: the hit chance of one fire at the light; None where the weapon may not
    fire at that range (P, or range 0). Aimed fire adds its +10 (C-24, C-194)."""
    f = _flow()
    weapon = man.in_hand or "pistol"
    at = state.lights[light].at
    terrain = fire.terrain_modifier(ground.cell_kind(state.board, at))
    return fire.hit_chance(fire.FireSituation(
        weapon, f.rng_between(state.pos[man.id], at), mk=man.ratings.mk,
        hero_combat=man.ratings.hero_combat(), wp=man.ratings.wp(weapon), terrain=terrain,
        enemy_weapon=pickup.enemy_weapon(man, weapon), aimed=aimed,
        severely_wounded=man.severely_wounded()))


def cost(man: ManState, mode: str) -> int:
    """TP of a fire task of ``mode`` at a light: as at a man (C-20, C-24, C-25, 12.1)."""
    weapon = man.in_hand or "pistol"
    if mode == "aim":
        return max(fire.fire_cost(weapon), man.tp)
    return fire.fire_cost(weapon, semi=mode == "semi", spray=mode == "spray",
                          sniping=mode == "snipe")


def mode_allowed(state: CommandoState, man: ManState, mode: str) -> str | None:
    """Why he may not put a fire task of ``mode`` on a light now, or None (ruling C-194)."""
    weapon = man.in_hand or "pistol"
    if man.engaged or man.must_leave:
        return f"{man.id} is engaged or must leave his square (C-37, C-42)"
    if weapon in man.empty:
        return f"{man.id}'s {weapon} is empty; reload first (25 TP)"
    if mode == "aim" and state.tasks_done:
        return "an aimed fire task must be his only task this activation (C-24)"
    if mode == "semi" and not fire.can_fire_semi(weapon):
        return f"a {weapon} has no semi-automatic fire (C-20)"
    if mode == "spray" and not fire.can_spray(weapon):
        return f"spray fire needs an automatic weapon with 3 or more fires, not a {weapon} (C-25)"
    if mode == "snipe" and ("sniping" not in man.ratings.skills or
                            weapon not in ("rifle", "carbine")):
        return "Sniping needs the skill and a single-fire rifle or carbine (12.1)"
    need = fire.fire_cost(weapon) if mode == "aim" else cost(man, mode)
    if man.tp < need:
        return f"{man.id} has {man.tp} TP; this fire task costs {need}"
    return None


def in_reach(state: CommandoState, man: ManState) -> list[str]:
    """The burning lights he has in LOS and his weapon reaches (C-181)."""
    f = _flow()
    here = state.pos[man.id]
    return [ident for ident, light in sorted(state.lights.items())
            if light.aim is not None and f.has_los(state, here, light.at) and
            chance_to_hit(state, man, ident) is not None]


def spray_pool(state: CommandoState, man: ManState, primary: str) -> list[str]:
    """Lights his spray may sweep: the primary and the others within 2 squares of it (C-25)."""
    f = _flow()
    at = state.lights[primary].at
    return [ident for ident in in_reach(state, man)
            if f.rng_between(at, state.lights[ident].at) <= tables().spray_spread]


def options(state: CommandoState, side: str) -> Iterable[Action]:
    """Every mode he may use at every light in reach; a spray only where another light is
    within 2 squares (all fires at one light is a plain fire at a dearer price), listing all
    fires over the group in turn and every fire but the first at one neighbour."""
    f = _flow()
    if state.active_man is None or not state.lights:
        return
    man = f.current(state)
    lights_in_reach = in_reach(state, man)
    for mode in MODES:
        if mode_allowed(state, man, mode) is not None:
            continue
        for ident in lights_in_reach:
            if mode == "fire":
                yield Action.make(side, "shoot_light", figure=man.id, light=ident)
            elif mode != "spray":
                yield Action.make(side, "shoot_light", figure=man.id, light=ident, mode=mode)
            else:
                n = fire.fires(man.in_hand or "pistol")
                group = spray_pool(state, man, ident)
                group.remove(ident)
                group.insert(0, ident)
                if len(group) < 2:
                    continue
                splits = {",".join(group[i % len(group)] for i in range(n))}
                splits |= {",".join([ident] + [other] * (n - 1)) for other in group[1:]}
                for split in sorted(splits):
                    yield Action.make(side, "shoot_light", figure=man.id, light=ident,
                                      mode=mode, split=split)


def why_not(state: CommandoState, action: Action) -> str | None:
    """The reason a fire task at a light is refused, or None when it is allowed."""
    if state.active_man is None or action.get("figure") != state.active_man:
        return "only the active man may fire"
    man = state.men[state.active_man]
    mode = str(action.get("mode") or "fire")
    ident = str(action.get("light"))
    if ident not in state.lights or ident not in in_reach(state, man):
        return f"{ident} is no burning searchlight in his sight and his weapon's reach (C-181)"
    reason = mode_allowed(state, man, mode)
    if reason is not None:
        return reason
    split = action.get("split")
    if mode != "spray":
        return None if split is None else "only spray fire names a split (C-25)"
    weapon = man.in_hand or "pistol"
    names = str(split or "").split(",")
    if len(names) != fire.fires(weapon):
        return f"a {weapon} makes {fire.fires(weapon)} fires; name one light per fire"
    if names[0] != ident:
        return "the first fire goes at the light named"
    pool = spray_pool(state, man, ident)
    bad = [n for n in names if n not in pool]
    if bad:
        return f"{bad[0]} is no burning light in reach within 2 squares of {ident} (C-25)"
    return None


def check(state: CommandoState, action: Action) -> None:
    reason = why_not(state, action)
    if reason is not None:
        raise IllegalActionError(reason)


def do_shoot_light(state: CommandoState, action: Action, chance: Chance,
                   log: EventLog) -> None:
    f = _flow()
    man = f.current(state)
    mode = str(action.get("mode") or "fire")
    primary = str(action.get("light"))
    weapon = man.in_hand or "pistol"
    semi = mode == "semi"
    aims = (str(action.get("split")).split(",") if mode == "spray"
            else [primary] * fire.fires(weapon, semi))
    chances = {ident: chance_to_hit(state, man, ident, aimed=mode == "aim")
               for ident in dict.fromkeys(aims)}
    paid = cost(man, mode)
    man.spend(paid)
    enemy = state.enemy(man.side)
    sniped = mode == "snipe" and skill_check(
        chance, "sniping", man.ratings.skills["sniping"].rating, man.ratings.hero_skill(),
        who=man.id)
    if not sniped:  # ruling C-86: a man who fires is observed by the enemy (C-95: not a sniper)
        state.observed[enemy].add(man.id)
        if enemy == f.defending_side(state) and state.alarm_turn is None:
            state.alarm_turn = state.turn  # ruling C-122
        state.ever_seen[enemy].add(man.id)
        state.last_seen[enemy][man.id] = (state.pos[man.id], state.turn)
    rolls = [d100(chance, f"fire at searchlight {ident}") for ident in aims]
    # ruling C-182: every fire is rolled, one hit is enough
    out = sorted({ident for ident, r in zip(aims, rolls, strict=True)
                  if r <= (chances[ident] or 0)})
    emptied = fire.mag_check(chance, weapon, semi)
    if emptied:
        man.empty = man.empty | {weapon}
    for ident in out:
        state.lights[ident] = Light(state.lights[ident].at, None)
    if mode == "aim":
        man.move_tp = 0  # C-24: his only task; Move Swiftly's movement TP go too (C-92)
    f.note_sightings(state)
    data: dict[str, object] = {"figure": man.id, "light": primary, "weapon": weapon,
                               "rolls": rolls, "hit": primary in out, "emptied": emptied}
    if mode != "fire":
        data |= {"mode": mode, "cost": paid, "sniped": sniped}
    if mode == "spray":
        data |= {"split": aims, "out": out}
    # the shot is seen by all (the firer is observed, C-86) unless a sniper stays unseen; the
    # chance is his side's (C-99)
    own = {**data, "chance": chances[primary]}
    if mode == "spray":
        own["chances"] = [chances[ident] for ident in aims]
    if sniped:
        log.emit("shoot-light", own, frozenset({man.side}))
        sounds.hear(state, enemy, state.pos[man.id], "gunfire", log)  # ruling C-161
    else:
        log.emit("shoot-light", own, None, {enemy: data})
    for ident in out:  # where the lights point is public (C-123), and a light going out
        log.emit("searchlight", {"light": ident, "aim": None})
    f.after_task(state, log)
