"""How the cost of a bot-vs-bot game grows with figures and with map area (issue 12).

Run: ``python benchmarks/bench_scale.py [scenario.yaml ...] [--games N] [--turns T]``. Prints
numbers, not a test. From each scenario (by default gogogo's hostage rescue and execute's
bank, airliner and embassy) it builds:

* **figures ×k** on the same map: every figure gets k-1 copies, each on the nearest free
  square its original can walk to (so the copies start in the same rooms and zones); a
  figure that starts off the map (execute's agents before they enter) is not copied;
* **area ×k** with the same figures: the map drawn k times side by side (×2) or in a 2×2
  block (×4); zones and figures stay in the first copy, the others are extra building.

Every game is cut to ``--turns`` turns so that games of every size play the same number of
turns; the table gives CPU seconds per game and per decision, and the growth exponent
between neighbouring sizes (cost ∝ size^e; 1 is linear), size being the number of figures
or of cells actually built.
"""

from __future__ import annotations

import argparse
import io
import math
import time
from collections import deque
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from killhouse.core.cells import Cell
from killhouse.core.kernels import load_all as load_kernels
from killhouse.core.rng import derive_seed
from killhouse.scenario.loader import load_scenario, loads_scenario
from killhouse.scenario.model import Scenario
from killhouse.sim.play import play

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = [
    ROOT / "scenarios" / "gogogo" / "hostage.yaml",
    *(ROOT / "scenarios" / "execute" / f"{name}.yaml" for name in ("bank", "airliner", "embassy")),
]


def _yaml() -> YAML:
    yaml = YAML(typ="safe")
    yaml.default_flow_style = None
    return yaml


def _text(data: dict[str, Any]) -> str:
    out = io.StringIO()
    _yaml().dump(data, out)
    return out.getvalue()


def _place(spec: str) -> tuple[str, int, int]:
    level, xy = spec.split(":")
    x, y = xy.split(",")
    return level, int(x), int(y)


def more_figures(data: dict[str, Any], scenario: Scenario, k: int) -> dict[str, Any]:
    """``data`` with k-1 copies of every placed figure, each on the nearest free square."""
    board = scenario.board
    names = [lv.name for lv in board.levels]
    taken = {f.at for f in scenario.figures if f.at is not None}
    figures = list(data["figures"])
    for n in range(1, k):
        for fig in data["figures"]:
            at = fig.get("at")
            if not isinstance(at, str):
                continue
            level_name, x, y = _place(at)
            start = Cell(names.index(level_name), x, y)
            spot = _nearest_free(scenario, start, taken)
            taken.add(spot)
            copy = dict(fig, id=f"{fig['id']}x{n}", at=f"{level_name}:{spot.x},{spot.y}")
            figures.append(copy)
    return dict(data, figures=figures)


def _nearest_free(scenario: Scenario, start: Cell, taken: set[Cell]) -> Cell:
    board = scenario.board
    seen = {start}
    todo = deque([start])
    while todo:
        cell = todo.popleft()
        if cell not in taken:
            return cell
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)):
            nxt = cell.step(dx, dy)
            if nxt not in seen and board.in_bounds(nxt) and board.passable(nxt):
                seen.add(nxt)
                todo.append(nxt)
    raise ValueError(f"no free square near {start}")


def more_area(data: dict[str, Any], k: int, scenario: Scenario) -> dict[str, Any]:
    """``data`` with its map drawn k times: side by side for 2, a 2×2 block for 4. Each copy
    keeps its own stairs: every stair pair of ``scenario`` is listed for every copy."""
    across, down = {1: (1, 1), 2: (2, 1), 4: (2, 2)}[k]
    levels = {}
    sizes = {}
    for name, drawing in data["map"]["levels"].items():
        rows = str(drawing).rstrip("\n").split("\n")
        width = max(len(r) for r in rows)
        sizes[name] = (width, len(rows))
        rows = [r.ljust(width) * across for r in rows]
        levels[name] = "\n".join(rows * down) + "\n"
    out = dict(data["map"], levels=levels)
    names = [lv.name for lv in scenario.board.levels]
    pairs = {tuple(sorted((a, b))) for a, b in scenario.board.stairs.items() if a != b}
    if k > 1 and pairs:
        def at(cell: Cell, i: int, j: int) -> str:
            width, height = sizes[names[cell.level]]
            return f"{names[cell.level]}:{cell.x + i * width},{cell.y + j * height}"

        out["stairs"] = [
            {"from": at(a, i, j), "to": at(b, i, j)}
            for i in range(across)
            for j in range(down)
            for a, b in sorted(pairs)
        ]
    return dict(data, map=out)


def cpu_per_game(scenario: Scenario, games: int) -> tuple[float, float]:
    """CPU seconds per game and per decision over ``games`` seeded games."""
    steps = 0
    start = time.process_time()
    for i in range(games):
        steps += len(play(scenario, derive_seed(1, i)).actions)
    cpu = time.process_time() - start
    return cpu / games, cpu / max(1, steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("scenarios", nargs="*", type=Path)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--turns", type=int, default=10)
    args = parser.parse_args()
    load_kernels()  # every compiled kernel loads first (none of it is a game's cost)
    for path in args.scenarios or DEFAULT:
        curve(path, args.games, args.turns)


def curve(path: Path, games: int, turns: int) -> None:
    """Print one scenario's table: cost per game at 1, 2 and 4 times its figures and area."""
    data = _yaml().load(path.read_text())
    data["turn_limit"] = turns
    if data.get("ruleset") == "gogogo":
        # copies nearest their originals may spill out of a start zone
        data["options"] = {**(data.get("options") or {}), "free_deployment": True}
    base = load_scenario(path)
    cpu_per_game(base, 1)  # warm up: the compiled kernels this ruleset uses load at first use
    print(f"{path.parent.name}/{path.name}: {games} games of {turns} turns per size (CPU time)")
    print(f"{'grows':<8} {'k':>2} {'figures':>7} {'cells':>7} {'s/game':>8} {'ms/decision':>11} "
          f"{'exponent':>8}")
    for label in ("figures", "area"):
        previous: tuple[int, float] | None = None
        for k in (1, 2, 4):
            variant = (
                more_figures(data, base, k) if label == "figures" else more_area(data, k, base)
            )
            scenario = loads_scenario(_text(variant), f"{path.name} {label} x{k}")
            cells = sum(lv.width * lv.height for lv in scenario.board.levels)
            size = len(scenario.figures) if label == "figures" else cells
            per_game, per_step = cpu_per_game(scenario, games)
            exponent = ""
            if previous is not None:
                exponent = f"{math.log(per_game / previous[1]) / math.log(size / previous[0]):.2f}"
            print(f"{label:<8} {k:>2} {len(scenario.figures):>7} {cells:>7} {per_game:>8.3f} "
                  f"{1000 * per_step:>11.2f} {exponent:>8}")
            previous = (size, per_game)
    print()


if __name__ == "__main__":
    main()
