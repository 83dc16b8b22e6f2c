// Why a hand won, in words: each side's five cards, the suit it lost and what decided. The
// server says all of it (battle_reveal / hand_end.compared: hands, best, excluded, decided);
// nothing here compares hands.

import { h } from "../util.js";
import { t, addStrings } from "../i18n.js";
import { frenchCard, suitSym } from "../cards.js";

const RANK = { T: "10" };

/** "Anna wins: K beats Q (both have pair)": the server's `decided` in words; "" without it. */
export function decidedText(c, ctx) {
  const d = c?.decided;
  if (!d) return "";
  const [win, lose] = d.seats;
  const hand = (s) => t(`pp.cat.${c.hands?.[String(s)] ?? "no_cards"}`);
  const rank = (s) => { const r = d.ranks?.[String(s)] ?? "?"; return RANK[r] || r; };
  return t(`pp.dec.${d.by}`, { win: ctx.name(win), lose: ctx.name(lose), whand: hand(win),
    lhand: hand(lose), hand: hand(win), wr: rank(win), lr: rank(lose) });
}

/** The comparison drawn: per seat its name, hand, the suit left out and the cards that made
 * the hand (`best`; else the eligible or shown cards), the winner marked; then what decided.
 * `c`: a battle_reveal event or a hand_end's `compared`; `shown`: hand_end.shown. */
export function explainEl(c, ctx, shown = null) {
  if (!c?.hands) return null;
  const seats = Object.keys(c.hands).map(Number);
  const winner = c.decided && c.decided.by !== "tie" ? c.decided.seats[0] : null;
  return h("div", { class: "compared", "data-compared": c.rule || "battle" },
    h("p", {}, t(c.rule === "normal" ? "pp.compared_normal" : c.rule === "battle" ? "pp.compared_battle" : "pp.compared_in_battle")),
    h("ul", {}, seats.map((s) => {
      const ex = c.excluded?.[String(s)];
      const cards = c.best?.[String(s)] || c.eligible?.[String(s)] || shown?.[String(s)] || [];
      return h("li", { "data-hand-of": s, class: s === winner ? "winner" : "" },
        h("strong", {}, ctx.name(s)), `: ${t(`pp.cat.${c.hands[String(s)]}`)}`,
        ex ? h("span", { "data-excluded": ex }, ` (${t("pp.without", { suit: suitSym(ex) })})`) : "",
        h("div", { class: "cards", "data-best": "1", "aria-label": t("pp.best_five") },
          cards.map((x) => frenchCard(x, { small: true }))));
    })),
    c.decided ? h("p", { class: "decided", "data-decided": c.decided.by }, decidedText(c, ctx)) : null);
}

/** The box a battler sees as a called battle ends (table.js's eventSummary hook). */
export function battleBox(ev, ctx) {
  return h("div", { class: "battle-summary", "data-battle-explained": "1" },  // not the hand's result
    h("h2", {}, t("pp.battle_explained", { a: ctx.name(ev.attacker), d: ctx.name(ev.defender) })),
    explainEl(ev, ctx));
}

addStrings({
  en: {
    "pp.dec.category": "{win} wins: {whand} beats {lhand}.",
    "pp.dec.rank": "{win} wins: both have {hand}; {wr} beats {lr}.",
    "pp.dec.cards": "{win} wins: both have {hand}; {lose} has fewer cards (a missing card ranks below a 2).",
    "pp.dec.own_suit": "Equal hands: {win} wins with more cards of the own banner suit.",
    "pp.dec.tie": "Equal hands: a tie.",
    "pp.won_battle": "{win} won the battle against {lose}.",
    "pp.battle_explained": "Battle: {a} against {d}", "pp.best_five": "the cards that count",
    "pp.compared_in_battle": "In a battle the opponent's banner suit does not count.",
  },
  bg: {
    "pp.dec.category": "{win} печели: {whand} бие {lhand}.",
    "pp.dec.rank": "{win} печели: и двамата имат {hand}; {wr} бие {lr}.",
    "pp.dec.cards": "{win} печели: и двамата имат {hand}; {lose} има по-малко карти (липсваща карта е под двойката).",
    "pp.dec.own_suit": "Равни ръце: {win} печели с повече карти от боята на своето знаме.",
    "pp.dec.tie": "Равни ръце: наравно.",
    "pp.won_battle": "{win} спечели битката срещу {lose}.",
    "pp.battle_explained": "Битка: {a} срещу {d}", "pp.best_five": "картите, които се броят",
    "pp.compared_in_battle": "В битка боята на знамето на противника не се брои.",
  },
  hy: {
    "pp.dec.category": "Հաղթում է {win}-ը․ {whand} ընդդեմ {lhand}։",
    "pp.dec.rank": "Հաղթում է {win}-ը․ երկուսն էլ ունեն {hand}, {wr}-ը բարձր է {lr}-ից։",
    "pp.dec.cards": "Հաղթում է {win}-ը․ երկուսն էլ ունեն {hand}, {lose}-ը ունի ավելի քիչ քարտ (պակասող քարտը 2-ից ցածր է)։",
    "pp.dec.own_suit": "Հավասար ձեռքեր․ հաղթում է {win}-ը՝ իր դրոշի մաստի ավելի շատ քարտերով։",
    "pp.dec.tie": "Հավասար ձեռքեր․ ոչ-ոքի։",
    "pp.won_battle": "{win}-ը հաղթեց {lose}-ին ճակատամարտում։",
    "pp.battle_explained": "Ճակատամարտ․ {a} ընդդեմ {d}", "pp.best_five": "հաշվվող քարտերը",
    "pp.compared_in_battle": "Մարտում հակառակորդի դրոշի մաստը չի հաշվվում։",
  },
});
