"""Short versions of shipped scenarios, so lab tests play few and quick games."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conformance import ROOT


def shortened(tmp: Path, ruleset: str, name: str, turns: int) -> Path:
    """The shipped scenario with a lower turn limit, written under ``tmp``."""
    text = (ROOT / "scenarios" / ruleset / name).read_text(encoding="utf-8")
    lines = [
        f"turn_limit: {turns}" if ln.startswith("turn_limit:") else ln for ln in text.splitlines()
    ]
    path = tmp / f"{ruleset}-{name}"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def short_hostage(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shortened(tmp_path_factory.mktemp("scenarios"), "gogogo", "hostage.yaml", 12)
