// How legal actions and events read on screen: labels, the figure an action moves, the cells
// it points at. Reading only: which actions exist and what they do is the server's answer.
import { h, isCell } from "./draw.js";

const TARGET_KEYS = ["to", "at", "target", "hostage", "device", "bomb", "vehicle"];

export function actorOf(a) {
  if (typeof a.figure === "string") return a.figure;
  if (typeof a.agent === "string") return a.agent;
  // a vehicle's own action (firewall's drive, vehicle-fire): the vehicle acts, selected as a figure is
  if (typeof a.vehicle === "string") return a.vehicle;
  return null;
}

// Where things the side knows of stand: its figures, those in sight, remembered, devices.
export function positions(view) {
  const out = new Map();
  const add = (list) => { for (const x of list || []) if (x && isCell(x.at)) out.set(String(x.id), x.at); };
  add(view.vehicles); add(view.remembered); add(view.seen); add(view.figures); add(view.bombs);
  add(view.public && view.public.devices);
  return out;
}

// The cells an action points at (a destination, a target figure's square, a device).
export function targetsOf(a, view) {
  const where = positions(view);
  const cells = [];
  const actor = actorOf(a);
  for (const key of TARGET_KEYS) {
    const v = a[key];
    if (v === actor) continue; // the actor's own square is no target
    if (isCell(v)) cells.push(v);
    else if (typeof v === "string" && where.has(v)) cells.push(where.get(v));
  }
  // a route's last square is where it leads: a click there picks the routes that end there
  if (!cells.length && Array.isArray(a.path) && a.path.length && isCell(a.path[a.path.length - 1])) {
    cells.push(a.path[a.path.length - 1]);
  }
  return cells;
}

const fmt = (v) => (isCell(v) ? `${v[0]}:${v[1]},${v[2]}` : typeof v === "object" ? JSON.stringify(v) : String(v));

export function actionLabel(a) {
  const args = Object.entries(a).filter(([k]) => !["kind", "hint", "text"].includes(k)).map(([k, v]) => `${k}=${fmt(v)}`);
  const hint = a.hint || {};
  const odds = typeof hint.p === "number" ? ` (${Math.round(hint.p * 100)}%)` : "";
  return `${a.kind} ${args.join(" ")}${odds}`.trim();
}

// One event of the log: its narration, and the die, target number and result of any roll.
export function eventLine(e) {
  const row = h("div", { class: "ev", "data-kind": e.kind, "data-seq": e.seq });
  if (e.die !== undefined) {
    row.classList.add("roll");
    const tn = e.tn ?? e.need;
    const res = e.roll ?? e.result;
    const ok = e.success === undefined ? "" : e.success ? " success" : " failure";
    row.append(h("span", { class: "dice" }, `[${e.die}]${tn !== undefined ? ` TN ${tn}` : ""} → ${res}${ok} `));
  } else if (e.need !== undefined) {
    row.classList.add("roll");
    row.append(h("span", { class: "dice" }, `[d6] needs ${e.need} → ${e.result} `));
  } else if (typeof e.card === "string") {
    // a card turned: the card, the target number when this copy carries one, the result
    row.classList.add("roll");
    const res = e.outcome ?? e.landing ?? (e.passed === undefined ? undefined : e.passed ? "pass" : "fail");
    row.append(h("span", { class: "dice" }, `[${e.card}]${e.tn !== undefined ? ` TN ${e.tn}` : ""}${res !== undefined ? ` → ${res}` : ""} `));
  }
  row.append(h("span", {}, eventText(e)));
  return row;
}

// The narration of an event, or its kind in words when the ruleset narrates none.
export function eventText(e) {
  if (e.text) return e.text;
  const who = typeof e.side === "string" ? `${e.side}: ` : "";
  return `${who}${e.kind.replace(/[-_]/g, " ")}${e.purpose ? ` (${e.purpose})` : ""}`;
}
