"""Rewrite the golden playthroughs in tests/golden/ (review the diff before committing).

Each is a short seeded bot game on each ruleset's first shipped scenario, cut to
``GOLDEN_TURNS`` turns so a rules change shows up as a readable diff: the umpire's
narration, and every side's final view.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.test_campaign_golden import GOLDEN, render_campaign  # noqa: E402
from tests.test_golden import GOLDEN_DIR, cases, render, render_views, views_name  # noqa: E402


def main() -> None:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name, path, seed in cases():
        (GOLDEN_DIR / name).write_text(render(path, seed))
        (GOLDEN_DIR / views_name(name)).write_text(render_views(path, seed))
        print(f"wrote tests/golden/{name} and {views_name(name)}")
    GOLDEN.write_text(render_campaign(), encoding="utf-8")
    print(f"wrote tests/golden/{GOLDEN.name}")


if __name__ == "__main__":
    main()
