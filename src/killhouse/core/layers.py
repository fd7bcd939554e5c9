"""Per-cell layers a ruleset declares: elevation, terrain kinds, building sections, edge flags.

A layer is one small integer per cell, set by legend symbols of the scenario map. A ruleset
names its layers with ``LayerSpec`` values (``Ruleset.layers``); the scenario loader checks
every legend value against them and the board carries the arrays through copies and state
hashes. Edge layers hold bit flags for the four sides of a cell (line terrain such as fences,
wire and slits lies on cell edges).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

#: Kinds of layer: a whole number, one name of a list, or edge flags.
LAYER_KINDS: tuple[str, ...] = ("number", "name", "edges")
#: Bit of each side in an edge layer.
EDGE_BITS: dict[str, int] = {"n": 1, "e": 2, "s": 4, "w": 8}
_SIDE_OF_STEP: dict[tuple[int, int], str] = {(0, -1): "n", (1, 0): "e", (0, 1): "s", (-1, 0): "w"}
_OPPOSITE = {"n": "s", "s": "n", "e": "w", "w": "e"}


class LayerValueError(ValueError):
    """A legend value a layer refuses, with a hint."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass(frozen=True)
class LayerSpec:
    """One layer: its legend key, its kind, and the values it takes.

    ``number`` layers take whole numbers ``low``..``high`` (elevation, height, section id);
    ``name`` layers take one of ``names`` and store its position plus one (0 = none: terrain
    kinds such as woods, road, rubble); ``edges`` layers take a list of sides ``n e s w``.
    """

    key: str
    kind: str = "number"
    low: int = 0
    high: int = 255
    names: tuple[str, ...] = ()
    help: str = ""

    def __post_init__(self) -> None:
        if self.kind not in LAYER_KINDS:
            raise ValueError(f"layer kind must be one of {', '.join(LAYER_KINDS)}: {self.kind!r}")
        if self.kind == "name" and not self.names:
            raise ValueError(f"layer {self.key!r} of kind 'name' needs its names")
        if not -32768 <= self.low <= self.high <= 32767:
            raise ValueError(f"layer {self.key!r} range {self.low}..{self.high} does not fit")

    def encode(self, value: object) -> int:
        """The stored integer of a legend value; ``LayerValueError`` says what was expected."""
        if self.kind == "number":
            if isinstance(value, bool) or not isinstance(value, int):
                raise LayerValueError(
                    f"expected a whole number {self.low} to {self.high}, found {value!r}", self.help
                )
            if not self.low <= value <= self.high:
                raise LayerValueError(
                    f"expected {self.low} to {self.high}, found {value}", self.help
                )
            return value
        if self.kind == "name":
            if not isinstance(value, str) or value not in self.names:
                raise LayerValueError(
                    f"expected one of {', '.join(self.names)}, found {value!r}", self.help
                )
            return self.names.index(value) + 1
        sides = [value] if isinstance(value, str) else value
        if not isinstance(sides, list) or not all(s in EDGE_BITS for s in sides):
            raise LayerValueError(
                f"expected a list of sides among n, e, s, w, found {value!r}",
                self.help or "for example [n, e]: a fence along the north and east edges",
            )
        bits = 0
        for side in sides:
            bits |= EDGE_BITS[str(side)]
        return bits

    def decode(self, stored: int) -> object:
        """The legend value of a stored integer (names and side lists back)."""
        if self.kind == "number":
            return stored
        if self.kind == "name":
            return None if stored == 0 else self.names[stored - 1]
        return [side for side, bit in EDGE_BITS.items() if stored & bit]


def blank_layer(shape: tuple[int, int]) -> NDArray[np.int16]:
    """A layer of zeros for one level."""
    return np.zeros(shape, dtype=np.int16)


def edge_crossed(edges: NDArray[np.integer], a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether a cardinal step from ``a`` to ``b`` (``(x, y)``) crosses a flagged edge.

    The edge between two cells is flagged if either cell marks it on its own side. A diagonal
    step crosses no single edge; a ruleset that forbids squeezing past a flagged corner tests
    the two cardinal paths itself.
    """
    side = _SIDE_OF_STEP.get((b[0] - a[0], b[1] - a[1]))
    if side is None:
        raise ValueError(f"{a} and {b} are not cardinal neighbours")
    here = int(edges[a[1], a[0]]) & EDGE_BITS[side]
    there = int(edges[b[1], b[0]]) & EDGE_BITS[_OPPOSITE[side]]
    return bool(here or there)


def check_layers(layers: Mapping[str, LayerSpec], reserved: tuple[str, ...]) -> None:
    """Refuse layer keys that clash with the legend's own keys (a ruleset bug, not a scenario's)."""
    for key, spec in layers.items():
        if key != spec.key:
            raise ValueError(f"layer {key!r} is declared with key {spec.key!r}")
        if key in reserved:
            raise ValueError(f"layer key {key!r} is a legend key of the core")
