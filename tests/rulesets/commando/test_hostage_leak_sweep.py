"""A leak sweep over random play of a small rescue (rulings C-190 … C-193): besides the
conformance checks, a Right Place at Right Time reveal reaches its own side only, a hostage's
harm reaches only the sides that saw his square when it fell on him (or both, for stray fire),
and a side's view shows a hostage as seen now only when it sees his square."""

from __future__ import annotations

from collections import Counter

from killhouse.engine.game import Game
from killhouse.rulesets.commando import hostages
from killhouse.scenario.loader import loads_scenario
from tests.conformance import random_playout
from tests.rulesets.commando.test_leak_sweep import TEXT

#: the sweep's house with a hostage in each room, a rescue to the west edge, and Kane able to
#: locate them once
RESCUE = TEXT.replace(
    "options: {light: day}",
    "options: {light: day, right_place: [h2, h1]}\n"
    "objectives: {mission: rescue, rescue_zone: out}",
).replace(
    "      ..................\nsides:",
    "      ..................\n  zones:\n    out: [\"ground:0,0-0,8\"]\nsides:",
).replace(
    "man: commando, abilities: [inspire_men],\n     stats: {st: 17, mk: 22, dex: 18, end: 19, "
    "lead: 8, hero: 22}}",
    "man: commando, abilities: [right_place_right_time],\n     stats: {st: 17, mk: 22, dex: 18, "
    "end: 19, lead: 8, hero: 25}}",
) + """  - {id: h1, kind: hostage, at: "ground:4,3", stats: {end: 6}}
  - {id: h2, kind: hostage, at: "ground:8,4"}
"""


def check(game: Game, start: int, seen: Counter[str]) -> None:
    state = game.state
    for side in state.sides:
        for h in game.view(side).get("hostages", []):
            if h.get("seen"):
                assert hostages.sees_cell(state, side, hostages.where(state,
                                                                      state.hostages[h["id"]]))
    for event in game.log.since(start):
        if event.kind == "right-place":
            owner = state.men[event.data["figure"]].side
            assert event.audience == frozenset({owner})
            assert event.for_side(state.enemy(owner)) is None
            seen["right-place kept to its side"] += 1
        if event.kind == "hostage-hit":
            seen[f"hostage-hit by {event.data['cause']}"] += 1


def test_hostage_reveals_and_harm_do_not_leak() -> None:
    scenario = loads_scenario(RESCUE, "rescue-sweep.yaml")
    assert "right_place" in scenario.options
    states, seed = 0, 200
    seen: Counter[str] = Counter()
    while states < 1500 or seed < 208:
        start = 0
        for game in random_playout(scenario, seed):
            check(game, start, seen)
            start = len(game.log)
            states += 1
        seed += 1
    assert seen["right-place kept to its side"] > 0, dict(seen)
    assert any(k.startswith("hostage-hit") for k in seen), dict(seen)
