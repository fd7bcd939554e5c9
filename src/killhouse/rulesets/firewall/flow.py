"""The Turn of digest §5 / §21.2 on the flow kit: initiative, team activations alternating
between sides (rotating for three or more, a GM side included), each figure one Movement and
one Combat action interleaved freely, a failure ending that figure's Turn and the 1/3 rule
ending the team's; the scenarios' upkeep (alarm, arrivals) and victory conditions (§18).

Actions: ``activate(team)``, ``move(figure, speed, path, facing, carry, exit)`` (a Rally when
suppressed), ``shoot(figure, weapon, target, fire, grenade)``, ``close-combat(figure,
target)``, ``unjam(figure, weapon)``, ``task(figure, task, counter)`` (alarm bleeper, grab a
counter), ``drop(figure, to)``, ``hide(figure)``, ``search(figure)``, ``reload(figure,
weapon, slot)`` and ``end``.
"""

from __future__ import annotations

from collections.abc import Iterable

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall import (  # fwskill hooks: §12, §14.2, §15, §16.2
    doors,  # fwdoors hook: doors (F-230 … F-234)
    frenzy,
    skillplay,
    storeys,
    trapplay,  # fwdoors hook: traps (F-235 … F-241)
)
from killhouse.rulesets.firewall import heights as hts  # fwskill hook: §6.6 in play
from killhouse.rulesets.firewall import loadout as kit  # fwkit: §18.1's kit in set-up
from killhouse.rulesets.firewall import parkdeploy as pd  # fwsetup: §18.1 set-up
from killhouse.rulesets.firewall.counterplace import check_place, place, place_options
from killhouse.rulesets.firewall.cyberplay import check_reflex, reflex, reflex_options
from killhouse.rulesets.firewall.drugplay import check_drug, drug_options, take
from killhouse.rulesets.firewall.entry import check_enter, enter, enter_options
from killhouse.rulesets.firewall.entryedges import EDGES, choose_edge, edge_options, why_not_edge
from killhouse.rulesets.firewall.fireorders import (
    UNJAM_SKILLS,
    blast,
    blast_options,
    check_blast,
    check_cloud,
    check_reload,
    check_shoot,
    cloud,
    cloud_options,
    gas,
    reload,
    reload_options,
    shoot,
    shoot_options,
    unjam,
    unjam_options,
)
from killhouse.rulesets.firewall.gmorders import (
    LIE,
    check_lie,
    choose_spike,
    lie_options,
    resume_lie,
    spike_options,
)
from killhouse.rulesets.firewall.loadout import KIT_KINDS
from killhouse.rulesets.firewall.meleeorders import check_melee, melee, melee_options
from killhouse.rulesets.firewall.moveorders import (
    check_move,
    drop,
    drop_options,
    move,
    move_options,
)
from killhouse.rulesets.firewall.setupphase import (  # fwsetup: set-up in play
    setup_deciders,
    setup_finished,
    setup_prompt,
    then_next,
)
from killhouse.rulesets.firewall.state import (
    ACT,
    SETUP,
    SPEEDS,
    TASKS,
    FirewallState,
    _side_teams_left,
    deciding_side,
)
from killhouse.rulesets.firewall.stealth import (
    check_hide,
    check_search,
    hide,
    hide_options,
    search,
    search_options,
)
from killhouse.rulesets.firewall.taskorders import check_task, task, task_options
from killhouse.rulesets.firewall.traps import ITEMS  # fwdoors hook: what a trap is made of
from killhouse.rulesets.firewall.upkeep import (
    _finish_activation,
    activation_done,
    after_action,
    start_play,
)
from killhouse.rulesets.firewall.vehicles import orders as veh  # vehicles hook (§17)
from killhouse.rulesets.firewall.vehicles import unjam as vunjam  # vehicles hook (F-170)
from killhouse.rulesets.kit import Arg, Flow, Move, Phase, Reaction

# -- moves ---------------------------------------------------------------------------------

def activate_options(state: FirewallState, side: str) -> Iterable[Action]:
    if state.active_team is not None or deciding_side(state) != side:
        return []
    return [Action.make(side, "activate", team=t.id) for t in _side_teams_left(state, side)]


def activate(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    team = state.teams[str(action.get("team"))]
    team.activated_this_turn = True
    state.active_team = team.id
    # §21.4: the others learn that the side acts, not which of its teams
    others = {s: {"side": team.side, "team": None} for s in state.sides if s != team.side}
    log.emit("activate", {"side": team.side, "team": team.id}, None, others)
    # §21.2: gas-cloud attacks on its members inside clouds at the start of the activation
    for fid in team.members:
        gas(state, state.figures[fid], chance, log)


def end_options(state: FirewallState, side: str) -> Iterable[Action]:
    if state.active_team is not None and state.teams[state.active_team].side == side:
        return [Action.make(side, "end", hint={"role": "pass"})]
    return []


def end(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    team = state.active_team
    side = state.teams[team].side if team else None
    others = {s: {"team": None} for s in state.sides if s != side}
    log.emit("end-activation", {"team": team}, None, others)
    _finish_activation(state, chance, log)


def _figure_args() -> tuple[Arg, ...]:
    return (Arg("figure", "figure"),)


FLOW: Flow[FirewallState] = Flow(
    phases=[
        # rulings F-195, F-210 …: the set-up decisions before Turn 1 (setupphase.py)
        Phase(SETUP, "single", setup_deciders, ("place-counter", "spike", "edge", *KIT_KINDS,
                                                 "deploy", "path-end"),
              setup_prompt, done=setup_finished, advance=start_play),
        Phase(ACT, "single", lambda s: [d] if (d := deciding_side(s)) else [],
              ("activate", "move", "enter", "shoot", "cloud", "blast", "close-combat", "unjam",
               "task", "drop", "drive", "vehicle-fire", "fire-at-vehicle", "embark", "disembark",
               "vehicle-unjam",  # vehicles hook (F-170)
               "ride", "passenger-fire", "assault-vehicle", "hide", "search", "reload", "reflex",
               "drug", "climb", "jump", "stairs", "repair", "treat",
               "door", "set-trap", "disarm-trap", "end"),  # fwdoors hook
              "activate a Fire Team, or act with the active team's figures",
              done=activation_done, advance=_finish_activation),
    ],
    moves=[
        Move("place-counter", (Arg("counter", "id"), Arg("at", "cell")), place_options,
             then_next(place), check=check_place,
             help="game master: put the next numbered counter down on a square (§18.3, "
                  "F-213)"),
        Move("spike", (Arg("counter", "id"),), spike_options, then_next(choose_spike),
             help="game master: secretly make one counter the data-spike (§18.3)"),
        Move("edge", (Arg("edge", "enum", choices=EDGES),), edge_options,
             then_next(choose_edge), why_not=why_not_edge,
             help="choose the table edge your side enters by, in the order of the 1d6 "
                  "rolls (§18.2, §18.3)"),
        Move("lie", (Arg("counter", "int", minimum=1),), lie_options, None, check=check_lie,
             help="game master: the trap counter Lonnie names when he lies (§18.3)"),
        # fwkit (rulings F-270 …): §18.1's loadout, one small step at a time
        Move("kit-file", (Arg("figure", "figure"),), kit.options_of("kit-file"),
             then_next(kit.resolve), check=kit.check,
             help="take the scenario's kit for the next figure as it is (the suggestion)"),
        Move("kit-armour", (Arg("figure", "figure"),
                            Arg("armour", "enum", choices=kit.armour_choices())),
             kit.options_of("kit-armour"), then_next(kit.resolve), check=kit.check,
             help="the armour the figure wears, once (§13; the squad: non-powered, §18.1)"),
        Move("kit-weapon", (Arg("figure", "figure"),
                            Arg("weapon", "enum", choices=kit.weapon_choices())),
             kit.options_of("kit-weapon"), then_next(kit.resolve), check=kit.check,
             help="add one §8 weapon to the figure's kit (at most two firearms, §18.1)"),
        Move("kit-grenade", (Arg("figure", "figure"),
                             Arg("grenade", "enum", choices=kit.grenade_choices())),
             kit.options_of("kit-grenade"), then_next(kit.resolve), check=kit.check,
             help="add one §9 grenade to the figure's kit (at most 4, §18.1)"),
        Move("kit-done", (Arg("figure", "figure"),), kit.options_of("kit-done"),
             then_next(kit.resolve), check=kit.check, help="close the figure's kit as it stands"),
        Move("deploy", (Arg("figure", "figure"), Arg("at", "cell", required=False)),
             pd.deploy_options, then_next(pd.deploy), check=pd.check_deploy,
             help="deploy the next figure in secret: at a square of Light or Medium cover "
                  "(Hidden), or without at off the table, to enter later (§18.1)"),
        Move("path-end", (Arg("end", "enum", choices=pd.ENDS),), pd.end_options,
             then_next(pd.choose_end),
             help="the end of the path the team starts at: w or e (§18.1)"),
        Move("activate", (Arg("team", "id"),), activate_options, activate,
             help="give a Fire Team that has not acted this Turn the initiative"),
        Move("move", (*_figure_args(), Arg("speed", "enum", choices=SPEEDS),
                      Arg("path", "cells"), Arg("facing", "int", required=False, minimum=0,
                                                maximum=7),
                      Arg("carry", "figure", required=False),
                      Arg("exit", "bool", required=False)),
             move_options, move, check=check_move,
             help="move along a route (a Rally when suppressed); pick up a helpless figure "
                  "within 2 cm; leave the table from an edge square"),
        Move("enter", (*_figure_args(), Arg("at", "cell"),
                       Arg("speed", "enum", choices=SPEEDS), Arg("path", "cells"),
                       Arg("facing", "int", required=False, minimum=0, maximum=7)),
             enter_options, enter, check=check_enter,
             help="come on from off the table: a move whose route starts on a free square "
                  "of the side's table edge (F-58, F-198)"),
        Move("shoot", (*_figure_args(), Arg("weapon", "id"), Arg("target", "figure"),
                       Arg("fire", "str", required=False), Arg("grenade", "id", required=False),
                       Arg("slug", "bool", required=False),
                       Arg("weapon2", "id", required=False),
                       Arg("target2", "figure", required=False),
                       Arg("fire2", "str", required=False)),
             shoot_options, shoot, check=check_shoot,
             help="a ranged attack (slug: a shotgun's slugs; weapon2: a second one-handed "
                  "weapon fired with the first, each at −3)"),
        Move("cloud", (*_figure_args(), Arg("weapon", "id"), Arg("grenade", "id"),
                       Arg("at", "cell")),
             cloud_options, cloud, check=check_cloud,
             help="a smoke or gas grenade at a square: a 4 × 4 cloud for 1d6+1 Turns"),
        Move("blast", (*_figure_args(), Arg("weapon", "id"), Arg("section", "id"),
                       Arg("grenade", "id", required=False)),
             blast_options, blast, check=check_blast,
             help="fire an SS(A) weapon, a Gun or a bomb at a building section (§12)"),
        Move("close-combat", (*_figure_args(), Arg("target", "figure")), melee_options, melee,
             check=check_melee, help="attack a figure within 2 cm"),
        Move("unjam", (*_figure_args(), Arg("weapon", "id"),
                       Arg("by", "enum", choices=UNJAM_SKILLS, required=False)),
             unjam_options, unjam,
             help="clear a jammed weapon (by: technical, the skill roll instead, F-203)"),
        Move("task", (*_figure_args(), Arg("task", "enum", choices=TASKS),
                      Arg("counter", "id", required=False)),
             task_options, task, check=check_task,
             help="a task (§6.7): raise the alarm, grab a counter or a dropped data-spike"),
        Move("drop", (*_figure_args(), Arg("to", "cell")), drop_options, drop,
             help="put down a carried figure on a free square alongside"),
        # vehicles hook (§17): driving, vehicle weapons, attacks on vehicles, passengers, riding
        Move("drive", (Arg("vehicle", "id"), Arg("speed", "enum", choices=("slow", "cruise",
                                                                             "full")),
                       Arg("path", "cells"), Arg("facing", "enum", required=False,
                                                 choices=("n", "e", "s", "w")),
                       Arg("exit", "bool", required=False)),
             veh.drive_options, veh.drive, check=veh.check_drive,
             help="the driver moves the vehicle along a route, turning at its end"),
        Move("vehicle-fire", (Arg("vehicle", "id"), Arg("crew", "int", minimum=0, maximum=9),
                              Arg("mount", "id"), Arg("target", "id")),
             veh.vfire_options, veh.vfire, check=veh.check_vfire,
             help="a crew position fires one of the vehicle's weapons at a figure or vehicle"),
        Move("vehicle-unjam", (Arg("vehicle", "id"), Arg("crew", "int", minimum=0, maximum=9),
                               Arg("mount", "id")),
             vunjam.vunjam_options, vunjam.vunjam, check=vunjam.check_vunjam,
             help="the crew position that fires a jammed mount clears it (§11.2, F-170)"),
        Move("fire-at-vehicle", (*_figure_args(), Arg("weapon", "id"), Arg("vehicle", "id"),
                                 Arg("fire", "str", required=False),
                                 Arg("grenade", "id", required=False),
                                 Arg("gunner", "bool", required=False)),
             veh.at_vehicle_options, veh.at_vehicle, check=veh.check_at_vehicle,
             help="a ranged attack at a vehicle, or at its pintle gunner (gunner: true)"),
        Move("embark", (*_figure_args(), Arg("vehicle", "id")), veh.embark_options,
             veh.embark, check=veh.check_embark,
             help="get into a friendly vehicle within 2 cm (with a carried figure)"),
        Move("disembark", (*_figure_args(), Arg("to", "cell")), veh.disembark_options,
             veh.disembark, check=veh.check_disembark,
             help="get out of a vehicle onto a free square beside it"),
        Move("ride", (*_figure_args(), Arg("on", "bool")), veh.ride_options, veh.ride,
             check=veh.check_ride, help="get on or off a personal transport"),
        Move("passenger-fire", (*_figure_args(), Arg("weapon", "id"), Arg("target", "figure"),
                                Arg("grenade", "id", required=False)),  # F-171
             veh.passenger_fire_options, veh.passenger_fire, check=veh.check_passenger_fire,
             help="a passenger fires its own hand weapon out of the vehicle (−3)"),
        Move("assault-vehicle", (*_figure_args(), Arg("vehicle", "id"),
                                 Arg("using", "id", required=False)),
             veh.assault_options, veh.assault, check=veh.check_assault,
             help="close combat against a vehicle within 2 cm, with a grenade or bomb (+4)"),
        Move("reload", (*_figure_args(), Arg("weapon", "id"),
                        Arg("slot", "enum", choices=("move", "combat"), required=False)),
             reload_options, reload, check=check_reload,
             help="reload a single-shot weapon: one action (slot move or combat) or the "
                  "whole Turn, as the weapon says (§8.0)"),
        Move("reflex", (*_figure_args(),
                        Arg("slot", "enum", choices=("move", "combat"))),
             reflex_options, reflex, check=check_reflex,
             help="Wired Reflexes: take one more Movement or Combat action this Turn (§14.1)"),
        Move("drug", (*_figure_args(), Arg("drug", "id")), drug_options, take,
             check=check_drug, help="take a dose of a drug: a Movement action and a Gutz "
                                    "roll (§15)"),
        Move("hide", _figure_args(), hide_options, hide, check=check_hide,
             help="Stealth: become Hidden in cover where no enemy sees the figure (§21.5)"),
        Move("search", _figure_args(), search_options, search, check=check_search,
             help="Observation against the Stealth of every Hidden enemy in sight (§21.5)"),
        Move("climb", (*_figure_args(), Arg("to", "cell")), hts.climb_options, hts.climb,
             check=hts.check_climb, help="climb a face toward a higher or lower square beside the "
                                     "figure, or on up or down the face it hangs on; an "
                                     "outside wall to the storey above or below (§6.6)"),
        Move("jump", (*_figure_args(), Arg("to", "cell")), hts.jump_options, hts.jump,
             check=hts.check_jump, help="jump a gap or a low obstacle to a square of the same "
                                    "height, or leap down from a ledge or a storey (a fall, "
                                    "§6.6)"),
        Move("stairs", (*_figure_args(), Arg("to", "cell")), storeys.stairs_options,
             storeys.stairs, check=storeys.check_stairs,
             help="take the stairs the figure stands on to the linked square on the next "
                  "storey: a Walk of one square (§12)"),
        Move("repair", (*_figure_args(), Arg("patient", "figure"), Arg("system", "id")),
             skillplay.repair_options, skillplay.repair, check=skillplay.check_repair,
             help="Technical: restore a stopped cyber system of the figure or a friend within "
                  "2 cm (§14.2)"),
        Move("treat", (*_figure_args(), Arg("patient", "figure")), skillplay.treat_options,
             skillplay.treat, check=skillplay.check_treat,
             help="Medical: heal a friend within 2 cm once a game, or revive a body on a "
                  "critical success (§16.2)"),
        Move("door", (*_figure_args(), Arg("at", "cell"),
                      Arg("to", "enum", choices=doors.TARGETS),
                      Arg("by", "enum", choices=doors.WAYS, required=False)),
             doors.door_options, doors.door, check=doors.check_door,
             help="open or close a door beside the figure; a locked one is broken down, or "
                  "its lock picked with Intrusion (by: pick) (F-231, F-232, F-242)"),
        Move("set-trap", (*_figure_args(), Arg("at", "cell"),
                          Arg("item", "enum", choices=ITEMS)),
             trapplay.set_options, trapplay.set_trap, check=trapplay.check_set,
             help="Technical: set a hidden trap on the figure's square or one beside it with "
                  "an improvised AP bomb or a fragmentation grenade; the whole Turn (F-235)"),
        Move("disarm-trap", (*_figure_args(), Arg("at", "cell")), trapplay.disarm_options,
             trapplay.disarm_trap, check=trapplay.check_disarm,
             help="Technical: disarm a trap the side knows of within 2 cm; the whole Turn "
                  "(F-241)"),
        Move("end", (), end_options, end, help="end the active team's activation"),
    ],
    phase_of=lambda s: s.phase,
    over=lambda s: s.result is not None,
    after=after_action,
    reactions=[Reaction(LIE, ("lie",), resume_lie,
                        "game master: which trap counter does Lonnie name as the spike?")],
    windows=lambda s: s.windows,
)
frenzy.restrict(FLOW)  # fwskill hook: a berserk figure's choices narrowed (§15, F-192)
