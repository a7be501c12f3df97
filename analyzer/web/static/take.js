// The take page: pick the cards, ask, watch the progress, read the verdict, its reason and the bracket.
// Its state is its URL, with belote take's option names: /?variant=classic&hand=Jh+9h+Ah+Tc+7s&turned=Qh.
"use strict";

const label = () => { const v = $("variant").value; return v === "piekjas" ? `piekjas${$("players").value}` : v; };
const row = () => OPT.variants[label()];
const fieldCards = id => $(id).value.trim().split(/[\s,]+/).filter(Boolean);

function layout() {
  const v = $("variant").value, r = row(), n = r.players;
  $("players-box").hidden = v !== "piekjas";
  const dek = r.piles;
  $("theirs-box").hidden = $("theirs-radio").hidden = !dek;
  $("hand-label").textContent = t(dek ? "your_up" : "your_hand");
  $("turned-label").textContent = t(dek ? "turned_dek" : "turned");
  $("hand-field").textContent = dek ? t("mine") : t("hand_n", { n: r.first_deal });
  const seat = $("seat"), keep = +seat.value || 0;
  seat.replaceChildren(...Array.from({ length: n }, (_, s) => el("option", { value: s, text: seatName(s, n) })));
  seat.value = Math.min(keep, n - 1);
  rulesBox();
  seatWords();
  drawGrid();
}

// Who sits where, in words: the direction of play, the partner; and this game's terms, each explained
// on hover or tap (the Words page has them all).
function seatWords() {
  const r = row(), s = +$("seat").value;
  const partner = r.partners ? ` ${W.terms.maat.word}: ${seatName((s + 2) % 4, 4)}.` : "";
  const keys = ["voorhand", "gever", "troefmaker", ...(r.partners ? ["maat"] : []), ...(r.koe ? ["koe"] : []),
                ...(r.smous ? ["smous"] : []), "nat", "pit"];
  const terms = keys.flatMap((k, i) => [i ? " · " : "", termEl(W.terms[k].word, W.terms[k].explain, k)]);
  $("seat-words").replaceChildren(`${directionText(r.direction)}${partner} `,
    el("a", { href: "/glossary" + (QUERY.get("lang") ? `?lang=${QUERY.get("lang")}` : ""), text: t("nav_words") }), ": ", ...terms);
}

// House rules as named choices: each option that can change something in this game, its default first
// (a new game starts from its own defaults: classic's roem_compare is not Piekjas').
function rulesBox(keep = {}) {
  const box = $("rules-box"), r = row();
  box.replaceChildren();
  for (const [key, values] of Object.entries(r.rules)) {
    const w = W.rules[key];
    const sel = el("select", { "data-rule": key, id: `rule-${key}` });
    values.forEach((v, i) => sel.append(el("option", { value: v, text: (w.choices[v] || v) + (i === 0 ? ` (${t("default")})` : "") })));
    if (values.includes(keep[key])) sel.value = keep[key];
    box.append(el("label", {}, `${w.name} `, sel));
  }
  const target = el("input", { type: "number", min: 1, max: 100000, placeholder: String(r.target), "data-rule": "target", id: "rule-target" });
  target.value = keep.target ?? "";
  box.append(el("label", {}, `${W.rules.target.name} `, target));
  if (Object.keys(keep).length) $("more").open = true;
}

// The house rules chosen that differ from the game's defaults, as --rule KEY=VALUE words.
function chosenRules() {
  const out = [], r = row();
  for (const e of $("rules-box").querySelectorAll("[data-rule]")) {
    const key = e.dataset.rule;
    if (key === "target") { if (e.value && +e.value !== r.target) out.push(`target=${e.value}`); }
    else if (e.value !== r.rules[key][0]) out.push(`${key}=${e.value}`);
  }
  return out;
}

function drawGrid() {
  const target = document.querySelector("input[name=target]:checked").value;
  const used = {};
  for (const f of ["hand", "theirs"]) fieldCards(f).forEach(c => { used[c] = f; });
  const turned = $("turned").value.trim();
  const grid = $("grid");
  grid.replaceChildren();
  for (const s of SUIT_ORDER) {
    const line = el("div", { class: "suit" });
    for (const r of RANKS) {
      const c = r + s, owner = used[c];
      let cls = "pick";
      if (owner === target) cls += " chosen";
      else if (owner && !(target === "turned" && row().piles)) cls += " taken";
      if (c === turned) cls += " turned";
      const e = cardEl(c, cls);
      e.addEventListener("click", () => pick(c, target, owner));
      line.append(e);
    }
    grid.append(line);
  }
}

// A click on a card: into the chosen field, or out of it; the turned card is one card (in Dekjas it
// is one of the dealer's face-up cards, so it may be chosen among them).
function pick(card, target, owner) {
  if (target === "turned") {
    if (owner && !row().piles) return;
    $("turned").value = $("turned").value.trim() === card ? "" : card;
  } else {
    if (owner && owner !== target) return;
    if (!owner && card === $("turned").value.trim() && !row().piles) return;
    const cs = fieldCards(target);
    $(target).value = (owner ? cs.filter(c => c !== card) : [...cs, card]).join(" ");
  }
  drawGrid();
}

// The bracket offers the players other than the one that answers (that one is always its column).
function bracketChoices() {
  for (const p of OPT.play) $(`pill-${p}`).hidden = p === $("play").value;
}

function question() {
  const r = row(), dek = r.piles;
  const q = { variant: $("variant").value, seat: +$("seat").value, round: +$("round").value, turned: $("turned").value,
              rule: chosenRules(), deals: +$("deals").value, seed: $("seed").value, bracket: [], play: $("play").value };
  if (q.variant === "piekjas") q.players = +$("players").value;
  if (dek) { q.mine = $("hand").value; q.theirs = $("theirs").value; } else q.hand = $("hand").value;
  // the other players that play every deal (no deals of their own; the answer's own player is always a column)
  for (const p of OPT.play) if (p !== q.play && $(`b-${p}`).checked) q.bracket.push(p);
  for (const p of ["pimc", "dd"]) if ($(`b-${p}`).checked) { q.bracket.push(p); q[`${p}_deals`] = +$(`${p}-deals`).value; }
  return q;
}

// The question as the page's address: belote take's option names.
function remember(q) {
  const strong = q.bracket.filter(p => p in OPT.strong_deals).map(p => `${p}=${q[`${p}_deals`]}`);
  setQuery({ variant: q.variant, players: q.players, hand: q.hand, mine: q.mine, theirs: q.theirs, turned: q.turned,
             seat: q.seat || null, round: q.round !== 1 ? q.round : null, rule: q.rule,
             play: q.play !== OPT.default_play ? q.play : null, deals: q.deals !== 100000 ? q.deals : null,
             seed: q.seed !== "1" ? q.seed : null,
             "bracket-plays": q.bracket.length ? OPT.bracket.filter(p => p === q.play || q.bracket.includes(p)).join(",") : null,
             "bracket-deals": strong.length ? strong.join(",") : null });
}

// A row label with its explanation (hover or tap).
function rowLabel(key) {
  const r = W.rows[key];
  return termEl(r.label, r.explain + (r.term ? ` — ${W.terms[r.term].word}: ${W.terms[r.term].explain}` : ""), key);
}

function showTake(a) {
  const w = a.words[W.lang];
  $("answer").hidden = false;
  $("verdict").textContent = w.verdict;
  $("reason").textContent = w.reason;
  $("title").textContent = w.title;
  $("n-line").textContent = t("n_line", { n: num(a.n), seed: a.seed });
  $("take-box").classList.toggle("wide", a.calls.length > 4);
  $("take-box").replaceChildren(table(["", ...w.calls], a.rows.map(([, cells], i) => [rowLabel(a.keys[i]), ...cells.map(cellText)]), "take-table", true));
  $("share").textContent = t("share");
  $("acceptance").textContent = w.acceptance || "";
  $("bidders").textContent = `${w.who}${w.note ? ` (${w.note})` : ""} ${t("hands_time", { hands: num(a.hands), s: a.seconds })}`;
  $("command").textContent = a.command;
}

function showBracket(b) {
  const w = b.words[W.lang];
  $("bracket").hidden = false;
  $("bracket-verdict").textContent = w.verdict;
  $("bracket-box").classList.toggle("wide", b.columns.length > 3);
  $("bracket-box").replaceChildren(table([t("call"), "", ...b.columns.map((c, i) => `${w.heads[i]} (n=${num(c.n)})`)],
    b.rows.map(([, , cells], i) => [w.calls[i], rowLabel(b.keys[i]), ...cells.map(cellText)]), "bracket-table", true));
  $("bracket-verdicts").replaceChildren(...w.verdicts.map(([p, v]) => el("li", { text: `${p}: ${v}` })));
  $("bracket-notes").textContent = b.notes.join(" ");
  $("bracket-command").textContent = b.command;
}

function go() {
  $("answer").hidden = $("bracket").hidden = true;
  const q = question();
  remember(q);
  runQuestion("/api/take", q, result => {
    if (result.take) showTake(result.take);
    if (result.bracket) showBracket(result.bracket);
  });
}

// A link: the form filled from the address, and the question asked at once when it names the cards.
function fromLink() {
  const q = QUERY;
  if (q.get("variant") in { classic: 1, piekjas: 1, dekjas: 1 }) $("variant").value = q.get("variant");
  if (q.get("players")) $("players").value = q.get("players");
  const rules = {};
  for (const r of q.getAll("rule")) { const [k, ...v] = r.split("="); rules[k] = v.join("="); }
  layout();
  rulesBox(rules);
  for (const [field, key] of [["seat", "seat"], ["round", "round"], ["deals", "deals"], ["seed", "seed"], ["turned", "turned"], ["theirs", "theirs"]])
    if (q.get(key) !== null) $(field).value = q.get(key);
  if (q.get("hand") !== null || q.get("mine") !== null) $("hand").value = q.get("hand") ?? q.get("mine");
  if (q.get("play") && OPT.play.includes(q.get("play"))) $("play").value = q.get("play");
  const plays = (q.get("bracket-plays") || "").split(",");
  for (const p of OPT.bracket) $(`b-${p}`).checked = plays.includes(p);
  bracketChoices();
  for (const part of (q.get("bracket-deals") || "").split(",")) {
    const [p, n] = part.split("=");
    if (n && $(`${p}-deals`)) $(`${p}-deals`).value = n;
  }
  seatWords();
  drawGrid();
  if ((q.get("hand") || q.get("mine")) && q.get("turned")) go();
}

boot(async () => {
  $("play").replaceChildren(...OPT.play.map(p => el("option", { value: p, text: W.policies[p] + (p === OPT.default_play ? ` (${t("default")})` : "") })));
  $("play").value = OPT.default_play;
  $("play").addEventListener("change", bracketChoices);
  bracketChoices();
  for (const p of ["pimc", "dd"]) {  // the bracket's deals: the command line's defaults and the server's bounds
    $(`${p}-deals`).value = OPT.strong_deals[p]; $(`${p}-deals`).max = OPT.max_strong_deals[p];
  }
  $("variant").addEventListener("change", layout);
  $("players").addEventListener("change", layout);
  $("seat").addEventListener("change", seatWords);
  document.querySelectorAll("input[name=target]").forEach(r => r.addEventListener("change", drawGrid));
  for (const f of ["hand", "turned", "theirs"]) $(f).addEventListener("input", drawGrid);
  $("go").addEventListener("click", go);
  fromLink();
});
