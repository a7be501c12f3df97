// The take page: pick the cards, ask, watch the progress, read the verdict and the bracket.
"use strict";

const $ = id => document.getElementById(id);
const SEAT_NAMES = n => Array.from({ length: n }, (_, s) => s === 0 ? "0 (voorhand)" : s === n - 1 ? `${s} (dealer)` : `${s}`);

function players() {
  const v = $("variant").value;
  return v === "classic" ? 4 : v === "dekjas" ? 2 : +$("players").value;
}

function layout() {
  const v = $("variant").value, n = players();
  $("players-box").hidden = v !== "piekjas";
  const dek = v === "dekjas";
  $("theirs-box").hidden = $("theirs-radio").hidden = !dek;
  $("hand-label").textContent = dek ? "your face-up cards" : "your hand";
  $("turned-label").textContent = dek ? "the turned card (the dealer's last face-up card)" : "the turned card";
  $("hand-field").textContent = dek ? "Mine (8 face-up)" : `Hand (${v === "classic" || n === 4 ? 5 : 6} cards)`;
  const seat = $("seat"), keep = +seat.value || 0;
  seat.replaceChildren(...SEAT_NAMES(n).map((t, s) => el("option", { value: s, text: t })));
  seat.value = Math.min(keep, n - 1);
  drawGrid();
}

const fieldCards = id => $(id).value.trim().split(/[\s,]+/).filter(Boolean);

function drawGrid() {
  const target = document.querySelector("input[name=target]:checked").value;
  const used = {};
  for (const f of ["hand", "turned", "theirs"]) fieldCards(f).forEach(c => used[c] = f);
  const grid = $("grid");
  grid.replaceChildren();
  for (const s of ["c", "d", "h", "s"]) {
    const row = el("div", { class: "suit" });
    for (const r of RANKS) {
      const c = r + s, owner = used[c];
      const e = cardEl(c, "pick" + (owner === target ? " chosen" : owner === "turned" ? " turned" : owner ? " taken" : ""));
      e.addEventListener("click", () => pick(c, target, owner));
      row.append(e);
    }
    grid.append(row);
  }
}

function pick(card, target, owner) {
  if (owner && owner !== target) return;
  if (target === "turned") { $("turned").value = owner ? "" : card; }
  else {
    const cs = fieldCards(target);
    $(target).value = (owner ? cs.filter(c => c !== card) : [...cs, card]).join(" ");
  }
  drawGrid();
}

function question() {
  const v = $("variant").value, dek = v === "dekjas";
  const q = { variant: v, seat: +$("seat").value, round: +$("round").value, turned: $("turned").value, rules: $("rules").value,
              deals: +$("deals").value, seed: $("seed").value, bracket: [] };
  if (v === "piekjas") q.players = +$("players").value;
  if (dek) { q.mine = $("hand").value; q.theirs = $("theirs").value; } else q.hand = $("hand").value;
  if ($("b-heuristic").checked) q.bracket.push("heuristic");  // every deal: no deals of its own
  for (const p of ["pimc", "dd"]) if ($(`b-${p}`).checked) { q.bracket.push(p); q[`${p}_deals`] = +$(`${p}-deals`).value; }
  return q;
}

function showTake(t) {
  $("answer").hidden = false;
  $("verdict").textContent = t.verdict;
  $("title").textContent = `${t.title} — n = ${t.n.toLocaleString("en")} paired deals, seed ${t.seed}; ± = 95% half-width`;
  $("take-box").replaceChildren(table(["", ...t.calls], t.rows.map(([name, cells]) => [name, ...cells]), "take-table"));
  $("share").textContent = t.share;
  $("acceptance").textContent = t.acceptance || "";
  $("bidders").textContent = `Bidders: ${t.bidders}. ${t.hands.toLocaleString("en")} hands in ${t.seconds} s.`;
  $("command").textContent = t.command;
}

function showBracket(b) {
  $("bracket").hidden = false;
  $("bracket-verdict").textContent = b.verdict;
  $("bracket-box").replaceChildren(table(["call", "", ...b.columns.map(c => `${c.head} (n=${c.n.toLocaleString("en")})`)],
    b.rows.map(([label, name, cells]) => [label, name, ...cells]), "bracket-table"));
  $("bracket-verdicts").replaceChildren(...b.verdicts.map(([p, v]) => el("li", { text: `${p}: ${v}` })));
  $("bracket-notes").textContent = b.notes.join(" ");
  $("bracket-command").textContent = b.command;
}

function go() {
  $("answer").hidden = $("bracket").hidden = true;
  runQuestion("/api/take", question(), result => {
    if (result.take) showTake(result.take);
    if (result.bracket) showBracket(result.bracket);
  });
}

document.addEventListener("DOMContentLoaded", () => {
  $("variant").addEventListener("change", layout);
  $("players").addEventListener("change", layout);
  document.querySelectorAll("input[name=target]").forEach(r => r.addEventListener("change", drawGrid));
  for (const f of ["hand", "turned", "theirs"]) $(f).addEventListener("input", drawGrid);
  $("go").addEventListener("click", go);
  layout();
});
