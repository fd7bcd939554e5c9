// The board as SVG: the public floor plan, doors as the side knows them, fog, figures, marks.
// Drawing only: every fact drawn comes from the server's board, view and fog messages.

export const SVGNS = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  for (const c of children) node.append(c);
  return node;
}

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick" || k === "onchange" || k === "oninput") node[k] = v;
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

// Terrain codes of core.terrain.Terrain
export const T = {
  OUTSIDE: 0, FLOOR: 1, WALL: 2, DOOR_CLOSED: 3, DOOR_OPEN: 4, DOOR_LOCKED: 5,
  WINDOW: 6, STAIRS_UP: 7, STAIRS_DOWN: 8, WATER: 9,
};
const FILL = {
  0: "#ffffff00", 1: "#e9e4d8", 2: "#3b3b3b", 3: "#9b5a1a", 4: "#e0b07a", 5: "#7a1f1f",
  6: "#8fc7e8", 7: "#c9c1ff", 8: "#c9c1ff", 9: "#7fb2d9",
};
const DOOR_CODES = { open: T.DOOR_OPEN, closed: T.DOOR_CLOSED, locked: T.DOOR_LOCKED };
export const SIDE_COLOURS = ["#1f5fbf", "#bf2f1f", "#2f8f3f", "#8f3fbf"];
// compass directions as steps on the board (y grows southward, as in `core.cells`)
const COMPASS = { n: [0, -1], ne: [1, -1], e: [1, 0], se: [1, 1], s: [0, 1], sw: [-1, 1], w: [-1, 0], nw: [-1, -1] };

export function isCell(v) {
  return Array.isArray(v) && v.length === 3 && v.every((n) => Number.isInteger(n));
}
export const cellKey = (c) => `${c[0]}:${c[1]},${c[2]}`;

// The terrain of a level with the doors set as the view knows them.
export function knownTerrain(board, view, level) {
  const rows = board.levels[level].terrain.map((r) => Array.from(r, Number));
  for (const d of (view && view.doors) || []) {
    if (isCell(d.at) && d.at[0] === level && d.state in DOOR_CODES) {
      rows[d.at[2]][d.at[1]] = DOOR_CODES[d.state];
    }
  }
  const open = view && view.map && view.map.open_doors;
  for (const c of open || []) {
    if (isCell(c) && c[0] === level) rows[c[2]][c[1]] = T.DOOR_OPEN;
  }
  return rows;
}

// What the umpire's board draws: the true state's figures, vehicles and hostages, and the
// ruleset's extras that the hashed snapshot leaves out (commando: every weapon on the ground,
// ruling W-19); only the umpire's messages carry ``extras``.
export function umpireView(snapshot, extras) {
  const s = snapshot || {};
  return {
    ...(extras || {}),
    figures: s.figures || [], vehicles: s.vehicles || [], hostages: s.hostages || [],
  };
}

// A small picture of a level for the start page.
export function miniMap(board, level = 0, size = 4) {
  const lv = board.levels[level];
  const svg = el("svg", {
    width: lv.width * size, height: lv.height * size, class: "minimap",
    viewBox: `0 0 ${lv.width} ${lv.height}`, "shape-rendering": "crispEdges",
  });
  lv.terrain.forEach((row, y) => {
    Array.from(row, Number).forEach((t, x) => {
      if (t !== T.OUTSIDE) svg.append(el("rect", { x, y, width: 1, height: 1, fill: FILL[t] }));
    });
  });
  return svg;
}

// The full board of one level for a seat. ``opts``: {view, fog, level, cell, sideIndex,
// selected, targets (Map cellKey -> actions), onCell(cell), onFigure(fig), umpire}
export function drawBoard(board, opts) {
  const { view = {}, fog = null, level = 0, cell: S = 26 } = opts;
  const lv = board.levels[level];
  const svg = el("svg", {
    width: lv.width * S, height: lv.height * S, class: "board", "data-level": level,
    viewBox: `0 0 ${lv.width * S} ${lv.height * S}`,
  });
  const terrain = knownTerrain(board, view, level);
  const ground = el("g", { class: "terrain" });
  const marks = el("g", { class: "marks" });
  terrain.forEach((row, y) => {
    row.forEach((t, x) => {
      if (t === T.OUTSIDE) return;
      const r = el("rect", {
        x: x * S, y: y * S, width: S, height: S, fill: FILL[t], stroke: "#0001",
        class: `cell t${t}`, "data-cell": `${level}:${x},${y}`,
      });
      r.addEventListener("click", () => opts.onCell && opts.onCell([level, x, y]));
      ground.append(r);
      const cx = x * S + S / 2, cy = y * S + S / 2;
      if (t === T.STAIRS_UP || t === T.STAIRS_DOWN) {
        marks.append(el("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: "glyph" },
          t === T.STAIRS_UP ? "▲" : "▼"));
      }
      if (t === T.DOOR_LOCKED) {
        marks.append(el("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: "glyph light" }, "L"));
      }
      const clutter = Number(lv.clutter[y][x]);
      if (clutter > 0) {
        marks.append(el("text", { x: x * S + 3, y: y * S + 10, class: "tiny" }, "·".repeat(clutter)));
      }
      const cover = Number(lv.cover[y][x]);
      if (cover > 0) {
        marks.append(el("rect", {
          x: x * S + 4, y: y * S + 4, width: S - 8, height: S - 8, fill: "none",
          stroke: "#5a4a2a", "stroke-width": cover, "stroke-dasharray": "3 2", class: "cover",
        }));
      }
    });
  });
  svg.append(ground);
  // zones: a faint outline of each cell
  const zones = el("g", { class: "zones" });
  for (const [name, cells] of Object.entries(board.zones || {})) {
    for (const c of cells) {
      if (c[0] !== level) continue;
      zones.append(el("rect", {
        x: c[1] * S + 1, y: c[2] * S + 1, width: S - 2, height: S - 2, fill: "#f5d04a22",
        stroke: "#c9a21a55", "data-zone": name,
      }));
    }
  }
  svg.append(zones, marks);
  // goals the mission draws the side to
  for (const g of view.goals || []) {
    if (isCell(g) && g[0] === level) {
      svg.append(el("circle", { cx: g[1] * S + S / 2, cy: g[2] * S + S / 2, r: 3, fill: "#d4a017", class: "goal" }));
    }
  }
  // fog over cells the side does not see now
  if (fog && fog[level]) {
    const shade = el("g", { class: "fog", "pointer-events": "none" });
    fog[level].forEach((row, y) => {
      Array.from(row).forEach((v, x) => {
        if (v === "0" && terrain[y][x] !== T.OUTSIDE) {
          shade.append(el("rect", { x: x * S, y: y * S, width: S, height: S, fill: "#1a1d2688" }));
        }
      });
    });
    svg.append(shade);
  }
  // targets of the selected figure's legal actions
  const targets = el("g", { class: "targets", "pointer-events": "none" });
  for (const [key, acts] of (opts.targets || new Map()).entries()) {
    const [l, rest] = key.split(":");
    if (Number(l) !== level) continue;
    const [x, y] = rest.split(",").map(Number);
    const attack = acts.some((a) => (a.hint || {}).role === "attack");
    targets.append(el("rect", {
      x: x * S + 2, y: y * S + 2, width: S - 4, height: S - 4, fill: "none",
      stroke: attack ? "#d0202a" : "#1f9f4f", "stroke-width": 2, class: "target",
      "data-target": key,
    }));
  }
  svg.append(targets);
  // sounds: an arrow from the nearest of the side's own figures (the hearer) to the noise
  svg.append(el("defs", {}, el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" },
    el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: "#7a3fbf" }))));
  const hearers = (view.figures || []).filter((f) => isCell(f.at) && f.at[0] === level);
  for (const s of view.sounds || []) {
    const at = s && (s.at || s.from);
    if (s && !isCell(at) && (s.listener || s.heard_by) && typeof s.direction === "string") {
      // a noise told by its direction from the hearer only (gogogo, cqb, commando): an arrow
      // from the hearer that way; the square is never known, so none is marked
      const hearer = hearers.find((f) => f.id === (s.listener || s.heard_by));
      if (!hearer) continue;
      const [dx, dy] = COMPASS[s.direction.toLowerCase()] || [0, 0];
      const x1 = hearer.at[1] * S + S / 2, y1 = hearer.at[2] * S + S / 2;
      const len = (dx && dy ? 1.8 : 2.5) * S;
      const x2 = x1 + dx * len, y2 = y1 + dy * len;
      if (dx || dy) svg.append(el("line", { x1, y1, x2, y2, stroke: "#7a3fbf", "stroke-width": 2, "stroke-dasharray": "4 3", "marker-end": "url(#arrow)", class: "sound heard", "data-listener": hearer.id, "data-direction": s.direction, "pointer-events": "none" }));
      svg.append(el("text", { x: x2 + dx * 6, y: y2 + dy * 6 + 4, "text-anchor": "middle", class: "sound" }, "♪"));
      continue;
    }
    if (!isCell(at) || at[0] !== level) continue;
    const x2 = at[1] * S + S / 2, y2 = at[2] * S + S / 2;
    let best = null;
    for (const f of hearers) {
      const d = (f.at[1] - at[1]) ** 2 + (f.at[2] - at[2]) ** 2;
      if (best === null || d < best.d) best = { d, f };
    }
    if (best && best.d > 0) {
      svg.append(el("line", { x1: best.f.at[1] * S + S / 2, y1: best.f.at[2] * S + S / 2, x2, y2, stroke: "#7a3fbf", "stroke-width": 2, "stroke-dasharray": "4 3", "marker-end": "url(#arrow)", class: "sound", "pointer-events": "none" }));
    }
    svg.append(el("text", { x: x2, y: y2 + 5, "text-anchor": "middle", class: "sound" }, "♪"));
  }
  const sideIds = opts.sides || [];
  const colour = (side) => SIDE_COLOURS[Math.max(0, sideIds.indexOf(side)) % SIDE_COLOURS.length];
  // vehicles (firewall §17): each footprint square in the owner's colour, the name on its anchor
  const vehs = el("g", { class: "vehicles" });
  for (const v of view.vehicles || []) {
    if (!isCell(v.at) || v.at[0] !== level) continue;
    const wreck = v.status === "destroyed";
    const g = el("g", { class: `vehicle${wreck ? " wreck" : ""}`, "data-vehicle": v.id });
    for (const [x, y] of v.squares || []) {
      g.append(el("rect", { x: x * S + 1, y: y * S + 1, width: S - 2, height: S - 2, rx: 3, fill: wreck ? "#555" : colour(v.side), "fill-opacity": 0.55, stroke: "#000", "stroke-width": 1 }));
    }
    g.append(el("text", { x: v.at[1] * S + S / 2, y: v.at[2] * S + S / 2 + 4, "text-anchor": "middle", class: "fid" }, String(v.name || v.id).slice(0, 6)));
    g.append(el("title", {}, `${v.name || v.id} (${v.side}, ${v.armour || ""} armour, facing ${v.facing || "?"}) ${v.status || ""}`.trim()));
    // a click on a vehicle picks it, as a click on a figure does (an id argument, the actor,
    // or a target standing there)
    g.addEventListener("click", (ev) => { ev.stopPropagation(); opts.onFigure && opts.onFigure(v); });
    vehs.append(g);
  }
  svg.append(vehs);
  const figs = el("g", { class: "figures" });
  const drawFig = (f, cls, extra = "") => {
    if (!isCell(f.at) || f.at[0] !== level) return;
    const cx = f.at[1] * S + S / 2, cy = f.at[2] * S + S / 2;
    const down = ["dead", "out-of-action", "ooa", "incapacitated", "killed"].includes(f.status);
    const fill = f.side ? colour(f.side) : "#888";
    const g = el("g", { class: `figure ${cls}${down ? " down" : ""}${opts.selected === f.id ? " selected" : ""}`, "data-figure": f.id });
    g.append(el("circle", { cx, cy, r: S / 2 - 3, fill: f.kind === "hostage" ? "#f0f0f0" : fill, stroke: opts.selected === f.id ? "#ffd400" : "#000", "stroke-width": opts.selected === f.id ? 3 : 1 }));
    g.append(el("text", { x: cx, y: cy + 4, "text-anchor": "middle", class: "fid" }, String(f.id).slice(0, 3)));
    if (extra) g.append(el("text", { x: cx + S / 2 - 2, y: cy - S / 2 + 8, class: "tiny turn" }, extra));
    g.append(el("title", {}, `${f.id} ${f.kind || ""} ${f.status || ""} ${extra}`.trim()));
    g.addEventListener("click", (ev) => { ev.stopPropagation(); opts.onFigure && opts.onFigure(f); });
    figs.append(g);
  };
  for (const f of view.remembered || []) drawFig(f, "remembered", `t${f.turn ?? "?"}`);
  for (const f of view.seen || []) drawFig(f, "seen");
  for (const f of view.figures || []) drawFig(f, opts.umpire ? "true" : "own");
  // commando hostages (rulings C-170, C-171): the ones the side sees now, and where it last saw
  // the others (dimmed, with the turn); rescued ones have left the map
  for (const h of view.hostages || []) {
    if (h.status === "rescued") continue;
    const f = { ...h, kind: "hostage" };
    if (h.seen === false) drawFig(f, "remembered hostage", `t${h.turn ?? "?"}`);
    else drawFig(f, opts.umpire ? "true hostage" : "seen hostage");
  }
  // weapons lying where the side sees (ruling C-179), or all of them on the umpire's board
  // (the umpire's extras, W-19): a slash in the square's lower left corner, as the text
  // board's "/", drawn as a line (a glyph such as ⚒ is missing from many fonts and drew
  // nothing), over a fallen man's circle; the kinds are in its title
  for (const w of view.weapons || []) {
    if (!isCell(w.at) || w.at[0] !== level) continue;
    const g = el("g", { class: "weapons", "pointer-events": "none", "data-cell": cellKey(w.at) });
    const slash = { x1: w.at[1] * S + 2, y1: w.at[2] * S + S - 2, x2: w.at[1] * S + 8, y2: w.at[2] * S + S - 8, "stroke-linecap": "round" };
    g.append(el("line", { ...slash, stroke: "#fff", "stroke-width": 5 }), el("line", { ...slash, stroke: "#222", "stroke-width": 2.5 }));
    g.append(el("title", {}, `weapons on the ground: ${(w.weapons || []).join(", ")}`));
    figs.append(g);
  }
  svg.append(figs);
  return svg;
}
