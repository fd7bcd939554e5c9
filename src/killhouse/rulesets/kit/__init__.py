"""The ruleset kit: phases, moves and reaction windows declared as data (``flow``), typed
action arguments (``args``) and the view contract every ruleset keeps (``view``)."""

from killhouse.rulesets.kit.args import Arg, action_schema, check_args
from killhouse.rulesets.kit.flow import (
    Flow,
    Group,
    HasWindows,
    Legal,
    Move,
    Phase,
    Reaction,
    Window,
    own_question,
    windows_json,
)
from killhouse.rulesets.kit.lazy import MadeWhenRead
from killhouse.rulesets.kit.ruleset import FlowRuleset

__all__ = [
    "Arg",
    "Flow",
    "FlowRuleset",
    "Group",
    "HasWindows",
    "Legal",
    "MadeWhenRead",
    "Move",
    "Phase",
    "Reaction",
    "Window",
    "action_schema",
    "check_args",
    "own_question",
    "windows_json",
]
