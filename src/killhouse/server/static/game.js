// The game page: one socket per seat token in the URL fragment (several = hotseat).
// It draws what the server sends and sends back one of the legal actions; it decides nothing.
import { h, drawBoard, isCell, cellKey, umpireView } from "./draw.js";
import { eventLine, eventText, actionLabel, actorOf, targetsOf, positions } from "./present.js";
import { newForm, formView, guideTargets, boardPick, argsOf, strip } from "./controls.js";

const gameId = location.pathname.split("/").filter(Boolean).pop();
const tokens = (new URLSearchParams(location.hash.slice(1)).get("token") || "").split(",").filter(Boolean);
const $ = (id) => document.getElementById(id);

const ui = { shown: null, confirmed: null, level: 0, selected: null, board: null, scenario: null, schemas: {}, form: null };
const seats = tokens.map((token) => new Seat(token));
window.killhouse = { seats, ui };

function Seat(token) {
  this.token = token;
  this.key = `killhouse:${gameId}:${token.slice(0, 10)}`;
  const saved = JSON.parse(sessionStorage.getItem(this.key) || "null");
  this.events = saved ? saved.events : [];
  this.index = saved ? saved.index : 0;
  this.seq = saved ? saved.seq : 0;
  this.outbox = saved ? saved.outbox : null;
  this.role = saved ? saved.role : null;
  this.state = null;
  this.closed = false;
  // acknowledged, but the state after it (with the AI's answers) not yet here: the legal
  // actions on screen are stale until it comes, so none is offered meanwhile
  this.awaiting = false;
}
Seat.prototype.save = function () {
  sessionStorage.setItem(this.key, JSON.stringify({
    events: this.events, index: this.index, seq: this.seq, outbox: this.outbox, role: this.role,
  }));
};
Seat.prototype.connect = function () {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${gameId}`);
  this.ws = ws;
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "hello", token: this.token, index: this.index }));
    $("conn").textContent = "connected";
  };
  ws.onmessage = (m) => this.receive(JSON.parse(m.data));
  ws.onclose = (ev) => {
    $("conn").textContent = "reconnecting…";
    if (ev.code === 4403 || ev.code === 4404) { this.closed = true; $("conn").textContent = "closed"; return; }
    setTimeout(() => this.connect(), 700);
  };
};
Seat.prototype.receive = function (msg) {
  if (msg.type === "board") {
    ui.board = msg.board; ui.scenario = msg.scenario; this.role = msg.role;
    // a page that lost its count (a new tab, another machine) numbers on from the server's,
    // or its actions would be taken for resends of old ones and answered with their answers
    if (typeof msg.seq === "number" && msg.seq > this.seq) this.seq = msg.seq;
    this.save();
    if (!ui.schemasFor) {
      // the ruleset's action schemas, public and the same for every seat: the controls
      ui.schemasFor = msg.scenario.ruleset;
      fetch(`/api/rulesets/${msg.scenario.ruleset}/schemas`).then((r) => r.json())
        .then((d) => { ui.schemas = d.schemas || {}; render(); });
    }
    return;
  }
  if (msg.type === "state") {
    if (msg.from === this.index || msg.from === 0) {
      if (msg.from === 0) this.events = [];
      this.events.push(...msg.events);
      this.index = msg.index;
    }
    this.state = msg;
    this.awaiting = false;
    this.role = msg.role;
    this.save();
    if (this.outbox) this.ws.send(JSON.stringify(this.outbox));
    render();
    return;
  }
  if (msg.type === "ack") {
    if (this.outbox && this.outbox.seq === msg.seq) { this.outbox = null; this.save(); ui.form = null; }
    $("error").textContent = "";
    // a first answer pushes the new state after it; a resent action's answer pushes none
    this.awaiting = true;
    if (msg.resent) this.ws.send(JSON.stringify({ type: "sync", index: this.index }));
    render();
    return;
  }
  if (msg.type === "error") {
    if (this.outbox && msg.seq === this.outbox.seq) { this.outbox = null; this.save(); }
    if (msg.code === "bad-index") {
      // our saved log does not fit this game: start it again from the first event
      this.events = []; this.index = 0; this.save();
      this.ws.send(JSON.stringify({ type: "sync", index: 0 }));
      return;
    }
    $("error").textContent = `${msg.code}: ${msg.message}`;
    if (msg.code === "bad-token" || msg.code === "unknown-game") {
      $("status").textContent = msg.message;
    }
  }
};
Seat.prototype.act = function (action) {
  if (this.outbox) return; // one action in flight at a time
  this.seq += 1;
  $("error").textContent = ""; // the last refusal's reason goes with the next try
  this.outbox = { type: "action", seq: this.seq, action };
  this.save();
  this.ws.send(JSON.stringify(this.outbox));
};

const sideName = (id) => {
  const s = ui.scenario && ui.scenario.sides.find((x) => x.id === id);
  return s ? (s.name || s.id) : id;
};

function deciding() {
  return seats.filter((s) => s.state && s.state.legal && s.state.legal.length && !s.state.result && !s.awaiting);
}

function render() {
  if (!ui.board || !seats.some((s) => s.state)) return;
  const ready = seats.filter((s) => s.state);
  const due = deciding();
  let seat = ready.find((s) => s === ui.shown) || ready[0];
  if (due.length && !due.includes(seat)) seat = due[0];
  // hotseat: the board stays covered until the next side confirms it is at the screen
  if (seats.length > 1 && seat !== ui.confirmed && due.includes(seat)) {
    ui.shown = seat;
    const cover = $("cover");
    cover.classList.remove("hidden");
    cover.replaceChildren(
      h("div", { id: "cover-text" }, `Pass the screen to ${sideName(seat.role)}.`),
      h("button", { id: "cover-ok", onclick: () => { ui.confirmed = seat; ui.selected = null; ui.form = null; cover.classList.add("hidden"); render(); } },
        `I am ${sideName(seat.role)}: show my board`));
    $("boardwrap").replaceChildren();
    $("actions").replaceChildren();
    $("log").replaceChildren();
    return;
  }
  $("cover").classList.add("hidden");
  ui.shown = seat;
  const st = seat.state;
  $("title").textContent = ui.scenario ? `${ui.scenario.name} (${ui.scenario.ruleset})` : "";
  const delay = st.delay;
  $("seatname").textContent = delay ? `seat: ${sideName(delay.side)}'s view, ${delay.turns} turn${delay.turns === 1 ? "" : "s"} behind`
    : `seat: ${seat.role === "umpire" || seat.role === "spectator" ? seat.role : sideName(seat.role)}`;
  renderStatus(seat);
  renderLevels();
  renderBoard(seat);
  renderActions(seat);
  renderLog(seat);
  renderEnd(seat);
}

function renderStatus(seat) {
  const st = seat.state, view = st.view || {};
  const turn = view.turn ?? (view.public && view.public.turn) ?? "";
  const phase = view.phase ?? "";
  const counted = st.actions === undefined ? "" : st.role === "umpire" ? `${st.actions} actions` : `${st.actions} of your actions`;
  const parts = [h("span", {}, [`turn ${turn}`, `phase ${phase}`, counted, `event ${st.index}`].filter(Boolean).join(" · ")), h("br")];
  if (st.delay && !st.result) {
    parts.push(h("span", { class: "wait", id: "delayed" }, st.delay.open
      ? `delayed view: ${sideName(st.delay.side)} as it stood at turn ${turn}, at least ${st.delay.turns} turn(s) ago`
      : `delayed view: opens once ${st.delay.turns} turn(s) have been played`));
  } else if (st.result) {
    parts.push(h("span", { class: "decide" }, `game over: ${st.result.winner ? sideName(st.result.winner) + " wins" : "draw"} — ${st.result.reason}`));
  } else if (st.legal.length) {
    const p = st.pending.find((d) => d.side === seat.role);
    parts.push(h("span", { class: "decide", id: "your-turn" }, `Your decision (${p ? p.kind : ""}): ${p ? p.prompt : ""}`));
  } else {
    const names = st.pending.map((d) => sideName(d.side)).join(", ");
    parts.push(h("span", { class: "wait", id: "waiting" }, `waiting for ${names || "nobody"}`));
  }
  const committed = [...seat.events].reverse().find((e) => /commit/.test(e.kind));
  if (committed && !st.result) parts.push(h("br"), h("span", { id: "committed" }, eventText(committed)));
  if (st.ai_error) parts.push(h("br"), h("span", { class: "wait" }, `AI stopped: ${st.ai_error}`));
  $("status").replaceChildren(...parts);
}

function renderLevels() {
  const box = $("levels");
  box.replaceChildren(h("span", {}, "level: "));
  ui.board.levels.forEach((lv, i) => {
    box.append(h("button", { class: i === ui.level ? "on" : "", "data-level": i, onclick: () => { ui.level = i; render(); } }, lv.name));
  });
}

function legalOf(seat) {
  if (seat.awaiting || seat.outbox) return [];
  return (seat.state && seat.state.legal) || [];
}

function renderBoard(seat) {
  const st = seat.state;
  const legal = legalOf(seat);
  const view = st.role === "umpire" ? umpireView(st.view, st.extras) : (st.view || {});
  const schema = ui.form && ui.schemas[ui.form.kind];
  let targets = new Map();
  if (schema) {
    // an open form: the board fills its armed argument; legal values are highlighted
    targets = guideTargets(ui.form, schema, legal, positions(st.view || {}));
  } else {
    for (const a of legal) {
      if (actorOf(a) !== ui.selected && !(ui.selected === null && actorOf(a) === null)) continue;
      for (const c of targetsOf(a, st.view || {})) {
        const k = cellKey(c);
        if (!targets.has(k)) targets.set(k, []);
        targets.get(k).push(a);
      }
    }
  }
  const svg = drawBoard(ui.board, {
    view, fog: st.fog || null, level: ui.level, selected: schema ? ui.form.values.figure : ui.selected, targets,
    sides: ui.scenario.sides.map((s) => s.id), umpire: st.role === "umpire",
    onCell: (cell) => {
      if (schema) { if (boardPick(ui.form, schema, cell, null)) render(); return; }
      clickCell(seat, cell, targets);
    },
    onFigure: (f) => {
      if (schema) { if (boardPick(ui.form, schema, null, f)) render(); return; }
      if (legal.some((a) => actorOf(a) === f.id)) { ui.selected = ui.selected === f.id ? null : f.id; render(); return; }
      if (isCell(f.at)) clickCell(seat, f.at, targets);
    },
  });
  $("boardwrap").replaceChildren(svg);
}

function clickCell(seat, cell, targets) {
  const acts = targets.get(cellKey(cell)) || [];
  if (acts.length === 1) { send(seat, acts[0]); return; }
  if (acts.length > 1) { showMenu(seat, acts); return; }
}

function send(seat, a) {
  hideMenu();
  seat.act(strip(a));
}

function showMenu(seat, acts) {
  const menu = $("menu");
  menu.replaceChildren(...acts.map((a) => h("button", { class: "choice", onclick: () => send(seat, a) }, actionLabel(a))),
    h("button", { onclick: hideMenu }, "cancel"));
  menu.style.display = "block";
  menu.style.left = "40%";
  menu.style.top = "20%";
}
function hideMenu() { $("menu").style.display = "none"; }

function actionButton(seat, a) {
  return h("button", { class: "act", "data-kind": a.kind, onclick: () => send(seat, a) }, actionLabel(a));
}

// A legal action a click can send whole: no free text to write.
const oneClick = (a) => typeof a.text !== "string";

function renderActions(seat) {
  const legal = legalOf(seat);
  if (ui.selected && !legal.some((a) => actorOf(a) === ui.selected)) ui.selected = null;
  const box = $("actions");
  box.replaceChildren();
  if (!legal.length) {
    ui.form = null;
    const busy = seat.awaiting || seat.outbox;
    box.append(h("em", { id: busy ? "sent" : null }, seat.state.result ? "the game is over" : busy ? "sent: waiting for the answer…" : "nothing to decide now"));
    return;
  }
  const st = seat.state;
  const kinds = [...new Set(legal.map((a) => a.kind))].sort();
  if (ui.form && !kinds.includes(ui.form.kind)) ui.form = null;
  // the quick way, guided by the legal actions: select a figure, click a highlighted target
  const actors = [...new Set(legal.map(actorOf).filter((x) => x !== null))];
  if (actors.length) {
    box.append(h("div", {}, "select a figure, then click a highlighted cell or figure: ",
      ...actors.map((id) => h("button", { class: `pick${ui.selected === id ? " on" : ""}`, "data-figure": id, onclick: () => { ui.selected = ui.selected === id ? null : id; ui.form = null; render(); } }, id))));
  }
  if (ui.selected) {
    const mine = legal.filter((a) => actorOf(a) === ui.selected && oneClick(a) && !targetsOf(a, st.view || {}).length);
    // a kind with few choices: one button each; with many (routes): its form, figure filled in
    const byKind = new Map();
    for (const a of mine) { if (!byKind.has(a.kind)) byKind.set(a.kind, []); byKind.get(a.kind).push(a); }
    const quick = [];
    for (const [kind, acts] of byKind) {
      if (acts.length <= 12 || !ui.schemas[kind]) quick.push(...acts.slice(0, 12).map((a) => actionButton(seat, a)));
      else quick.push(h("button", { class: "compose", "data-kind": kind, onclick: () => { ui.form = newForm(kind, ui.schemas[kind], ui.selected); render(); } }, `${kind}… (${acts.length} choices)`));
    }
    if (quick.length) box.append(h("div", { class: "fig" }, `${ui.selected}:`), ...quick);
  }
  // kinds that take no argument: one button each
  const bare = kinds.filter((k) => { const sc = ui.schemas[k]; return sc ? !argsOf(sc).length : false; });
  // a kind with arguments but no figure acting (a fire team's activation) and few choices,
  // none pointing at the board: one button per legal choice, as for a selected figure
  const few = kinds.filter((k) => !bare.includes(k) && ui.schemas[k]).map((k) => legal.filter((a) => a.kind === k))
    .filter((acts) => acts.length <= 12 && acts.every((a) => actorOf(a) === null && oneClick(a) && !targetsOf(a, st.view || {}).length));
  const decide = [...bare.map((k) => actionButton(seat, legal.find((a) => a.kind === k))), ...few.flat().map((a) => actionButton(seat, a))];
  if (decide.length) box.append(h("div", { class: "fig" }, "decide:"), ...decide);
  // every other kind: a form built from its schema
  const formKinds = kinds.filter((k) => ui.schemas[k] && argsOf(ui.schemas[k]).length);
  if (formKinds.length) {
    const pick = h("select", { id: "kind", onchange: (e) => {
      ui.form = e.target.value ? newForm(e.target.value, ui.schemas[e.target.value], ui.selected) : null;
      render();
    } }, h("option", { value: "" }, "— an action —"),
    ...formKinds.map((k) => h("option", { value: k, selected: ui.form && ui.form.kind === k ? "selected" : false }, k)));
    box.append(h("div", { class: "fig" }, "compose: ", pick));
    if (ui.form) {
      box.append(formView(ui.form, ui.schemas[ui.form.kind], legal, render, (action) => { seat.act(action); }));
    }
  }
  // kinds the ruleset declares no schema for: their legal actions as buttons
  const loose = legal.filter((a) => !ui.schemas[a.kind] && oneClick(a));
  if (loose.length) box.append(h("div", { class: "fig" }, "other actions:"), ...loose.slice(0, 60).map((a) => actionButton(seat, a)));
}

function renderLog(seat) {
  const box = $("log");
  const atBottom = box.scrollTop + box.clientHeight >= box.scrollHeight - 4;
  box.replaceChildren(...seat.events.map(eventLine));
  if (atBottom) box.scrollTop = box.scrollHeight;
}

function renderEnd(seat) {
  const st = seat.state, end = $("end");
  if (!st.result || ui.endClosed) { end.classList.add("hidden"); return; }
  end.classList.remove("hidden");
  end.replaceChildren(
    h("div", { id: "result" }, `Game over: ${st.result.winner ? sideName(st.result.winner) + " wins" : "a draw"}`),
    h("div", {}, st.result.reason),
    h("a", { href: `/replay/${gameId}#token=${seat.token}`, id: "reveal", style: "color:#9cf" }, "reveal the whole game and replay it"),
    h("button", { onclick: () => { ui.endClosed = true; render(); } }, "look at the board"));
}

document.addEventListener("keydown", (e) => { if (e.key === "Escape") { hideMenu(); ui.selected = null; ui.form = null; render(); } });
if (!tokens.length) $("status").textContent = "This link has no seat token.";
for (const s of seats) s.connect();
// another link of the same game pasted into this tab changes only the fragment (the token),
// which loads no page: load it, or the old seat would stay on screen
window.addEventListener("hashchange", () => location.reload());
