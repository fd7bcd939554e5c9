"""The firewall role AI's set-up decisions, for its own side only (fwsetup, rulings F-210 …).

* an entry edge (§18.2, §18.3): the free edge from which the side's goal is nearest on foot:
  for hunters the unresolved counters on the table (public, F-83), for the extract role the
  Mayor's square in the scenario (public);
* the game master's counters (§18.3, F-214): spread over the table, in cluttered places;
* the snatch squad's secret loadout (§18.1, F-276): a stunner each, a net gun or an SMG,
  tangler and concussion grenades, Mono-Weave (no move penalty for the carry off the table);
* the snatch squad's secret deployment (§18.1, F-215): hidden a few rows off the path;
  the end of the path of Kewell's team is a uniform draw, and the team strolls away from it;
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


#: rows from the path where a snatcher waits: near enough to strike, not within 2 cm
AMBUSH_ROWS = 3


def deploy_value(bot: FirewallBot, view: dict[str, Any], action: Action) -> float:
    """The snatch squad hides about ``AMBUSH_ROWS`` rows off the path (Kewell's row in the
    scenario), toward the middle of the table (either end may be chosen after it), and not
    bunched (a friend within 2 squares costs); it keeps nobody off the table."""
    to = cell_of(action.hint.get("to"))
    if to is None:
        return -10.0
    kewell = bot.starts.get(str(bot.objectives.get("target")))
    row = kewell.y if kewell is not None else bot.board.levels[to.level].height // 2
    width = bot.board.levels[to.level].width
    friends = [c for c in (cell_of(f.get("at")) for f in view.get("figures", [])) if c]
    near = sum(1 for c in friends if max(abs(c.x - to.x), abs(c.y - to.y)) <= 2)
    return -abs(abs(to.y - row) - AMBUSH_ROWS) - 0.1 * abs(to.x - width // 2) - 2.0 * near


def far_end(bot: FirewallBot, view: dict[str, Any]) -> list[Cell]:
    """Where Kewell's team strolls: the clear squares of the edge away from the end of the
    path where Kewell stands at the start (§18.1, the Anfield player's end, F-217)."""
    me = next((f for f in view.get("figures", []) if f.get("id") == bot.objectives.get("target")),
              None)
    at = cell_of(me.get("at")) if me else None
    if at is None:
        return bot.east
    level = bot.board.levels[at.level]
    x = 0 if at.x * 2 > level.width - 1 else level.width - 1
    return [c for c in bot.board.cells(at.level) if c.x == x and bot.board.clutter(c) == 0
            and bot.board.passable(c)]


#: ruling F-276: the squad bot's kit, non-lethal first (Kewell must be taken alive): the
#: leader and every other figure an SMG for the handlers and the response team, the rest a
#: net gun; grenades the role AI throws at figures (it throws no gas clouds)
KIT_ARMOUR = "mono_weave"
KIT_GRENADES = {"tangler": 2, "concussion": 2}


def kit_wanted(index: int, leader: bool) -> list[str]:
    """The weapons the squad bot wants on its ``index``-th figure."""
    second = "colt_10mm_uaw" if leader or index % 2 == 0 else "jannings_net_gun"
    return ["isuku_stunner", second]


def kit_value(view: dict[str, Any], action: Action) -> float:
    """Take the wanted items one by one, then close the kit; never the file's kit."""
    figures = [f for f in view.get("figures", []) if f.get("id") == action.get("figure")]
    if not figures:
        return 0.0
    me = figures[0]
    ids = [f.get("id") for f in view.get("figures", [])]
    if action.kind == "kit-armour":
        return 7.0 if action.get("armour") == KIT_ARMOUR else -5.0  # armour, then weapons
    if action.kind == "kit-weapon":
        want = kit_wanted(ids.index(me.get("id")), bool(me.get("leader")))
        w = str(action.get("weapon"))
        if want.count(w) <= list(me.get("weapons", [])).count(w):
            return -5.0
        return 6.0 - want.index(w)  # the stunner first: it is the figure's first weapon
    if action.kind == "kit-grenade":
        g = str(action.get("grenade"))
        return 3.0 if KIT_GRENADES.get(g, 0) > me.get("grenades", {}).get(g, 0) else -5.0
    return -1.0 if action.kind == "kit-file" else 0.0


def setup_value(bot: FirewallBot, view: dict[str, Any], action: Action) -> float:
    if action.kind.startswith("kit-"):
        return kit_value(view, action)
    if action.kind == "edge":
        return edge_value(bot, view, action)
    if action.kind == "place-counter":
        return counter_value(bot, view, action)
    if action.kind == "deploy":
        return deploy_value(bot, view, action)
    return 0.0  # the spike (F-195) and the end of the path: drawn by the tie-break
