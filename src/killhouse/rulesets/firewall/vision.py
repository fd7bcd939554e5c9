"""Who sees whom (digest §21.4, ruling F-24) and team awareness (§6.5, ruling F-16).

Vision is all-round; the 180° arc limits only firing. A figure sees another on its level when
the supercover line between their squares crosses no opaque square. Only active figures look.
"""

from __future__ import annotations

from collections.abc import Mapping

from killhouse.core.board import Board
from killhouse.core.geometry import line_of_sight
from killhouse.rulesets.firewall.teams import Figure, Status, Team

#: statuses of figures that stand on the table and can be seen
VISIBLE = frozenset({Status.ACTIVE, Status.INCAPACITATED, Status.KILLED})


def sees(board: Board, looker: Figure, other: Figure) -> bool:
    """Whether ``looker`` (active) has line of sight to ``other`` (supercover, F-24)."""
    if not looker.active or other.status not in VISIBLE or looker.level != other.level:
        return False
    return line_of_sight(board.opaque(looker.level), looker.cell, other.cell, mode="supercover")


def seen_by_side(board: Board, figures: Mapping[str, Figure], side: str) -> set[str]:
    """Ids of the other sides' figures that at least one active figure of ``side`` sees."""
    lookers = [f for f in figures.values() if f.side == side and f.active]
    return {
        o.id
        for o in figures.values()
        if o.side != side and any(sees(board, f, o) for f in lookers)
    }


def update_awareness(
    board: Board, figures: Mapping[str, Figure], teams: Mapping[str, Team]
) -> list[str]:
    """Teams that become aware now because a member sees an active enemy (F-16); permanent."""
    woke = []
    for team in teams.values():
        if team.aware:
            continue
        members = [figures[m] for m in team.members if figures[m].active]
        if any(
            sees(board, f, o)
            for f in members
            for o in figures.values()
            if o.side != team.side and o.active
        ):
            team.aware = True
            woke.append(team.id)
    return woke
