"""Skill tasks of the lock-picking phase (5.7, 5.8; rulings E-18 … E-21).

Only FBI agents attempt them, with effective Electronics, from a square adjacent to the
device (Chebyshev ≤ 1, same level), one attempt per agent per turn. A device failure does
nothing; a bomb disarm that fails, or whose TN is above 6, sets the bomb off (E-21).
"""

from __future__ import annotations

from killhouse.core.cells import Cell, cell_json
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.core.geometry import chebyshev
from killhouse.core.terrain import Terrain
from killhouse.rulesets.execute.combat import explode
from killhouse.rulesets.execute.news import audience, tell
from killhouse.rulesets.execute.rolls import resolve_device, resolve_disarm
from killhouse.rulesets.execute.state import Bomb, Device, ExecuteState, Figure
from killhouse.rulesets.execute.vision import witnesses


def adjacent(agent: Figure, at: Cell) -> bool:
    """Ruling E-18: the agent stands on or next to the square, on the same level."""
    pos = agent.pos
    return pos is not None and pos.level == at.level and chebyshev(pos, at) <= 1


def attempt_device(
    state: ExecuteState, agent: Figure, device: Device, chance: Chance, log: EventLog
) -> bool:
    """Pick a lock, or shut off an alarm, camera or power (ruling E-19). True on success."""
    sides = witnesses(state, agent)
    check = resolve_device(
        chance,
        device.level,
        agent.card.electronics,
        agent.damage,
        audience(state, sides),
        purpose=device.type,
    )
    tell(
        state,
        log,
        "task",
        {
            "agent": agent.id,
            "device": device.id,
            "type": device.type,
            "level": device.level,
            **check.to_json(),
        },
        sides,
    )
    if not check.success:
        return False
    device.working = False
    state.touch()
    if device.type == "lock":
        # the door becomes closed and unlocked (E-19, E-5)
        state.board.set_terrain(device.at, Terrain.DOOR_CLOSED)
        state.board.levels[device.at.level].lock[device.at.y, device.at.x] = 0
        tell(state, log, "unlocked", {"device": device.id, "at": cell_json(device.at)}, sides)
        return True
    switched = [device.id]
    if device.type == "power":
        for other in state.devices.values():
            if other.id in device.links and other.working:
                other.working = False
                switched.append(other.id)
    # ruling E-45: the terrorists notice at once when their cameras and alarms go dead
    log.emit("devices_off", {"devices": switched}, None)
    return True


def attempt_disarm(
    state: ExecuteState, agent: Figure, bomb: Bomb, chance: Chance, log: EventLog
) -> bool:
    """Disarm on d6 (5.8): success removes the bomb; anything else explodes it (E-21)."""
    sides = witnesses(state, agent)
    check = resolve_disarm(
        chance, bomb.level, agent.card.electronics, agent.damage, audience(state, sides)
    )
    tell(
        state,
        log,
        "disarm",
        {"agent": agent.id, "bomb": bomb.id, "level": bomb.level, **check.to_json()},
        sides,
    )
    if check.success:
        bomb.state = "disarmed"
        if state.terrorists in sides:
            bomb.terrorists_think_armed = False
        state.touch()
        return True
    explode(state, bomb.id, log)
    return False
