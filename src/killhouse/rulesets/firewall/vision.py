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
    """Whether ``looker`` (active) has line of sight to ``other`` (supercover, F-24); a
    Hidden enemy is never seen (§21.5)."""
    if not looker.active or other.status not in VISIBLE or looker.level != other.level:
        return False
    if other.hidden and other.side != looker.side:
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


def known_to(
    board: Board, figures: Mapping[str, Figure], sides: tuple[str, ...]
) -> dict[str, set[str]]:
    """Per side: the ids it may name now (its own figures and the others it sees)."""
    return {
        side: {f.id for f in figures.values() if f.side == side}
        | seen_by_side(board, figures, side)
        for side in sides
    }


def witnessed(
    before: Mapping[str, set[str]], after: Mapping[str, set[str]], data: dict[str, object],
    named: tuple[str, ...], listed: str | None = None,
) -> tuple[frozenset[str], dict[str, dict[str, object]]]:
    """The audience of an attack's event and each side's redacted copy (§21.4): a side that
    may name one of the ``named`` figures, or one in the ``listed`` mapping, sees the event;
    a figure it may not name is left out of its copy."""
    audience = []
    views: dict[str, dict[str, object]] = {}
    for side in before:
        ids = before[side] | after[side]
        listing = data.get(listed, {}) if listed else {}
        assert isinstance(listing, dict)
        if not any(data.get(k) in ids for k in named) and not any(i in ids for i in listing):
            continue
        audience.append(side)
        copy = dict(data)
        for key in named:
            if copy.get(key) not in ids:
                copy[key] = None
        if listed:
            copy[listed] = {i: v for i, v in listing.items() if i in ids}
        views[side] = copy
    return frozenset(audience), views
