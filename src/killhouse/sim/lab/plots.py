"""The lab's pictures as PNG files (matplotlib, Agg backend: no display needed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import ListedColormap

from killhouse.core.board import Board
from killhouse.core.terrain import Terrain

#: floor plan shades: outside, floor, wall, door, window, stairs, water
_PLAN = ListedColormap(
    ["#ffffff", "#f2f2f2", "#404040", "#b07a3c", "#7fb3d5", "#9c9c9c", "#5dade2"]
)
_SHADE = {
    Terrain.OUTSIDE: 0,
    Terrain.FLOOR: 1,
    Terrain.WALL: 2,
    Terrain.DOOR_CLOSED: 3,
    Terrain.DOOR_OPEN: 3,
    Terrain.DOOR_LOCKED: 3,
    Terrain.WINDOW: 4,
    Terrain.STAIRS_UP: 5,
    Terrain.STAIRS_DOWN: 5,
    Terrain.WATER: 6,
}
_COLOURS = ["tab:blue", "tab:red", "tab:green", "tab:purple", "tab:orange", "tab:brown"]


def _plan(board: Board, level: int) -> Any:
    terrain = board.levels[level].terrain
    shades = np.zeros(terrain.shape, dtype=np.uint8)
    for value, shade in _SHADE.items():
        shades[terrain == value] = shade
    return shades


def _grid(cells: Sequence[Sequence[int]], width: int, height: int) -> Any:
    grid = np.zeros((height, width), dtype=float)
    for x, y, count in cells:
        if 0 <= x < width and 0 <= y < height:
            grid[y, x] += count
    return np.ma.masked_equal(grid, 0.0)


def heatmaps(summary: Mapping[str, Any], board: Board, out: Path) -> list[Path]:
    """One PNG per level: where figures fall (top row) and where shots are fired from
    (bottom row), one column per side (and per kind of figure with no side)."""
    maps = summary["heatmaps"]
    groups = list(dict.fromkeys([*summary["sides"], *maps["fallen"], *maps["shots"]]))
    written: list[Path] = []
    for li, level in enumerate(board.levels):
        cols = max(1, len(groups))
        aspect = level.height / max(1, level.width)
        fig, axes = plt.subplots(
            2, cols, figsize=(3.6 * cols, 2 * 3.6 * aspect + 1.2), squeeze=False
        )
        for row, (key, title) in enumerate((("fallen", "falls"), ("shots", "shots fired"))):
            for col, group in enumerate(groups):
                ax = axes[row][col]
                ax.imshow(_plan(board, li), cmap=_PLAN, vmin=0, vmax=6, interpolation="nearest")
                cells = maps[key].get(group, {}).get(level.name, [])
                total = int(sum(c[2] for c in cells))
                if cells:
                    shown = ax.imshow(
                        _grid(cells, level.width, level.height),
                        cmap="inferno_r",
                        vmin=0,
                        alpha=0.85,
                        interpolation="nearest",
                    )
                    fig.colorbar(shown, ax=ax, fraction=0.046, pad=0.02)
                ax.set_title(f"{group}: {title} ({total})", fontsize=9)
                ax.set_xticks([])
                ax.set_yticks([])
        fig.suptitle(f"{summary['scenario']}: level {level.name}, {summary['games']} games")
        fig.tight_layout()
        path = out / f"heatmap-{_safe(level.name)}.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written


def _errorbars(ax: Any, xs: Sequence[Any], rates: Sequence[Mapping[str, Any]], **kw: Any) -> None:
    ys = [r["rate"] for r in rates]
    low = [r["rate"] - r["low"] for r in rates]
    high = [r["high"] - r["rate"] for r in rates]
    ax.errorbar(xs, ys, yerr=[low, high], capsize=3, marker="o", **kw)


def win_by_turn(summary: Mapping[str, Any], out: Path) -> Path:
    """Each side's win rate (95% Wilson interval) among the games that ended on each turn,
    above the number of games that ended on it."""
    by_turn = summary["win_rate_by_end_turn"]
    turns = sorted(by_turn, key=int)
    xs = [int(t) for t in turns]
    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(7.5, 5.5), sharex=True, gridspec_kw={"height_ratios": [3, 1]}
    )
    for i, side in enumerate(summary["sides"]):
        rates = [by_turn[t][side] for t in turns]
        offset = (i - (len(summary["sides"]) - 1) / 2) * 0.12
        _errorbars(
            top,
            [x + offset for x in xs],
            rates,
            label=side,
            color=_COLOURS[i % len(_COLOURS)],
            ls="none",
        )
    top.set_ylim(-0.02, 1.02)
    top.set_ylabel("win rate (95% interval)")
    top.legend(fontsize=8)
    top.set_title(f"{summary['scenario']}: who wins, by the turn the game ended")
    bottom.bar(xs, [summary["turns"]["histogram"][t] for t in turns], color="tab:gray")
    bottom.set_xlabel("turn the game ended")
    bottom.set_ylabel("games")
    fig.tight_layout()
    path = out / "win-rate-by-turn.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def turns_histogram(summary: Mapping[str, Any], out: Path) -> Path:
    """How many games ended on each turn, with the mean marked."""
    hist = summary["turns"]["histogram"]
    fig, ax = plt.subplots(figsize=(7.5, 3.2))
    ax.bar([int(t) for t in hist], list(hist.values()), color="tab:gray")
    ax.axvline(summary["turns"]["mean"], color="tab:red", label=f"mean {summary['turns']['mean']}")
    ax.set_xlabel("turn the game ended")
    ax.set_ylabel("games")
    ax.legend(fontsize=8)
    ax.set_title(f"{summary['scenario']}: game length")
    fig.tight_layout()
    path = out / "turns.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def sweep_plot(sweep: Mapping[str, Any], out: Path) -> Path:
    """Each side's win rate and the draw rate (95% Wilson intervals) against the value."""
    rows = sweep["variants"]
    labels = [str(r["value"]) for r in rows]
    numeric = all(
        isinstance(r["value"], int | float) and not isinstance(r["value"], bool) for r in rows
    )
    xs: list[Any] = [r["value"] for r in rows] if numeric else list(range(len(rows)))
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    for i, side in enumerate(sweep["sides"]):
        _errorbars(ax, xs, [r["wins"][side] for r in rows], label=side, color=_COLOURS[i % 6])
    _errorbars(ax, xs, [r["draws"] for r in rows], label="draws", color="tab:gray", ls="--")
    ax.axhline(0.5, color="black", lw=0.6, ls=":")
    if not numeric:
        ax.set_xticks(xs, labels)
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel(sweep["path"])
    ax.set_ylabel("rate (95% interval)")
    ax.set_title(
        f"{sweep['scenario']}: closest to even at {sweep['path']}={sweep['closest_to_even']}"
    )
    ax.legend(fontsize=8)
    fig.tight_layout()
    path = out / "sweep.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in name) or "level"
