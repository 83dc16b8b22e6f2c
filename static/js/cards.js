// Cards drawn with CSS: French cards (Bazaar Blot, Palace Poker) and the named cards of
// Soldier's Bluff. Every face-up card carries data-card="<code>"; backs carry none.

import { h } from "./util.js";
import { lang } from "./i18n.js";

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

// Soldier's Bluff: id -> [value, en, bg, hy]. English and Bulgarian are the server's table
// (cards.py); the Armenian names are our translation.
const SB_TABLE = [
  ["king_of_wolves", 12, "King of Wolves", "Крал на вълците", "Գայլերի արքա"],
  ["queen_of_roses", 11, "Queen of Roses", "Кралица на розите", "Վարդերի թագուհի"],
  ["prince_of_serpents", 10, "Prince of Serpents", "Принц на змиите", "Օձերի արքայազն"],
  ["lord_of_blades", 9, "Lord of Blades", "Лорд на остриетата", "Սայրերի տեր"],
  ["lady_of_crows", 8, "Lady of Crows", "Дама на враните", "Ագռավների տիրուհի"],
  ["red_captain", 7, "Red Captain", "Червен капитан", "Կարմիր կապիտան"],
  ["black_sergeant", 7, "Black Sergeant", "Черен сержант", "Սև սերժանտ"],
  ["gold_guard", 7, "Gold Guard", "Златен страж", "Ոսկե պահակ"],
  ["green_archer", 7, "Green Archer", "Зелен стрелец", "Կանաչ աղեղնավոր"],
  ["white_swordsman", 7, "White Swordsman", "Бял мечоносец", "Սպիտակ սուսերավոր"],
  ["blind_smith", 6, "Blind Smith", "Сляп ковач", "Կույր դարբին"],
  ["smiling_mason", 6, "Smiling Mason", "Усмихнат зидар", "Ժպտացող որմնադիր"],
  ["lonely_miller", 6, "Lonely Miller", "Самотен мелничар", "Միայնակ ջրաղացպան"],
  ["happy_weaver", 6, "Happy Weaver", "Щастлива тъкачка", "Ուրախ ջուլհակուհի"],
  ["weeping_maid", 6, "Weeping Maid", "Плачеща слугиня", "Լացող աղախին"],
  ["howling_wolf", 5, "Howling Wolf", "Виещ вълк", "Ոռնացող գայլ"],
  ["flying_hawk", 5, "Flying Hawk", "Летящ ястреб", "Թռչող բազե"],
  ["pecking_crow", 5, "Pecking Crow", "Кълвяща врана", "Կտցահարող ագռավ"],
  ["galloping_horse", 5, "Galloping Horse", "Препускащ кон", "Սլացող ձի"],
  ["sleeping_serpent", 5, "Sleeping Serpent", "Спяща змия", "Քնած օձ"],
  ["palace", 4, "Palace", "Дворец", "Պալատ"],
  ["throne", 4, "Throne", "Трон", "Գահ"],
  ["castle", 4, "Castle", "Замък", "Ամրոց"],
  ["crown", 4, "Crown", "Корона", "Թագ"],
  ["scroll", 4, "Scroll", "Свитък", "Մագաղաթ"],
  ["crossed_swords", 3, "Crossed Swords", "Кръстосани мечове", "Խաչված սրեր"],
  ["poisoned_cup", 3, "Poisoned Cup", "Отровна чаша", "Թունավոր գավաթ"],
  ["bloody_dagger", 3, "Bloody Dagger", "Кървав кинжал", "Արյունոտ դաշույն"],
  ["drawn_bow", 3, "Drawn Bow", "Изпънат лък", "Լարված աղեղ"],
  ["gleaming_axe", 3, "Gleaming Axe", "Лъщяща брадва", "Փայլուն կացին"],
  ["candle", 2, "Candle", "Свещ", "Մոմ"],
  ["book", 2, "Book", "Книга", "Գիրք"],
  ["spyglass", 2, "Spyglass", "Далекоглед", "Դիտակ"],
  ["pestle", 2, "Pestle", "Чукало", "Սանդի կոթ"],
  ["quill", 2, "Quill", "Перо", "Փետրագրիչ"],
  ["grey_ship", 1, "Grey Ship", "Сив кораб", "Մոխրագույն նավ"],
  ["jolly_sailor", 1, "Jolly Sailor", "Весел моряк", "Զվարթ նավաստի"],
  ["rising_storm", 1, "Rising Storm", "Надигаща се буря", "Բարձրացող փոթորիկ"],
  ["dark_sea", 1, "Dark Sea", "Тъмно море", "Մութ ծով"],
  ["drowned_man", 1, "Drowned Man", "Удавник", "Խեղդված մարդ"],
];
export const SB = Object.fromEntries(SB_TABLE.map(([id, value, en, bg, hy], i) =>
  [id, { value, en, bg, hy, position: i + 1 }]));
export const SB_IDS = SB_TABLE.map((r) => r[0]);

export function sbName(id, l = lang()) {
  const c = SB[id];
  if (!c) return id;
  return c[l] || c.en;
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
  el.append(
    h("span", { class: "sb-value", "aria-hidden": "true" }, String(c.value)),
    h("span", { class: "sb-emblem", "aria-hidden": "true" }, SB_EMBLEM[group]),
    // the font shrinks so the longest word fits the card: lines break only between words
    h("span", { class: "sb-name", "aria-hidden": "true", lang: lang(),
      style: `--n: ${Math.max(6, ...name.split(/\s+/).map((w) => w.length))}` }, name),
  );
  return el;
}
