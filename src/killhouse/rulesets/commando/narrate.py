"""One line of text per Commando event for printed games and transcripts."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from killhouse.core.events import Event
from killhouse.rulesets.kit.narration import coordinates as _at  # "(x,y)", "(x,y level n)"


def narrate(event: Event) -> str | None:
    d = event.data
    k = event.kind
    if k == "turn":
        return f"-- turn {d['turn']} --"
    if k == "initiative":
        return f"{d['side']} wins the initiative"
    if k == "plotted":
        return f"{d['figure']} is plotted for opportunity fire"
    if k == "committed":
        return f"{d['side']} has plotted"
    if k == "activates":
        return f"{d['figure']} activates with {d['tp']} TP"
    if k == "step":
        return f"{d['figure']} steps to {_at(d['to'])}"
    if k == "posture":
        return f"{d['figure']} goes {d['to']}" + (
            " (Preserving, with no way out of sight)" if d.get("forced") else "")
    if k == "tree":
        return f"{d['figure']} climbs a tree" if d["to"] == "up" else (
            f"{d['figure']} comes down from his tree")
    if k == "inspired":
        who = d["figure"] if d.get("figure") else "someone unseen"
        return f"{who} inspires {d['man']}: his {d['cancels']} is cancelled"
    if k == "fire":
        # ruling C-153: the rolls for everyone, the chance only in the firer's side's copy
        need = (f"; needs {d['chance']}, kills on {d['kill']} or less"
                if "chance" in d else "")
        return (f"{d['figure']} fires his {d['weapon']} at {d['target']} (range {d['range']}"
                f"{need}): {_fires(d)}; {d['target']} is {d['status']}"
                + ("; magazine empty" if d["emptied"] else ""))
    if k in ("aim", "semi", "spray", "snipe"):
        how = {"aim": "aimed fire", "semi": "semi-automatic fire", "spray": "spray fire",
               "snipe": "a sniper's shot"}[k]
        shots = ", ".join(_shot(s) for s in d["shots"])
        pct = f", needs {'/'.join(map(str, d['chances']))}" if "chances" in d else ""
        return (f"{d['figure']} puts {how} from his {d['weapon']} at {', '.join(d['targets'])}"
                f" ({d['cost']} TP{pct}): {shots}"
                + ("; unobserved" if d["sniped"] else "")
                + ("; magazine empty" if d["emptied"] else ""))
    if k == "fired-upon":
        shots = ", ".join(_shot(s) for s in d["shots"])
        return f"an unseen firer shoots: {shots}"
    if k == "prepare":
        return f"{d['figure']} prepares a {d['device']}"
    if k in ("throw", "launch"):
        verb = "throws" if k == "throw" else "fires"
        where = ("on target" if d["on_target"]
                 else f"misses {d['distance']} {d['direction']} to {_at(d['lands'])}")
        need = f"needs {d['chance']}, " if "chance" in d else ""
        rolled = f" ({need}rolled {d['roll']})" if d.get("roll") is not None else (
            f" ({d['chance']} %)" if "chance" in d else "")
        return f"{d['figure']} {verb} a {d['device']} at {_at(d['at'])}{rolled}: {where}"
    if k == "load":
        return f"{d['figure']} makes his {d['device']} ready"
    if k == "explosion":
        return f"a {d['device']} goes off at {_at(d['at'])} ({d['environment']})"
    if k == "blasted":
        hurt = "killed" if d["result"] in ("killed", "kill") else (
            f"{d['damage']} damage" if d["damage"] else "unhurt")
        return f"{d['figure']} is caught by the {d['device']}: {hurt}; {d['status']}"
    if k == "burst":
        return f"{d['device']} bursts at {_at(d['at'])} (lasts to turn {d['until']})"
    if k == "plant":
        if not d["done"]:
            return f"{d['figure']} works on a charge ({d['paid']}/{d['cost']} TP)"
        return (f"{d['figure']} sets a charge, timer {d['timer']}"
                if d["set"] else f"{d['figure']} fails to set the charge")
    if k == "emplace":
        return f"{d['figure']} places a Claymore at {_at(d['at'])} facing {d['facing']}"
    if k == "claymore":
        return f"a Claymore goes off at {_at(d['at'])} facing {d['facing']}"
    if k == "burns":
        return f"{d['figure']} burns for {d['damage']}; {d['status']}"
    if k == "cease":
        return f"{d['figure']} puts out the flames"
    if k == "works":
        return f"{d['figure']} is busy with something"
    if k == "door":
        return f"{d['figure']} {'opens' if d['open'] else 'closes'} the door at {_at(d['at'])}"
    if k == "reload":
        return f"{d['figure']} reloads"
    if k == "activation-ends":
        return f"{d['figure']} ends his activation"
    line = narrate_map(k, d)
    if line is not None:
        return line
    if k == "end":
        return f"game over: {d.get('winner') or 'draw'} ({d.get('reason')})"
    fields = " ".join(f"{key}={value}" for key, value in d.items())
    return f"{k} {fields}".rstrip()


def _outcome(result: str, damage: int) -> str:
    return f"wound ({damage})" if result == "wound" and damage else result


def _fires(d: Mapping[str, Any]) -> str:
    """Each fire of a plain fire task: the d100 rolled and what it did."""
    rolls = d.get("rolls") or [None] * len(d["results"])
    damage = d.get("damage") or [0] * len(d["results"])
    # a fire into a crowded square names whom it went at (C-37, C-191)
    whom = [f" on {v}" for v in d["victims"]] if "victims" in d else [""] * len(d["results"])
    return ", ".join((_outcome(r, n) if roll is None else f"rolled {roll}: {_outcome(r, n)}")
                     + w for r, roll, n, w in zip(d["results"], rolls, damage, whom,
                                                  strict=True))


def _shot(s: Mapping[str, Any]) -> str:
    """One fire of a fire task at a named victim: the d100, what it did, to whom."""
    what = f"{_outcome(s['result'], s['damage'])} ({s['victim']})"
    return f"rolled {s['roll']}: {what}" if s.get("roll") is not None else what


def narrate_map(k: str, d: Mapping[str, Any]) -> str | None:
    """Lines for the map tasks, searchlights and morale."""
    if k == "climb":
        return f"{d['figure']} takes the stairs to {_at(d['to'])}"
    if k == "force-door":
        return (f"{d['figure']} forces the locked door at {_at(d['at'])}: "
                + ("it gives" if d.get("opened") else "it holds"))
    if k == "pick-lock":
        opened = d.get("opened")
        state = ("picked" if opened else "not picked") if opened is not None else (
            f"{d.get('paid')} of 50 TP in")
        return f"{d['figure']} works the lock at {_at(d['at'])}: {state}"
    if k == "searchlight":
        return (f"searchlight {d['light']} goes out" if d["aim"] is None
                else f"searchlight {d['light']} swings to {_at(d['aim'])}")
    if k == "sound":
        return f"{d['heard_by']} hears {d['kind']} to the {d['direction']}"
    if k == "right-place":
        return (f"{d['figure']} is in the right place at the right time: hostage "
                f"{d['hostage']} is at {_at(d['at'])} ({d['status']})")
    if k == "hostage-hit":
        hurt = "killed" if d["result"] == "killed" else f"takes {d['damage']} damage"
        return f"hostage {d['hostage']} is hit by the {d['cause']}: {hurt}, {d['status']}"
    if k in ("lead", "let-go", "rescued", "execute", "pickup", "shoot-light"):
        return _rescue_and_pickup(k, d)
    if k == "exchange":
        return f"{d['figure']} takes his {d['weapon']} in hand"
    if k == "clip":
        wire = "concertina" if d["wire"] == "concertina" else "barbed wire"
        if not d["done"]:
            return f"{d['figure']} clips the {wire} at {_at(d['at'])} ({d['paid']}/{d['cost']} TP)"
        return f"{d['figure']} cuts through the {wire} at {_at(d['at'])}"
    if k == "revive":
        if not d["done"]:
            return f"{d['figure']} tends {d['patient']} ({d['paid']}/{d['cost']} TP)"
        return f"{d['figure']} revives {d['patient']}; {d['patient']} is {d['status']}"
    if k == "panic":
        what = {"prone": "drops prone", "fire": "fires wildly", "run": "runs away"}
        return f"{d['figure']} panics and {what.get(str(d['result']), d['result'])}"
    if k == "fire-in-air":
        return f"{d['figure']} fires his {d['weapon']} into the air"
    if k == "run":
        return f"{d['figure']} runs to {_at(d['to'])}"
    if k == "engaged":
        return f"hand-to-hand at {_at(d['square'])}: {', '.join(d['men'])}"
    if k == "disengage":
        freed = ", ".join(d["freed"]) or "nobody"
        return f"{', '.join(d['leaving'])} try to break away: {freed} gets away"
    if k == "h2h-declared":
        return f"{d['figure']} will {d['choice']}" + (
            f" {d['target']}" if d.get("target") else "")
    if k == "h2h-round":
        blows = "; ".join(f"{s} on {t}: {r}" + (f" ({n})" if n else "")
                          for s, t, r, n in d["blows"]) or "no blows"
        return f"hand-to-hand round {d['round']} at {_at(d['square'])}: {blows}"
    if k == "preserving":
        return f"{d['figure']} is preserving himself ({d['conditions']} conditions)"
    return None


def _rescue_and_pickup(k: str, d: Mapping[str, Any]) -> str:
    """Hostages (C-172 … C-174), picking up a weapon (C-178), a searchlight shot (C-181)."""
    if k == "lead":
        return f"{d['figure']} takes charge of hostage {d['hostage']}"
    if k == "let-go":
        return f"hostage {d['hostage']} is left at {_at(d['at'])}"
    if k == "rescued":
        return f"hostage {d['hostage']} is brought out: rescued"
    if k == "execute":
        need = f"needs {d['chance']}, " if "chance" in d else ""
        return (f"{d['figure']} fires his {d['weapon']} at hostage {d['hostage']} ({need}"
                f"rolled {d['roll']}): " + ("he is dead" if d["killed"] else "missed"))
    if k == "pickup":
        return f"{d['figure']} picks up a {d['weapon']} at {_at(d['at'])}"
    need = f"needs {d['chance']}, " if "chance" in d else ""
    rolls = "/".join(map(str, d["rolls"]))
    how = {"aim": "aimed fire", "semi": "semi-automatic fire", "spray": "spray fire",
           "snipe": "a sniper's shot"}.get(str(d.get("mode")))
    if how is not None:  # ruling C-194
        at = ", ".join(d["split"]) if "split" in d else d["light"]
        result = (f"{', '.join(d['out']) or 'none'} out" if "out" in d
                  else "hit" if d["hit"] else "missed")
        return (f"{d['figure']} puts {how} from his {d['weapon']} on searchlight {at} "
                f"({d['cost']} TP, {need}rolled {rolls}): {result}"
                + ("; unobserved" if d.get("sniped") else "")
                + ("; magazine empty" if d["emptied"] else ""))
    return (f"{d['figure']} fires his {d['weapon']} at searchlight {d['light']} ({need}rolled "
            f"{rolls}): " + ("hit" if d["hit"] else "missed")
            + ("; magazine empty" if d["emptied"] else ""))
