// belote serve: what the pages share. Plain JS, no libraries, nothing from the network.
// The words (English or Dutch) come from the server (/api/words, analyzer.output.words), what a page
// offers from /api/options; this script only renders them. Every page keeps its state in its URL.
"use strict";

const $ = id => document.getElementById(id);
const SUITS = { c: ["♣", "black"], d: ["♦", "red"], h: ["♥", "red"], s: ["♠", "black"] };
const RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"];
const SUIT_ORDER = ["c", "d", "h", "s"];
let W = null;    // the words of the page's language
let OPT = null;  // what the pages offer (variants, house rules, play policies)
const QUERY = new URLSearchParams(location.search);

// The page's language: ?lang=, else the one chosen before on this browser, else the browser's own.
function pageLang() {
  const q = QUERY.get("lang");
  if (q === "en" || q === "nl") return q;
  const kept = localStorage.getItem("belote-lang");
  if (kept === "en" || kept === "nl") return kept;
  return (navigator.language || "en").toLowerCase().startsWith("nl") ? "nl" : "en";
}

// A label with {name} blanks filled in.
function fill(text, vals = {}) { return String(text).replace(/\{(\w+)\}/g, (m, k) => (k in vals ? vals[k] : m)); }
function t(key, vals = {}) { return fill(W.ui[key] ?? key, vals); }
// A cell of the command line's tables (+12.3 ± 1.4, 45.1% [44.2, 46.0], 1,234.5) in the page's language: Dutch swaps
// . and , between digits (the decimal comma, the thousands point); the comma of an interval, before its space, stays
const cellText = text => (W.lang === "nl" ? text.replace(/(\d)([.,])(?=\d)/g, (m, d, c) => d + (c === "." ? "," : ".")) : text);
const num = (x, d = 0) => Number(x).toLocaleString(W.lang === "nl" ? "nl-NL" : "en", { minimumFractionDigits: d, maximumFractionDigits: d });

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

// A card such as "Th" drawn as a card: its rank in the page's letters (10, Dutch B V H) over the suit's sign.
function cardText(card) { return (W.ranks[card[0]] || card[0]) + SUITS[card[1]][0]; }
function cardEl(card, cls = "") {
  const [, colour] = SUITS[card[1]];
  const e = el("span", { class: `card ${colour} ${cls}`.trim(), "data-card": card, title: cardText(card) });
  e.textContent = cardText(card);
  if (/\bpick\b/.test(cls)) { e.tabIndex = 0; e.setAttribute("role", "button"); }  // a card to click: a key works too
  return e;
}
document.addEventListener("keydown", e => {
  if ((e.key === "Enter" || e.key === " ") && e.target.classList && e.target.classList.contains("pick")) {
    e.preventDefault(); e.target.click();
  }
});
const cardsText = cards => cards.map(cardText).join(" ");

// A term with its explanation on hover or tap (focus): the words' TERMS.
function termEl(text, explain, key) {
  const e = el("span", { class: "term", tabindex: "0", "data-tip": explain, "data-key": key, text });
  return e;
}
// Elements marked data-w="key" get the label, data-term="key" the term and its explanation.
function applyWords(root = document) {
  root.querySelectorAll("[data-w]").forEach(e => { e.textContent = t(e.dataset.w); });
  root.querySelectorAll("[data-term]").forEach(e => {
    const term = W.terms[e.dataset.term];
    e.classList.add("term"); e.tabIndex = 0; e.dataset.tip = term.explain;
    if (!e.textContent.trim()) e.textContent = term.word;
  });
}

// Seat names: "seat 0 (voorhand)", "stoel 3 (gever)".
function seatName(s, n) {
  const role = s === 0 ? " (voorhand)" : s === n - 1 ? ` (${W.dealer})` : "";
  return `${W.seat} ${s}${role}`;
}
// Where each seat sits around the table: seat 0 at the bottom, then in the direction of play
// (classic counter-clockwise, Piekjas clockwise; RULES.md §2).
function seatPlaces(n, direction) {
  if (n === 2) return ["bottom", "top"];
  if (n === 3) return direction === "counter" ? ["bottom", "right", "left"] : ["bottom", "left", "right"];
  return direction === "counter" ? ["bottom", "right", "top", "left"] : ["bottom", "left", "top", "right"];
}
function directionText(direction) {
  return direction ? t("direction", { dir: t(direction === "counter" ? "counter" : "clockwise") }) : "";
}

// ---- a page's parts ---------------------------------------------------------------------------------
// What a page adds beside its own script (take.html: the score at the table). A part is an object of
// optional hooks, which the functions every page runs call: boot() before the page starts (fill its
// fields from the address), ready() once it has, query() its fields for the address (setQuery), ask()
// its fields for the question (runQuestion), show(result) its share of each result.
const PARTS = [];
const partsDo = (hook, ...args) => PARTS.map(p => (p[hook] ? p[hook](...args) : undefined));

// ---- the page's state in its URL -------------------------------------------------------------------
// setQuery({...}): the page's address without reloading (a list is a repeated parameter); the
// language stays when it was chosen.
function setQuery(obj) {
  const q = new URLSearchParams();
  obj = Object.assign({}, obj, ...partsDo("query"));
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined || v === null || v === "" || v === false) continue;
    if (Array.isArray(v)) v.forEach(x => q.append(k, x)); else q.set(k, v);
  }
  if (QUERY.get("lang")) q.set("lang", QUERY.get("lang"));
  const s = q.toString();
  history.replaceState(null, "", location.pathname + (s ? `?${s}` : ""));
}

// POST a question; resolve with the job id, or reject with the server's one-line error.
async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const d = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(d.error || `HTTP ${r.status}`);
  return d;
}
async function ask(path, body) { return (await post(path, body)).job; }

// Follow a job: onUpdate(view) on every poll until it ends; returns a stop() that cancels it.
// Closing or leaving the page cancels it too (a beacon; a page that stops polling is stopped by the server).
function follow(job, onUpdate) {
  let ended = false;
  const cancel = () => { if (!ended) navigator.sendBeacon(`/api/jobs/${job}/cancel`); };
  window.addEventListener("pagehide", cancel);
  const tick = async () => {
    if (ended) return;
    try {
      const r = await fetch(`/api/jobs/${job}`);
      const v = await r.json();
      if (!r.ok) { ended = true; onUpdate({ state: "failed", error: v.error, result: {} }); return; }
      if (["done", "failed", "cancelled"].includes(v.state)) ended = true;
      onUpdate(v);
    } catch (e) { /* a missed poll: try again */ }
    if (!ended) setTimeout(tick, 400);
  };
  tick();
  return () => { fetch(`/api/jobs/${job}`, { method: "DELETE" }); };
}

// The progress line of a job: stage, done of total, an ETA from this stage's own rate (a bracket's
// stages run at rates 1000-fold apart), "finishing" once its count is full (a last step may follow).
let STAGE = { name: null, since: 0 };
function showProgress(box, v) {
  box.hidden = false;
  const bar = box.querySelector(".bar > div"), text = box.querySelector(".ptext");
  const p = v.progress || {};
  if (v.state === "waiting") { bar.style.width = "0"; text.textContent = t("waiting", { place: p.place }); return; }
  if (v.state !== "running") { box.hidden = true; return; }
  if (p.stage !== STAGE.name) STAGE = { name: p.stage, since: STAGE.name === null ? 0 : p.seconds || 0 };  // seen every 0.4 s
  const frac = p.total ? Math.min(1, p.done / p.total) : 0;
  bar.style.width = `${(100 * frac).toFixed(1)}%`;
  const spent = (p.seconds || 0) - STAGE.since;
  let eta = "";
  if (frac >= 0.999) eta = t("finishing");
  else if (frac > 0.02 && spent > 1) eta = t("eta", { s: Math.max(1, Math.round(spent * (1 - frac) / frac)) });
  text.textContent = t("progress", { stage: p.stage || "…", done: num(p.done || 0), total: num(p.total || 0) }) + eta +
    (p.stage ? "" : t("compiling"));
}

// A numbers table from a header row and body rows; a cell is text or an element. Each body cell
// carries its column's header (data-label): a "stack" table shows it beside the cell on a phone, a
// row a block (style.css), where a column per call would not fit.
function table(head, rows, id, stack = false) {
  const t0 = el("table", { class: stack ? "num stack" : "num", id });
  const tr = el("tr");
  head.forEach(h => tr.append(el("th", {}, h)));
  t0.append(el("thead", {}, tr));
  const body = el("tbody");
  rows.forEach(r => {
    const row = el("tr");
    r.forEach((c, i) => row.append(el(i === 0 ? "th" : "td", { "data-label": i ? (typeof head[i] === "string" ? head[i] : head[i].textContent) : null, scope: i === 0 ? "row" : null }, c)));
    body.append(row);
  });
  t0.append(body);
  return t0;
}

// Every page's header: the name, the pages (the current one marked), the language switch, "copy link".
function header() {
  const pages = [["/", "nav_take"], ["/review", "nav_review"], ["/glossary", "nav_words"], ["/reports", "nav_reports"]];
  const here = location.pathname === "/take" ? "/" : location.pathname;
  const nav = el("nav");
  for (const [href, key] of pages) nav.append(el("a", { href: href + (QUERY.get("lang") ? `?lang=${QUERY.get("lang")}` : ""), text: t(key), class: href === here ? "here" : "" }));
  const langs = el("span", { class: "langs" });
  for (const l of ["en", "nl"]) {
    const q = new URLSearchParams(location.search); q.set("lang", l);
    const a = el("a", { href: `${location.pathname}?${q}`, text: l.toUpperCase(), class: l === W.lang ? "here" : "", id: `lang-${l}`, hreflang: l });
    a.addEventListener("click", e => { e.preventDefault(); localStorage.setItem("belote-lang", l); const q2 = new URLSearchParams(location.search); q2.set("lang", l); location.search = q2.toString(); });
    langs.append(a);
  }
  const copy = el("button", { id: "copy-link", class: "copy", type: "button", text: t("copy") });
  copy.addEventListener("click", copyLink);
  document.querySelector("header").replaceChildren(el("h1", { text: t("title") }), nav, langs, copy);
}

async function copyLink() {
  const b = $("copy-link");
  try {
    await navigator.clipboard.writeText(location.href);
    b.textContent = t("copied");
  } catch (e) {
    window.prompt(t("copy_fail"), location.href);
  }
  document.body.dataset.copied = location.href;
  setTimeout(() => { b.textContent = t("copy"); }, 2000);
}

// Load the words and the options, then start the page: start() is the page's own (its parts' boot()
// before it, their ready() after).
async function boot(start) {
  const lang = pageLang();
  document.documentElement.lang = lang;
  [W, OPT] = await Promise.all([fetch(`/api/words?lang=${lang}`).then(r => r.json()), fetch("/api/options").then(r => r.json())]);
  applyWords();
  header();
  partsDo("boot");
  await start();
  partsDo("ready");
  document.body.dataset.ready = "1";
}

// A page's question: ask, follow the job with its progress line, hand each result to show(result)
// (and to the page's parts), and mark the page's state on <body data-state> (what the browser tests wait for). The page's
// ask and stop buttons, its progress box and its error line are found by id.
let stopJob = null;
async function runQuestion(path, body, show) {
  const [go, stop, error] = ["go", "stop", "error"].map(id => document.getElementById(id));
  error.textContent = "";
  go.disabled = true;
  document.body.dataset.state = "asking";
  STAGE = { name: null, since: 0 };
  body = Object.assign({}, body, ...partsDo("ask"));
  try {
    const job = await ask(path, body);
    stop.disabled = false;
    stopJob = follow(job, v => {
      showProgress(document.getElementById("progress"), v);
      show(v.result);
      partsDo("show", v.result);
      if (v.error) error.textContent = v.error;
      if (["done", "failed", "cancelled"].includes(v.state)) {
        go.disabled = false; stop.disabled = true; document.body.dataset.state = v.state;
      }
    });
  } catch (e) { error.textContent = e.message; go.disabled = false; document.body.dataset.state = "refused"; }
}
document.addEventListener("DOMContentLoaded", () => {
  const stop = document.getElementById("stop");
  if (stop) stop.addEventListener("click", () => stopJob && stopJob());
});
