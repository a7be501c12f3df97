// The review page: load a deal, step through it card by card, see what each card gave away.
"use strict";

const $ = id => document.getElementById(id);
let R = null, K = 0, LOGS = [];

const lossClass = l => l === 0 ? "loss0" : l <= 5 ? "loss1" : l <= 15 ? "loss2" : "loss3";
const seatName = s => `seat ${s}` + (R && s === R.json.troefmaker ? " (troefmaker)" : "");

function source() { return document.querySelector("input[name=source]:checked").value; }

function showSource() {
  for (const s of ["random", "log", "record"]) $(`src-${s}`).hidden = source() !== s;
  $("players-box").hidden = $("variant").value !== "piekjas";
}

async function loadLogs() {
  LOGS = await (await fetch("/api/logs")).json();
  $("log").replaceChildren(...LOGS.map(l => el("option", { value: l.log, text: l.name })));
  $("no-logs").textContent = LOGS.length ? "" : "no log was given: start the server with belote serve --log FILE";
  fillDeals();
}

function fillDeals() {
  const l = LOGS[+$("log").value];
  const deals = l ? l.deals.filter(d => d.outcome === "played") : [];
  $("log-deal").replaceChildren(...deals.map(d => el("option", { value: d.deal, text: `deal ${d.deal} (${d.variant})` })));
}

function question() {
  const q = { pimc: $("with-pimc").checked ? "pimc:infer=bids" : "none" };
  const s = source();
  if (s === "random") {
    q.random = { variant: $("variant").value, seed: $("seed").value, deal: +$("deal").value };
    if (q.random.variant === "piekjas") q.random.players = +$("players").value;
  } else if (s === "log") { q.log = +$("log").value; q.deal = +$("log-deal").value; }
  else q.record = $("record").value;
  return q;
}

function go() {
  $("answer").hidden = true;
  R = null;
  runQuestion("/api/review", question(), result => { if (result.review && R === null) { R = result.review; K = 0; draw(); } });
}

// ---- drawing the deal at step K (K cards played) ----

function held(k) {
  const gone = new Set(R.json.cards.slice(0, k).map(c => c.card));
  return R.start.map(h => h.filter(c => !gone.has(c)));
}

function seatBox(s, k) {
  const cards = R.json.cards, next = cards[k];
  const box = el("div", { class: "seat" + (next && next.seat === s ? " to-move" : ""), id: `seat-${s}` });
  const side = R.partners ? ` · side ${s % 2}` : "";
  box.append(el("h3", { text: `${seatName(s)}${side}` }));
  for (const c of held(k)[s]) {
    let cls = "";
    if (next && next.seat === s) {
      const legal = next.forced ? [next.card] : Object.keys(next.values);
      if (legal.includes(c)) cls = next.forced ? "loss0" : lossClass(next.losses[c]);
      if (c === next.card) cls += " played";
    }
    const e = cardEl(c, cls);
    if (next && next.seat === s && !next.forced && c in next.losses) {
      e.append(el("small", { text: next.losses[c] ? `−${next.losses[c]}` : "best" }));
      e.title = `${c}: value ${next.values[c]}, gives away ${next.losses[c]}`;
    }
    if (next && next.seat === s && next.pimc === c) e.append(el("span", { class: "badge", text: "P" }));
    box.append(e);
  }
  return box;
}

function trickBox(k) {
  const cards = R.json.cards, n = R.players;
  const start = k - (k % n);
  const box = el("div", { class: "trick" });
  let shown = cards.slice(start, k), label = shown.length ? `trick ${cards[start].trick}` : "";
  if (!shown.length && k > 0) { shown = cards.slice(k - n, k); label = `trick ${cards[k - 1].trick} (done)`; }
  box.append(el("div", { text: label || "the first trick" }));
  const cardsRow = el("div");
  shown.forEach(c => { const e = cardEl(c.card); e.title = `seat ${c.seat}`; cardsRow.append(el("span", { class: "played-by" }, `seat ${c.seat}`, e)); });
  box.append(cardsRow);
  return box;
}

const AREAS = { 2: ["3/2", "1/2"], 3: ["3/2", "2/1", "2/3"], 4: ["3/2", "2/1", "1/2", "2/3"] };

function draw() {
  const j = R.json, N = j.cards.length;
  $("answer").hidden = false;
  $("slider").max = N; $("slider").value = K;
  const sides = Object.entries(j.given_away.sides).map(([s, v]) => `${R.partners ? "side" : "seat"} ${s}: ${v}`).join(", ");
  $("headline").textContent = `Deal ${R.deal} (${R.variant}), trump ${SUITS[j.trump][0]}, troefmaker seat ${j.troefmaker}: card points given away ${sides}`;
  $("about").textContent = (j.exact ? "Every value is exact: the double-dummy solver with every card open (card points of the troefmaker's side). "
    : "Piekjas with 3-4 players: the solver's pessimistic value (each seat against all others), not an exact one. ") +
    (j.turning_trick ? `The deal turned in trick ${j.turning_trick.trick} (${j.turning_trick.change > 0 ? "+" : ""}${j.turning_trick.change}).` : "");
  const board = $("board");
  board.replaceChildren();
  for (let s = 0; s < R.players; s++) {
    const b = seatBox(s, K), [row, col] = AREAS[R.players][s].split("/");
    b.style.gridRow = row; b.style.gridColumn = col;
    board.append(b);
  }
  const t = trickBox(K); t.style.gridRow = 2; t.style.gridColumn = 2; board.append(t);
  const c = j.cards[K];
  $("where").textContent = `card ${K} of ${N}`;
  if (!c) {
    $("explain").textContent = `The deal is over: value ${j.values_after[N - 1]}.`;
    $("legal-box").replaceChildren();
  } else if (c.forced) {
    $("explain").textContent = `Trick ${c.trick}: seat ${c.seat} plays ${c.card}, its only legal card.`;
    $("legal-box").replaceChildren();
  } else {
    const best = c.best.join(" "), pimc = c.pimc ? `; pimc plays ${c.pimc}` : "";
    $("explain").textContent = `Trick ${c.trick}: seat ${c.seat} plays ${c.card}` +
      (c.loss ? `, giving away ${c.loss} card points (best: ${best}${pimc}).` : ` — as good as the best (${best}${pimc}).`);
    const rows = Object.keys(c.values).sort((a, b) => c.losses[a] - c.losses[b] || a.localeCompare(b))
      .map(k => [k, String(c.values[k]), String(c.losses[k]), (k === c.card ? "played" : "") + (k === c.pimc ? " pimc" : "")]);
    $("legal-box").replaceChildren(table(["legal card", "value", "gives away", ""], rows, "legal-table"));
  }
  drawChart(K);
  const tot = j.given_away;
  $("totals").replaceChildren(table(["seat", "given away", "cards valued"],
    Object.keys(tot.seats).map(s => [seatName(+s), String(tot.seats[s]), String(tot.cards_valued[s])]), "totals-table"));
  $("command").textContent = R.command;
  document.body.dataset.step = K;
}

function drawChart(k) {
  const j = R.json, vals = [j.cards.length ? j.cards[0].value : 0, ...j.values_after];
  const W = 760, H = 220, P = 36, N = vals.length - 1;
  const lo = Math.min(...vals), hi = Math.max(...vals), span = Math.max(1, hi - lo);
  const x = i => P + (W - 2 * P) * i / Math.max(1, N), y = v => H - P + -(H - 2 * P) * (v - lo) / span;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "chart"); svg.setAttribute("width", W); svg.setAttribute("height", H); svg.id = "value-chart";
  const add = (tag, attrs, text) => { const e = document.createElementNS(ns, tag); for (const [a, v] of Object.entries(attrs)) e.setAttribute(a, v); if (text !== undefined) e.textContent = text; svg.append(e); return e; };
  for (let i = 0; i <= N; i += R.players) add("line", { x1: x(i), x2: x(i), y1: P / 2, y2: H - P, stroke: "#e3e7eb" });
  add("polyline", { points: vals.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: "#2563eb", "stroke-width": 2 });
  vals.forEach((v, i) => { const c = add("circle", { cx: x(i), cy: y(v), r: i === k ? 6 : 3, fill: i === k ? "#c8372d" : "#2563eb", "data-step": i }); c.style.cursor = "pointer"; c.addEventListener("click", () => { K = i; draw(); }); });
  add("text", { x: 4, y: y(hi) + 4, "font-size": 11 }, String(hi));
  add("text", { x: 4, y: y(lo) + 4, "font-size": 11 }, String(lo));
  add("text", { x: P, y: H - 8, "font-size": 11, fill: "#5f6b76" }, "cards played → (grid: tricks); value: the troefmaker's side's card points with best play from here");
  $("chart").replaceChildren(svg);
}

function stepTo(k) { if (!R) return; K = Math.max(0, Math.min(R.json.cards.length, k)); draw(); }

document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll("input[name=source]").forEach(r => r.addEventListener("change", showSource));
  $("variant").addEventListener("change", showSource);
  $("log").addEventListener("change", fillDeals);
  $("go").addEventListener("click", go);
  $("first").addEventListener("click", () => stepTo(0));
  $("prev").addEventListener("click", () => stepTo(K - 1));
  $("next").addEventListener("click", () => stepTo(K + 1));
  $("last").addEventListener("click", () => stepTo(1e9));
  $("slider").addEventListener("input", e => stepTo(+e.target.value));
  document.addEventListener("keydown", e => {
    if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT" && e.target.type !== "range") return;
    if (e.key === "ArrowRight") stepTo(K + 1); else if (e.key === "ArrowLeft") stepTo(K - 1);
    else if (e.key === "Home") stepTo(0); else if (e.key === "End") stepTo(1e9);
  });
  showSource();
  loadLogs();
});
