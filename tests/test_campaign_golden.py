"""The golden campaign (issue 15): three seeded raids of ``farmhouse_raid`` played by the AI, the
roster carried through ``roster after`` between them, compared line by line with a text file.

``python scripts/update_golden.py`` rewrites it.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from killhouse.engine.record import write_log
from killhouse.roster.files import campaign_rules, load_roster
from killhouse.roster.rules import NewMen
from killhouse.scenario.loader import load_scenario
from killhouse.sim.campaign import apply_game, new_roster
from killhouse.sim.play import play
from tests.conformance import ROOT

GOLDEN = ROOT / "tests" / "golden" / "commando-campaign.txt"
SCENARIO = ROOT / "scenarios" / "commando" / "campaign" / "farmhouse_raid.yaml"
ROSTER = ROOT / "scenarios" / "commando" / "campaign" / "rosters" / "black_dragons.yaml"
SEEDS = (2, 4, 6)


def _table(path: Path) -> list[str]:
    roster = load_roster(path)
    rules = campaign_rules("commando")
    columns, rows = rules.table(roster)
    return [" | ".join(columns), *(" | ".join(row) for row in rows)]


#: the Grunts the raid draws (``from_roster: "next:man=grunt"`` three times)
GRUNTS = 3


def _recruit(roster: Path, mission: int) -> list[str]:
    """Between raids the player recruits a Commando when none of his is fit (``roster new
    --add``), so the Grunts drawn have a leader (ruling C-138), and Grunts when fewer than the
    raid draws are fit."""
    men = load_roster(roster).men
    lines = []
    if not any(m.figure.get("man") == "commando" and m.available() for m in men):
        request = NewMen({"commando": 1}, (f"Recruit{mission}",),
                         {"skills": ("sniping", "personal_combat", "grenade_toss"),
                          "wps": ("m16", "smg", "rifle"), "abilities": ("luck_of_the_irish",)})
        new_roster(roster, "commando", request, 100 + mission, add=True)
        lines.append(f"# recruited Recruit{mission} (roster new --add --seed {100 + mission})")
    fit = sum(1 for m in load_roster(roster).men
              if m.figure.get("man") == "grunt" and m.available())
    if fit < GRUNTS:
        names = tuple(f"Grunt{mission}{chr(ord('a') + i)}" for i in range(GRUNTS - fit))
        new_roster(roster, "commando", NewMen({"grunt": len(names)}, names,
                                              {"grunt_wps": ("m16",)}),
                   200 + mission, add=True)
        lines.append(f"# recruited {', '.join(names)} (roster new --add --grunts "
                     f"{len(names)} --seed {200 + mission})")
    return lines


def render_campaign(work: Path | None = None) -> str:
    """Three raids in a row on a copy of the shipped roster; the text of the whole campaign."""
    with tempfile.TemporaryDirectory() as tmp:
        base = work or Path(tmp)
        shutil.copy(SCENARIO, base / SCENARIO.name)
        shutil.copytree(ROSTER.parent, base / "rosters", dirs_exist_ok=True)
        roster = base / "rosters" / ROSTER.name
        lines = ["# the roster before the campaign", *_table(roster)]
        for mission, seed in enumerate(SEEDS, start=1):
            lines.extend(_recruit(roster, mission))
            game = play(load_scenario(base / SCENARIO.name), seed)
            log = base / f"raid{mission}.jsonl"
            write_log(game, log)
            result = game.result
            raiders = [f"{f.id}={f.name}" for f in game.scenario.figures if f.side == "raiders"]
            lines.append(f"# raid {mission} (seed {seed}): {', '.join(raiders)}")
            lines.append(f"winner {result.winner if result else None}: "
                         f"{result.reason if result else ''}")
            lines.extend(apply_game(roster, log, {}).lines)
            lines.extend(_table(roster))
        return "\n".join(lines) + "\n"


def test_three_raids_carry_the_roster_through() -> None:
    assert render_campaign() == GOLDEN.read_text(encoding="utf-8")
