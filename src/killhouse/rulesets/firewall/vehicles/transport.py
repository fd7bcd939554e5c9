"""Personal transport (§17.1, ruling F-46): bikes, roller blades, skateboards.

A figure that has a transport gets on or off with a Movement action and a roll, without
moving. While it rides, its moves use the transport's Slow / Cruise / Full distances in place
of Crawl / Walk / Run (a Full failure takes the second roll, like a Run), cyber legs multiply
them and armour does not change them (F-38); it is never made prone by a Slow move (ruling
F-152). Every Combat action in a Turn it rode takes the penalty of the fastest speed it rode.
"""

from __future__ import annotations

from fractions import Fraction

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.rulesets.firewall.gutz import Result, change_gutz, gutz_roll, roller_change
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status
from killhouse.rulesets.firewall.vehicles.catalogue import catalogue

#: a foot speed's transport speed (§17.1: Slow/Cruise/Full behave like Crawl/Walk/Run)
RIDE_SPEED = {"crawl": "slow", "walk": "cruise", "run": "full"}
ORDER = ("none", "slow", "cruise", "full")


def ride_maximum(f: Figure, speed: str) -> Fraction:
    """The rider's maximum at a foot speed: the transport's distance × cyber legs (F-38)."""
    assert f.transport is not None
    legs = "none"
    if "cyber_legs_advanced" in f.cyber:
        legs = "advanced"
    elif "cyber_legs_basic" in f.cyber:
        legs = "basic"
    base = catalogue().transport_cm(f.transport, RIDE_SPEED[speed])
    return base * tables().cyber_legs_factor[legs]


def note_ride(f: Figure, speed: str) -> None:
    """Ruling F-46: remember the fastest transport speed ridden this Turn."""
    ride = RIDE_SPEED[speed]
    if ORDER.index(ride) > ORDER.index(f.rode):
        f.rode = ride


def combat_penalty(f: Figure) -> int:
    """The §7.5 riding modifier a Combat action takes this Turn (0 / −1 / −3)."""
    return int(tables().fire["modifiers"]["transport"][f.rode])


def mount_problem(f: Figure, on: bool) -> str | None:
    if f.transport is None:
        return f"{f.id} has no personal transport"
    if not f.active:
        return f"{f.id} is not active"
    if f.move_used or f.failed_this_turn:
        return f"{f.id} has no Movement action left this Turn"
    if f.carrying is not None:
        return f"{f.id} carries a figure and cannot ride"
    if f.riding == on:
        return f"{f.id} is already {'on' if on else 'off'} its {f.transport}"
    return None


def mount(chance: Chance, f: Figure, modifier: int, on: bool, audience: Audience) -> Result:
    """Get on (``on``) or off the transport: a Movement action with a plain roll and no
    movement (F-46); it happens on any result but CF."""
    f.move_used = True
    roll = gutz_roll(chance, f.gutz, modifier, f"{f.id} gets {'on' if on else 'off'}", audience)
    change = change_gutz(f.gutz, roller_change(roll.result))
    f.gutz = change.gutz
    if change.status != "active":
        f.status = Status(change.status)
    if roll.result in ("F", "CF"):
        f.failed_this_turn = True
    if roll.result != "CF":
        f.riding = on
    return roll.result
