// Cards drawn with CSS: French cards (Bazaar Blot, Palace Poker) and the named cards of
// Soldier's Bluff. Every face-up card carries data-card="<code>"; backs carry none.

import { h } from "./util.js";
import { lang } from "./i18n.js";
import { api } from "./api.js";

export const SUIT = { c: "♣", d: "♦", h: "♥", s: "♠" };
const RANK = { T: "10" };

export function suitSym(s) { return SUIT[s] || s; }

/** "Th" -> "10♥". */
export function cardText(code) {
  if (!code) return "?";
  if (SB[code]) return sbName(code);
  return (RANK[code[0]] || code[0]) + suitSym(code[1]);
}

function shell(code, label, classes, opts) {
  const clickable = Boolean(opts.onclick);
  const el = h(clickable ? "button" : "div", {
    class: `card ${classes}${opts.selected ? " selected" : ""}${opts.legal ? " legal" : ""}${opts.small ? " small" : ""}`,
    "data-card": code, "aria-label": label, title: label,
    role: clickable ? null : "img", type: clickable ? "button" : null,
    "aria-pressed": opts.toggle ? String(Boolean(opts.selected)) : null,
    onclick: opts.onclick || null,
  });
  if (opts.dataset) Object.assign(el.dataset, opts.dataset);
  return el;
}

/** A French card. opts: {onclick, legal, selected, small, toggle, dataset}. */
export function frenchCard(code, opts = {}) {
  const rank = RANK[code[0]] || code[0];
  const suit = code[1];
  const red = suit === "h" || suit === "d";
  const el = shell(code, rank + SUIT[suit], `fr ${red ? "red" : "black"}`, opts);
  el.append(
    h("span", { class: "corner tl", "aria-hidden": "true" }, rank, h("br"), SUIT[suit]),
    h("span", { class: "pip", "aria-hidden": "true" }, SUIT[suit]),
    h("span", { class: "corner br", "aria-hidden": "true" }, rank, h("br"), SUIT[suit]),
  );
  return el;
}

export function cardBack(opts = {}) {
  return h("div", { class: `card back${opts.small ? " small" : ""}`, role: "img", "aria-label": "card" });
}

export function backs(n, small = true) {
  return h("div", { class: "backs" }, Array.from({ length: Math.min(n, 12) }, () => cardBack({ small })));
}

// Named cards (Soldier's Bluff): id -> {value, position (1 = strongest), names: {en, bg, hy}}.
// The server serves the engine's own table (the game package's cards.json) at the path the
// catalog names (`rules.cards`); js/catalog.js loads each once, before anything is drawn.
export const SB = {};

/** Fetch the card tables at `paths` (GET /api/rules/{game}/cards) into SB. */
export async function loadCardTables(paths) {
  for (const table of await Promise.all(paths.map((p) => api(p)))) {
    table.cards.forEach((c, i) => { SB[c.id] = { value: c.value, position: i + 1, names: c.names }; });
  }
}

export function sbName(id, l = lang()) {
  const c = SB[id];
  if (!c) return id;
  return c.names[l] || c.names.en;
}

const SB_GROUP = { 12: "royal", 11: "royal", 10: "royal", 9: "royal", 8: "royal", 7: "soldier",
  6: "craft", 5: "beast", 4: "realm", 3: "weapon", 2: "thing", 1: "sea" };
const SB_EMBLEM = { royal: "♛", soldier: "⚔", craft: "⚒", beast: "✦", realm: "♜", weapon: "✠", thing: "✎", sea: "⚓" };

/** A named Soldier's Bluff card. */
export function sbCard(id, opts = {}) {
  const c = SB[id] || { value: "?" };
  const group = SB_GROUP[c.value] || "sea";
  const name = sbName(id);
  const el = shell(id, `${name} (${c.value})`, `sb g-${group}`, opts);
  // the font shrinks so the longest word fits the card: lines break only between words
  const label = h("span", { class: "sb-name", "aria-hidden": "true", lang: lang() }, name);
  // set through the CSSOM: the Content-Security-Policy refuses inline style attributes
  label.style.setProperty("--n", String(Math.max(6, ...name.split(/\s+/).map((w) => w.length))));
  el.append(
    h("span", { class: "sb-value", "aria-hidden": "true" }, String(c.value)),
    h("span", { class: "sb-emblem", "aria-hidden": "true" }, SB_EMBLEM[group]),
    label,
  );
  return el;
}
