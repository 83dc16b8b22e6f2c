// Soldier's Bluff table: named cards, exchange picker, betting with sliders, showdown.

import { h } from "../util.js";
import { t, tn, reasonText, addStrings } from "../i18n.js";
import { sbCard, sbName, backs } from "../cards.js";
import { parseEntry, actButton, rangeControl, cardPicker } from "../actions.js";
import { seatBadge, row, returnsTable, term } from "./common.js";

export function board(ctx) {
  const v = ctx.view;
  const seats = h("div", { class: "ring" }, v.seats.map((s) => {
    const gs = s.seat;
    const facts = [
      s.in_hand ? tn("table.chips", s.chips, { n: s.chips }) : t("table.out_of_hand"),
      s.stake ? t("sb.stake", { n: s.stake }) : null,
      s.exchanged !== null && s.exchanged !== undefined ? t("sb.exch", { n: s.exchanged }) : null,
      s.folded ? t("sb.folded") : null,
    ].filter(Boolean).join(" · ");
    // the own hand is drawn once, large, below the seats (shown at a showdown or not)
    const mine = gs === ctx.mySeat;
    const sum = v.outcome?.detail?.sums?.[gs];
    const cards = s.shown && !mine ? h("div", { class: "cards shown" }, s.shown.map((c) => sbCard(c, { small: true })),
      sum !== null && sum !== undefined ? h("span", { class: "sum", "data-sum": sum }, t("sb.sum_n", { n: sum })) : null)
      : (!mine && s.in_hand && !s.folded && v.phase !== "over" ? backs(6) : null);
    return h("div", { class: `ring-seat${s.folded ? " folded" : ""}` },
      seatBadge(gs, ctx, { dealer: v.dealer, extra: [h("div", { class: "facts" }, facts), cards] }));
  }));
  const center = h("div", { class: "center infobar" },
    row(term(ctx, "pot", t("sb.pot")), v.pot, { "data-pot": v.pot }), row(term(ctx, "round", t("sb.round_label")), v.round),
    row(term(ctx, "highest", t("sb.highest")), v.highest),
    row(term(ctx, "cap", t("sb.cap")), v.cap), row(term(ctx, "stock", t("sb.stock")), v.stock_size));
  const exchange = ctx.legal.find((e) => e.type === "exchange");
  let hand = null;
  if (ctx.mySeat !== null) {
    hand = exchange && ctx.act
      ? cardPicker(parseEntry(exchange).choices[0], sbCard, ctx, t("act.exchange"),
        (cards) => ctx.act({ type: "exchange", cards }))
      : h("div", { class: "hand cards" }, v.hand.map((c) => sbCard(c)));
  }
  const mySum = v.hand_sum === null || v.hand_sum === undefined ? null
    : h("p", { class: "hand-sum", "data-hand-sum": v.hand_sum }, term(ctx, "sum", t("sb.your_sum")), ": ",
      h("strong", {}, String(v.hand_sum)));
  return h("div", { class: "sb" }, center, seats, h("div", { class: "hand-box" }, hand, mySum));
}

// Pass and check first (the timeout's own choice, and the most common), fold last.
const ORDER = { pass: 0, check: 0, call: 1, bet: 2, raise: 2, fold: 3 };

export function controls(ctx) {
  const out = h("div", { class: "row bet-controls" });
  const v = ctx.view;
  const stake = v.seats?.[ctx.mySeat]?.stake ?? 0;
  const legal = [...ctx.legal].sort((a, b) => (ORDER[a.type] ?? 2) - (ORDER[b.type] ?? 2));
  for (const e of legal) {
    if (e.type === "exchange") continue;
    const p = parseEntry(e);
    // bet and raise name the stake they reach (min_to..max_to: rule 8, "to" a total)
    if (p.ranges.length) out.append(rangeControl(e, p.ranges[0], ctx, t(`act.${e.type}_to`)));
    else if (e.type === "call") {  // a call matches the highest stake (view.highest)
      const n = Math.max(0, (v.highest ?? 0) - stake);
      out.append(actButton(t("act.call_n", { n }), e, ctx, { attrs: { "data-amount": n, title: t("act.pays_hint", { n }) } }));
    } else out.append(actButton(t(`act.${e.type}`), e, ctx));
  }
  return out.childNodes.length ? out : null;
}

export function describe(ev, ctx) {
  const name = ev.seat !== undefined ? ctx.name(ev.seat) : "";
  switch (ev.kind) {
    case "antes": return t("sb.antes", { pot: ev.pot });
    case "deal": return t("sb.deal", { n: ev.stock_size });
    case "dealt": return null;
    case "exchanged": return t("sb.exchanged", { name, n: ev.count });
    case "drew": return !ev.discarded.length ? null : t("sb.drew", { out: ev.discarded.map((c) => sbName(c)).join(", ") || "—",
      in: ev.drawn.map((c) => sbName(c)).join(", ") || "—" });
    case "round": return t("sb.round", { n: ev.round });
    case "pass": case "bet": case "check": case "call": case "raise": case "fold":
      return t(`sb.${ev.kind}`, { name, stake: ev.stake });
    case "showdown": return `${t("sb.showdown")}: ${Object.entries(ev.hands || {}).map(([s, cs]) =>
      cs ? `${ctx.name(Number(s))} — ${ev.sums ? `${ev.sums[s]}: ` : ""}${cs.map((c) => sbName(c)).join(", ")}` : "").filter(Boolean).join("; ")}${
      ev.decided_by ? `. ${decidedText(ev.decided_by, ev.winner, ev.strongest, ctx)}` : ""}`;
    case "pot_awarded": return tn("sb.pot_awarded", ev.chips, { name, chips: ev.chips });
    case "abandoned": return t("ev.abandoned");
    default: return undefined;
  }
}

/** Which clause of rule 9 decided, in words (the server names it: showdown.decided_by). */
function decidedText(rule, winner, strongest, ctx) {
  const card = strongest?.[String(winner)];
  return t(`sb.decided.${rule}`, { name: ctx.name(winner), card: card ? sbName(card) : "" });
}

export function summary(outcome, ctx) {
  const d = outcome.detail || {};
  return h("div", { class: "hand-summary" },
    h("h2", {}, t("sb.winner", { name: ctx.name(d.winner) })),
    h("p", { "data-reason": outcome.reason }, `${reasonText(outcome.reason)} · ${t("sb.pot")} ${d.pot}`),
    d.decided_by ? h("p", { class: "decided", "data-decided": d.decided_by },
      decidedText(d.decided_by, d.winner, d.strongest, ctx)) : null,
    d.shown ? h("div", { class: "shown-hands" }, d.shown.map((cs, gs) => cs
      ? h("div", { "data-shown-seat": gs }, h("strong", {}, ctx.name(gs)),
        d.sums ? h("span", { class: "sum", "data-sum": d.sums[gs] }, ` ${t("sb.sum_n", { n: d.sums[gs] })}`) : null,
        h("div", { class: "cards" }, cs.map((c) => sbCard(c, { small: true }))))
      : null)) : null,
    returnsTable(outcome.returns, ctx, t("sb.returns")));
}

/** A face-up card of this game (the replay's open hands; French cards are the default). */
export function card(code, opts = {}) { return sbCard(code, opts); }

/** The rules-config fields the lobby's create form offers (the catalog gives kinds and bounds). */
export const lobbyFields = [{ name: "ante", label: "lobby.ante" }, { name: "min_bet", label: "lobby.min_bet" }];

// This game's interface text (en, bg, hy): added to i18n.js's tables when the module loads.
addStrings({
  en: {
    "sb.deal": "Cards dealt; {n} left in the stock.", "sb.antes": "Antes posted; pot {pot}.",
    "sb.drew": "You discard {out} and draw {in}.", "sb.exchanged": "{name} exchanges {n}",
    "sb.bet": "{name} bets to {stake}", "sb.pass": "{name} passes", "sb.round": "Betting round {n}",
    "sb.raise": "{name} raises to {stake}", "sb.call": "{name} calls ({stake})", "sb.check": "{name} checks",
    "sb.pot_awarded": "{name} wins {chips} chips", "sb.showdown": "Showdown", "sb.fold": "{name} folds",
    "sb.cap": "Cap", "sb.highest": "Highest stake", "sb.round_label": "Round", "sb.pot": "Pot",
    "sb.exch": "exchanged {n}", "sb.folded": "folded", "sb.stake": "stake {n}", "sb.stock": "Stock",
    "sb.returns": "Chips won or lost", "sb.winner": "Winner: {name}", "sb.value": "value {n}",
    "sb.pot_awarded.other": "{name} wins {chips} chips", "sb.pot_awarded.one": "{name} wins {chips} chip",
    "sb.sum_n": "sum {n}", "sb.your_sum": "Your sum",
    "sb.decided.soldiers_bluff": "{name} wins with the Soldier's Bluff, which beats every sum.",
    "sb.decided.sum": "{name} wins with the highest sum.",
    "sb.decided.strongest_card": "Equal sums: {name} wins with the strongest card, {card}.",
  },
  bg: {
    "sb.deal": "Картите са раздадени; в тестето остават {n}.", "sb.antes": "Антето е платено; банка {pot}.",
    "sb.drew": "Изхвърляте {out} и теглите {in}.", "sb.exchanged": "{name} сменя {n}",
    "sb.bet": "{name} залага до {stake}", "sb.pass": "{name} казва пас", "sb.round": "Кръг на залагане {n}",
    "sb.raise": "{name} вдига до {stake}", "sb.call": "{name} плаща ({stake})", "sb.check": "{name} чека",
    "sb.pot_awarded": "{name} печели {chips} чипа", "sb.showdown": "Показване",
    "sb.fold": "{name} се отказва", "sb.cap": "Таван", "sb.highest": "Най-висок залог",
    "sb.round_label": "Кръг", "sb.pot": "Банка", "sb.exch": "сменил {n}", "sb.folded": "отказал се",
    "sb.stake": "залог {n}", "sb.stock": "Тесте", "sb.returns": "Спечелени или загубени чипове",
    "sb.winner": "Победител: {name}", "sb.value": "стойност {n}",
    "sb.pot_awarded.other": "{name} печели {chips} чипа", "sb.pot_awarded.one": "{name} печели {chips} чип",
    "sb.sum_n": "сума {n}", "sb.your_sum": "Вашата сума",
    "sb.decided.soldiers_bluff": "{name} печели с Войнишкия блъф, който бие всяка сума.",
    "sb.decided.sum": "{name} печели с най-високата сума.",
    "sb.decided.strongest_card": "Равни суми: {name} печели с най-силната карта, {card}.",
  },
  hy: {
    "sb.deal": "Քարտերը բաժանված են; կապուկում մնաց {n}։", "sb.antes": "Անտեները դրված են; բանկ {pot}։",
    "sb.drew": "Դեն եք նետում {out} և վերցնում {in}։", "sb.exchanged": "{name}-ը փոխում է {n}",
    "sb.bet": "{name}-ը դնում է մինչև {stake}", "sb.pass": "{name}՝ պաս",
    "sb.round": "Խաղադրույքների շրջան {n}", "sb.raise": "{name}-ը բարձրացնում է մինչև {stake}",
    "sb.call": "{name}-ը վճարում է ({stake})", "sb.check": "{name}՝ չեք",
    "sb.pot_awarded": "{name}-ը շահում է {chips} ժետոն", "sb.showdown": "Բացում",
    "sb.fold": "{name}-ը հրաժարվում է", "sb.cap": "Առավելագույն", "sb.highest": "Ամենաբարձր խաղադրույք",
    "sb.round_label": "Շրջան", "sb.pot": "Բանկ", "sb.exch": "փոխել է {n}", "sb.folded": "հրաժարվել է",
    "sb.stake": "խաղադրույք {n}", "sb.stock": "Կապուկ", "sb.returns": "Շահած կամ կորցրած ժետոններ",
    "sb.winner": "Հաղթող՝ {name}", "sb.value": "արժեք {n}",
    "sb.pot_awarded.other": "{name}-ը շահում է {chips} ժետոն",
    "sb.pot_awarded.one": "{name}-ը շահում է {chips} ժետոն", "sb.sum_n": "գումար {n}",
    "sb.your_sum": "Ձեր գումարը",
    "sb.decided.soldiers_bluff": "{name}-ը հաղթում է Զինվորի բլեֆով, որը հաղթում է ցանկացած գումարի։",
    "sb.decided.sum": "{name}-ը հաղթում է ամենաբարձր գումարով։",
    "sb.decided.strongest_card": "Հավասար գումարներ. {name}-ը հաղթում է ամենաուժեղ քարտով՝ {card}։",
  },
});
