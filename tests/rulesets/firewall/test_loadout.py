"""The snatch squad's loadout picked in set-up (§18.1, rulings F-270 … F-276): one small legal
action at a time, within two firearms, four grenades and non-powered armour per figure, each
limit at its edge and one past it, refused with a reason and no change, told to the squad
only, reachable from the CLI, and picked by the role AI for its own side only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from killhouse.ai.registry import bot_for
from killhouse.cli import app
from killhouse.core.events import Event
from killhouse.core.rng import Rng
from killhouse.engine.game import Game
from killhouse.errors import IllegalActionError, MalformedActionError, ScenarioError
from killhouse.rulesets import get_ruleset
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall import loadout
from killhouse.rulesets.firewall.state import FirewallState
from killhouse.scenario.loader import load_scenario
from tests.rulesets.firewall.park import as_written

ROOT = Path(__file__).resolve().parents[3]
PARK = ROOT / "scenarios" / "firewall" / "a_walk_in_the_park.yaml"
SQUAD = ["snatch-lead", "snatch-2", "snatch-3", "snatch-4", "snatch-5"]
FILE_SQUARES = [(20, 21), (23, 21), (26, 21), (24, 26), (28, 26)]


def _park(seed: int = 1) -> Game:
    return Game(load_scenario(PARK), seed)


def _state(game: Game) -> FirewallState:
    state: FirewallState = game.state
    return state


def _kit(game: Game, fid: str = "snatch-lead") -> tuple[object, ...]:
    f = _state(game).figures[fid]
    return (f.weapons, f.melee, dict(f.grenades), f.armour, list(_state(game).kitting),
            _state(game).kit_worn)


def _snap(game: Game) -> str:
    return json.dumps([game.ruleset.snapshot(game.state), [_kit(game, f) for f in SQUAD],
                       game.view("snatch"), len(game.log.events)], sort_keys=True, default=str)


def _step(game: Game, kind: str, fid: str = "snatch-lead", **args: object) -> None:
    game.apply(Action.make("snatch", kind, figure=fid, **args))


def _refused(game: Game, kind: str, reason: str, fid: str = "snatch-lead",
             **args: object) -> None:
    before = _snap(game)
    with pytest.raises(IllegalActionError, match=reason):
        _step(game, kind, fid, **args)
    assert _snap(game) == before


def _listed(game: Game, kind: str, **args: object) -> bool:
    return any(a.kind == kind and all(a.get(k) == v for k, v in args.items())
               for a in game.legal_actions("snatch"))


def _equip(game: Game, kits: list[dict[str, object]]) -> None:
    """Each snatcher's kit, step by step, in the file's order."""
    for fid, kit in zip(SQUAD, kits, strict=True):
        if "armour" in kit:
            _step(game, "kit-armour", fid, armour=kit["armour"])
        for w in kit.get("weapons", []):  # type: ignore[attr-defined]
            _step(game, "kit-weapon", fid, weapon=w)
        for g in kit.get("grenades", []):  # type: ignore[attr-defined]
            _step(game, "kit-grenade", fid, grenade=g)
        _step(game, "kit-done", fid)


def _deploy_as_file(game: Game) -> None:
    for fid, cell in zip(SQUAD, FILE_SQUARES, strict=True):
        game.apply(Action.make("snatch", "deploy", figure=fid, at=[0, *cell]))


# -- the step and its order (F-270) -----------------------------------------------------------

def test_the_squad_picks_its_kit_first_bare_and_the_file_s_kit_is_listed_first() -> None:
    game = _park()
    state = _state(game)
    assert [d.side for d in game.pending()] == ["snatch"] and state.kitting == SQUAD
    assert game.legal_actions("anfield") == []
    assert all(not state.figures[f].weapons and state.figures[f].armour == "street_clothing"
               for f in SQUAD)
    legal = game.legal_actions("snatch")
    assert legal[0] == Action.make("snatch", "kit-file", figure="snatch-lead")
    assert legal[-1] == Action.make("snatch", "kit-done", figure="snatch-lead")
    assert {a.get("figure") for a in legal} == {"snatch-lead"}
    assert not any(a.kind == "deploy" for a in legal)  # the deployment comes after the kit
    assert game.view("snatch")["setup"]["to_equip"] == SQUAD
    game.apply(legal[0])
    lead = state.figures["snatch-lead"]
    assert lead.weapons == ("isuku_stunner", "colt_10mm_uaw")
    assert lead.grenades == {"tangler": 2, "concussion": 2} and lead.armour == "mono_weave"
    assert state.kitting == SQUAD[1:]


def test_a_kit_is_built_one_item_at_a_time_and_closed() -> None:
    game = _park()
    _step(game, "kit-armour", armour="bi_phase")
    _step(game, "kit-weapon", weapon="jannings_net_gun")
    _step(game, "kit-grenade", grenade="tranq_gas")
    _step(game, "kit-grenade", grenade="tranq_gas")
    assert game.view("snatch")["setup"]["kit"] == {
        "figure": "snatch-lead", "weapons": ["jannings_net_gun"], "grenades": {"tranq_gas": 2},
        "armour": "bi_phase", "armour_chosen": True}
    _step(game, "kit-done")
    lead = _state(game).figures["snatch-lead"]
    assert (lead.weapons, lead.grenades, lead.armour) == (("jannings_net_gun",),
                                                          {"tranq_gas": 2}, "bi_phase")
    assert _state(game).kitting == SQUAD[1:]
    told = [e for e in game.log.events if e.kind in ("kit", "equipped")]
    assert len(told) == 5 and all(e.audience == frozenset({"snatch"}) for e in told)


def test_after_every_kit_the_deployment_then_the_end_then_turn_1() -> None:
    game = _park()
    for _ in SQUAD:
        _step(game, "kit-done", _state(game).kitting[0])
    assert all(not _state(game).figures[f].weapons for f in SQUAD)  # bare hands are legal
    assert {a.kind for a in game.legal_actions("snatch")} == {"deploy"}
    _deploy_as_file(game)
    game.apply(Action.make("anfield", "path-end", end="w"))
    assert _state(game).turn == 1 and _state(game).phase == "act"


# -- the limits at their edges (F-271, F-272) ------------------------------------------------

def test_two_firearms_are_allowed_a_third_is_refused() -> None:
    game = _park()
    _step(game, "kit-weapon", weapon="colt_m2117")
    _step(game, "kit-weapon", weapon="colt_m2117")  # two of one pistol: two-weapon fire
    assert not _listed(game, "kit-weapon", weapon="hk_mp5261v")
    _refused(game, "kit-weapon", "at most 2", weapon="hk_mp5261v")
    _refused(game, "kit-weapon", "at most 2", weapon="isuku_stunner")  # a firearm too
    _refused(game, "kit-weapon", "at most 2", weapon="blunderbuss")  # an archaic firearm
    _step(game, "kit-weapon", weapon="bow")  # not a firearm
    assert _state(game).figures["snatch-lead"].weapons == ("colt_m2117", "colt_m2117", "bow")


def test_four_grenades_are_allowed_a_fifth_is_refused_bombs_counted() -> None:
    game = _park()
    for g in ("tangler", "tangler", "concussion"):
        _step(game, "kit-grenade", grenade=g)
    _step(game, "kit-weapon", weapon="improvised_bomb_ap")  # the fourth (F-272)
    assert not any(a.kind == "kit-grenade" for a in game.legal_actions("snatch"))
    _refused(game, "kit-grenade", "at most 4", grenade="smoke")
    _refused(game, "kit-weapon", "at most 4", weapon="improvised_bomb_av")
    assert loadout.grenades_carried(_state(game).figures["snatch-lead"].weapons,
                                    _state(game).figures["snatch-lead"].grenades) == 4


def test_four_of_a_grenade_type_in_one_go_at_the_edge() -> None:
    game = _park()
    for _ in range(4):
        _step(game, "kit-grenade", grenade="tranq_gas")
    _refused(game, "kit-grenade", "at most 4", grenade="tranq_gas")
    assert _state(game).figures["snatch-lead"].grenades == {"tranq_gas": 4}


@pytest.mark.parametrize("armour", ["isuku_ceramoplas", "high_threat_suit", "mono_weave",
                                    "street_clothing"])
def test_any_non_powered_armour_may_be_worn(armour: str) -> None:
    game = _park()
    _step(game, "kit-armour", armour=armour)
    assert _state(game).figures["snatch-lead"].armour == armour


@pytest.mark.parametrize("armour", ["thorco_paladin", "daewoo_scout", "daewoo_specter"])
def test_powered_armour_is_refused(armour: str) -> None:
    game = _park()
    assert not _listed(game, "kit-armour", armour=armour)
    _refused(game, "kit-armour", "powered armour", armour=armour)


def test_thrown_items_four_of_a_kind_other_non_firearms_once() -> None:
    game = _park()
    for _ in range(4):
        _step(game, "kit-weapon", weapon="throwing_knife")
    _refused(game, "kit-weapon", "at most 4", weapon="throwing_knife")
    _step(game, "kit-weapon", weapon="sling")
    _refused(game, "kit-weapon", "at most 1", weapon="sling")


@pytest.mark.parametrize("weapon", [
    "corp_arms_14mm_hgmg",  # §8.10 vehicle machinegun
    "korolev_rail_gun",     # §8.11 Gun
    "hand_grenade",         # the throwing row: grenades are picked by type
    "20mm_gl",              # an under-barrel mount
])
def test_weapons_a_figure_does_not_pick_are_not_in_the_schema(weapon: str) -> None:
    """Ruling F-271: outside the schema's enum, refused as malformed with no change; the rule
    names why for a caller that asks it directly."""
    game = _park()
    before = _snap(game)
    with pytest.raises(MalformedActionError, match="must be one of"):
        _step(game, "kit-weapon", weapon=weapon)
    assert _snap(game) == before
    act = Action.make("snatch", "kit-weapon", figure="snatch-lead", weapon=weapon)
    assert "not carried by a figure on foot" in str(loadout.problem(_state(game), act))


def test_other_bad_steps_are_refused_with_a_reason_and_no_change() -> None:
    game = _park()
    _refused(game, "kit-weapon", "next is snatch-lead", fid="snatch-2", weapon="bow")
    _step(game, "kit-armour", armour="mono_weave")
    _refused(game, "kit-armour", "has chosen its armour", armour="bi_phase")
    _refused(game, "kit-file", "kit is begun")
    before = _snap(game)
    with pytest.raises(IllegalActionError, match="not to decide"):
        game.apply(Action.make("anfield", "path-end", end="e"))
    with pytest.raises(IllegalActionError, match="deploys now"):
        game.apply(Action.make("snatch", "deploy", figure="snatch-lead", at=[0, 20, 21]))
    with pytest.raises(MalformedActionError):
        _step(game, "kit-weapon", weapon="death_ray")  # not in the schema's enum
    assert _snap(game) == before


def test_the_schemas_list_the_tables_ids() -> None:
    schemas = get_ruleset("firewall").schemas()
    props = {k: schemas[k]["properties"] for k in loadout.KIT_KINDS}
    assert props["kit-weapon"]["weapon"]["enum"] == list(loadout.weapon_choices())
    assert len(props["kit-weapon"]["weapon"]["enum"]) == 63
    assert props["kit-grenade"]["grenade"]["enum"] == list(loadout.grenade_choices())
    assert len(props["kit-grenade"]["grenade"]["enum"]) == 11
    assert "daewoo_specter" in props["kit-armour"]["armour"]["enum"]  # refused by the rule
    assert loadout.armour_choices("non-powered") == (
        "street_clothing", "biker_leathers", "piece_metal", "mono_weave", "korlon_pleximesh",
        "bi_phase", "isuku_ceramoplas", "high_threat_suit")


def test_a_random_player_draws_legal_steps_and_finishes() -> None:
    game = _park(5)
    rng = Rng.from_seed(5)
    steps = 0
    while _state(game).kitting:
        legal = game.legal_actions("snatch")
        game.apply(legal[rng.below(len(legal))])
        steps += 1
    assert steps < 400
    for f in SQUAD:
        fig = _state(game).figures[f]
        assert loadout.firearms_carried(fig.weapons) <= 2
        assert loadout.grenades_carried(fig.weapons, fig.grenades) <= 4
        assert fig.armour in loadout.armour_choices("non-powered")


# -- what Anfield learns (F-275) ----------------------------------------------------------

def test_the_secret_loadout_tells_anfield_nothing() -> None:
    """Two different loadouts: Anfield's view, its copies of the events, its choices and
    its prompt are the same when it chooses its end and when Turn 1 begins."""
    seen = []
    for kits in ([{}] * 5, [{"armour": "bi_phase", "weapons": ["hk_car_7", "colt_m2117"],
                             "grenades": ["fragmentation"] * 4}] * 5):
        game = _park(3)
        _equip(game, kits)  # type: ignore[arg-type]
        _deploy_as_file(game)
        at_end = (json.dumps(game.view("anfield"), sort_keys=True),
                  [(c.kind, c.data) for c in (e.for_side("anfield") for e in game.log.events)
                   if c is not None],
                  game.legal_actions("anfield"), game.pending()[0].prompt)
        game.apply(Action.make("anfield", "path-end", end="w"))
        at_turn_1 = (json.dumps(game.view("anfield"), sort_keys=True),
                     game.log.for_side("anfield"))
        seen.append((at_end, at_turn_1))
    assert seen[0] == seen[1]


def test_a_seen_snatcher_shows_weapons_in_hand_never_a_pistol_grenades_or_armour() -> None:
    game = _park()
    _equip(game, [{"armour": "mono_weave", "weapons": ["colt_m2117", "jannings_net_gun"],
                   "grenades": ["tangler"]}] + [{}] * 4)
    _deploy_as_file(game)
    game.apply(Action.make("anfield", "path-end", end="w"))
    lead = _state(game).figures["snatch-lead"]
    lead.hidden = False
    lead.cell = (6, 22)  # beside the path, in Kewell's team's sight
    seen = {f["id"]: f for f in game.view("anfield")["seen"]}
    assert seen["snatch-lead"]["weapons"] == ["Jannings Net Gun"]
    assert "armour" not in seen["snatch-lead"] and "grenades" not in seen["snatch-lead"]


# -- the CLI, the role AI, the scenario option, the lines ------------------------------------

def test_cli_play_reaches_the_kit_steps() -> None:
    """A human snatch player: armour, a weapon, a grenade, closing the kit, then the file's
    kits for the rest (numbers as the list shows them)."""
    result = CliRunner().invoke(
        app, ["play", str(PARK), "--as", "snatch", "--seed", "1"],
        input="5\n13\n74\n75\n1\n1\n1\n1\n")
    out = result.output
    assert "snatch decides (setup): equip your next figure in secret" in out
    assert "1. kit-file figure=snatch-lead" in out
    assert "snatch-lead takes Mono-Weave to wear." in out
    assert "snatch-lead takes a Colt M2117." in out
    assert "74. kit-grenade figure=snatch-lead grenade=tranq_gas" in out
    assert "snatch-lead is equipped: Colt M2117, 1 Tranq Gas; Mono-Weave." in out
    assert "snatch-5 is equipped: Isuku Stunner, Corp Arms Mk II, 2 Tangler; " \
        "Korlon Pleximesh." in out
    assert "deploy your next figure in secret" in out


def test_the_squad_bot_picks_non_lethal_kit_for_its_own_side() -> None:
    game = _park(2)
    bot = bot_for(game.scenario, "snatch")
    rng = Rng.from_seed(2)
    while _state(game).kitting:
        game.apply(bot.choose(game.view("snatch"), game.legal_actions("snatch"), rng))
    for i, fid in enumerate(SQUAD):
        f = _state(game).figures[fid]
        assert f.weapons[0] == "isuku_stunner" and f.armour == "mono_weave"
        assert f.grenades == {"tangler": 2, "concussion": 2}
        assert f.weapons[1] == ("colt_10mm_uaw" if i % 2 == 0 else "jannings_net_gun")
    assert bot_for(game.scenario, "anfield") is not None
    assert game.legal_actions("anfield") == []  # never Anfield's to pick


def test_the_file_s_kits_as_written_still_play() -> None:
    game = as_written(_park())
    assert _state(game).turn == 1
    assert _state(game).figures["snatch-2"].weapons == ("jannings_net_gun", "hk_mp5261v")


@pytest.mark.parametrize(("old", "new", "message"), [
    ("side: snatch, firearms", "side: ninjas, firearms",
     "options.loadout.side: no player side 'ninjas'"),
    ("firearms: 2,", "firearms: 5,", "options.loadout.firearms: expected a whole number 0..4"),
    ("grenades: 4,", "grenades: many,",
     "options.loadout.grenades: expected a whole number 0..20"),
    ("armour: non-powered}", "armour: powered}",
     "options.loadout.armour: unknown armour rule 'powered'"),
    ("armour: non-powered}", "armour: non-powered, cash: 5}",
     "options.loadout.cash: unknown key 'cash'"),
    ("grenades: {tangler: 2, concussion: 2}, armour: mono_weave",
     "grenades: {tangler: 3, concussion: 2}, armour: mono_weave",
     "figures[0].grenades: 5 grenades; options.loadout allows 4"),
    ("equipment: [isuku_stunner, colt_10mm_uaw]",
     "equipment: [isuku_stunner, colt_10mm_uaw, colt_m2117]",
     "figures[0].equipment: 3 firearms; options.loadout allows 2"),
    ("armour: mono_weave}", "armour: thorco_paladin}",
     "figures[0].armour: ThorCo Paladin is powered armour"),
])
def test_bad_loadout_options_get_one_clear_message(tmp_path: Path, old: str, new: str,
                                                   message: str) -> None:
    text = PARK.read_text()
    assert old in text
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace(old, new, 1))
    with pytest.raises(ScenarioError) as info:
        scenario = load_scenario(bad)
        if get_ruleset("firewall").check_scenario(scenario):
            Game(scenario, 1)
    assert message in str(info.value)
    assert str(info.value).count("bad.yaml:") == 1


@pytest.mark.parametrize(("kind", "data", "line"), [
    ("kit", {"figure": "snatch-2", "weapon": "jannings_net_gun"},
     "snatch-2 takes a Jannings Net Gun."),
    ("kit", {"figure": "snatch-2", "grenade": "tranq_gas"},
     "snatch-2 takes a Tranq Gas grenade."),
    ("kit", {"figure": "snatch-2", "weapon": "isuku_stunner"}, "snatch-2 takes an Isuku Stunner."),
    ("kit", {"figure": "snatch-2", "armour": "mono_weave"}, "snatch-2 takes Mono-Weave to wear."),
    ("equipped", {"figure": "snatch-3", "weapons": ["isuku_stunner"], "melee": [],
                  "grenades": {"tangler": 2}, "armour": "korlon_pleximesh"},
     "snatch-3 is equipped: Isuku Stunner, 2 Tangler; Korlon Pleximesh."),
])
def test_every_kit_event_has_a_line(kind: str, data: dict[str, object], line: str) -> None:
    assert get_ruleset("firewall").narrate(Event(0, kind, data)) == line
