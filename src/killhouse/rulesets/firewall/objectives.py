"""What the scenarios of digest §18 add to the Turn: victory conditions, the alarm and its
reinforcements, the data-spike counters and Lonnie Gates, hostages, exits off the table.

Pure rules on plain values; the flow calls them after every action and at every upkeep.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from killhouse.core.board import Board
from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Result
from killhouse.rulesets.firewall import armour as arm
from killhouse.rulesets.firewall.fire import apply_hit, infantry_outcome
from killhouse.rulesets.firewall.grid import within
from killhouse.rulesets.firewall.gutz import gutz_roll
from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.teams import Figure, Status

#: the side hostages belong to: never in the rotation, never a winner
HOSTAGES = "hostages"
#: the reach of "within 2 cm" (surrender, grabbing a counter, picking up a figure)
NEAR_CM = 2
#: digest §18.1: the alarm count at which reinforcements are called
ALARM_TARGET = 4
#: digest §18.3: a trap is an improvised AP bomb attacking with Gutz 7
TRAP_GUTZ = 7
TRAP_WEAPON = "improvised_bomb_ap"
KINDS = ("eliminate", "snatch", "rescue", "spike", "extract")  # extract: §18.2 (vehicles)
EDGES = ("n", "e", "s", "w")


@dataclass(frozen=True)
class Objective:
    """A scenario's victory condition and the sides it names (§18)."""

    kind: str = "eliminate"
    #: snatch: the figure to take and the side taking it; rescue: rescuers and captors
    target: str | None = None
    taker: str | None = None
    rescuers: str | None = None
    captors: str | None = None
    max_hostage_losses: int = 0
    #: team -> the side whose first action makes it aware (§18.1: Kewell's team)
    wake_on_action: Mapping[str, str] = field(default_factory=dict)
    #: figures that may not move until they see an enemy or a Combat action has occurred (§18.3)
    still: frozenset[str] = frozenset()
    #: figures that surrender to an enemy ending an action within 2 cm (§18.3, ruling F-56)
    surrenders: frozenset[str] = frozenset()
    #: the team that arrives once the alarm count reaches 4 (§18.1)
    alarm_team: str | None = None


@dataclass
class Counter:
    """A numbered counter of "Triple-Cross" (§18.3): the spike or a trap, until resolved."""

    id: str
    number: int
    cell: tuple[int, int]
    level: int = 0
    resolved: bool = False


def on_edge(board: Board, level: int, cell: tuple[int, int]) -> str | None:
    """The table edge a square lies on (n, e, s or w), or ``None`` (rulings F-55, F-58)."""
    x, y = cell
    lv = board.levels[level]
    if y == 0:
        return "n"
    if y == lv.height - 1:
        return "s"
    if x == 0:
        return "w"
    if x == lv.width - 1:
        return "e"
    return None


def out_of_fight(f: Figure) -> bool:
    """Removed or helpless (§1.1)."""
    return not f.active


def alarm_roll(chance: Chance, count: int, audience: frozenset[str]) -> int:
    """§18.1: 2d6 at the start of a Turn; each six adds one to the running count."""
    dice = chance.dice(2, 6, "alarm", audience)
    return count + sum(1 for d in dice if d == 6)


def trap_attack(
    figures: dict[str, Figure], victim: Figure, chance: Chance, audience: frozenset[str] | None,
    result: str | None = None,
) -> str:
    """§18.3: a trap goes off on the figure: an improvised AP bomb B attack with Gutz 7 and
    no modifiers (its CF is a dud, no malfunction: the bomb is the trap itself). A botched
    disarm gives the trap's CS without a roll (``result="CS"``)."""
    outcome = result if result is not None else gutz_roll(
        chance, TRAP_GUTZ, 0, f"trap on {victim.id}", audience).result
    positions = {
        f.id: f.cell for f in figures.values()
        if f.level == victim.level and f.status in (Status.ACTIVE, Status.INCAPACITATED)
    }
    if outcome == "CF":
        return "CF"
    out = infantry_outcome("B", outcome, victim.id, positions, firer=None)  # type: ignore[arg-type]
    rule = tables().weapons[TRAP_WEAPON].armour
    for fid, hit in out.hits.items():
        f = figures[fid]
        # ruling F-94: the bomb is a weapon attack, so personal armour reduces its loss
        after = apply_hit(f.gutz, f.status.value, f.suppressed, hit,
                          arm.reduction(tables().armour[f.armour], rule))
        f.gutz, f.status, f.suppressed = after.gutz, Status(after.status), after.suppressed
    return outcome


def surrender(
    figures: Mapping[str, Figure], objective: Objective, log: EventLog
) -> list[str]:
    """Figures that surrender now: an active enemy stands within 2 cm (§18.3, ruling F-56)."""
    out = []
    for fid in sorted(objective.surrenders):
        f = figures.get(fid)
        if f is None or not f.active or f.captured:
            continue
        if any(o.active and o.side not in (f.side, HOSTAGES) and o.level == f.level
               and within(o.cell, f.cell, NEAR_CM)
               for o in figures.values()):
            f.captured = True
            f.status = Status.INCAPACITATED
            f.suppressed = False
            out.append(fid)
            log.emit("surrender", {"figure": fid})
    return out


def victory(
    objective: Objective, figures: Mapping[str, Figure], sides: tuple[str, ...],
    players: tuple[str, ...], *, spike_out: str | None = None,
) -> Result | None:
    """The result once a scenario's condition is met, else ``None`` (turn limits aside)."""
    def fighting(side: str) -> bool:
        return any(f.active for f in figures.values() if f.side == side)

    def still_to_come(side: str) -> bool:
        return any(f.status is Status.RESERVE for f in figures.values() if f.side == side)

    if objective.kind == "snatch":
        target = figures[objective.target or ""]
        taker = objective.taker or ""
        other = next(s for s in players if s != taker)
        if target.status is Status.EXITED:
            carrier = figures.get(target.carried_by or "")
            if carrier is not None and carrier.side == taker:
                return Result(taker, f"{target.id} was carried off the table")
            return Result(other, f"{target.id} left the table safely")
        if target.status in (Status.KILLED, Status.ROUTED):
            return Result(other, f"{target.id} is {target.status.value}")
        # ruling F-216: a snatcher still off the table is still to come
        if not fighting(taker) and not still_to_come(taker) and target.carried_by is None:
            return Result(other, "every snatch-squad figure is removed or helpless")
        return None
    if objective.kind == "rescue":
        rescuers, captors = objective.rescuers or "", objective.captors or ""
        hostages = [f for f in figures.values() if f.side == HOSTAGES]
        killed = sum(1 for f in hostages if f.status is Status.KILLED)
        if killed > objective.max_hostage_losses:
            return Result(captors, f"{killed} hostages killed",
                          {"hostages_killed": killed, "hostages": len(hostages)})
        if not fighting(captors) and not still_to_come(captors):
            return Result(rescuers, "every gunman is removed or helpless",
                          {"hostages_killed": killed, "hostages": len(hostages)})
        if not fighting(rescuers) and not still_to_come(rescuers):
            return Result(captors, "every rescuer is removed or helpless",
                          {"hostages_killed": killed, "hostages": len(hostages)})
        return None
    if objective.kind == "spike":
        if spike_out is not None:
            return Result(spike_out, "carried the data-spike off over its own entry edge")
        standing = [s for s in players if fighting(s) or still_to_come(s)]
        if not standing:
            return Result(None, "no side has a figure still fighting")
        return None
    standing = [s for s in players if fighting(s) or still_to_come(s)]
    if len(standing) == 1:
        return Result(standing[0], "the only side with figures still fighting")
    if not standing:
        return Result(None, "no side has a figure still fighting")
    return None


def time_result(objective: Objective, figures: Mapping[str, Figure], limit: int,
                brownie: Mapping[str, int]) -> Result:
    """The result at the end of the last Turn (§18)."""
    if objective.kind == "snatch":
        other = objective.taker
        defenders = {f.side for f in figures.values() if f.side not in (other, HOSTAGES)}
        winner = sorted(defenders)[0] if len(defenders) == 1 else None
        return Result(winner, f"end of Turn {limit}: {objective.target} was not taken")
    if objective.kind == "rescue":
        hostages = [f for f in figures.values() if f.side == HOSTAGES]
        killed = sum(1 for f in hostages if f.status is Status.KILLED)
        return Result(objective.captors, f"end of Turn {limit}: the gunmen still hold out",
                      {"hostages_killed": killed, "hostages": len(hostages)})
    if objective.kind == "spike":
        return Result(None, f"end of Turn {limit}: nobody carried the spike off",
                      {"brownie_points": dict(sorted(brownie.items()))})
    return Result(None, f"turn limit {limit} reached")
