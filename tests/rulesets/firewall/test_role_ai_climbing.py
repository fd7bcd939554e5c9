"""The role AI climbs, jumps, repairs and treats as its own decisions (§6.6, §14.2, §16.2;
rulings F-180 … F-183, F-188, F-189, F-250 … F-252), read from its view and the public map:
each is chosen in a drawn situation and not where it should not be."""

from __future__ import annotations

from typing import Any

from killhouse.ai.roles.firewall import FirewallBot
from killhouse.core.rng import Rng
from killhouse.rulesets.base import Action
from killhouse.scenario.loader import loads_scenario

# a long block 10 cm high (^) with a one-square gap in it at x 9, a 3 cm step (3) and a 4 cm
# step (4); a two-storey house below them with a window upstairs at 17,6, its door and
# stairs far in its west corner ('>' below, '<' above)
MAP = """\
name: Climbing bots
ruleset: firewall
map:
  legend:
    "-": {terrain: outside}
    "^": {terrain: floor, height: 10}
    "3": {terrain: floor, height: 3}
    "4": {terrain: floor, height: 4}
  levels:
    ground: |
      ....................
      .^^^^^^^^.^^^^^^^^^.
      .^^^^^^^^.^^^^^^^^^.
      ....................
      ...34...............
      ....................
      ....#+#############.
      ....#>............#.
      ....#.............#.
      ....###############.
    upper: |
      --------------------
      --------------------
      --------------------
      --------------------
      --------------------
      --------------------
      ----#############=#-
      ----#<............#-
      ----#.............#-
      ----###############-
sides:
  - {id: red, controller: ai}
  - {id: blue, controller: ai}
figures:
  - {id: r1, side: red, team: r, type: ganger, at: "ground:5,3", facing: n}
  - {id: r2, side: red, team: r, type: ganger, at: "ground:6,3", facing: n}
  - {id: b1, side: blue, team: b, type: ganger, at: "ground:19,0", facing: n}
"""

END = Action.make("red", "end", hint={"role": "pass"})


def _bot() -> FirewallBot:
    return FirewallBot(loads_scenario(MAP), "red")


def _view(at: list[int], *, seen: list[dict[str, Any]] | None = None,
          friends: list[dict[str, Any]] | None = None, **mine: Any) -> dict[str, Any]:
    fig = {"id": "r1", "team": "r", "at": at, "status": "active", "gutz": 7,
           "start_gutz": 7, "skills": {"medical": 1, "technical": 1}, "weapons": [],
           "drug_effects": {}, "hidden": False, "combat_used": False, **mine}
    return {"side": "red", "turn": 3, "figures": [fig, *(friends or [])],
            "seen": seen or [], "remembered": [], "goals": []}


def _enemy(at: list[int]) -> dict[str, Any]:
    return {"id": "b1", "side": "blue", "status": "active", "at": at}


def _go(kind: str, to: list[int]) -> Action:
    return Action.make("red", kind, figure="r1", to=to, hint={"role": "move", "to": to})


def _pick(view: dict[str, Any], actions: list[Action]) -> Action:
    return _bot().choose(view, actions, Rng.from_seed(1))


def test_the_map_has_routes_over_heights_and_walls() -> None:
    bot = _bot()
    assert bot.heights is not None
    assert bot.heights.step_cost(*_cells([0, 5, 3], [0, 5, 2])) == 15
    assert bot.heights.step_cost(*_cells([0, 17, 5], [1, 17, 7])) == 15  # in at the window


def _cells(*at: list[int]) -> list[Any]:
    from killhouse.ai.baseline import cell_of
    return [cell_of(a) for a in at]


def test_a_climb_is_chosen_when_the_goal_is_over_the_face_and_not_round_it() -> None:
    climb = _go("climb", [0, 5, 2])
    walk = _go("move", [0, 8, 3])
    # the enemy on the roof: up the face beats walking along it
    assert _pick(_view([0, 5, 3], seen=[_enemy([0, 5, 1])]), [END, walk, climb]) == climb
    # the enemy on the street: walking is the way, the climb is off the route
    assert _pick(_view([0, 5, 3], seen=[_enemy([0, 12, 3])]), [END, walk, climb]) == walk
    assert _pick(_view([0, 5, 3], seen=[_enemy([0, 12, 3])]), [END, climb]) == END


def test_a_hanging_climber_goes_on_up_and_comes_down_when_the_goal_moved() -> None:
    up, down = _go("climb", [0, 5, 2]), _go("climb", [0, 5, 3])
    hanging = {"climbing": {"to": [0, 5, 2], "height": 6.0}}
    assert _pick(_view([0, 5, 3], seen=[_enemy([0, 5, 1])], **hanging), [END, up, down]) == up
    assert _pick(_view([0, 5, 3], seen=[_enemy([0, 5, 5])], **hanging),
                 [END, up, down]) == down


def test_a_gap_jump_is_chosen_on_the_roof_and_a_storey_leap_never() -> None:
    jump = _go("jump", [0, 10, 1])
    leap = _go("jump", [0, 8, 0])  # 10 cm down off the roof's edge: two fall attacks
    roof = _view([0, 8, 1], seen=[_enemy([0, 14, 1])])
    assert _pick(roof, [END, leap, jump]) == jump
    street = _view([0, 8, 1], seen=[_enemy([0, 8, 5])])
    assert _pick(street, [END, leap]) == END


def test_a_leap_under_4_cm_is_taken_and_at_4_cm_not() -> None:
    # the 3 cm step at 3,4 and the 4 cm step at 4,4: the goal below them to the south
    low = Action.make("red", "jump", figure="r1", to=[0, 3, 5], hint={"role": "move",
                                                                      "to": [0, 3, 5]})
    high = Action.make("red", "jump", figure="r1", to=[0, 4, 5], hint={"role": "move",
                                                                       "to": [0, 4, 5]})
    assert _pick(_view([0, 3, 4], seen=[_enemy([0, 3, 5])]), [END, low]) == low
    assert _pick(_view([0, 4, 4], seen=[_enemy([0, 4, 5])]), [END, high]) == END


def test_in_at_an_upper_window_when_the_stairs_are_far() -> None:
    window = _go("climb", [1, 17, 7])
    walk = _go("move", [0, 13, 5])
    upstairs = _view([0, 17, 5], seen=[_enemy([1, 16, 7])])
    assert _pick(upstairs, [END, walk, window]) == window
    outside = _view([0, 17, 5], seen=[_enemy([0, 12, 5])])
    assert _pick(outside, [END, walk, window]) == walk


def _treat(patient: str) -> Action:
    return Action.make("red", "treat", figure="r1", patient=patient, hint={"role": "other"})


def test_a_medic_treats_a_helpless_friend_when_no_enemy_is_in_sight() -> None:
    walk = _go("move", [0, 8, 3])
    down = {"id": "r2", "team": "r", "at": [0, 6, 3], "status": "incapacitated", "gutz": 3,
            "start_gutz": 7}
    quiet = _view([0, 5, 3], friends=[down])
    assert _pick(quiet, [END, walk, _treat("r2")]) == _treat("r2")
    fight = _view([0, 5, 3], friends=[down], seen=[_enemy([0, 12, 3])])
    assert _pick(fight, [END, walk, _treat("r2")]) == walk
    body = _view([0, 5, 3], friends=[{**down, "status": "dead"}])
    assert _pick(body, [END, _treat("r2")]) == END  # a revive needs a CS: not worth it
    scratch = _view([0, 5, 3], friends=[{**down, "status": "active", "gutz": 6}])
    assert _pick(scratch, [END, _treat("r2")]) == END  # one Gutz lost: not worth a roll


def test_a_technician_repairs_a_stopped_system_only_out_of_a_fight() -> None:
    walk = _go("move", [0, 8, 3])
    repair = Action.make("red", "repair", figure="r1", patient="r1", system="cyber_eye",
                         hint={"role": "other"})
    assert _pick(_view([0, 5, 3]), [END, walk, repair]) == repair
    assert _pick(_view([0, 5, 3], seen=[_enemy([0, 12, 3])]), [END, walk, repair]) == walk
