"""What the gogogo role bot thinks an action is worth: values the rules do not give.

The rules' hints carry facts only (a chance, a square); these values are the bot's own
preferences (issue 8 item 7): a kill is worth more than a wound, a hostage is never a
target, a grenade is worth the enemies in its radius less one and a half per friend.
"""

from __future__ import annotations

from typing import Any

from killhouse.ai.baseline import cell_of
from killhouse.ai.roles.gogogo.common import d2
from killhouse.rulesets.base import Action
from killhouse.rulesets.gogogo.facts import numbers, ooa_given_hit

#: a wound is worth this much of a kill
WOUND = 0.4
#: extra for hitting the VIP
VIP_BONUS = 0.5
#: a hostage is never worth shooting
HOSTAGE = -10.0
#: per own figure inside a grenade's radius
FRIEND_IN_BLAST = 1.5


def shot_value(view: dict[str, Any], action: Action) -> float:
    """What a hit with ``action`` (a fire action) is worth: P(kill | hit) plus a little."""
    kinds = {s["id"]: s.get("kind") for s in view.get("seen", [])}
    kind = kinds.get(str(action.get("target")))
    if kind == "hostage":
        return HOSTAGE
    weapons = {f["id"]: f.get("weapon") for f in view.get("figures", [])}
    if weapons.get(str(action.get("figure"))) == "sniper":
        return 1.0
    ooa = ooa_given_hit()
    return ooa + WOUND * (1.0 - ooa) + (VIP_BONUS if kind == "vip" else 0.0)


def throw_value(view: dict[str, Any], action: Action) -> float:
    """A stun or HE target square: seen enemies in the radius less 1.5 per own figure."""
    at = cell_of(action.get("at"))
    if at is None or action.hint.get("grenade") not in ("he", "stun"):
        return 0.0
    r2 = numbers().radius_sq
    enemies = [
        cell_of(s.get("at"))
        for s in view.get("seen", [])
        if s.get("kind") != "hostage" and s.get("side") != view.get("side")
    ]
    friends = [
        cell_of(f.get("at")) for f in view.get("figures", []) if f.get("active") and f.get("at")
    ]
    hits = sum(1 for c in enemies if c is not None and c.level == at.level and d2(c, at) <= r2)
    own = sum(1 for c in friends if c is not None and c.level == at.level and d2(c, at) <= r2)
    return float(hits) - FRIEND_IN_BLAST * own
