"""The firewall role AI's set-up decisions, for its own side only (fwsetup, rulings F-210 …).

* an entry edge (§18.2, §18.3): the free edge from which the side's goal is nearest on foot:
  for hunters the unresolved counters on the table (public, F-83), for the extract role the
  Mayor's square in the scenario (public);
* the game master's counters (§18.3, F-214): spread over the table, in cluttered places;
* the game master's spike stays a uniform draw (F-195): every counter rates the same.

Values only; the bot's seeded tie-break chooses among equal ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from killhouse.ai.baseline import cell_of
from killhouse.core.cells import Cell
from killhouse.rulesets.base import Action

if TYPE_CHECKING:
    from killhouse.ai.roles.firewall import FirewallBot


def goal_cells(bot: FirewallBot, view: dict[str, Any]) -> list[Cell]:
    """What the side will head for once on the table."""
    if bot.role == "hunter":
        return [c for c in (cell_of(x.get("at")) for x in view.get("counters", [])) if c]
    if bot.role == "extract" and bot.mayor_start is not None:
        return [bot.mayor_start]
    return []


def edge_value(bot: FirewallBot, view: dict[str, Any], action: Action) -> float:
    """Minus the mean walking cost from the edge to the side's goals (nearer is better);
    0 when the role has no goal to weigh."""
    goals = goal_cells(bot, view)
    edge = str(action.get("edge"))
    field = bot.field(bot._edge_cells(edge))
    if not goals or field is None:
        return 0.0
    costs = [field.cost(g) for g in goals]
    reached = [c for c in costs if c is not None]
    if not reached:
        return -1e6
    return -sum(reached) / len(reached)


#: squares apart beyond which a computer GM cares no more how far apart its counters lie
SPREAD = 10


def counter_value(bot: FirewallBot, view: dict[str, Any], action: Action) -> float:
    """A computer GM spreads its counters over the table (the nearest counter already down
    as far as ``SPREAD`` squares) and hides them in cluttered places (alleys, warehouses,
    the wharf: Clutter 2+) where it can."""
    to = cell_of(action.hint.get("to"))
    if to is None:
        return 0.0
    down = [c for c in (cell_of(x.get("at")) for x in view.get("counters", [])) if c]
    apart = min((max(abs(to.x - c.x), abs(to.y - c.y)) for c in down if c.level == to.level),
                default=SPREAD)
    return float(min(apart, SPREAD)) + (2.0 if bot.board.clutter(to) >= 2 else 0.0)


def setup_value(bot: FirewallBot, view: dict[str, Any], action: Action) -> float:
    if action.kind == "edge":
        return edge_value(bot, view, action)
    if action.kind == "place-counter":
        return counter_value(bot, view, action)
    return 0.0
