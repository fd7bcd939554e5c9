// Controls built from the action schemas the server sends with the board (the ruleset's
// JSON Schemas): one form per action kind. Figure and cell arguments are filled by clicking
// the board, enums are selects, whole numbers number inputs with their bounds, flags
// checkboxes; optional arguments are marked and left out when empty. The legal actions only
// guide (highlighted cells, suggested values); the server checks the schema and the rules.
import { h, isCell, cellKey } from "./draw.js";

// What a schema property asks for: figure | id | cell | cells | enum | int | bool | text.
export function argType(p) {
  if (!p) return "text";
  if (Array.isArray(p.enum)) return "enum";
  if (p.type === "boolean") return "bool";
  if (p.type === "integer") return "int";
  if (p.type === "array") return p.items && p.items.type === "array" ? "cells" : "cell";
  if (p.type === "string") return p.format === "figure-id" ? "figure" : (p.maxLength || 0) <= 64 ? "id" : "text";
  return "text";
}

// The arguments of a kind, in schema order, without kind and side.
export function argsOf(schema) {
  const req = new Set(schema.required || []);
  return Object.entries(schema.properties || {})
    .filter(([name]) => name !== "kind" && name !== "side")
    .map(([name, p]) => ({ name, p, type: argType(p), required: req.has(name) }));
}

const onBoard = (t) => t === "figure" || t === "id" || t === "cell" || t === "cells";
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const fmtCell = (c) => `${c[0]}:${c[1]},${c[2]}`;

// A new form for ``kind``; a figure argument starts as the selected figure.
export function newForm(kind, schema, selected) {
  const form = { kind, values: {}, armed: null };
  for (const a of argsOf(schema)) {
    if (a.type === "figure" && selected && a.name === "figure") form.values[a.name] = selected;
  }
  form.armed = nextArmed(form, schema);
  return form;
}

function nextArmed(form, schema) {
  const args = argsOf(schema).filter((a) => onBoard(a.type));
  const empty = args.find((a) => form.values[a.name] === undefined && a.required)
    || args.find((a) => form.values[a.name] === undefined);
  return empty ? empty.name : null;
}

// The legal actions of the form's kind that agree with what is filled in so far (ignoring
// ``except``, the argument being chosen now).
function agreeing(form, legal, except) {
  return legal.filter((a) => a.kind === form.kind && Object.entries(form.values).every(([k, v]) => {
    if (k === except) return true;
    if (a[k] === undefined) return false;
    return same(a[k], v);
  }));
}

// Legal values of one argument (suggestions), given the rest of the form.
export function suggestions(form, legal, name) {
  const out = [];
  for (const a of agreeing(form, legal, name)) {
    const v = a[name];
    if (v !== undefined && !out.some((x) => same(x, v))) out.push(v);
  }
  return out;
}

// Cells to highlight for the armed argument: its legal values (cells, or where the figures
// named stand; for a route, the next cell of the legal routes that start as it does).
export function guideTargets(form, schema, legal, where) {
  const targets = new Map();
  const arg = argsOf(schema).find((a) => a.name === form.armed);
  if (!arg) return targets;
  const add = (c, a) => {
    if (!isCell(c)) return;
    const k = cellKey(c);
    if (!targets.has(k)) targets.set(k, []);
    targets.get(k).push(a);
  };
  for (const a of agreeing(form, legal, arg.name)) {
    const v = a[arg.name];
    if (arg.type === "cells" && Array.isArray(v)) {
      const got = form.values[arg.name] || [];
      if (got.length < v.length && got.every((c, i) => same(c, v[i]))) add(v[got.length], a);
    } else if (isCell(v)) add(v, a);
    else if (typeof v === "string" && where.has(v)) add(where.get(v), a);
  }
  return targets;
}

// A board click while a form is open: fill the armed argument (a cell, a route step, or the
// id of the figure clicked); returns true if the form took the click.
export function boardPick(form, schema, cell, figure) {
  const arg = argsOf(schema).find((a) => a.name === form.armed);
  if (!arg) return false;
  if (arg.type === "cell") form.values[arg.name] = cell || (figure && figure.at);
  else if (arg.type === "cells") form.values[arg.name] = [...(form.values[arg.name] || []), cell || figure.at];
  else if (figure) form.values[arg.name] = String(figure.id);
  else return false;
  if (arg.type !== "cells") form.armed = nextArmed(form, schema);
  return true;
}

// The action the form describes: empty optional arguments left out.
export function actionOf(form, schema) {
  const out = { kind: form.kind };
  for (const a of argsOf(schema)) {
    const v = form.values[a.name];
    if (v === undefined || v === "" || (Array.isArray(v) && !v.length && !a.required)) continue;
    out[a.name] = v;
  }
  return out;
}

// The form as DOM; ``redraw`` re-renders after a change, ``send`` sends the action.
export function formView(form, schema, legal, redraw, send) {
  const rows = argsOf(schema).map((a) => {
    const label = h("label", { class: a.required ? "arg" : "arg optional", "data-arg": a.name },
      `${a.name}${a.required ? "" : " (optional)"}: `);
    const hints = suggestions(form, legal, a.name);
    const v = form.values[a.name];
    const set = (value) => {
      if (value === undefined) delete form.values[a.name]; else form.values[a.name] = value;
      if (form.armed === a.name && value !== undefined && a.type !== "cells") form.armed = nextArmed(form, schema);
      redraw();
    };
    let input;
    if (a.type === "enum") {
      input = h("select", { onchange: (e) => set(e.target.value === "" ? undefined : e.target.value) },
        h("option", { value: "" }, a.required ? "— choose —" : "— leave out —"),
        ...a.p.enum.map((c) => h("option", { value: c, selected: v === c ? "selected" : false },
          hints.includes(c) ? `${c} •` : c)));
    } else if (a.type === "int") {
      input = h("input", {
        type: "number", step: 1, min: a.p.minimum, max: a.p.maximum, value: v ?? "",
        placeholder: hints.length ? `e.g. ${hints.slice(0, 4).join(", ")}` : "",
        onchange: (e) => set(e.target.value === "" ? undefined : Math.trunc(Number(e.target.value))),
      });
    } else if (a.type === "bool") {
      if (a.required) {
        input = h("input", { type: "checkbox", checked: v === true ? "checked" : false, onchange: (e) => set(e.target.checked) });
        if (v === undefined) form.values[a.name] = false;
      } else {
        input = h("select", { onchange: (e) => set(e.target.value === "" ? undefined : e.target.value === "true") },
          h("option", { value: "" }, "— leave out —"),
          h("option", { value: "true", selected: v === true ? "selected" : false }, "yes"),
          h("option", { value: "false", selected: v === false ? "selected" : false }, "no"));
      }
    } else if (a.type === "text") {
      input = h("input", { type: "text", maxlength: a.p.maxLength, value: v ?? "", oninput: (e) => { form.values[a.name] = e.target.value; } });
    } else {
      // board arguments: shown, armed to take the next board click; ids may be typed too
      const shown = a.type === "cell" ? (isCell(v) ? fmtCell(v) : "") : a.type === "cells" ? (v || []).map(fmtCell).join(" → ") : v ?? "";
      const armed = form.armed === a.name;
      input = h("span", {},
        a.type === "figure" || a.type === "id"
          ? h("input", { type: "text", size: 10, value: shown, list: `dl-${a.name}`, onchange: (e) => set(e.target.value || undefined) })
          : h("code", { class: "picked" }, shown || "—"),
        h("datalist", { id: `dl-${a.name}` }, ...hints.filter((x) => typeof x === "string").map((x) => h("option", { value: x }))),
        h("button", { class: `arm${armed ? " on" : ""}`, title: "pick on the board", onclick: () => { form.armed = armed ? null : a.name; redraw(); } },
          armed ? "clicking the board…" : "pick on board"),
        a.type === "cells" && (v || []).length ? h("button", { onclick: () => { form.values[a.name] = v.slice(0, -1); form.armed = a.name; redraw(); } }, "undo step") : null,
        (v !== undefined && !a.required) ? h("button", { onclick: () => set(undefined) }, "clear") : null);
    }
    const help = a.p.description && a.p.description !== "[level, x, y]" ? h("span", { class: "help" }, ` ${a.p.description}`) : null;
    return h("div", { class: "argrow" }, label, input, help);
  });
  const legalNow = legal.some((x) => x.kind === form.kind && matches(actionOf(form, schema), strip(x), schema));
  return h("div", { id: "compose", "data-kind": form.kind },
    schema.description ? h("div", { class: "help" }, schema.description) : null,
    ...rows,
    h("button", { id: "send", class: legalNow ? "legal" : "", onclick: () => send(actionOf(form, schema)) }, `send ${form.kind}${legalNow ? " (legal)" : ""}`));
}

// The form's action is the legal action ``x`` (an optional argument left out matches any).
function matches(action, x, schema) {
  const optional = new Set(argsOf(schema).filter((a) => !a.required).map((a) => a.name));
  if (Object.keys(action).some((k) => !(k in x))) return false;
  return Object.entries(x).every(([k, v]) => (k in action ? same(action[k], v) : optional.has(k)));
}

export function strip(a) {
  const out = {};
  for (const [k, v] of Object.entries(a)) if (k !== "hint") out[k] = v;
  return out;
}
