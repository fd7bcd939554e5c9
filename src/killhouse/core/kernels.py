"""The compiled kernels' loader: numba loads (or, in a fresh checkout, compiles) a kernel at its
first call, a cost of some milliseconds that belongs to no game.

Each module with kernels registers a ``warm`` call that runs them once on a tiny input;
``load_all`` runs every registered one, so a benchmark (or a worker process) can pay that cost
before it starts measuring (or playing), whatever its first game happens to use.
"""

from __future__ import annotations

from collections.abc import Callable

_WARMERS: list[Callable[[], None]] = []


def register(warm: Callable[[], None]) -> Callable[[], None]:
    """Note ``warm`` (runs its module's kernels once on a tiny input) for ``load_all``."""
    _WARMERS.append(warm)
    return warm


def load_all() -> None:
    """Load every registered kernel now: core's, and those of every module imported so far
    that registers its own (a ruleset's, once a scenario of it is loaded)."""
    from killhouse.core import bounded, fov, losjit, pathjit  # noqa: F401  (they register)

    for warm in _WARMERS:
        warm()
