"""What a thrown grenade does to a room: a stun grenade's tests (section 10) and CS gas
(section 11), and the room-wide states they leave (stunned figures, gas, fire smoke)."""

from __future__ import annotations

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.cqb.resolve import cs_tn, stun_tn, test
from killhouse.rulesets.cqb.state import CqbState, Figure
from killhouse.rulesets.cqb.tables import tables
from killhouse.rulesets.cqb.world import observers, room_cells, rooms_of


def in_room(state: CqbState, room: int) -> list[Figure]:
    return [f for f in state.figures.values() if f.active and room in rooms_of(state, f.at)]


def detonate_stun(state: CqbState, room: int, chance: Chance, log: EventLog) -> None:
    """Section 10: everyone in the room tests at TN 8; a second grenade restarts (Q-23)."""
    log.emit("stun-grenade", {"room": room})
    for f in in_room(state, room):
        result = test(chance, state.deck_of(f), stun_tn(0), "stun", observers(state, f),
                      state.options.draw_with_replacement)
        if result.passed:
            f.stunned_turn = None
        else:
            stun(f, state.turn)
            if result.joker and room not in state.fires:
                state.fires[room] = state.turn
                log.emit("fire-starts", {"room": room})
        log.emit("stun-test", {"figure": f.id, **result.to_json()}, observers(state, f))


def stun(fig: Figure, turn: int) -> None:
    fig.stunned_turn = turn
    fig.clear_aim()  # ruling Q-15
    fig.hold = False


def deploy_cs(state: CqbState, room: int, chance: Chance, log: EventLog) -> None:
    """Section 11: gas the room; everyone in it without a respirator tests at TN 6."""
    state.gas[room] = state.turn
    log.emit("cs-gas", {"room": room})
    for f in in_room(state, room):
        cs_test(state, f, 0, chance, log)


def cs_test(state: CqbState, f: Figure, k: int, chance: Chance, log: EventLog) -> None:
    from killhouse.rulesets.cqb.resolve import cs_failures

    if f.respirator:
        return
    result = test(chance, state.deck_of(f), cs_tn(k), "cs", observers(state, f),
                  state.options.draw_with_replacement)
    n = cs_failures(result)
    f.cs += n
    if result.joker and f.combatant:
        f.overcome = True
    log.emit("cs-test", {"figure": f.id, **result.to_json(), "failures": n},
             observers(state, f))


def room_is_gassed(state: CqbState, room: int) -> bool:
    turn = state.gas.get(room)
    if turn is None:
        return False
    if room in state.open_rooms:
        return state.turn - turn < int(tables().tests["cs"]["open_area_turns"])
    return True


def fire_smoke(state: CqbState, room: int) -> None:
    for cell in room_cells(state, room):
        state.board.levels[cell.level].smoke[cell.y, cell.x] = True
