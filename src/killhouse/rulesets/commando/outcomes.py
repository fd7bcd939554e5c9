"""How the rescue and hold missions end (rulings C-175, C-177); elimination (C-84) and
demolition (C-155) are checked in ``flow.check_victory``, which calls these."""

from __future__ import annotations

from killhouse.core.events import EventLog
from killhouse.rulesets.base import Result
from killhouse.rulesets.commando import hostages
from killhouse.rulesets.commando.state import CommandoState


def _name(state: CommandoState, side: str) -> str:
    return next((s.name for s in state.scenario.sides if s.id == side), side)


def after_task(state: CommandoState, log: EventLog) -> Result | None:
    """Checked with victory after every task: led hostages follow their escorts and those in
    the rescue zone are rescued; then the rescue mission's verdict (C-174, C-175)."""
    mission = state.mission
    if mission is None or mission.kind != "rescue":
        return None
    hostages.update(state, log, mission.rescue)
    return hostages.verdict(state)


def rescuing(state: CommandoState) -> bool:
    """Ruling C-175: a rescue mission with hostages still on the map is won only by bringing
    them out, even once every captor is out of action."""
    mission = state.mission
    return mission is not None and mission.kind == "rescue" and bool(hostages.on_map(state))


def holds(state: CommandoState, side: str) -> bool:
    """Ruling C-177: a side holds the zone when one of its men in action stands in it and no
    man in action of the other side does."""
    zone = state.mission.hold
    mine = any(state.pos[m.id] in zone for m in state.up(side))
    theirs = any(state.pos[m.id] in zone for m in state.up(state.enemy(side)))
    return mine and not theirs


def bookkeeping(state: CommandoState) -> Result | None:
    """Ruling C-177: each Bookkeeping counts the turns in a row the holder has held the zone
    (a secret count); at ``hold_turns`` the holder wins."""
    mission = state.mission
    if mission is None or mission.kind != "hold" or mission.holder is None:
        return None
    state.held_turns = state.held_turns + 1 if holds(state, mission.holder) else 0
    if mission.hold_turns is not None and state.held_turns >= mission.hold_turns:
        turns = "turn" if mission.hold_turns == 1 else "turns"
        return Result(mission.holder, f"{_name(state, mission.holder)} held the "
                                      f"{mission.hold_name} for {mission.hold_turns} {turns}")
    return None


def time_out(state: CommandoState) -> Result | None:
    """Ruling C-177 at the end of the turn limit: without ``hold_turns`` the holder wins if
    it holds the zone then; otherwise the other side wins (None: the second side, with the
    scenario's own time-out words, C-152)."""
    mission = state.mission
    if mission is None or mission.kind != "hold" or mission.holder is None:
        return None
    if mission.hold_turns is None and holds(state, mission.holder):
        return Result(mission.holder, f"{_name(state, mission.holder)} holds the "
                                      f"{mission.hold_name} at the end of turn {state.turn}")
    other = state.enemy(mission.holder)
    if other == state.sides[1]:
        return None
    return Result(other, f"{_name(state, mission.holder)} did not hold the "
                         f"{mission.hold_name} (turn limit {state.turn})")
