"""Harm to figures: wounds (ruling G-16) and out of action (section 4.7, G-27, G-29)."""

from __future__ import annotations

from killhouse.core.events import EventLog
from killhouse.rulesets.gogogo.news import place, public, team_seats, tell
from killhouse.rulesets.gogogo.state import HOSTAGE, OOA, VIP, Figure, GoState, T


def wound(fig: Figure) -> None:
    """One more wound: −1 on the figure's own later rolls; never out of action by itself (G-16)."""
    fig.wounds += 1


def take_out(state: GoState, log: EventLog, fig: Figure, by_team: str | None) -> None:
    """Remove a figure from play at once (OOA), with what follows from it.

    A hostage's death is charged to ``by_team`` (G-27) and announced; the VIP's death is
    announced (G-36); a carried bomb drops on the carrier's square (G-29); hostages led by
    the figure stop and wait (G-25).
    """
    fig.status = OOA
    fig.hiding = False
    fig.plant_progress = 0
    fig.defuse_progress = 0
    if fig.kind == HOSTAGE:
        fig.killed_by = by_team
        fig.leader = None
        public(state, log, "hostage-killed", {"by": by_team})
    elif fig.kind == VIP:
        fig.killed_by = by_team
        public(state, log, "vip-killed", {})
    else:
        fig.killed_by = by_team
    if fig.has_bomb and state.bomb is not None:
        fig.has_bomb = False
        state.bomb.carrier = None
        state.bomb.pos = fig.pos
        t_side = state.side_of[T]
        tell(
            state,
            log,
            "bomb-dropped",
            {"at": place(state, fig.pos)},
            [t_side],
            team_seats(state, t_side),
        )
    for other in state.figures.values():
        if other.kind == HOSTAGE and other.leader == fig.id:
            other.leader = None
