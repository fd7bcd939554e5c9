"""One line of plain text per firewall event, for transcripts (any side's copy narrates)."""

from __future__ import annotations

from typing import Any

from killhouse.core.events import Event


def _who(value: Any) -> str:
    return str(value) if value else "someone unseen"


def _at(cell: Any) -> str:
    """A square as ``(x,y)`` (``(x,y level n)`` above the ground), as cqb's lines write it;
    a figure's square is carried as ``[x, y]``, other squares as ``[level, x, y]``."""
    if not cell:
        return "?"
    if len(cell) == 2:
        x, y = cell
        return f"({x},{y})"
    level, x, y = cell
    return f"({x},{y})" if level == 0 else f"({x},{y} level {level})"


def narrate(event: Event) -> str | None:
    d = event.data
    k = event.kind
    from killhouse.rulesets.firewall.vehicles.narrate import narrate_vehicle  # vehicles hook
    line = narrate_vehicle(k, d)
    if line is not None:
        return line
    from killhouse.rulesets.firewall.setupnarrate import narrate_setup  # fwsetup hook
    line = narrate_setup(k, d)
    if line is not None:
        return line
    from killhouse.rulesets.firewall.skillnarrate import narrate_skills  # fwskill hook
    line = narrate_skills(k, d)
    if line is not None:
        return line
    from killhouse.rulesets.firewall.worknarrate import narrate_work  # fwdoors hook
    line = narrate_work(k, d)
    if line is not None:
        return line
    if k == "turn":
        return f"--- Turn {d['turn']} --- initiative: {', '.join(d['order'])}"
    if k == "activate":
        team = f" activates {d['team']}" if d.get("team") else " activates a Fire Team"
        return f"{d['side']}{team}."
    if k == "end-activation":
        return None
    if k == "move":
        return (f"{d['figure']} {d['speed']}s {d.get('dice')}: {d['result']}"
                f"{', rallies' if d.get('rallied') else ''}; now at {_at(d['to'])}.")
    if k == "walk":
        return f"{d['figure']} walks to {_at(d['to'])}."
    if k == "shot":
        affected = d.get("affected") or {}
        effects = ", ".join(f"{i} {s}" for i, s in affected.items()) or "no effect"
        malf = f", malfunction: {d['malfunction']}" if d.get("malfunction") else ""
        return (f"{_who(d.get('firer'))} fires {d['weapon']} at {_who(d.get('target'))}: "
                f"{d['result']}{malf}; {effects}.")
    if k == "close-combat":
        return (f"{_who(d.get('attacker'))} attacks {_who(d.get('target'))} in close combat: "
                f"{d['result']}; target {d['target_status']}.")
    if k == "unjam":
        by = " with a Technical roll" if d.get("by") == "technical" else ""
        return f"{d['figure']} tries to clear a jam{by}: {d['result']}."
    if k == "task":
        what = f" counter {d['counter']}" if d.get("counter") else ""
        return f"{d['figure']} attempts {d['task']}{what}: {d['result']}."
    if k == "counter":
        if d.get("is") == "spike":
            return f"{_who(d.get('figure'))} grabs counter {d['counter']}: the data-spike!"
        if d.get("is") == "trap":
            return (f"counter {d['counter']} is a trap: it goes off on {_who(d.get('figure'))} "
                    f"({d['result']}); {d['status']}.")
        return f"counter {d['counter']} is taken."
    if k == "disarm":
        return (f"{_who(d.get('figure'))} tries to disarm counter {d['counter']}: "
                f"{d['result']} ({d.get('is')}); {d.get('status')}.")
    if k == "talk":
        says = f"names counter {d['names']}" if d.get("names") else "says nothing useful"
        return f"{d['figure']} leans on the captive ({d['result']}): he {says}."
    if k == "swim":
        return f"{_who(d.get('figure'))} pushes {d['captive']} into the river."
    if k == "cloud":
        placed = f"a cloud until Turn {d['until']}" if d.get("placed") else "a dud"
        return f"{_who(d.get('figure'))} fires {d['grenade']} at {_at(d['at'])}: {placed}."
    if k == "gas":
        return f"gas from {d['cloud']} on {d['figure']}: {d['result']}; {d['status']}."
    if k == "clouds-gone":
        return f"clouds disperse: {', '.join(d['clouds'])}."
    if k == "blast":
        end = "destroyed" if d.get("destroyed") else f"effect {d.get('effect')}"
        hurt = f"; {', '.join(d['hurt'])} caught in the collapse" if d.get("hurt") else ""
        return (f"{_who(d.get('figure'))} fires at section {d['section']}: {d['result']}, "
                f"{end}{hurt}.")
    if k == "aware":
        return f"team {d['team']} is aware of the enemy."
    if k == "revealed":
        by = f" by {d['by']}'s search" if d.get("by") else ""
        return f"{d['figure']} is revealed{by}."
    if k == "hide":
        if d.get("result") is None:
            return f"{d['figure']} tries to hide."
        done = "is Hidden" if d.get("hidden") else "fails to hide"
        return f"{d['figure']} {done} ({d['result']})."
    if k == "search":
        got = f" ({d['result']})" if d.get("result") else ""
        return f"{d['figure']} searches{got}."
    if k == "unseen":
        return f"{d['figure']} stays hidden from {d['by']} ({d['result']})."
    if k == "surrender":
        return f"{d['figure']} surrenders."
    if k == "pick-up":
        return f"{d['figure']} picks up {d['carried']}."
    if k == "dropped":
        return f"{d['figure']} is put down at {_at(d['to'])}."
    if k == "exit":
        load = f" carrying {d['carrying']}" if d.get("carrying") else ""
        spike = " with the data-spike" if d.get("spike") else ""
        return f"{d['figure']} leaves the table by the {d['edge']} edge{load}{spike}."
    if k == "alarm":
        return f"{d['side']} raises the alarm."
    if k == "alarm-count":
        return f"alarm count: {d['count']}."
    if k == "arrive":
        return f"{d['side']}'s team {d['team']} may come on."
    if k == "enter":
        return f"{d['figure']} comes on at {_at(d['at'])} ({d['edge']} edge)."
    if k == "lonnie-names":
        return f"Lonnie lies to {d['figure']}: counter {d['names']}, he says."
    if k == "spike":
        return f"{d['figure']} picks up the data-spike."
    if k == "spike-dropped":
        return f"the data-spike falls at {_at(d['at'])}."
    if k == "spike-is":
        return f"the game master makes counter {d['counter']} the data-spike."
    if k in ("roll", "pick", "draw"):
        return None
    if k == "game-over":
        return f"Game over: {d.get('winner') or 'no winner'}: {d['reason']}."
    fields = " ".join(f"{key}={value}" for key, value in d.items())
    return f"{k} {fields}".rstrip()
