"""Building the state of a new game from a read scenario (pre-game steps 1 and 2)."""

from __future__ import annotations

from killhouse.core.cells import cell_json
from killhouse.core.terrain import Terrain
from killhouse.rulesets.execute.scenario import FigureSetup, Setup
from killhouse.rulesets.execute.state import (
    AGENT,
    HOSTAGE,
    SETUP,
    ExecuteState,
    Figure,
    Memory,
    weapon_id,
)
from killhouse.rulesets.execute.tables import STATS, Card, tables
from killhouse.rulesets.execute.vision import door_cells
from killhouse.scenario.model import Scenario


def make_figure(spec: FigureSetup) -> Figure:
    return Figure.made(
        id=spec.id,
        kind=spec.kind,
        side=spec.side,
        card=spec.card,
        name=spec.name,
        weapon=spec.weapon,
        armour=spec.armour,
        grenades=spec.grenades,
        pos=spec.at,
        custom=spec.custom,
    )


def recruit_figure(state: ExecuteState, card_id: str) -> Figure:
    """A new agent on a published card, with the default loadout (E-11, E-17, E-28)."""
    card = tables().fbi_cards[card_id]
    ident = card_id
    n = 2
    while ident in state.figures or ident in state.benched:
        ident = f"{card_id}-{n}"
        n += 1
    return Figure.made(
        id=ident,
        kind=AGENT,
        side=state.fbi,
        card=card,
        name=card.name,
        weapon=weapon_id(tables().default_weapon),
        armour=state.options.armour_cap(state.fbi),
        grenades=state.options.grenades_per_figure,
    )


#: the longest name a custom agent may be given in planning
MAX_NAME = 40


def custom_card_problem(stats: object) -> str | None:
    """Why ``stats`` is not a combatant card built to ruling E-33 (six whole numbers in card
    order, each within its bounds, summing to exactly 25), or ``None`` if it is."""
    t = tables()
    order = ", ".join(STATS)
    if (not isinstance(stats, list | tuple) or len(stats) != len(STATS)
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in stats)):
        return f"stats must be six whole numbers: {order}"
    for stat, value in zip(STATS, stats, strict=True):
        low, high = t.stat_bounds[stat]
        if not low <= value <= high:
            return f"{stat} must be from {low} to {high} (ruling E-33), not {value}"
    budget = t.point_buy["combatant"]
    if sum(stats) != budget:
        return f"the stats sum to {sum(stats)}; a custom agent has exactly {budget} (E-33)"
    return None


def custom_agent(state: ExecuteState, stats: list[int], name: object) -> Figure:
    """A custom agent on a point-buy card (E-33, E-67), with the default loadout."""
    n = 1
    while f"custom-{n}" in state.figures or f"custom-{n}" in state.benched:
        n += 1
    ident = f"custom-{n}"
    label = str(name) if isinstance(name, str) else f"Custom agent {n}"
    movement, firearms, grenades, electronics, evasion, vitality = stats
    card = Card(ident, label, "custom", movement, firearms, grenades, electronics, evasion,
                vitality)
    return Figure(
        id=ident,
        kind=AGENT,
        side=state.fbi,
        card=card,
        name=label,
        weapon=weapon_id(tables().default_weapon),
        armour=state.options.armour_cap(state.fbi),
        grenades=state.options.grenades_per_figure,
        custom=True,
    )


def pool_key(figure: Figure) -> str:
    """How the planning step names an agent on the bench: its card, or its id if custom."""
    return figure.id if figure.custom else figure.card.id


def build(setup: Setup, scenario: Scenario) -> ExecuteState:
    """The state at the first decision point: the terrorists' setup (pre-game step 2)."""
    board = scenario.board.copy()
    for device in setup.devices:
        if device.type == "lock":
            # a lock object locks its door at the given level (E-19, E-20)
            board.set_terrain(device.at, Terrain.DOOR_LOCKED)
            board.levels[device.at.level].lock[device.at.y, device.at.x] = device.level
    figures = {f.id: make_figure(f) for f in setup.figures}
    state = ExecuteState(
        board=board,
        fbi=setup.fbi,
        terrorists=setup.terrorists,
        options=setup.options,
        figures=figures,
        devices={d.id: d for d in setup.devices},
        bombs={b.id: b for b in setup.bombs},
        entry=setup.entry,
        extraction=setup.extraction,
        hostage_count=sum(1 for f in setup.figures if f.kind == HOSTAGE),
    )
    if not state.agents():
        # ruling E-61: no roster in the file, the first fbi_count printed cards
        for card_id in list(tables().fbi_cards)[: setup.options.fbi_count]:
            agent = recruit_figure(state, card_id)
            state.figures[agent.id] = agent
    used = {a.card.id for a in state.agents()}
    state.pool = [c for c in tables().fbi_cards if c not in used]
    for side in state.side_ids():
        state.known[side] = {f.id for f in state.figures.values() if f.side == side}
        state.seen[side] = set()
        state.memory[side] = {}
        state.doors[side] = {
            c: int(board.levels[c.level].terrain[c.y, c.x]) for c in door_cells(state)
        }
    # the terrorists placed the hostages: they know them and where they left them
    for h in state.hostages():
        state.known[state.terrorists].add(h.id)
        state.memory[state.terrorists][h.id] = Memory(
            h.id,
            cell_json(h.pos),
            0,
            "placed",
            {"kind": HOSTAGE, "side": None, "name": h.name, "status": h.status},
        )
    state.phase = SETUP
    return state
