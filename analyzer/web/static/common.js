// belote serve: what the three pages share. Plain JS, no libraries, nothing from the network.
"use strict";

const SUITS = { c: ["♣", "black"], d: ["♦", "red"], h: ["♥", "red"], s: ["♠", "black"] };
const RANKS = ["7", "8", "9", "T", "J", "Q", "K", "A"];

// A card such as "Th" drawn as a card: the rank (10 for T) over the suit's sign.
function cardEl(card, cls = "") {
  const el = document.createElement("span");
  const [sign, colour] = SUITS[card[1]];
  el.className = `card ${colour} ${cls}`.trim();
  el.dataset.card = card;
  el.textContent = (card[0] === "T" ? "10" : card[0]) + sign;
  el.title = card;
  return el;
}

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

// POST a question; resolve with the job id, or reject with the server's one-line error.
async function ask(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const d = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(d.error || `HTTP ${r.status}`);
  return d.job;
}

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

// The progress line of a job: stage, done of total, an ETA from the rate so far.
function showProgress(box, v) {
  box.hidden = false;
  const bar = box.querySelector(".bar > div"), text = box.querySelector(".ptext");
  const p = v.progress || {};
  if (v.state === "waiting") { bar.style.width = "0"; text.textContent = `waiting for a free place (number ${p.place} in the queue)`; return; }
  if (v.state !== "running") { box.hidden = true; return; }
  const frac = p.total ? Math.min(1, p.done / p.total) : 0;
  bar.style.width = `${(100 * frac).toFixed(1)}%`;
  let eta = "";
  if (frac > 0.02 && p.seconds > 1) eta = `, about ${Math.max(1, Math.round(p.seconds * (1 - frac) / frac))} s left`;
  text.textContent = `${p.stage || "starting"}: ${(p.done || 0).toLocaleString("en")} of ${(p.total || 0).toLocaleString("en")}${eta}` +
    (p.stage ? "" : " (the first question after a fresh install compiles kernels for minutes)");
}

// A numbers table from a header row and body rows of strings.
function table(head, rows, id) {
  const t = el("table", { class: "num", id });
  const tr = el("tr");
  head.forEach(h => tr.append(el("th", { text: h })));
  t.append(el("thead", {}, tr));
  const body = el("tbody");
  rows.forEach(r => { const row = el("tr"); r.forEach(c => row.append(el("td", { text: c }))); body.append(row); });
  t.append(body);
  return t;
}

// Every page's header: the name and the three pages, the current one marked.
const PAGES = [["/", "Should I take?"], ["/review", "Review a deal"], ["/reports", "Reports"]];
function header() {
  const nav = el("nav");
  for (const [href, name] of PAGES) nav.append(el("a", { href, text: name, class: href === location.pathname ? "here" : "" }));
  document.querySelector("header").replaceChildren(el("h1", { text: "belote-analyzer" }), nav);
}
document.addEventListener("DOMContentLoaded", header);

// A page's question: ask, follow the job with its progress line, hand each result to show(result),
// and mark the page's state on <body data-state> (what the browser tests wait for). The page's
// ask and stop buttons, its progress box and its error line are found by id.
let stopJob = null;
async function runQuestion(path, body, show) {
  const [go, stop, error] = ["go", "stop", "error"].map(id => document.getElementById(id));
  error.textContent = "";
  go.disabled = true;
  document.body.dataset.state = "asking";
  try {
    const job = await ask(path, body);
    stop.disabled = false;
    stopJob = follow(job, v => {
      showProgress(document.getElementById("progress"), v);
      show(v.result);
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
