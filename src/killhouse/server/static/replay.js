// The replay page: step through a finished game (or any game, as its umpire) from any side's
// view or the umpire's; play on from a step as a new game.
import { h, drawBoard, umpireView } from "./draw.js";
import { eventLine } from "./present.js";

const gameId = location.pathname.split("/").filter(Boolean).pop();
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
const $ = (id) => document.getElementById(id);
const ui = { step: null, steps: 0, level: 0, perspective: "umpire", board: null, scenario: null, data: null };

async function post(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return r.json();
}

let asked = 0;
async function load(step, turn) {
  // the step asked for counts at once, so a second click on "step forward" before the first
  // answer came goes one further; only the answer to the last request is shown
  if (typeof step === "number") ui.step = step;
  const mine = ++asked;
  const data = await post(`/api/games/${gameId}/replay`, { token, step: step ?? undefined, turn: turn ?? undefined, perspective: ui.perspective });
  if (mine !== asked) return;
  if (data.error) { $("error").textContent = `${data.error.code}: ${data.error.message}`; return; }
  $("error").textContent = "";
  ui.data = data; ui.step = data.step; ui.steps = data.steps;
  render();
}

function render() {
  const d = ui.data;
  $("slider").max = String(ui.steps);
  $("slider").value = String(ui.step);
  if (d.turns) { $("turn").min = String(d.turns[0]); $("turn").max = String(d.turns[1]); }
  $("where").textContent = `step ${ui.step} of ${ui.steps} · turn ${d.turn ?? "?"}${d.result ? ` · ${d.result.winner || "draw"}: ${d.result.reason}` : ""}`;
  const levels = $("levels");
  levels.replaceChildren(h("span", {}, "level: "), ...ui.board.levels.map((lv, i) =>
    h("button", { class: i === ui.level ? "on" : "", onclick: () => { ui.level = i; render(); } }, lv.name)));
  const umpire = ui.perspective === "umpire";
  const view = umpire ? umpireView(d.view, d.extras) : d.view;
  $("boardwrap").replaceChildren(drawBoard(ui.board, {
    view, fog: d.fog || null, level: ui.level, sides: ui.scenario.sides.map((s) => s.id), umpire,
  }));
  const log = $("log");
  log.replaceChildren(...d.events.map(eventLine));
  log.scrollTop = log.scrollHeight;
}

async function main() {
  const info = await (await fetch(`/api/games/${gameId}/board`)).json();
  if (info.error) { $("error").textContent = info.error.message; return; }
  ui.board = info.board; ui.scenario = info.scenario;
  $("title").textContent = `replay: ${info.scenario.name} (${info.scenario.ruleset})`;
  const sel = $("perspective");
  for (const p of ["umpire", ...info.scenario.sides.map((s) => s.id)]) sel.append(h("option", { value: p }, p));
  sel.onchange = () => { ui.perspective = sel.value; load(ui.step); };
  $("first").onclick = () => load(0);
  $("back").onclick = () => load(Math.max(0, ui.step - 1));
  $("forward").onclick = () => load(Math.min(ui.steps, ui.step + 1));
  $("last").onclick = () => load(ui.steps);
  $("slider").onchange = (e) => load(Number(e.target.value));
  $("goturn").onclick = () => { if ($("turn").value !== "") load(null, Math.trunc(Number($("turn").value))); };
  $("playon").onclick = async () => {
    const seats = {};
    info.scenario.sides.forEach((s, i) => { seats[s.id] = info.seats[s.id] || (i === 0 ? "human" : "ai"); });
    const res = await post("/api/games", { from_game: gameId, token, step: ui.step, seats });
    const box = $("newgame");
    if (res.error) { box.textContent = res.error.message; return; }
    box.replaceChildren(h("div", { class: "links" }, "A new game from this step:",
      ...Object.entries(res.links).map(([side, link]) => h("a", { href: link }, `play ${side}`)),
      h("a", { href: res.umpire }, "umpire")));
  };
  await load(null);
}

main();
// another token for this replay (a side's instead of the umpire's): a fragment change loads no page
window.addEventListener("hashchange", () => location.reload());
