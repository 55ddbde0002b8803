// Relic Press live preview: reads /api/state, listens to /events, patches the page in place.
"use strict";

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("data-")) node.setAttribute(key, value);
    else node[key] = value;
  }
  for (const child of children) if (child) node.append(child);
  return node;
};

const view = { state: null, tab: "gallery", hiddenAt: -1, events: [] };
window.relicPreview = view; // for people poking at it in the console (and the browser test)

// ----- state ----------------------------------------------------------------------------------

let refreshing = null;
let again = false;
async function refresh() {
  if (refreshing) { again = true; return refreshing; }
  refreshing = (async () => {
    do {
      again = false;
      const response = await fetch("/api/state", { cache: "no-store" });
      if (response.ok) render(await response.json());
    } while (again);
  })();
  try { await refreshing; } finally { refreshing = null; }
}

function render(state) {
  view.state = state;
  document.title = `${state.title} — Relic Press preview`;
  $("title").textContent = state.title;
  $("pack-lang").textContent = `${state.pack} · ${state.lang}`;
  renderStatus(state);
  renderOverlay(state);
  renderGallery(state);
  renderReports(state);
}

function renderStatus(state) {
  showProgress(state.building ? { building: true, ...(state.progress || {}) } : { building: false });
  const built = state.built || {};
  const parts = [`${state.items.length} components`];
  if (!state.ok && !state.building && state.generation) parts.push("the last edit did not build");
  else if (built.seconds !== undefined) parts.push(`built in ${built.seconds.toFixed(2)} s (${built.rendered} face${built.rendered === 1 ? "" : "s"} drawn)`);
  if (state.checks === "running") parts.push("checking…");
  $("summary").textContent = parts.join(" · ");
  const button = $("show-problems");
  const count = state.errors + state.warnings;
  button.hidden = count === 0;
  button.classList.toggle("warnings", state.errors === 0);
  button.textContent = state.errors
    ? `${state.errors} error${state.errors > 1 ? "s" : ""}` + (state.warnings ? `, ${state.warnings} warning${state.warnings > 1 ? "s" : ""}` : "")
    : `${state.warnings} warning${state.warnings > 1 ? "s" : ""}`;
}

function showProgress(p) {
  const box = $("progress");
  box.hidden = !p.building;
  if (!p.building) return;
  $("progress-label").textContent = p.label || "building";
  const bar = $("progress-bar");
  if (p.total) { bar.max = p.total; bar.value = p.done || 0; } else { bar.removeAttribute("value"); }
}

function diagnosticItem(d) {
  const li = el("li", { class: d.severity });
  li.append(el("span", { class: "where", text: d.where }), `: ${d.severity}[${d.code}]: ${d.message}`);
  if (d.hint) li.append(`\n  hint: ${d.hint}`);
  return li;
}

function renderOverlay(state) {
  const errors = state.diagnostics.filter((d) => d.severity === "error");
  const list = $("overlay-list");
  list.replaceChildren(...state.diagnostics.map(diagnosticItem));
  $("overlay-title").textContent = `The content has ${errors.length} error${errors.length === 1 ? "" : "s"}`;
  $("overlay").hidden = errors.length === 0 || view.hiddenAt === state.generation;
}

// ----- gallery ----------------------------------------------------------------------------

function faceImage(cls, image, alt) {
  const img = el("img", { class: cls, alt, loading: "lazy", decoding: "async" });
  img.dataset.tries = "0";
  img.addEventListener("error", () => { // a swap of the build folder can race a fetch: retry
    const tries = Number(img.dataset.tries);
    if (tries < 4 && img.dataset.url) {
      img.dataset.tries = String(tries + 1);
      setTimeout(() => { img.src = `${img.dataset.url}&retry=${tries + 1}`; }, 250 * (tries + 1));
    }
  });
  setImage(img, image);
  return img;
}

function setImage(img, image) {
  if (!image) { img.hidden = true; img.removeAttribute("src"); delete img.dataset.url; return; }
  img.hidden = false;
  img.dataset.path = image.path;
  if (img.dataset.url !== image.url) { // only a changed picture is fetched again
    img.dataset.url = image.url;
    img.dataset.tries = "0";
    img.src = image.url;
  }
}

function tile(item) {
  const node = el("article", { class: "item", "data-id": item.id });
  node.append(
    el("div", { class: "faces" }, faceImage("front", item.front, `${item.name} (front)`),
       faceImage("back", item.back, `${item.name} (back)`)),
    el("div", { class: "caption" }),
    el("div", { class: "meta" }, el("span", { class: "copies" }), el("code", { class: "id" }),
       el("a", { class: "source" })),
    el("ul", { class: "diagnostics" }));
  return node;
}

function updateTile(node, item) {
  node.dataset.kind = item.kind;
  node.dataset.deck = item.deck;
  node.dataset.text = item.text;
  setImage(node.querySelector("img.front"), item.front);
  setImage(node.querySelector("img.back"), item.back);
  node.querySelector("img.front").alt = `${item.name} (front)`;
  node.querySelector("img.back").alt = `${item.name} (back)`;
  node.querySelector(".caption").textContent = item.name;
  node.querySelector(".copies").textContent = `×${item.copies}`;
  node.querySelector(".id").textContent = item.id;
  const source = node.querySelector(".source");
  source.textContent = item.where;
  source.href = item.editor;
  source.title = `open ${item.where} in the editor`;
  node.querySelector(".diagnostics").replaceChildren(...item.diagnostics.map(diagnosticItem));
  node.classList.toggle("has-errors", item.diagnostics.some((d) => d.severity === "error"));
}

const tiles = new Map();

function group(parent, cls, key, heading, level) {
  let section = [...parent.children].find((c) => c.dataset.key === key);
  if (!section) {
    section = el("section", { class: cls, "data-key": key }, el(level), el("div", { class: "grid" }));
  }
  section.querySelector(level).textContent = heading;
  return section;
}

function renderGallery(state) {
  const root = $("gallery");
  const kinds = [];
  const decks = new Map();
  const seen = new Set();
  const order = [];
  for (const item of state.items) {
    if (!kinds.includes(item.kind)) kinds.push(item.kind);
    if (item.deck) decks.set(item.deck, item.deck_name || item.deck);
    seen.add(item.id);
    let node = tiles.get(item.id);
    if (!node) { node = tile(item); tiles.set(item.id, node); }
    updateTile(node, item);
    order.push([item, node]);
  }
  for (const [id, node] of tiles) if (!seen.has(id)) { node.remove(); tiles.delete(id); }
  const sections = [];
  for (const kind of kinds) {
    const kindSection = group(root, "kind", kind, kind, "h2");
    kindSection.dataset.kind = kind;
    const deckSections = [];
    for (const [item, node] of order.filter(([i]) => i.kind === kind)) {
      let deckSection = deckSections.find((s) => s.dataset.key === (item.deck || "-"));
      if (!deckSection) {
        const grid = kindSection.querySelector(":scope > .grid");
        deckSection = group(grid, "deck", item.deck || "-", item.deck ? item.deck_name : "", "h3");
        deckSections.push(deckSection);
      }
      deckSection.querySelector(".grid").append(node);
    }
    const grid = kindSection.querySelector(":scope > .grid");
    for (const stale of [...grid.children]) if (!deckSections.includes(stale)) stale.remove();
    grid.append(...deckSections);
    sections.push(kindSection);
  }
  for (const stale of [...root.children]) if (!sections.includes(stale)) stale.remove();
  root.append(...sections);
  fillSelect($("kind"), kinds.map((k) => [k, k]));
  fillSelect($("deck"), [...decks]);
  applyFilters();
}

function fillSelect(select, options) {
  const chosen = select.value;
  const wanted = [["", "all"], ...options];
  const current = [...select.options].map((o) => [o.value, o.textContent]);
  if (JSON.stringify(current) !== JSON.stringify(wanted)) {
    select.replaceChildren(...wanted.map(([value, text]) => el("option", { value, text })));
  }
  select.value = wanted.some(([v]) => v === chosen) ? chosen : "";
}

function applyFilters() {
  const words = $("search").value.toLowerCase().split(/\s+/).filter(Boolean);
  const kind = $("kind").value;
  const deck = $("deck").value;
  let shown = 0;
  for (const node of tiles.values()) {
    const text = node.dataset.text || "";
    const ok = (!kind || node.dataset.kind === kind) && (!deck || node.dataset.deck === deck)
      && words.every((w) => text.includes(w));
    node.hidden = !ok;
    if (ok) shown += 1;
  }
  for (const section of document.querySelectorAll("#gallery .deck, #gallery .kind")) {
    section.hidden = !section.querySelector(".item:not([hidden])");
  }
  $("shown").textContent = `${shown} of ${tiles.size} shown`;
  $("empty").hidden = shown > 0 || tiles.size === 0;
}

// ----- reports ----------------------------------------------------------------------------

function renderReports(state) {
  const reports = state.reports || {};
  renderRulebook(reports.rulebook);
  renderOdds(reports.odds);
  renderSim(reports.sim, state);
}

function reportState(report, what) {
  if (!report || !report.state) return `no ${what} yet`;
  if (report.state === "running") return "working…";
  if (report.state === "failed") return "failed";
  if (report.state === "cancelled") return "cancelled by an edit; again after the rebuild";
  return report.stale ? "out of date: the content changed since" : "up to date";
}

function renderRulebook(report) {
  $("rulebook-state").textContent = reportState(report, "rulebook");
  $("rulebook-problems").replaceChildren(...((report && report.diagnostics) || []).map(diagnosticItem));
  const pdf = $("rulebook-pdf");
  pdf.hidden = !(report && report.pdf);
  if (report && report.pdf) pdf.href = report.pdf.url;
  const pages = (report && report.pages) || [];
  const box = $("rulebook-pages");
  const have = [...box.children];
  pages.forEach((page, i) => {
    let img = have[i];
    if (!img) { img = el("img", { loading: "lazy", alt: `page ${i + 1}` }); box.append(img); }
    if (img.getAttribute("src") !== page.url) img.src = page.url;
  });
  for (const extra of have.slice(pages.length)) extra.remove();
  if (view.tab === "rulebook" && wanted(report)) ask("rulebook");
}

function percent(fraction) {
  const [n, d] = fraction.split("/").map(Number);
  return `${((d ? n / d : n) * 100).toFixed(1)}%`;
}

function renderOdds(report) {
  $("odds-state").textContent = reportState(report, "odds");
  $("odds-problems").replaceChildren(...((report && report.diagnostics) || []).map(diagnosticItem));
  const box = $("odds-tables");
  const tables = (report && report.data) || {};
  box.replaceChildren(...Object.entries(tables).map(([id, table]) => {
    const outcomes = [];
    for (const row of table.rows) for (const key of Object.keys(row.chances)) if (!outcomes.includes(key)) outcomes.push(key);
    const head = el("tr", {}, el("th", { text: "with" }), ...outcomes.map((o) => el("th", { text: o })));
    const rows = table.rows.map((row) => el("tr", {}, el("td", { text: row.with }),
      ...outcomes.map((o) => {
        const value = row.chances[o];
        return el("td", {}, value ? document.createTextNode(value) : null,
          value ? el("span", { class: "pct", text: percent(value) }) : null);
      })));
    return el("div", { class: "odds-table", "data-id": id }, el("h3", { text: table.title }),
      table.note ? el("p", { class: "muted", text: table.note }) : null,
      el("table", { class: "odds" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  }));
  if (view.tab === "odds" && wanted(report)) ask("odds");
}

let simPlayersSet = false;
function renderSim(report, state) {
  const players = $("sim-players");
  if (!simPlayersSet && state.players) { // the pack's player counts; 4 when it allows them
    const [low, high] = state.players;
    players.min = low; players.max = high;
    players.value = Math.min(high, Math.max(low, 4));
    simPlayersSet = true;
  }
  $("sim-form").hidden = !state.ruleset;
  $("sim-state").textContent = report && report.state === "running" ? "running…"
    : report && report.state === "failed" ? "failed"
    : report && report.url ? `report written ${new Date(report.written * 1000).toLocaleTimeString()}` : "no report yet";
  $("sim-run").disabled = Boolean(report && report.state === "running");
  const errors = $("sim-errors");
  errors.hidden = !(report && report.state === "failed");
  errors.textContent = report && report.state === "failed" ? (report.errors || report.text || "") : "";
  const frame = $("sim-report");
  frame.hidden = !(report && report.url);
  if (report && report.url && frame.getAttribute("src") !== report.url) frame.src = report.url;
  if (!state.ruleset && state.items.length) $("sim-state").textContent = "this pack names no ruleset, so there is no game to simulate";
}

const asked = new Set();
function wanted(report) {
  return !report || !report.state || (report.stale && report.state !== "running");
}

async function ask(name) {
  const key = `${name}@${view.state ? view.state.generation : 0}`;
  if (asked.has(key)) return;
  asked.add(key);
  await fetch(`/api/reports/${name}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
}

async function runSim() {
  const body = { players: Number($("sim-players").value), games: Number($("sim-games").value), seed: Number($("sim-seed").value) };
  const response = await fetch("/api/sim", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) {
    const errors = $("sim-errors");
    errors.hidden = false;
    errors.textContent = (await response.json()).error || response.statusText;
  }
}

// ----- tabs, controls, events -------------------------------------------------------------

function showTab(name) {
  view.tab = name;
  for (const button of document.querySelectorAll("#tabs button")) button.classList.toggle("active", button.dataset.tab === name);
  for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== `view-${name}`;
  if (view.state) renderReports(view.state);
}

function connect() {
  const source = new EventSource("/events");
  const log = (name, data) => { view.events.push({ name, data, at: performance.now() }); if (view.events.length > 200) view.events.shift(); };
  source.addEventListener("hello", () => refresh());
  source.addEventListener("progress", (e) => { const data = JSON.parse(e.data); log("progress", data); showProgress(data); });
  source.addEventListener("built", (e) => {
    const data = JSON.parse(e.data);
    log("built", data);
    for (const img of document.querySelectorAll("#gallery img")) { // swap at once, then refresh
      const url = data.urls[img.dataset.path];
      if (url && img.dataset.url !== url) { img.dataset.url = url; img.dataset.tries = "0"; img.src = url; }
    }
    refresh();
  });
  for (const name of ["checked", "report", "stopped"]) {
    source.addEventListener(name, (e) => { log(name, JSON.parse(e.data)); refresh(); });
  }
}

document.addEventListener("DOMContentLoaded", () => {
  for (const button of document.querySelectorAll("#tabs button")) button.addEventListener("click", () => showTab(button.dataset.tab));
  for (const id of ["search", "kind", "deck"]) $(id).addEventListener("input", applyFilters);
  $("show-backs").addEventListener("change", (e) => document.body.classList.toggle("no-backs", !e.target.checked));
  $("show-problems").addEventListener("click", () => { view.hiddenAt = -1; if (view.state) renderOverlay(view.state); });
  $("overlay-hide").addEventListener("click", () => { view.hiddenAt = view.state ? view.state.generation : -1; $("overlay").hidden = true; });
  $("rulebook-build").addEventListener("click", () => { asked.clear(); ask("rulebook"); });
  $("odds-build").addEventListener("click", () => { asked.clear(); ask("odds"); });
  $("sim-run").addEventListener("click", runSim);
  refresh();
  connect();
});
