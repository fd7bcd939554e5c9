// The start page: shipped scenarios per ruleset, seats and seed, uploaded scenarios.
import { h, miniMap } from "./draw.js";

async function post(url, body) {
  const r = await fetch(url, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  return r.json();
}

function seatForm(sides, prefix) {
  const box = h("div", { class: "seats" });
  sides.forEach((s, i) => {
    const sel = h("select", { name: s.id, "data-side": s.id, id: `${prefix}-seat-${s.id}` },
      h("option", { value: "human" }, "human"), h("option", { value: "ai" }, "AI"));
    sel.value = i === 0 ? "human" : "ai";
    box.append(h("label", {}, `${s.name || s.id}: `, sel));
  });
  const seed = h("input", { type: "number", placeholder: "random", id: `${prefix}-seed`, size: 8 });
  box.append(h("label", {}, "seed: ", seed));
  // a spectator link for one side's view some turns behind (never the present)
  const watch = h("select", { class: "delayed-side" }, h("option", { value: "" }, "none"),
    ...sides.map((s) => h("option", { value: s.id }, s.name || s.id)));
  const behind = h("input", { type: "number", class: "delayed-turns", min: 1, value: 2, size: 3 });
  box.append(h("br"), h("label", {}, "delayed spectator of: ", watch), h("label", {}, " turns behind: ", behind));
  return box;
}

function readSeats(box) {
  const seats = {};
  for (const sel of box.querySelectorAll("select[data-side]")) seats[sel.dataset.side] = sel.value;
  const seed = box.querySelector("input[type=number]").value;
  const watch = box.querySelector("select.delayed-side").value;
  const behind = box.querySelector("input.delayed-turns").value;
  const delayed = watch ? { side: watch, turns: behind === "" ? 2 : Number(behind) } : null;
  return { seats, seed: seed === "" ? null : Number(seed), delayed };
}

function showCreated(res) {
  const box = document.getElementById("created");
  box.classList.remove("hidden");
  box.replaceChildren();
  if (res.error) {
    box.append(h("div", { class: "problems" }, res.error.message));
    return;
  }
  const abs = (p) => new URL(p, location.href).href;
  const links = h("div", { class: "links", id: "links" },
    h("strong", {}, `Game ${res.game} (seed ${res.seed}) is open. Keep these links secret:`));
  for (const [side, link] of Object.entries(res.links)) {
    links.append(h("a", { href: abs(link), class: "seat-link", "data-side": side }, `play ${side}: ${abs(link)}`));
  }
  if (res.hotseat) links.append(h("a", { href: abs(res.hotseat), class: "hotseat-link" }, `hotseat (all human sides at this screen): ${abs(res.hotseat)}`));
  links.append(h("a", { href: abs(res.spectator), class: "spectator-link" }, `spectator: ${abs(res.spectator)}`));
  for (const [side, link] of Object.entries(res.delayed || {})) {
    links.append(h("a", { href: abs(link), class: "delayed-link", "data-side": side }, `${side}'s view, delayed: ${abs(link)}`));
  }
  links.append(h("a", { href: abs(res.umpire), class: "umpire-link" }, `umpire: ${abs(res.umpire)}`));
  box.append(links);
  box.scrollIntoView();
}

async function main() {
  // the uploads work at once; the listing of the shipped scenarios may take a while
  document.getElementById("log-upload").onchange = async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const out = document.getElementById("log-result");
    out.replaceChildren("checking the log…");
    const res = await post("/api/logs", { text: await file.text(), name: file.name });
    if (res.error) {
      // one line, as `killhouse replay` prints it
      out.replaceChildren(h("pre", { class: "problems", id: "log-problems" }, res.error.message));
      return;
    }
    out.replaceChildren(h("a", { href: res.replay, id: "log-replay" }, `replay ${file.name} (${res.steps} actions)`));
    location.href = res.replay;
  };
  document.getElementById("upload").onchange = async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const text = await file.text();
    const out = document.getElementById("upload-result");
    const res = await post("/api/validate", { text, name: file.name });
    out.replaceChildren();
    if (!res.ok) {
      out.append(h("pre", { class: "problems", id: "problems" }, res.problems.join("\n")));
      return;
    }
    const form = seatForm(res.sides, "upload");
    const open = h("button", { class: "open" }, `Open ${res.name}`);
    open.onclick = async () => {
      const { seats, seed, delayed } = readSeats(form);
      showCreated(await post("/api/games", { text, name: file.name, seats, seed, delayed }));
    };
    out.append(h("p", {}, `ok: ${res.name} (${res.ruleset})`), form, open);
  };
  const data = await (await fetch("/api/scenarios")).json();
  const root = document.getElementById("rulesets");
  root.replaceChildren();
  for (const rs of data.rulesets) {
    root.append(h("h3", {}, `${rs.title} (${rs.id})`));
    for (const scn of rs.scenarios) {
      const key = scn.file.replace(/[^a-z0-9]/gi, "-");
      const form = seatForm(scn.sides, key);
      const open = h("button", { class: "open", "data-scenario": scn.file }, "Open game");
      open.onclick = async () => {
        const { seats, seed, delayed } = readSeats(form);
        showCreated(await post("/api/games", { scenario: scn.file, seats, seed, delayed }));
      };
      root.append(h("div", { class: "scenario", "data-file": scn.file },
        miniMap(scn.board, 0, 4),
        h("div", {}, h("h3", {}, scn.name), h("p", {}, scn.description),
          h("p", {}, `sides: ${scn.sides.map((s) => s.name || s.id).join(" v ")}`), form, open)));
    }
  }
}

main();
