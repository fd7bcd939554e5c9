"""What each side knows of vehicles (§21.4): its own in full; an enemy vehicle only while
seen (position, facing, footprint, type and armour class, wrecked or not), never its crew Gutz,
passengers or weapon states; a side may name a vehicle it has ever seen (F-103)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from killhouse.rulesets.firewall.tables import tables
from killhouse.rulesets.firewall.vehicles.model import Vehicle
from killhouse.rulesets.firewall.vehicles.sight import figures_seen, vehicles_seen

if TYPE_CHECKING:
    from killhouse.rulesets.firewall.state import FirewallState

__all__ = ["figures_seen", "known_vehicle_ids", "vehicles_snapshot", "vehicles_view"]


def _public(v: Vehicle) -> dict[str, Any]:
    on = v.on_table
    return {"id": v.id, "side": v.side, "name": v.name, "armour": v.armour,
            "status": v.status, "facing": v.facing if on else None,
            "at": [v.level, *v.anchor] if on else None,
            "squares": [list(sq) for sq in v.squares()] if on else [],
            "weapons": [tables().weapons[m.weapon].name for m in v.mounts]}


def own_vehicle(v: Vehicle) -> dict[str, Any]:
    return {**_public(v), "team": v.team, "gutz": v.gutz, "start_gutz": v.start_gutz,
            "drive": v.drive, "surface": v.surface, "rate": v.rate, "rates": dict(v.surfaces),
            "capacity": v.capacity, "passengers": sorted(v.passengers),
            "moved_last_turn": v.moved_last_turn, "moved_this_turn": v.moved_this_turn,
            "transfer_this_turn": v.transfer_this_turn, "arrives": v.arrives,
            "crew": [{"role": c.role, "move_used": c.move_used, "combat_used": c.combat_used,
                      "failed": c.failed} for c in v.crew],
            "mounts": [{"id": m.id, "weapon": m.weapon, "kind": m.kind, "arc": m.arc,
                        "state": m.state, "fired": m.fired} for m in v.mounts]}


def vehicles_view(state: FirewallState, side: str) -> list[dict[str, Any]]:
    seen = vehicles_seen(state.board, state.figures, state.vehicles, side)
    return [own_vehicle(v) if v.side == side else _public(v)
            for v in sorted(state.vehicles.values(), key=lambda v: v.id)
            if v.side == side or v.id in seen]


def known_vehicle_ids(state: FirewallState, side: str) -> set[str]:
    if not state.vehicles:
        return set()
    seen = vehicles_seen(state.board, state.figures, state.vehicles, side)
    return {v.id for v in state.vehicles.values()
            if v.side == side or v.id in seen or side in v.seen_by}


def vehicles_snapshot(state: FirewallState) -> dict[str, Any]:
    """The true vehicles for state hashes (absent when a game has none, so older hashes
    stay as they were)."""
    if not state.vehicles:
        return {}
    return {"vehicles": [{**own_vehicle(v), "seen_by": sorted(v.seen_by),
                          "under": sorted([*k, t] for k, t in v.under.items())}
                         for v in sorted(state.vehicles.values(), key=lambda v: v.id)]}
