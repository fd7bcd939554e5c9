"""Seeded generation of new men through the game's chance (every roll an event)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from killhouse.core.chance import Chance
from killhouse.roster.model import Man

#: ``NdS`` or ``NdS+K`` / ``NdS-K``: N dice of S sides plus a constant
DICE = re.compile(r"^(\d+)d(\d+)([+-]\d+)?$")


def parse_dice(spec: str) -> tuple[int, int, int]:
    """``"3d6+2"`` -> ``(3, 6, 2)``; ``ValueError`` naming the accepted form otherwise."""
    found = DICE.match(spec.strip())
    if found is None or int(found.group(1)) < 1 or int(found.group(2)) < 2:
        raise ValueError(f"expected dice such as 3d6 or 2d10+5, found {spec!r}")
    return int(found.group(1)), int(found.group(2)), int(found.group(3) or 0)


def generate_men(
    chance: Chance,
    names: Sequence[str],
    characteristics: Mapping[str, str],
    skills: Mapping[str, str] | None = None,
) -> list[Man]:
    """New men, one per name, each characteristic and skill rolled as its dice say.

    Rolls go through ``chance`` in a fixed order (men in order, then characteristics, then
    skills, each in the order given), so the game's seed reproduces the roster.
    """
    specs = {k: parse_dice(v) for k, v in characteristics.items()}
    skill_specs = {k: parse_dice(v) for k, v in (skills or {}).items()}
    men: list[Man] = []
    for name in names:
        rolled: dict[str, int] = {}
        for key, (count, sides, plus) in specs.items():
            rolled[key] = sum(chance.dice(count, sides, f"roster {name} {key}")) + plus
        learned: dict[str, int] = {}
        for key, (count, sides, plus) in skill_specs.items():
            learned[key] = sum(chance.dice(count, sides, f"roster {name} {key}")) + plus
        men.append(Man(name, rolled, learned))
    return men
