"""Victory and the end of the game (digest section 7; rulings E-31, E-37, E-38)."""

from __future__ import annotations

from typing import Any

from killhouse.rulesets.base import Result
from killhouse.rulesets.execute.state import (
    ACTIVE,
    DEAD,
    EXTRACTED,
    INCAPACITATED,
    RELEASED,
    ExecuteState,
)

REASONS = {
    "X1": "the FBI met the terrorists' demands",
    "X2": "no active FBI agent remains",
    "X3": "no active terrorist remains: the building is secured",
    "X4": "no hostage is left to rescue",
    "X5": "the turn limit was reached",
}


def trigger(state: ExecuteState, end_of_turn: bool) -> str | None:
    """The first end condition of ruling E-38 that holds now, or ``None``.

    Ruling E-50: X4 needs at least one hostage at the start (else it would hold at once).
    """
    if state.conceded:
        return "X1"
    if not any(f.active for f in state.agents()):
        return "X2"
    if not any(f.active for f in state.terrorist_figures()):
        return "X3"
    if state.hostage_count > 0 and all(
        h.status in (EXTRACTED, RELEASED, DEAD) for h in state.hostages()
    ):
        return "X4"
    if end_of_turn and state.turn >= state.options.turn_limit:
        return "X5"
    return None


def tally(state: ExecuteState) -> dict[str, Any]:
    """R and the other counts section 7 reports (R counts secured hostages under X3)."""
    hostages = state.hostages()
    extracted = sum(1 for h in hostages if h.status == EXTRACTED)
    released = sum(1 for h in hostages if h.status == RELEASED)
    secured_now = not any(f.active for f in state.terrorist_figures())
    secured = (sum(1 for h in hostages if h.status in (ACTIVE, INCAPACITATED) and h.pos is not None)
               if secured_now else 0)
    agents = state.agents()
    return {
        "hostages": state.hostage_count,
        "rescued": extracted + released + secured,
        "extracted": extracted,
        "released": released,
        "secured": secured,
        "hostages_killed": sum(1 for h in hostages if h.status == DEAD),
        "agents_dead": sum(1 for a in agents if a.status == DEAD),
        "agents_incapacitated": sum(1 for a in agents if a.status == INCAPACITATED),
        "terrorists_neutralized": sum(1 for t in state.terrorist_figures() if t.status != ACTIVE),
        "bombs_exploded": sum(1 for x in state.explosions if x.get("kind") == "bomb"),
        "bombs_defused": sum(1 for b in state.bombs.values() if b.state == "disarmed"),
        "turn": state.turn,
    }


def decide(state: ExecuteState, why: str) -> Result:
    """The result of a game that ended by trigger ``why`` (section 7 steps 1-5)."""
    counts = tally(state)
    details = {"trigger": why, **counts}
    reason = f"{why}: {REASONS[why]}"
    fbi_left = any(f.active for f in state.agents())
    terr_left = any(f.active for f in state.terrorist_figures())
    if why == "X1":
        return Result(state.terrorists, reason, details)
    h = state.hostage_count
    if h == 0:
        if why == "X3" and fbi_left:
            return Result(state.fbi, reason, details)
        if not fbi_left and not terr_left:
            return Result(None, reason + " (mutual destruction)", details)
        return Result(state.terrorists, reason, details)
    if 2 * counts["rescued"] > h:
        return Result(state.fbi, reason + "; a majority of the hostages rescued", details)
    if not fbi_left and not terr_left:
        return Result(None, reason + "; mutual destruction without a rescued majority", details)
    return Result(state.terrorists, reason + "; no majority of the hostages rescued", details)


def check(state: ExecuteState, end_of_turn: bool) -> Result | None:
    """Run the end-of-game check; set and return the result when the game is over."""
    why = trigger(state, end_of_turn)
    if why is None:
        return None
    state.result = decide(state, why)
    return state.result
