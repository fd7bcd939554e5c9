"""The game master's decisions (§18.3, rulings F-195 … F-197): which counter is the
data-spike, chosen before Turn 1, and which trap Lonnie names when he lies (a talk's CF).

Both are legal actions of the GM side, so a person can take the GM's seat; a computer GM
chooses through its bot like any side. Only without a GM side does the game's chance draw.
"""

from __future__ import annotations

from collections.abc import Iterable

from killhouse.core.chance import Chance
from killhouse.core.events import EventLog
from killhouse.errors import IllegalActionError
from killhouse.rulesets.base import Action
from killhouse.rulesets.firewall.state import SETUP, FirewallState, _gm
from killhouse.rulesets.kit.flow import Window

#: the reaction window that asks the GM which trap Lonnie names (ruling F-197)
LIE = "lie"


def gm_deciders(state: FirewallState) -> list[str]:
    """Who decides in the set-up step: the first GM side (ruling F-195), once the counters
    are placed (ruling F-214)."""
    gm = sorted(_gm(state))
    return gm[:1] if state.phase == SETUP and state.spike is None and not state.unplaced \
        and state.counters else []


def spike_options(state: FirewallState, side: str) -> Iterable[Action]:
    if side not in gm_deciders(state):
        return []
    return [Action.make(side, "spike", counter=c.id, hint={"role": "setup"})
            for c in sorted(state.counters.values(), key=lambda c: c.number)]


def choose_spike(state: FirewallState, action: Action, chance: Chance, log: EventLog) -> None:
    """Ruling F-195: the GM secretly makes one counter the data-spike (§18.3 set-up)."""
    state.spike = str(action.get("counter"))
    log.emit("spike-is", {"counter": state.spike}, _gm(state))


def lie_traps(state: FirewallState) -> list[int]:
    """The numbers of the unresolved traps: what Lonnie may name on a CF (§18.3)."""
    return sorted(c.number for c in state.counters.values()
                  if c.id != state.spike and not c.resolved)


def open_lie(state: FirewallState, figure: str, side: str) -> bool:
    """Ask the GM which trap Lonnie names (ruling F-197); ``False`` when there is no GM."""
    gm = sorted(_gm(state))
    if not gm:
        return False
    state.windows.append(Window(LIE, (gm[0],), {"figure": figure, "side": side}))
    return True


def lie_options(state: FirewallState, side: str) -> Iterable[Action]:
    window = state.windows[-1] if state.windows else None
    if window is None or window.reaction != LIE or side not in window.waiting():
        return []
    return [Action.make(side, "lie", counter=n, hint={"role": "other"})
            for n in lie_traps(state)]


def check_lie(state: FirewallState, action: Action) -> None:
    if action not in list(lie_options(state, action.side)):
        raise IllegalActionError(
            f"Lonnie names an unresolved trap counter: one of {lie_traps(state)} (§18.3)")


def resume_lie(state: FirewallState, window: Window, chance: Chance, log: EventLog) -> None:
    """The GM's answer: the side that made Lonnie talk now believes that counter is the spike;
    only that side and the GM hear it."""
    answer = window.answers[window.asked[0]]
    side, figure = str(window.context["side"]), str(window.context["figure"])
    named = int(str(answer.get("counter")))
    state.intel[side] = named
    log.emit("lonnie-names", {"figure": figure, "names": named},
             frozenset({side}) | _gm(state))
