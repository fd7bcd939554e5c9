"""What each side knows (section 14 "Information each side has"): its own figures in full;
opposing figures and hostages in sight now; last sightings; sounds as directions; the reaction
cards of figures it sees; its own decks. Hold flags and undeclared actions of others never."""

from __future__ import annotations

from typing import Any

from killhouse.core.cells import cell_json
from killhouse.rulesets.cqb.state import EXTRACTION, HOSTAGES, CqbState, Figure
from killhouse.rulesets.cqb.world import side_sees
from killhouse.rulesets.kit.flow import own_question, windows_json
from killhouse.rulesets.kit.view import Status, viewer


def status(f: Figure) -> str:
    if f.extracted:
        return Status.RESCUED.value
    if f.condition == "dead":
        return Status.DEAD.value
    if f.condition == "incapacitated":
        return Status.INCAPACITATED.value
    if f.stunned:
        return Status.STUNNED.value
    if f.flesh or f.ooa_hits:
        return Status.WOUNDED.value
    return Status.ACTIVE.value


def wounds(f: Figure) -> dict[str, Any]:
    return {"flesh": f.flesh, "legs_ooa": f.legs_ooa, "strong_arm_ooa": f.strong_arm_ooa,
            "weak_arm_ooa": f.weak_arm_ooa}


def seen_entry(state: CqbState, f: Figure) -> dict[str, Any]:
    """What anyone who sees ``f`` sees: place, posture, weapon, wounds, this turn's card."""
    weapon = f.weapon_in_hand()
    return {"id": f.id, "side": f.side, "kind": f.kind, "at": cell_json(f.at),
            "posture": f.posture, "status": status(f), "weapon": weapon.name if weapon else None,
            "wounds": wounds(f), "card": f.card_label, "secured_by": f.secured_by,
            **({"restrained": True} if f.restrained_by is not None else {})}


def own_entry(state: CqbState, f: Figure) -> dict[str, Any]:
    entry = seen_entry(state, f)
    entry.update({"ability": f.ability, "hold": f.hold, "acted": f.acted, "aim": f.aim_target,
                  "moved_last": f.moved_last, "mode_last": f.mode_last,
                  "moved_now": f.moved_now, "shots": f.shots, "jammed": f.jammed,
                  "dropped": f.dropped, "cs": f.cs, "grenades": dict(sorted(f.grenades.items())),
                  "armour": {"soft": f.soft, "plates": f.plates, "helmet": f.helmet,
                             "respirator": f.respirator},
                  "sidearm": f.sidearm, "charges": f.charges, "hesitant": f.hesitant,
                  "overcome": f.overcome, "sees": sorted(state.visible.get(f.id, ()))})
    if f.aim_at is not None:  # ruling Q-15: aim at a point, its own side's secret
        entry["aim_at"] = cell_json(f.aim_at)
    if state.options.track_ammo:  # ruling Q-60: only its own side knows what it has left
        entry["ammo"] = {slot: {"loaded": n, "spare": f.spares.get(slot, 0)}
                         for slot, n in sorted(f.loaded.items())}
    return entry


def view(state: CqbState, side: str) -> dict[str, Any]:
    own = [own_entry(state, f) for f in state.side_figures(side)]
    seen = [seen_entry(state, f) for f in state.figures.values()
            if f.side != side and side_sees(state, side, f)]
    seen_ids = {s["id"] for s in seen}
    memory = state.memory.get(side, {})
    remembered = []
    for fid, (cell, when) in sorted(memory.items()):
        f = state.figures[fid]
        if fid in seen_ids or f.side == side:
            continue
        remembered.append({"id": fid, "side": f.side, "kind": f.kind, "at": cell_json(cell),
                           "turn": when})
    goals = sorted({tuple(cell_json(f.at) or ()) for f in state.figures.values()
                    if f.side == HOSTAGES and f.id in seen_ids | set(memory) and f.active
                    and f.secured_by is None}) if side == state.rescuers else []
    decks = {k.split(":", 1)[1]: {"left": len(d.cards), "discards": len(d.discards)}
             for k, d in sorted(state.decks.items()) if k.startswith(f"{side}:")}
    return {
        "side": side,
        "viewer": viewer(side),
        "turn": state.turn,
        "phase": state.phase,
        "figures": own,
        "seen": seen,
        "remembered": remembered,
        "sounds": list(state.sounds.get(side, [])),
        "goals": [list(g) for g in goals],
        "public": {"turn": state.turn, "turn_limit": state.turn_limit,
                   "stage": "card order" if state.stage == "q" else "alternating",
                   "rescuers": state.rescuers, "decks": decks,
                   "luck": state.luck.get(side),
                   # ruling Q-66: the rescuers know whom they led out
                   **({"rescued": sorted(f.id for f in state.figures.values() if f.extracted)}
                      if side == state.rescuers and state.board.zone_cells(EXTRACTION) else {}),
                   # ruling Q-64: devices are in the briefing, their state is heard
                   **({"devices": [{"id": d.id, "at": cell_json(d.at), "state": d.state}
                                   for d in state.devices.values()]} if state.devices else {})},
        "question": own_question(state.windows, side),
        "result": state.result.to_json() if state.result else None,
    }


def known_ids(state: CqbState, side: str) -> frozenset[str]:
    ids = {f.id for f in state.side_figures(side)}
    ids |= set(state.memory.get(side, {}))
    ids |= {f.id for f in state.figures.values() if side_sees(state, side, f)}
    return frozenset(ids) | frozenset(state.sides) | {HOSTAGES}


def secret_ids(state: CqbState, side: str) -> frozenset[str]:
    return frozenset(f.id for f in state.figures.values() if f.side != side)


def snapshot(state: CqbState) -> dict[str, Any]:
    figs = []
    for f in state.figures.values():
        figs.append({"id": f.id, "side": f.side, "at": cell_json(f.at), "status": status(f),
                     "posture": f.posture, "hold": f.hold, "acted": f.acted, "card": f.card_label,
                     "wounds": wounds(f), "ooa_hits": f.ooa_hits, "cs": f.cs,
                     "stunned_turn": f.stunned_turn, "aim": f.aim_target, "jammed": f.jammed,
                     "moved": [f.moved_last, f.moved_now], "shots": f.shots,
                     "secured_by": f.secured_by, "panic": f.panic_from,
                     "grenades": dict(sorted(f.grenades.items())), "passed": f.passed,
                     "aim_at": cell_json(f.aim_at) if f.aim_at else None,
                     "restrained_by": f.restrained_by, "extracted": f.extracted})
        if state.options.track_ammo:
            figs[-1]["ammo"] = {"loaded": dict(sorted(f.loaded.items())),
                                "spare": dict(sorted(f.spares.items()))}
    return {
        "sides": list(state.sides),
        "turn": state.turn,
        "phase": state.phase,
        "stage": state.stage,
        "queue": state.queue,
        "n_side": state.n_side,
        "figures": figs,
        "decks": {k: [len(d.cards), sorted(str(c) for c in d.discards)]
                  for k, d in sorted(state.decks.items())},
        "hostage_deck": [len(state.hostage_deck.cards), len(state.hostage_deck.discards)],
        "running": state.running,
        "windows": windows_json(state.windows),
        "gas": sorted(state.gas.items()),
        "devices": [[d.id, d.state] for d in state.devices.values()],
        "fires": sorted(state.fires.items()),
        "board": state.board.fingerprint(),
        "result": state.result.to_json() if state.result else None,
    }
