"""Movement, rally, climbing and falling (digest §6; rulings F-9 … F-18, F-38)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from killhouse.core.chance import Chance
from killhouse.core.events import Audience
from killhouse.core.measure import RootSum
from killhouse.rulesets.firewall.gutz import Result, gutz_roll
from killhouse.rulesets.firewall.tables import tables

Length = Fraction | RootSum


def max_distance(speed: str, legs: str = "none", armour_move: int = 0) -> Fraction:
    """Maximum on-foot distance in cm: base × cyber-leg factor + armour modifier, min 0 (F-38)."""
    t = tables()
    return max(Fraction(0), t.speeds[speed] * t.cyber_legs_factor[legs] + armour_move)


def _shorter(route: RootSum, limit: Fraction) -> Length:
    """The shorter of a route and a limit, as a plain Fraction whenever it is rational."""
    if not route <= limit:
        return limit
    exact = route.rational()
    return route if exact is None else exact


@dataclass(frozen=True)
class MoveAllowance:
    """How far a move result lets the figure go along its route, in cm.

    ``exact`` (a failure, ruling F-9) means it must go that far unless blocked; otherwise it
    may stop anywhere up to ``distance``. ``beyond_route`` lets a CS extend the route (F-10).
    """

    distance: Length
    exact: bool = False
    beyond_route: bool = False


def move_allowance(result: Result, route: RootSum, maximum: Fraction) -> MoveAllowance:
    """§6.2: CS up to 1.25 × maximum; S up to the maximum; F exactly min(route, max) / 2; CF 0."""
    if result == "CS":
        return MoveAllowance(maximum * tables().move_cs_factor, beyond_route=True)
    if result == "S":
        return MoveAllowance(_shorter(route, maximum))
    if result == "F":
        half = _shorter(route, maximum)
        if isinstance(half, RootSum):
            return MoveAllowance(half.scale(Fraction(1, 2)), exact=True)
        return MoveAllowance(half / 2, exact=True)
    return MoveAllowance(Fraction(0))


def needs_second_roll(speed: str, result: Result) -> bool:
    """A Run (or Full-speed) move that got F (not CF) rolls again at once (§6.2)."""
    return speed in ("run", "full") and result == "F"


def second_roll_change(result: Result) -> int:
    """Ruling F-11: S or CS on the second roll changes nothing; F or CF costs exactly 1."""
    return -1 if result in ("F", "CF") else 0


def rally_effect(result: Result) -> tuple[bool, int, bool]:
    """A Rally (§6.4, F-15): (suppression removed, Gutz change, may move as for S)."""
    return {
        "CS": (True, 1, True),
        "S": (True, 0, False),
        "F": (False, 0, False),
        "CF": (False, -1, False),
    }[result]


def climb_allowance(result: Result, crawl: Fraction, acrobatics: int = 0) -> tuple[Fraction, bool]:
    """Climb/jump distance for a result and whether the figure falls (§6.6, F-17)."""
    t = tables()
    reach = crawl + int(t.skills["acrobatics_cm_per_level"]) * acrobatics
    if result == "CS":
        return reach * t.move_cs_factor, False
    if result == "S":
        return reach, False
    return Fraction(0), result == "CF"


def fall_attacks(height_cm: Fraction | int) -> tuple[int, int]:
    """A fall from h cm: floor(h / 4) SS attacks, each at Gutz min(11, 2h) (F-18)."""
    m = tables().movement
    h = Fraction(height_cm)
    count = int(h // int(m["fall_step_cm"]))
    gutz = min(tables().max_gutz, int(h * int(m["fall_gutz_per_cm"])))
    return count, gutz


def fall_hit(result: Result) -> tuple[bool, int]:
    """One fall attack: CS kills, S −2 (no armour), F and CF nothing (F-18)."""
    if result == "CS":
        return True, 0
    if result == "S":
        return False, int(tables().movement["fall_loss"])
    return False, 0


def fall(chance: Chance, height: Fraction | int, label: str,
         audience: Audience = None) -> tuple[list[str], bool, int]:
    """A fall from ``height`` cm (§6.6, F-18): floor(h/4) SS attacks at Gutz min(11, 2h),
    unmodified, no armour; each CS kills, each S costs 2, F and CF nothing. Returns the
    results, whether it killed, and the Gutz lost (play and ``odds firewall fall`` share it)."""
    count, gutz = fall_attacks(height)
    results: list[str] = []
    lost = 0
    for i in range(count):
        roll = gutz_roll(chance, gutz, 0, f"{label} fall attack {i + 1}", audience)
        results.append(roll.result)
        killed, loss = fall_hit(roll.result)
        if killed:
            return results, True, lost
        lost += loss
    return results, False, lost
