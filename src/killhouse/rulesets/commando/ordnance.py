"""Grenades, launchers, satchels, demolition charges, Claymores, smoke and illumination in play
(digest 9; rulings C-28 … C-36 and ours C-87 …).

The pure mechanics are in ``grenades``, ``blasts``, ``claymore`` and ``clouds``; what lies on
the map between tasks is in ``devices``, the map as a throw sees it in ``surroundings``, and
the moves in ``delivery`` (grenades, satchels, launchers), ``demolition``, ``mines``
(Claymores) and ``explosions`` (devices going off, the Bookkeeping). This module declares the
moves, which ``flow`` lists (ruling C-87).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from killhouse.rulesets.commando.delivery import (
    check_launch,
    check_throw,
    do_launch,
    do_load,
    do_prepare,
    do_throw,
    launch_options,
    load_options,
    prepare_options,
    throw_options,
)
from killhouse.rulesets.commando.demolition import do_plant, plant_options
from killhouse.rulesets.commando.devices import FACINGS, LAUNCHERS, LOAD_COST, THROWN, TIMER_MAX
from killhouse.rulesets.commando.mines import (
    detonate_options,
    do_detonate,
    do_emplace,
    emplace_options,
)
from killhouse.rulesets.kit import Arg, Move

if TYPE_CHECKING:
    from killhouse.rulesets.commando.state import CommandoState

FIGURE = Arg("figure", "figure", help="the man")

AT = Arg("at", "cell", help="the target square [level, x, y]")

MOVES: tuple[Move[CommandoState], ...] = (
    Move("prepare", (FIGURE, Arg("device", "enum", choices=THROWN)), prepare_options,
         do_prepare, help="prepare a grenade (7 TP) or satchel charge (12 TP)"),
    Move("throw", (FIGURE, AT), throw_options, do_throw, check=check_throw,
         help="throw the prepared grenade (13 TP) or satchel (15 TP); it goes off in the "
              "Bookkeeping (C-33)"),
    Move("launch", (FIGURE, Arg("device", "enum", choices=LAUNCHERS), AT), launch_options,
         do_launch, check=check_launch,
         help="fire a rifle grenade (13 TP), thump gun, rocket or LAW (25 TP); it goes off "
              "where it lands (C-33)"),
    Move("load", (FIGURE, Arg("device", "enum", choices=tuple(LOAD_COST))), load_options,
         do_load, help="affix a rifle grenade (50), reload a thump gun (25) or a rocket (50)"),
    Move("plant", (FIGURE, Arg("timer", "int", minimum=0, maximum=TIMER_MAX)), plant_options,
         do_plant, help="set a demolition charge here (Demolitions, 150 - rating TP over "
                        "activations); it goes off in the Bookkeeping TIMER turns on (C-77)"),
    Move("emplace", (FIGURE, Arg("facing", "enum", choices=FACINGS)), emplace_options,
         do_emplace, help="place a Claymore in his square facing one way (50 TP, C-36)"),
    Move("detonate", (FIGURE, Arg("mine", "id")), detonate_options, do_detonate,
         help="set off a Claymore of his side within 20 squares (20 TP, C-36)"),
)

KINDS = tuple(m.kind for m in MOVES)
