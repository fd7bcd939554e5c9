"""The seam between rules and bots (issue 8 item 7): a bot reads the protocol, the core and,
per ruleset, one public ``facts`` module, never a ruleset's internals."""

from __future__ import annotations

import ast
from pathlib import Path

AI = Path(__file__).resolve().parents[2] / "src" / "killhouse" / "ai"
ALLOWED = ("killhouse.ai", "killhouse.core", "killhouse.errors", "killhouse.scenario.model",
           "killhouse.rulesets.base")


def imports(path: Path) -> list[str]:
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [a.name for a in node.names]
            out += [f"{node.module}.{n}" if node.module.startswith("killhouse.rulesets.")
                    and node.module.count(".") == 2 else node.module for n in names]
        elif isinstance(node, ast.Import):
            out += [a.name for a in node.names]
    return [m for m in out if m.startswith("killhouse")]


def allowed(module: str) -> bool:
    if module.startswith(ALLOWED):
        return True
    parts = module.split(".")
    return len(parts) >= 4 and parts[1] == "rulesets" and parts[3] == "facts"


def test_bots_import_only_the_protocol_the_core_and_facts_modules() -> None:
    wrong = {f"{p.relative_to(AI)}: {m}" for p in AI.rglob("*.py") for m in imports(p)
             if not allowed(m)}
    assert not wrong, sorted(wrong)


def test_the_check_sees_a_ruleset_internal() -> None:
    assert not allowed("killhouse.rulesets.commando.ground")
    assert not allowed("killhouse.rulesets.commando.tables")
    assert allowed("killhouse.rulesets.commando.facts")
    assert allowed("killhouse.rulesets.gogogo.facts")
