"""Step 5, fire declaration: each side secretly names one target per figure, or holds (G-12).

Both sides are always asked, even one with nobody able to shoot (ruling G-49): whether
a side is asked must not betray whether its figures see anyone.
"""

from __future__ import annotations

from typing import Any

from killhouse.core.cells import cell_json
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.gogogo import dice
from killhouse.rulesets.gogogo.firing import fire_targets, hit_need
from killhouse.rulesets.gogogo.orders import own_fighter
from killhouse.rulesets.gogogo.state import HOSTAGE, Figure, GoState


def fire_actions(state: GoState, side: str) -> list[Action]:
    """Every action of the fire decision for ``side``."""
    draft = state.drafts[side]
    if draft.committed:
        return []
    out: list[Action] = []
    for fig in state.active_fighters(side):
        if fig.id in draft.fire:
            continue
        targets = fire_targets(state, fig)
        if not targets:
            continue
        for target in targets:
            p = dice.chance_of(hit_need(fig, target, assume_still=True))
            hint: dict[str, Any] = {"role": "attack", "p": p, "target": cell_json(target.pos)}
            if target.kind == HOSTAGE:
                hint.update(role="other", confirm="the target is a hostage")
                out.append(
                    Action.make(
                        side, "fire", hint=hint, figure=fig.id, target=target.id, confirm=True
                    )
                )
            else:
                out.append(Action.make(side, "fire", hint=hint, figure=fig.id, target=target.id))
        out.append(Action.make(side, "hold", hint={"role": "pass"}, figure=fig.id))
    out.append(Action.make(side, "commit", hint={"role": "pass"}))
    return out


def check_fire(state: GoState, side: str, action: Action) -> tuple[Figure, Figure]:
    fig = own_fighter(state, side, action)
    if fig.id in state.drafts[side].fire:
        raise IllegalActionError(f"{fig.id} has already declared its fire this turn")
    ident = action.get("target")
    targets = {t.id: t for t in fire_targets(state, fig)}
    if not isinstance(ident, str) or ident not in targets:
        raise IllegalActionError(
            f"{fig.id} cannot fire at {ident!r}: it must be an enemy or hostage {fig.id} sees "
            "(and a sniper needs AIM, a loaded rifle and a full turn of aim)"
        )
    target = targets[ident]
    if target.kind == HOSTAGE and action.get("confirm") is not True:
        raise IllegalActionError(f"{ident} is a hostage: fire at it only with confirm=true (G-12)")
    return fig, target


def check_hold(state: GoState, side: str, action: Action) -> Figure:
    fig = own_fighter(state, side, action)
    if fig.id in state.drafts[side].fire:
        raise IllegalActionError(f"{fig.id} has already declared its fire this turn")
    return fig
