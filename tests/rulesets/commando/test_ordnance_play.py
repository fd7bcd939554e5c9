"""Random play with every device on the map: more than 1,000 states with each side's view and
events checked for leaks (the conformance checks), plus the new secrets: an enemy's Claymores,
demolition charges and their timers never reach the other side (ruling C-63, C-91)."""

from __future__ import annotations

from typing import Any

import pytest

from killhouse.rulesets.commando.state import CommandoState
from killhouse.scenario.model import Scenario
from tests.conformance import random_playout
from tests.rulesets.commando.arena import arena, registered

pytestmark = pytest.mark.usefixtures(registered.__name__)

KIT = ("frag", "frag", "smoke", "satchel", "claymore", "demolition", "law", "thump_gun")


def scenario() -> Scenario:
    men: list[tuple[str, str, tuple[int, int], tuple[str, ...], dict[str, Any]]] = [
        ("kane", "raiders", (2, 2), ("m16", *KIT),
         {"man": "commando", "skills": {"demolitions": 18, "sniping": 14, "grenade_toss": 12}}),
        ("bird", "raiders", (2, 6), ("rifle", "rifle_grenade", "illumination", "claymore"),
         {"man": "grunt", "leader": "kane"}),
        ("vasko", "guards", (30, 3), ("ak47", *KIT),
         {"man": "commando", "skills": {"demolitions": 12}}),
        ("g1", "guards", (24, 6), ("smg", "frag", "claymore"), {"leader": "vasko"}),
    ]
    walls = tuple((x, y) for x in range(14, 19) for y in (1, 5)) + \
        tuple((x, y) for x in (14, 18) for y in range(1, 6))
    return arena(men, width=34, height=9, light="dusk", walls=walls, turn_limit=8)


def test_no_leak_of_devices_across_a_thousand_random_states() -> None:
    states = 0
    secrets = 0
    from killhouse.rulesets.commando import devices

    for seed in range(1, 40):
        for game in random_playout(scenario(), seed):
            states += 1
            s = game.state
            assert isinstance(s, CommandoState)
            for side in s.sides:
                enemy = s.enemy(side)
                mine = devices.view(s, side)
                assert all(m["owner"] in {x.id for x in s.side_men(side)} for m in mine["mines"])
                theirs = [c for c in s.ordnance.live if c.side == enemy
                          and c.device == "demolition"]
                secrets += len(theirs) + sum(m.side == enemy for m in s.ordnance.mines)
                seen_ids = {c["id"] for c in mine["live"]}
                assert not seen_ids & {c.id for c in theirs}
                for e in game.log.events:
                    if e.kind in ("emplace", "plant") and s.men[e.data["figure"]].side == enemy:
                        assert e.for_side(side) is None
        if states >= 1000 and secrets:
            break
    assert states >= 1000
    assert secrets > 0  # the enemy did hold hidden devices while we looked
