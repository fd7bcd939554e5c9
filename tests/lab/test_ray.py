"""The lab on a local Ray gives the same JSON as on local processes (one Ray per module)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from killhouse.sim.lab.run import LocalBackend, Plan, RayBackend
from killhouse.sim.lab.session import run_lab

ray: Any = pytest.importorskip(
    "ray", reason="Ray is the optional extra killhouse[ray]; make setup installs it"
)

GAMES = 6


@pytest.fixture(scope="module")
def local_ray() -> Iterator[RayBackend]:
    """One local Ray session for the module: starting Ray costs seconds."""
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield RayBackend()
    finally:
        ray.shutdown()


def test_ray_backend_gives_the_local_json(local_ray: RayBackend, short_hostage: Path) -> None:
    on_ray = run_lab(short_hostage, 11, Plan(GAMES), local_ray)
    local = run_lab(short_hostage, 11, Plan(GAMES), LocalBackend(1))
    assert on_ray.data == local.data
    assert on_ray.data["games"] == GAMES
    assert on_ray.records == local.records


def test_ray_backend_joins_a_running_ray_without_stopping_it(local_ray: RayBackend) -> None:
    assert not local_ray.started  # the fixture's Ray was running: the backend only joined it
    local_ray.close()
    assert ray.is_initialized()
