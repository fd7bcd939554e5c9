"""Claymores in play (ruling C-36): the emplace and detonate moves and a mine firing into its
cone. The pure mechanics are in ``claymore``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

from killhouse.core.cells import cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.commando import claymore, fire, hostages, sounds
from killhouse.rulesets.commando.devices import (
    DETONATE_REACH,
    FACINGS,
    Mine,
    active_man,
    count_of,
    free,
    use_one,
)
from killhouse.rulesets.commando.men import Posture
from killhouse.rulesets.commando.surroundings import audience_for, witnesses
from killhouse.rulesets.commando.tables import tables

if TYPE_CHECKING:
    from killhouse.rulesets.commando.state import CommandoState


def emplace_options(state: CommandoState, side: str) -> Iterable[Action]:
    """Place a Claymore he carries in his square, facing one of 8 directions (50 TP)."""
    man = active_man(state)
    if man is None or not free(man) or count_of(man, "claymore") == 0:
        return
    if man.tp < tables().cost["place_claymore"]:
        return
    for facing in FACINGS:
        yield Action.make(side, "emplace", figure=man.id, facing=facing)



def do_emplace(state: CommandoState, action: Action, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.commando import flow

    man = state.men[action.get("figure")]
    man.spend(tables().cost["place_claymore"])
    use_one(man, "claymore")
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

    man = active_man(state)
    if man is None or not free(man) or man.tp < tables().cost["detonate_claymore"]:
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
    # ruling C-190: a hostage in the cone is attacked like a standing man
    held = {h.id: claymore.Exposure(hostages.where(state, h)) for h in hostages.on_map(state)}
    struck = [h for h, e in sorted(held.items())
              if claymore.in_cone(state.board, mine.at, mine.facing, e.at)]
    seen = witnesses(state, mine.side, mine.at, hit)
    log.emit("claymore", {"mine": mine.id, "at": cell_json(mine.at), "facing": mine.facing},
             seen)
    if seen is not None:  # ruling C-161: the other side hears what it does not see
        sounds.hear(state, state.enemy(mine.side), mine.at, "explosion", log)
    audience = audience_for(state, hit)
    for ident in struck:
        audience = hostages.told(state, ident, audience)
    shots = claymore.claymore(chance, state.board, mine.at, mine.facing,
                              {**{m: exposed[m] for m in hit}, **{h: held[h] for h in struck}},
                              audience)
    state.fired_at.update(hit)  # the mine fires at every man in its cone (C-124, C-189)
    for ident, shot in sorted(shots.items()):
        if ident in state.hostages:
            if shot.result != fire.MISS:
                hostages.harm(state, ident, shot.result == fire.KILL, shot.damage, "claymore",
                              log, hostages.told(state, ident))
            continue
        man = state.men[ident]
        if shot.result == fire.KILL:
            man.kill()
        elif shot.result == fire.WOUND:
            man.take_damage(shot.damage)
        log.emit("blasted", {"figure": ident, "device": "claymore", "result": shot.result,
                             "damage": shot.damage, "status": man.wound().value},
                 audience_for(state, [ident]))
