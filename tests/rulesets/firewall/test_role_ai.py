"""Item 3 of issue 16: the role AI uses reloads, drugs, Wired Reflexes, Search, Hide and
two-weapon fire as its own decisions, read from its view and the hints only; a computer GM
chooses the spike and Lonnie's lie among its legal actions."""

from __future__ import annotations

from typing import Any

from killhouse.ai.roles.firewall import FirewallBot
from killhouse.core.cells import Cell
from killhouse.core.rng import Rng, derive_seed
from killhouse.rulesets.base import Action
from killhouse.scenario.loader import load_scenario
from killhouse.sim.play import play
from tests.rulesets.firewall.thames import THAMES

SWAT = THAMES.parent / "swat_tenement.yaml"
END = Action.make("thorco", "end", hint={"role": "pass"})


def _bot(side: str = "thorco", path: Any = THAMES) -> FirewallBot:
    return FirewallBot(load_scenario(path), side)


def _view(*, seen: list[dict[str, Any]] | None = None,
          remembered: list[dict[str, Any]] | None = None, **mine: Any) -> dict[str, Any]:
    fig = {"id": "thorco-1", "team": "deacon", "at": [0, 20, 20], "status": "active",
           "skills": {"observation": 1}, "weapons": ["celtech_9mm_tactical_smg"],
           "drug_effects": {}, "hidden": False, "combat_used": False, **mine}
    return {"side": "thorco", "turn": 3, "figures": [fig], "seen": seen or [],
            "remembered": remembered or [], "goals": [], "counters": []}


ENEMY_NEAR = {"id": "hitter-1", "side": "mafia", "status": "active", "at": [0, 21, 20]}
ENEMY_FAR = {"id": "hitter-1", "side": "mafia", "status": "active", "at": [0, 30, 20]}


def _choose(bot: FirewallBot, view: dict[str, Any], actions: list[Action]) -> Action:
    return bot.choose(view, actions, Rng.from_seed(1))


def test_an_empty_weapon_is_reloaded_with_the_movement_action_first() -> None:
    acts = [END, *(Action.make("thorco", "reload", figure="thorco-1", weapon="crossbow",
                               slot=s, hint={"role": "task"}) for s in ("combat", "move"))]
    pick = _choose(_bot(), _view(), acts)
    assert pick.kind == "reload" and pick.get("slot") == "move"


def test_a_drug_is_taken_when_it_helps_and_not_otherwise() -> None:
    bot = _bot()
    p90 = Action.make("thorco", "drug", figure="thorco-1", drug="p90", hint={"role": "other"})
    locust = Action.make("thorco", "drug", figure="thorco-1", drug="locust_8",
                         hint={"role": "other"})
    zero = Action.make("thorco", "drug", figure="thorco-1", drug="ground_zero",
                       hint={"role": "other"})
    assert _choose(bot, _view(seen=[ENEMY_NEAR]), [END, p90]) == p90  # an enemy alongside
    assert _choose(bot, _view(seen=[ENEMY_FAR]), [END, p90]) == END  # too far for P90
    assert _choose(bot, _view(seen=[ENEMY_FAR]), [END, locust]) == locust  # a fight at range
    assert _choose(bot, _view(), [END, locust]) == END  # nothing to fight
    assert _choose(bot, _view(seen=[ENEMY_NEAR]), [END, zero]) == END  # its CF kills
    working = _view(seen=[ENEMY_FAR], drug_effects={"locust_8": "S"})
    assert _choose(bot, working, [END, locust]) == END  # already working


def test_search_when_an_enemy_is_suspected_once_a_turn() -> None:
    bot = _bot()
    search = Action.make("thorco", "search", figure="thorco-1", hint={"role": "search"})
    lost = [{"id": "hitter-1", "side": "mafia", "at": [0, 25, 20], "turn": 2}]
    assert _choose(bot, _view(), [END, search]) == END  # nobody suspected
    old = [{**lost[0], "turn": 1}]
    assert _choose(bot, _view(remembered=old), [END, search]) == END  # two Turns ago
    assert _choose(bot, _view(remembered=lost), [END, search]) == search
    assert _choose(bot, _view(remembered=lost), [END, search]) == END  # once a Turn


def test_wired_reflexes_buy_another_shot_only_with_an_enemy_in_sight() -> None:
    bot = _bot()
    again = Action.make("thorco", "reflex", figure="thorco-1", slot="combat",
                        hint={"role": "other"})
    assert _choose(bot, _view(seen=[ENEMY_FAR]), [END, again]) == again
    assert _choose(bot, _view(), [END, again]) == END


def _shots(p: float) -> list[Action]:
    one = Action.make("mafia", "shoot", figure="porky", weapon="ruger_defender",
                      target="thorco-1", hint={"role": "attack", "p": p, "to": [0, 1, 1]})
    two = Action.make("mafia", "shoot", figure="porky", weapon="ruger_defender",
                      target="thorco-1", weapon2="ruger_defender",
                      hint={"role": "attack-two", "to": [0, 1, 1]})
    return [one, two]


def test_two_weapon_fire_only_when_the_single_shot_is_near_certain() -> None:
    bot = _bot("mafia")
    view = {"side": "mafia", "turn": 1, "figures": [{"id": "porky", "at": [0, 2, 2]}],
            "seen": [], "remembered": [], "goals": [], "counters": []}
    assert _choose(bot, view, _shots(0.85)).get("weapon2") == "ruger_defender"  # at the edge
    assert _choose(bot, view, _shots(0.84)).get("weapon2") is None  # one step below


def test_a_defender_hides_when_an_enemy_is_suspected() -> None:
    bot = _bot("gang", SWAT)
    hide = Action.make("gang", "hide", figure="ganger-1", hint={"role": "hide"})
    end = Action.make("gang", "end", hint={"role": "pass"})
    view = {"side": "gang", "turn": 3, "figures": [{"id": "ganger-1", "at": [0, 5, 5],
                                                    "hidden": False}],
            "seen": [], "goals": [], "counters": [],
            "remembered": [{"id": "swat-1", "side": "swat", "at": [0, 8, 5], "turn": 3}]}
    assert _choose(bot, view, [end, hide]) == hide
    assert _choose(bot, {**view, "remembered": []}, [end, hide]) == end


def test_a_computer_gm_chooses_the_spike_among_its_legal_actions() -> None:
    from killhouse.engine.game import Game

    game = Game(load_scenario(THAMES), 2)
    bot = FirewallBot(game.scenario, "gm")
    rng = Rng.from_seed(2)
    kinds = []
    while game.state.spike is None:  # the six counters first (ruling F-214), then the spike
        legal = game.legal_actions("gm")
        pick = bot.choose(game.view("gm"), legal, rng)
        assert pick in legal
        kinds.append(pick.kind)
        game.apply(pick)
    assert kinds == ["place-counter"] * 6 + ["spike"]


def test_a_team_with_no_straight_way_in_from_its_edge_still_comes_on() -> None:
    """The listed entries go straight in from every third edge square; from Triple-Cross's
    west edge a warehouse blocks each of them, so only stepping onto the edge is listed. The
    bot must take that (it used to rate it below ending the activation, so the side never came
    on at all)."""
    game = play(load_scenario(THAMES), derive_seed(1, 0))
    chosen = {e.data["side"]: e.data["edge"] for e in game.log.events if e.kind == "edge-chosen"}
    assert chosen["thorco"] == "w"
    came_on = {e.data["figure"] for e in game.log.events if e.kind == "enter"
               and game.state.figures[e.data["figure"]].side == "thorco"}
    assert len(came_on) == 7  # Deacon and his six


def _hunters(*figs: dict[str, Any], holder: str | None = None,
             goals: list[list[int]] | None = None) -> dict[str, Any]:
    """A Daewoo view on Triple-Cross's map (their edge the east one): the figures given."""
    base = {"team": "seoul", "status": "active", "suppressed": False, "skills": {},
            "drug_effects": {}, "hidden": False, "combat_used": False}
    return {"side": "daewoo", "turn": 30, "figures": [{**base, **f} for f in figs],
            "seen": [], "remembered": [], "goals": goals or [], "counters": [],
            "spike": {"holder": holder} if holder else None,
            "public": {"entry": {"daewoo": "e"}}}


def _walk(fid: str, at: tuple[int, int], speed: str = "walk") -> Action:
    return Action.make("daewoo", "move", figure=fid, speed=speed, path=[[0, *at]], facing=4,
                       hint={"role": "move", "to": [0, *at]})


#: inside the north-east warehouse (Clutter 5) and out in the street (Clutter 0)
WOUNDED = {"id": "daewoo-3", "at": [0, 38, 8], "gutz": 3, "skills": {"acrobatics": 1}}
STREET = {"id": "daewoo-6", "at": [0, 44, 20], "gutz": 8}


def test_a_hunter_tries_the_likely_move_before_the_hopeless_one() -> None:
    """Ruling F-278: a wounded man three squares nearer in the warehouse (2d6 of 1-1 only)
    goes after the sound man's one-square walk in the street, and is still tried before
    the activation ends (it used to go first, fail and stop the team)."""
    bot = _bot("daewoo")
    assert bot.board.clutter(Cell(0, 38, 8)) == 5 and bot.board.clutter(Cell(0, 44, 20)) == 0
    view = _hunters(WOUNDED, STREET, goals=[[0, 37, 20]])
    hopeless, likely = _walk("daewoo-3", (38, 11)), _walk("daewoo-6", (43, 20))
    assert bot.closing(view, hopeless, bot.field([Cell(0, 37, 20)])) == 3.0
    assert _choose(bot, view, [END, hopeless, likely]) == likely
    assert _choose(bot, view, [END, hopeless]) == hopeless


def test_a_hunter_rallies_a_hopeless_figure_last() -> None:
    bot = _bot("daewoo")
    view = _hunters({**WOUNDED, "suppressed": True}, STREET, goals=[[0, 37, 20]])
    rally, likely = _walk("daewoo-3", (38, 10), "crawl"), _walk("daewoo-6", (43, 20))
    assert _choose(bot, view, [END, rally, likely]) == likely
    assert _choose(bot, view, [END, rally]) == rally


def test_the_spike_holder_moves_before_his_team_does_anything_else() -> None:
    """Ruling F-278: Mr Seoul with the spike walks for the door before the wounded man moves
    and before a sure shot is taken (a failure there could stop the team before him)."""
    bot = _bot("daewoo")
    seoul = {"id": "mr-seoul", "at": [0, 38, 11], "gutz": 8, "leader": True,
             "skills": {"acrobatics": 3}}
    view = _hunters(seoul, {**WOUNDED, "at": [0, 40, 11]}, STREET, holder="mr-seoul")
    view["seen"] = [{"id": "hitter-1", "side": "mafia", "status": "active", "at": [0, 44, 30]}]
    shot = Action.make("daewoo", "shoot", figure="daewoo-6", weapon="imi_buzzard",
                       target="hitter-1", hint={"role": "attack", "p": 0.95, "to": [0, 44, 30]})
    carry_on = _walk("mr-seoul", (37, 12))
    acts = [END, _walk("daewoo-3", (39, 12)), shot, carry_on]
    assert _choose(bot, view, acts) == carry_on
    assert _choose(bot, {**view, "spike": None}, acts) == shot  # without the spike: the shot
