"""The order of Fire Team activations in a Turn (digest §5, §21.2; rulings F-7, F-8)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from killhouse.core.chance import Chance


def initiative(chance: Chance, sides: Sequence[str], bonus: Mapping[str, int]) -> list[str]:
    """Sides in acting order: 1d6 + Tactics bonus each, highest first; tied sides re-roll
    among themselves (ruling F-8)."""
    if len(sides) <= 1:
        return list(sides)
    rolls = {side: chance.roll(6, f"initiative {side}") + bonus.get(side, 0) for side in sides}
    order: list[str] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied = [side for side in sides if rolls[side] == value]
        order.extend(initiative(chance, tied, bonus) if len(tied) > 1 else tied)
    return order


def activation_sides(order: Sequence[str], teams: Mapping[str, int]) -> list[str]:
    """Which side activates a team at each step: rotate through ``order``, skipping sides
    with no unactivated team left (§5 item 2, §21.2)."""
    left = {side: teams.get(side, 0) for side in order}
    sequence: list[str] = []
    i = 0
    while any(left.values()):
        side = order[i % len(order)]
        i += 1
        if left[side]:
            left[side] -= 1
            sequence.append(side)
    return sequence
