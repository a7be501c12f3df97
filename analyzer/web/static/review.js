// The review page: enter your own deal by clicking (or take a logged or random one), step through it card
// by card, see the bidding, each trick's winner, the roem and stuk, the result, and what each card gave away.
// Its state is its URL, with belote review's option names: /review?hands=...&trump=h&taker=0&plays=...
// (a pasted record: /review?record=<base64url of its JSON>)
"use strict";

let R = null, K = 0, LOGS = [];

const lossClass = l => l === 0 ? "loss0" : l <= 5 ? "loss1" : l <= 15 ? "loss2" : "loss3";
const source = () => document.querySelector("input[name=source]:checked").value;
const label = () => { const v = $("variant").value; return v === "piekjas" ? `piekjas${$("players").value}` : v; };
const row = () => OPT.variants[label()];

function showSource() {
  for (const s of ["own", "random", "log", "record"]) $(`src-${s}`).hidden = source() !== s;
  $("game-row").hidden = !["own", "random"].includes(source());
  $("players-box").hidden = $("variant").value !== "piekjas";
}

// ---- the board: seats around the table in the direction of play, the trick in the middle ----------

// seats: [{name, cards: [elements], cls}], trick: [[seat, card]]
function drawBoard(box, seats, trick, trickLabel, direction) {
  const places = seatPlaces(seats.length, direction);
  box.className = `board seats${seats.length}`;
  box.replaceChildren();
  seats.forEach((s, i) => {
    const b = el("div", { class: `seat pos-${places[i]} ${s.cls || ""}`.trim(), id: s.id });
    b.append(el("h3", { text: s.name }));
    const cards = el("div", { class: "hand" });
    s.cards.forEach(c => cards.append(c));
    b.append(cards);
    if (s.onclick) b.addEventListener("click", s.onclick);
    box.append(b);
  });
  const tr = el("div", { class: "trick pos-centre" });
  tr.append(el("div", { class: "trick-label", text: trickLabel }));
  const line = el("div");
  trick.forEach(([seat, card]) => line.append(el("span", { class: "played-by" }, `${W.seat} ${seat}`, cardEl(card))));
  tr.append(line);
  box.append(tr);
}

// ---- entering a deal ----------------------------------------------------------------------------------

// ED: the deal being entered. Classic and Piekjas: each seat's cards at the first trick (hands); Dekjas:
// each seat's face-up cards (up) and the face-down ones under them (down, pile i = up[i] on down[i]).
let ED = null, TARGET = { seat: 0, layer: "up" }, STATE = null;

function freshDeal() {
  const n = row().players;
  ED = { hands: Array.from({ length: n }, () => []), up: Array.from({ length: n }, () => []),
         down: Array.from({ length: n }, () => []), turned: "", trump: "", taker: 0, bids: [], plays: [] };
  STATE = null;
}
const need = () => row().piles ? row().first_deal : row().tricks;
function owned(s) { return row().piles ? [...ED.up[s], ...ED.down[s]] : ED.hands[s]; }
function ownerOf(card) {
  for (let s = 0; s < row().players; s++) if (owned(s).includes(card)) return s;
  return null;
}
function dealt() {
  const n = row().players;
  for (let s = 0; s < n; s++) {
    if (row().piles ? ED.up[s].length !== need() || ED.down[s].length !== need() : ED.hands[s].length !== need()) return false;
  }
  return true;
}
// The deal in belote review's notation (docs/NOTATION.md): Dekjas piles as up:down.
function handsNotation() {
  return Array.from({ length: row().players }, (_, s) => row().piles
    ? ED.up[s].map((u, i) => `${u}:${ED.down[s][i] || ""}`).concat(ED.down[s].slice(ED.up[s].length).map(d => `:${d}`)).join(" ")
    : ED.hands[s].join(" ")).join(" / ");
}
function readHands(text) {
  const parts = (text || "").split("/");
  parts.slice(0, row().players).forEach((p, s) => {
    for (const tok of p.trim().split(/\s+/).filter(Boolean)) {
      if (row().piles) { const [u, d] = tok.split(":"); if (u) ED.up[s].push(u); if (d) ED.down[s].push(d); }
      else ED.hands[s].push(tok);
    }
  });
}

function typedForm() {
  const bidding = ED.bids.length > 0;  // the bidding, when given, decides the trump and the troefmaker
  const f = { variant: $("variant").value, rule: chosenRules(), hands: handsNotation(), turned: ED.turned || null,
              bids: ED.bids.join(" ") || null, trump: bidding ? null : ED.trump || null, taker: bidding ? null : ED.taker,
              plays: ED.plays.join(" ") };
  if (f.variant === "piekjas") f.players = +$("players").value;
  return f;
}
function rememberOwn() {
  const f = typedForm();
  setQuery({ variant: f.variant, players: f.players, rule: f.rule, hands: f.hands.replace(/[\s/]/g, "") ? f.hands : null,
             turned: f.turned, bids: f.bids, trump: f.trump, taker: f.taker || null, plays: f.plays,
             pimc: $("with-pimc").checked ? null : "none", worlds: WORLDS, step: R && source() === "own" ? K : null });
}

// belote review's --worlds, kept in the link when given (absent: its default)
const WORLDS = QUERY.get("worlds");

function targets() {
  const box = $("targets"), n = row().players;
  box.replaceChildren(el("span", { class: "muted", text: t("give_to") }));
  for (let s = 0; s < n; s++) {
    const b = el("button", { class: "pill-button" + (TARGET.seat === s ? " on" : ""), id: `give-${s}`, type: "button",
                             text: `${seatName(s, n)} · ${owned(s).length}` });
    b.addEventListener("click", () => { TARGET = { ...TARGET, seat: s }; drawEditor(); });
    box.append(b);
  }
  const tb = el("button", { class: "pill-button" + (TARGET.seat === "turned" ? " on" : ""), id: "give-turned", type: "button",
                            text: t("turned") + (ED.turned ? ` · ${cardText(ED.turned)}` : "") });
  tb.addEventListener("click", () => { TARGET = { ...TARGET, seat: "turned" }; drawEditor(); });
  box.append(tb);
  if (row().piles) {
    for (const layer of ["up", "down"]) {
      const b = el("button", { class: "pill-button" + (TARGET.layer === layer ? " on" : ""), id: `layer-${layer}`, type: "button",
                               text: t(layer === "up" ? "face_up" : "face_down") });
      b.addEventListener("click", () => { TARGET = { ...TARGET, layer }; drawEditor(); });
      box.append(b);
    }
  }
}

function give(card) {
  if (ED.plays.length) return;  // the deal is fixed once the play has started (Undo first)
  if (TARGET.seat === "turned") { ED.turned = ED.turned === card ? "" : card; ED.bids = []; return changed(); }
  const s = TARGET.seat, now = ownerOf(card);
  const list = row().piles ? ED[TARGET.layer][s] : ED.hands[s];
  if (now === s && list.includes(card)) { list.splice(list.indexOf(card), 1); return changed(); }
  if (now !== null) for (const key of ["hands", "up", "down"]) ED[key][now] = ED[key][now].filter(c => c !== card);
  if (list.length >= need()) return;
  list.push(card);
  changed();
}

function dealRest() {
  const free = [];
  for (const s of SUIT_ORDER) for (const r of RANKS) if (ownerOf(r + s) === null && (row().taker_gets_turned || r + s !== ED.turned || row().piles)) free.push(r + s);
  for (let i = free.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [free[i], free[j]] = [free[j], free[i]]; }
  for (let s = 0; s < row().players; s++) {
    for (const key of row().piles ? ["up", "down"] : ["hands"]) while (ED[key][s].length < need() && free.length) ED[key][s].push(free.pop());
  }
  changed();
}

function chosenRules() {
  const out = [], r = row();
  for (const e of $("rules-box").querySelectorAll("[data-rule]")) {
    if (e.value !== r.rules[e.dataset.rule][0]) out.push(`${e.dataset.rule}=${e.value}`);
  }
  return out;
}
function rulesBox(keep = {}) {
  const box = $("rules-box"), r = row();
  box.replaceChildren();
  for (const [key, values] of Object.entries(r.rules)) {
    const w = W.rules[key];
    const sel = el("select", { "data-rule": key, id: `rule-${key}` });
    values.forEach((v, i) => sel.append(el("option", { value: v, text: (w.choices[v] || v) + (i === 0 ? ` (${t("default")})` : "") })));
    if (values.includes(keep[key])) { sel.value = keep[key]; $("more").open = true; }
    sel.addEventListener("change", changed);
    box.append(el("label", {}, `${w.name} `, sel));
  }
}

function changed() { STATE = null; rememberOwn(); drawEditor(); refresh(); }

// Ask the server what the deal is now: the calls open next, the tricks, the legal cards, or why the
// last card may not be played (the command line's line).
let asking = 0;
async function refresh() {
  $("deal-error").textContent = "";
  if (!dealt() || (!ED.trump && !ED.turned)) { STATE = null; drawEditor(); return; }
  const mine = ++asking;
  try {
    const s = await post("/api/deal", typedForm());
    if (mine !== asking) return;
    if (s.refused) {
      const last = ED.plays.pop();
      $("deal-error").textContent = W.lang === "en" ? s.refused.en : s.refused.words[W.lang];
      document.body.dataset.refused = last;
      rememberOwn();
    }
    if (s.bidding && s.bidding.outcome === "played") { ED.trump = s.bidding.trump; ED.taker = s.bidding.taker; }
    STATE = s;
    document.body.dataset.plays = ED.plays.length;  // the cards the deal holds now (what the browser tests wait for)
  } catch (e) {
    if (mine !== asking) return;
    STATE = null;
    $("deal-error").textContent = e.message;
  }
  drawEditor();
}

function drawEditor() {
  const n = row().players;
  targets();
  // the cards: whose each is, the turned one marked
  const grid = $("deal-grid");
  grid.replaceChildren();
  for (const s of SUIT_ORDER) {
    const line = el("div", { class: "suit" });
    for (const r of RANKS) {
      const c = r + s, o = ownerOf(c);
      let cls = "pick";
      if (o !== null) cls += o === TARGET.seat ? " chosen" : " taken";
      if (c === ED.turned) cls += " turned";
      const e = cardEl(c, cls);
      if (o !== null) e.append(el("small", { text: String(o) + (row().piles && ED.down[o].includes(c) ? "↓" : "") }));
      e.addEventListener("click", () => give(c));
      line.append(e);
    }
    grid.append(line);
  }
  $("deal-count").textContent = dealt() ? t("dealt_ok") :
    Array.from({ length: n }, (_, s) => t("cards_needed", { seat: seatName(s, n), have: owned(s).length, need: need() * (row().piles ? 2 : 1) })).join(" · ");
  // trump and troefmaker, fixed by the bidding when it was given
  const fixed = STATE && STATE.bidding && STATE.bidding.outcome === "played";
  const tb = $("trump-box");
  tb.replaceChildren();
  for (const s of SUIT_ORDER) {
    const b = el("button", { type: "button", class: `suit-button ${SUITS[s][1]}` + (ED.trump === s ? " on" : ""), id: `trump-${s}`, text: SUITS[s][0], title: W.suits[s] });
    b.disabled = fixed || ED.plays.length > 0;
    b.addEventListener("click", () => { ED.trump = s; changed(); });
    tb.append(b);
  }
  const tk = $("taker");
  tk.replaceChildren(...Array.from({ length: n }, (_, s) => el("option", { value: s, text: seatName(s, n) })));
  tk.value = ED.taker;
  tk.disabled = fixed || ED.plays.length > 0;
  drawBids();
  drawPlay();
}

function drawBids() {
  const box = $("bids-box"), n = row().players;
  box.replaceChildren(el("b", { text: t("bidding_opt") + ": " }));
  if (!ED.turned) { box.append(el("span", { class: "muted", text: t("bid_needs_turned") })); return; }
  const told = STATE && STATE.bidding;
  const list = el("ol", { class: "calls", id: "edit-bids" });
  ED.bids.forEach((c, i) => {
    const b = told && told.bids[i];
    list.append(el("li", { text: b ? `${seatName(b.seat, n)}: ${W.calls[b.call]}${b.suit ? " " + SUITS[b.suit][0] : ""}` : c }));
  });
  box.append(list);
  if (told && told.next && !ED.plays.length) {
    box.append(el("span", { class: "muted", text: t("next_call", { seat: seatName(told.next.seat, n) }) + " " }));
    for (const call of told.next.calls) {
      const [name, suit] = call.split(":");
      const word = (W.calls[{ play: "smous-play", redeal: "smous-redeal" }[name] || name] || name) + (suit ? " " + SUITS[suit][0] : "");
      const b = el("button", { type: "button", class: "call-button", "data-call": call, text: word });
      b.addEventListener("click", () => { ED.bids.push(call); changed(); });
      box.append(b);
    }
  } else if (told && told.outcome) box.append(el("span", { class: "muted", text: t("bids_done") }));
  if (ED.bids.length && !ED.plays.length) {
    const u = el("button", { type: "button", text: t("undo"), id: "undo-bid" });
    u.addEventListener("click", () => { ED.bids.pop(); changed(); });
    box.append(u);
  }
}

function drawPlay() {
  const n = row().players, s = STATE;
  const seats = [];
  for (let i = 0; i < n; i++) {
    const held = s && s.held ? s.held[i] : owned(i);
    const cards = held.map(c => {
      const legal = s && s.to_move === i && s.legal && s.legal.includes(c);
      const e = cardEl(c, (legal ? "pick legal" : s && s.to_move === i ? "pick" : "") );
      if (s && s.to_move === i) e.addEventListener("click", ev => { ev.stopPropagation(); play(c); });
      return e;
    });
    if (s && s.down) s.down[i].forEach(c => cards.push(cardEl(c, "down")));
    seats.push({ name: seatName(i, n) + (s && s.taker === i ? ` · ${W.terms.troefmaker.word}` : ""), cards, id: `edit-seat-${i}`,
                 cls: s && s.to_move === i ? "to-move" : "" });
  }
  const trickNo = s ? s.tricks.length + 1 : 1;
  drawBoard($("edit-board"), seats, s ? s.trick : [], s && s.over ? t("over") : t("trick_n", { t: trickNo }), row().direction);
  $("edit-direction").textContent = directionText(row().direction);
  $("deal-status").textContent = !s || !s.held ? "" : s.over ? t("over") :
    `${t("to_play", { seat: seatName(s.to_move, n) })}. ${t("legal_now", { cards: cardsText(s.legal) })}`;
  const story = $("edit-tricks");
  story.replaceChildren(...(s && s.story ? s.story[W.lang].tricks : []).map(x => el("li", { text: x })));
  $("undo").disabled = !ED.plays.length;
  $("go").disabled = source() === "own" && !(s && s.held && ED.plays.length);
}

function play(card) { ED.plays.push(card); rememberOwn(); refresh(); }

// ---- a logged, random or pasted deal ------------------------------------------------------------------

async function loadLogs() {
  LOGS = await (await fetch("/api/logs")).json();
  $("log").replaceChildren(...LOGS.map(l => el("option", { value: l.log, text: l.name })));
  $("no-logs").textContent = LOGS.length ? "" : t("no_logs");
  fillDeals();
}

function fillDeals() {
  const l = LOGS[+$("log").value];
  const deals = l ? l.deals.filter(d => d.outcome === "played") : [];
  $("log-deal").replaceChildren(...deals.map(d => el("option", { value: d.deal, text: `${t("deal")} ${d.deal} (${d.variant})` })));
}

function question() {
  const q = { pimc: $("with-pimc").checked ? OPT.review_pimc : "none", ...(WORLDS !== null ? { worlds: +WORLDS } : {}) };
  const s = source(), pimc = $("with-pimc").checked ? null : "none";
  if (s === "own") { q.typed = typedForm(); rememberOwn(); }
  else if (s === "random") {
    q.random = { variant: $("variant").value, seed: $("seed").value, deal: +$("deal").value };
    if (q.random.variant === "piekjas") q.random.players = +$("players").value;
    setQuery({ variant: q.random.variant, players: q.random.players, seed: q.random.seed, deal: q.random.deal, pimc,
               worlds: WORLDS });
  } else if (s === "log") {
    q.log = +$("log").value; q.deal = +$("log-deal").value;
    setQuery({ log: q.log, deal: q.deal, pimc, worlds: WORLDS });
  } else { q.record = $("record").value; setQuery({ record: packRecord(q.record), pimc, worlds: WORLDS }); }
  return q;
}

// A pasted record travels in the link as base64url of its compact JSON (about a third larger than the
// record; a classic deal is 2-3 kB): the link shows the same review to whoever opens it.
function packRecord(text) {
  let compact;
  try { compact = JSON.stringify(JSON.parse(text)); } catch (e) { return null; }  // the server says what is wrong
  const bytes = new TextEncoder().encode(compact);
  let bin = ""; bytes.forEach(b => { bin += String.fromCharCode(b); });
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unpackRecord(packed) {
  try {
    const bin = atob(packed.replace(/-/g, "+").replace(/_/g, "/"));
    return new TextDecoder().decode(Uint8Array.from(bin, c => c.charCodeAt(0)));
  } catch (e) { return ""; }
}

function go() {
  $("answer").hidden = true;
  $("bot-box").hidden = true;
  R = null;
  const start = +(QUERY.get("step") || 0);
  runQuestion("/api/review", question(), result => {
    if (result.review && R === null) { R = result.review; K = Math.min(start, R.json.cards.length); draw(); }
  });
}

// ---- drawing the deal at step K (K cards played) ----------------------------------------------------

function held(k) {
  const gone = new Set(R.json.cards.slice(0, k).map(c => c.card));
  if (R.piles) {  // Dekjas: a face-down card is playable once the card on it is gone
    return R.piles.map(seat => {
      const up = [], down = [];
      for (const [d, u] of seat) {
        if (!gone.has(u)) { up.push(u); down.push(d); } else if (!gone.has(d)) up.push(d);
      }
      return { up, down };
    });
  }
  return R.start.map(h => ({ up: h.filter(c => !gone.has(c)), down: [] }));
}

function seatCards(s, k, hand) {
  const next = R.json.cards[k];
  const out = [];
  for (const c of hand.up) {
    let cls = "";
    if (next && next.seat === s) {
      const legal = next.forced ? [next.card] : Object.keys(next.values);
      if (legal.includes(c)) cls = next.forced ? "loss0" : lossClass(next.losses[c]);
      if (c === next.card) cls += " played";
    }
    const e = cardEl(c, cls);
    if (next && next.seat === s && !next.forced && c in next.losses) {
      e.append(el("small", { text: next.losses[c] ? `−${next.losses[c]}` : "✓" }));
      e.title = `${cardText(c)}: ${next.values[c]}, −${next.losses[c]}`;
    }
    if (next && next.seat === s && next.pimc === c) e.append(el("span", { class: "badge", text: "P" }));
    out.push(e);
  }
  hand.down.forEach(c => out.push(cardEl(c, "down")));
  return out;
}

function draw() {
  const j = R.json, N = j.cards.length, n = R.players, story = R.story[W.lang];
  $("answer").hidden = false;
  $("slider").max = N; $("slider").value = K;
  $("headline").textContent = story.headline;
  $("note").textContent = story.note || "";
  $("turned-shown").replaceChildren(...(story.turned ? [`${t("turned_card")}: `, cardEl(R.turned, "turned small")] : []));
  $("bids-list").replaceChildren(...(story.bids.length ? story.bids.map(b => el("li", { text: b })) : [el("li", { class: "muted", text: t("no_bids") })]));
  const hands = held(K), next = j.cards[K];
  const seats = hands.map((h, s) => ({ name: story.seats[s] + (s === j.troefmaker ? ` · ${W.terms.troefmaker.word}` : ""), id: `seat-${s}`,
                                      cards: seatCards(s, K, h), cls: next && next.seat === s ? "to-move" : "" }));
  const start = K - (K % n);
  let shown = j.cards.slice(start, K).map(c => [c.seat, c.card]), lab = shown.length ? t("trick_n", { t: j.cards[start].trick }) : "";
  if (!shown.length && K > 0) { shown = j.cards.slice(K - n, K).map(c => [c.seat, c.card]); lab = t("trick_done", { t: j.cards[K - 1].trick }); }
  drawBoard($("board"), seats, shown, lab || t("first_trick"), R.direction);
  $("direction").textContent = directionText(R.direction);
  $("where").textContent = t("step", { k: K, n: N });
  // how it was played, up to here: the tricks won, the roem and stuk said
  const done = Math.floor(K / n), items = [];
  for (let i = 0; i < done; i++) {
    const said = story.announce.filter(a => a.trick === i).map(a => el("div", { class: "announce", text: a.text }));
    items.push(el("li", { text: story.tricks[i] }, ...said));
  }
  $("story").replaceChildren(...items);
  const res = $("result");
  res.hidden = K < N || !story.result.length;
  res.replaceChildren(el("b", { text: t("result") }), ...story.result.map(x => el("p", { text: x })));
  if (R.result) res.className = `result ${R.result.outcome}`;
  const c = j.cards[K], seat = s => seatName(s, n);
  const pimc = c && c.pimc ? t("pimc_plays", { card: cardText(c.pimc) }) : "";
  if (!c) {
    const last = j.values_after[N - 1];
    $("explain").textContent = t(j.exact ? "over_line" : "over_margin", { value: last });
    $("legal-box").replaceChildren();
  } else if (c.forced) {
    $("explain").textContent = t("forced", { trick: c.trick, seat: seat(c.seat), card: cardText(c.card) });
    $("legal-box").replaceChildren();
  } else {
    const best = cardsText(c.best);
    $("explain").textContent = c.loss ? t("gives", { trick: c.trick, seat: seat(c.seat), card: cardText(c.card), loss: c.loss, best, pimc })
      : t("as_best", { trick: c.trick, seat: seat(c.seat), card: cardText(c.card), best, pimc });
    const info = c.info;  // the values from what the seat knew (belote review --worlds), or null
    const head = info ? [...W.ui.legal_head.slice(0, 3), t("knew_head", { worlds: info.worlds }), W.ui.legal_head[3]]
      : W.ui.legal_head;
    const rows = Object.keys(c.values).sort((a, b) => c.losses[a] - c.losses[b] || a.localeCompare(b))
      .map(k => [cardEl(k, lossClass(c.losses[k]) + " small"), String(c.values[k]), String(c.losses[k]),
                 ...(info ? [`${num(info.values[k][0], 1)} ± ${num(info.values[k][1], 1)}`] : []),
                 (k === c.card ? t("played") : "") + (k === c.pimc ? " pimc" : "")]);
    $("legal-box").replaceChildren(table(head, rows, "legal-table"));
    if (c.game && c.game.played !== c.game.best) {  // the card changed the deal's outcome (perfect play after it)
      const o = W.ui.outcome_words;
      $("explain").append(el("br"), el("strong", { id: "game-line", text: t("game_line", {
        card: cardText(c.card), best: o[c.game.best] || c.game.best, played: o[c.game.played] || c.game.played,
        cost: c.game.cost }) }));
    }
    if (info) {
      $("explain").append(el("br"), el("span", { id: "verdict-line", class: `kind-${info.kind.replace(" ", "-") || "none"}`,
        text: t(`kind_${info.kind}`, { card: cardText(c.card), loss: num(info.loss, 1), lo: num(info.loss_lo, 1),
                                       hi: num(info.loss_hi, 1), best: cardsText(info.best) }) }));
    }
  }
  drawChart(K);
  $("about").textContent = t(j.exact ? "exact" : "paranoid") +
    (j.turning_trick ? t("turned_at", { trick: j.turning_trick.trick, change: (j.turning_trick.change > 0 ? "+" : "") + j.turning_trick.change }) : "");
  const tot = j.given_away;
  $("totals").replaceChildren(table(W.ui.given_head,
    Object.keys(tot.seats).map(s => [seat(+s), String(tot.seats[s]), String(tot.cards_valued[s])]), "totals-table"));
  if (j.luck) {  // error, bad luck and lucky per seat (belote review --worlds)
    const parts = Object.entries(j.luck.seats).map(([s, v]) => t("luck_part", {
      seat: seat(+s), error: v.error, ep: num(v.error_points, 1), bad: v.bad_luck, bp: num(v.bad_luck_points, 1),
      lucky: v.lucky, lp: num(v.lucky_points, 1) }));
    $("totals").append(el("p", { id: "luck-total", text: t("luck_total", { parts: parts.join("; ") }) }));
  }
  $("command").textContent = R.command;
  document.body.dataset.step = K;
  if (source() === "own") rememberOwn();
  else { const q = new URLSearchParams(location.search); q.set("step", K); history.replaceState(null, "", `${location.pathname}?${q}`); }
}

function legend() {
  const parts = W.ui.legend_parts;
  $("legend").replaceChildren(t("legend"), ...["loss0", "loss1", "loss2", "loss3"].flatMap((c, i) => [el("span", { class: `card ${c} swatch` }), parts[i] + " "]), t("legend_end"));
}

function drawChart(k) {
  const j = R.json, vals = [j.cards.length ? j.cards[0].value : 0, ...j.values_after];
  const W0 = Math.max(320, Math.min(760, $("chart").clientWidth || 760)), H = 200, P = 30, N = vals.length - 1;  // drawn at its size: readable type on a phone
  const lo = Math.min(...vals), hi = Math.max(...vals), span = Math.max(1, hi - lo);
  const x = i => P + (W0 - 2 * P) * i / Math.max(1, N), y = v => H - P + -(H - 2 * P) * (v - lo) / span;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "chart"); svg.setAttribute("viewBox", `0 0 ${W0} ${H}`); svg.id = "value-chart";
  const add = (tag, attrs, text) => { const e = document.createElementNS(ns, tag); for (const [a, v] of Object.entries(attrs)) e.setAttribute(a, v); if (text !== undefined) e.textContent = text; svg.append(e); return e; };
  for (let i = 0; i <= N; i += R.players) add("line", { x1: x(i), x2: x(i), y1: P / 2, y2: H - P, stroke: "#e3e7eb" });
  if (lo < 0 && hi > 0) add("line", { x1: P, x2: W0 - P, y1: y(0), y2: y(0), stroke: "#9aa5b1", "stroke-dasharray": "4 3" });
  add("polyline", { points: vals.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: "#2563eb", "stroke-width": 2 });
  vals.forEach((v, i) => { const c = add("circle", { cx: x(i), cy: y(v), r: i === k ? 7 : 4, fill: i === k ? "#c8372d" : "#2563eb", "data-step": i }); c.style.cursor = "pointer"; c.addEventListener("click", () => { K = i; draw(); }); });
  add("text", { x: 4, y: y(hi) + 4, "font-size": 12 }, String(hi));
  add("text", { x: 4, y: y(lo) + 4, "font-size": 12 }, String(lo));
  $("chart").replaceChildren(svg, el("p", { class: "muted", id: "chart-caption", text: t(j.exact ? "chart_exact" : "chart_margin") }));
}

// ---- the bot beside you: from the card shown on, a bot plays every seat (belote review --bot --bot-from) ----------

async function playOn() {
  if (!R) return;
  const q = question();
  delete q.pimc; delete q.worlds;
  q.bot = $("bot-who").value; q.from = Math.min(K, R.json.cards.length - 1) + 1;
  const box = $("bot-box");
  box.hidden = false;
  box.replaceChildren(el("p", { class: "muted", text: t("bot_wait") }));
  try {
    const v = await post("/api/bot", q);
    const L = v.lines[W.lang];
    box.replaceChildren(
      el("p", { id: "bot-head", text: t("bot_head", { k: v.bot.from + 1, bot: W.policies?.[v.bot.policy] || v.bot.policy,
                                                      cards: cardsText(v.bot.cards) }) }),
      ...(L.reason ? [el("p", { id: "bot-reason", text: L.reason })] : []),
      el("p", { id: "bot-with", text: `${t("bot_with")} ${L.bot[0]} ${L.bot[L.bot.length - 1]}` }),
      el("p", { id: "bot-played", text: `${t("bot_played")} ${L.played[0]} ${L.played[L.played.length - 1]}` }),
      el("p", { class: "muted", id: "bot-command", text: v.command }));
  } catch (e) { box.replaceChildren(el("p", { class: "error", text: e.message })); }
}

function stepTo(k) { if (!R) return; K = Math.max(0, Math.min(R.json.cards.length, k)); draw(); }

// ---- a link -----------------------------------------------------------------------------------------

function fromLink() {
  const q = QUERY;
  if (q.get("variant") in { classic: 1, piekjas: 1, dekjas: 1 }) $("variant").value = q.get("variant");
  if (q.get("players")) $("players").value = q.get("players");
  if (q.get("pimc") === "none") $("with-pimc").checked = false;
  const rules = {};
  for (const r of q.getAll("rule")) { const [k, ...v] = r.split("="); rules[k] = v.join("="); }
  let src = "own";
  if (q.get("log") !== null) src = "log"; else if (q.get("record") !== null) src = "record";
  else if (q.get("seed") !== null && q.get("hands") === null) src = "random";
  document.querySelector(`input[name=source][value=${src}]`).checked = true;
  showSource();
  freshDeal();
  rulesBox(rules);
  if (src === "own") {
    readHands(q.get("hands"));
    ED.turned = q.get("turned") || ""; ED.trump = q.get("trump") || ""; ED.taker = +(q.get("taker") || 0);
    ED.bids = (q.get("bids") || "").split(/\s+/).filter(Boolean); ED.plays = (q.get("plays") || "").split(/\s+/).filter(Boolean);
    drawEditor();
    refresh().then(() => { if (ED.plays.length && STATE && STATE.held) go(); });
  } else if (src === "random") {
    $("seed").value = q.get("seed"); if (q.get("deal") !== null) $("deal").value = q.get("deal");
    drawEditor();
    go();
  } else if (src === "record") {
    $("record").value = unpackRecord(q.get("record"));
    drawEditor();
    go();
  } else {
    drawEditor();
    loadLogs().then(() => {
      $("log").value = q.get("log"); fillDeals();
      if (q.get("deal") !== null) $("log-deal").value = q.get("deal");
      go();
    });
  }
}

boot(async () => {
  document.querySelectorAll("input[name=source]").forEach(r => r.addEventListener("change", () => { showSource(); drawPlay(); }));
  const newGame = () => { showSource(); freshDeal(); TARGET = { seat: 0, layer: "up" }; rulesBox(); changed(); };
  $("variant").addEventListener("change", newGame);
  $("players").addEventListener("change", newGame);
  $("log").addEventListener("change", fillDeals);
  $("taker").addEventListener("change", e => { ED.taker = +e.target.value; changed(); });
  $("deal-rest").addEventListener("click", dealRest);
  $("deal-clear").addEventListener("click", () => { freshDeal(); changed(); });
  $("undo").addEventListener("click", () => { ED.plays.pop(); changed(); });
  $("with-pimc").addEventListener("change", () => source() === "own" && rememberOwn());
  $("go").addEventListener("click", go);
  $("bot-go").addEventListener("click", playOn);
  $("first").addEventListener("click", () => stepTo(0));
  $("prev").addEventListener("click", () => stepTo(K - 1));
  $("next").addEventListener("click", () => stepTo(K + 1));
  $("last").addEventListener("click", () => stepTo(1e9));
  $("slider").addEventListener("input", e => stepTo(+e.target.value));
  document.addEventListener("keydown", e => {
    if (e.target.tagName === "TEXTAREA" || e.target.tagName === "INPUT" && e.target.type !== "range" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") stepTo(K + 1); else if (e.key === "ArrowLeft") stepTo(K - 1);
    else if (e.key === "Home") stepTo(0); else if (e.key === "End") stepTo(1e9);
  });
  legend();
  if (!QUERY.get("log")) loadLogs();
  fromLink();
});
