"""Devices going off (rulings C-28, C-33 … C-35, C-64, C-65): the blast or burst of one device,
and the Bookkeeping of live devices, burning men and clouds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.commando import (
    blasts,
    clouds,
    grenades,
    hostages,
    missions,
    morale,
    rooms,
    sounds,
)
from killhouse.rulesets.commando.devices import Live
from killhouse.rulesets.commando.surroundings import (
    audience_for,
    environment,
    room_of,
    witnesses,
)
from killhouse.rulesets.commando.turn import burn

if TYPE_CHECKING:
    from killhouse.rulesets.commando.state import CommandoState


def explode(state: CommandoState, device: str, at: Cell, side: str, owner: str,
            chance: Chance, log: EventLog) -> None:
    """A device goes off in ``at``: smoke and illumination burst (C-35); anything else blasts
    the flood-filled area of its radius in the square's environment (C-28, C-65, C-89)."""
    morale.blast_near(state, at)  # preservation condition 2 (C-189)
    if device in (clouds.SMOKE, clouds.ILLUMINATION):
        cloud = clouds.burst(device, at, state.turn)
        state.ordnance.clouds.append(cloud)
        clouds.lay_smoke(state.board, state.ordnance.clouds, state.turn)
        log.emit("burst", {"device": device, "at": cell_json(at), "until": cloud.until})
        return
    env = environment(state, at)
    area = blasts.blast_cells(state.board, at, device, env)
    room = rooms.room_at(state.board, at) if room_of(state, at) is None else None
    if room is not None and env != "open":
        area = area & room.cells  # ruling C-187: the blast never leaves the room (C-28)
    caught = sorted(m for m, p in state.pos.items()
                    if p.level == at.level and area[p.y, p.x] and not state.men[m].killed
                    and state.men[m].wound().value != "dead")
    seen = witnesses(state, side, at, caught)
    log.emit("explosion", {"device": device, "at": cell_json(at), "environment": env}, seen)
    if seen is not None:  # ruling C-161: the other side hears what it does not see
        sounds.hear(state, state.enemy(side), at, "explosion", log)
    if state.mission is not None:
        for target in missions.hit(state.mission.targets, state.destroyed, device, at.level,
                                   area):
            # ruling C-156: a target blown up is known to both sides at once
            state.destroyed.add(target)
            log.emit("destroyed", {"target": target, "device": device})
    # ruling C-190: a hostage in the area is caught like a man (he counts in the 2 % per man
    # and rolls his damage), in ascending id with the men (C-98)
    held = [h.id for h in hostages.on_map(state)
            if (c := hostages.where(state, h)).level == at.level and area[c.y, c.x]]
    audience = audience_for(state, caught)
    for ident in held:  # the dice go to the sides that see every one caught (C-91)
        audience = hostages.told(state, ident, audience)
    everyone = sorted([*caught, *held])
    results = grenades.blast(chance, device, env, len(everyone), audience)
    for ident, result in zip(everyone, results, strict=True):
        if ident in state.hostages:
            hostages.harm(state, ident, result is None, result or 0, device, log,
                          hostages.told(state, ident))
            continue
        man = state.men[ident]
        if result is None:
            man.kill()
        else:
            man.take_damage(result)
        log.emit("blasted", {"figure": ident, "device": device,
                             "result": "killed" if result is None else "damage",
                             "damage": result or 0, "status": man.wound().value},
                 audience_for(state, [ident]))



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
