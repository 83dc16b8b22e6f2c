// Palace Poker table: banners, soldiers, own palace, battles with target choice, call/raise/fold.

import { h } from "../util.js";
import { t, tn, reasonText, addStrings } from "../i18n.js";
import { frenchCard, cardText, suitSym } from "../cards.js";
import { parseEntry, actButton, rangeControl, cardPicker } from "../actions.js";
import { seatBadge, row, returnsTable, term } from "./common.js";
import { explainEl, decidedText, battleBox } from "./pp_explain.js";

export function board(ctx) {
  const v = ctx.view;
  const revealed = v.revealed_palaces || {};
  const seats = h("div", { class: "ring" }, v.seats.map((s) => {
    const gs = s.seat;
    const out = !s.in_hand;
    const facts = [tn("table.chips", s.chips, { n: s.chips }), s.committed ? t("pp.committed", { n: s.committed }) : null,
      s.in_hand ? t("pp.attack_cost", { n: s.attack_cost }) : t("pp.folded")].filter(Boolean).join(" · ");
    const factsEl = h("div", { class: "facts" }, s.in_hand ? term(ctx, "attack_cost", facts) : facts);
    const shown = revealed[gs] || revealed[String(gs)];
    return h("div", { class: `ring-seat${out ? " folded" : ""}` },
      seatBadge(gs, ctx, { dealer: v.dealer, extra: [
        factsEl,
        h("div", { class: "pp-cards" },
          s.banner ? h("div", { class: "banner-card" }, h("span", { class: "lbl" }, term(ctx, "banner", t("pp.banner"))), frenchCard(s.banner, { small: true })) : null,
          s.soldiers.length ? h("div", { class: "soldiers" }, h("span", { class: "lbl" }, term(ctx, "soldiers", t("pp.soldiers"))),
            h("div", { class: "cards" }, s.soldiers.map((c) => frenchCard(c, { small: true })))) : null,
          shown ? h("div", { class: "revealed" }, h("span", { class: "lbl" }, t("pp.revealed")),
            h("div", { class: "cards" }, shown.map((c) => frenchCard(c, { small: true })))) : null),
      ] }));
  }));
  const b = v.battle;
  const center = h("div", { class: "center infobar" },
    row(term(ctx, "pot", t("pp.pot")), v.pot, { "data-pot": v.pot }), row(term(ctx, "stock", t("pp.stock")), v.stock_size),
    row(term(ctx, "discards", t("pp.discards")), v.discard_size),
    v.rejected?.length ? row(term(ctx, "rejected", t("pp.rejected")), h("span", { class: "cards inline" }, v.rejected.map((c) => frenchCard(c, { small: true })))) : null,
    b ? row("⚔", `${t("pp.battle_now", { a: ctx.name(b.attacker), d: ctx.name(b.defender) })}; ${
      Object.entries(b.owed || {}).filter(([, n]) => n > 0).map(([s, n]) => t("pp.owed", { name: ctx.name(Number(s)), n })).join(", ")}`) : null,
    v.last_battle && !b ? row("⚔", t("pp.last_battle", { name: ctx.name(v.last_battle.winner) })) : null);
  const palace = ctx.mySeat !== null && v.palace
    ? h("div", { class: "hand-box" }, h("h3", {}, term(ctx, "palace", t("pp.palace_label"))),
      h("div", { class: "hand cards" }, v.palace.map((c) => frenchCard(c))))
    : null;
  return h("div", { class: "pp" }, center, seats, palace);
}

// The soldiers to discard on a row of their own, then call and stay first, fold last (a fold
// ends the hand for the seat: never the first button).
const ORDER = { discard: -1, call: 0, stay: 0, buy: 1, battle: 2, raise: 2, fold: 3 };

export function controls(ctx) {
  const out = h("div", { class: "row pp-controls" });
  const legal = [...ctx.legal].sort((a, b) => (ORDER[a.type] ?? 2) - (ORDER[b.type] ?? 2));
  for (const e of legal) {
    if (e.type === "discard") {  // the soldiers to discard: in the bar with the other calls
      if (ctx.act) out.append(cardPicker(parseEntry(e).choices[0], frenchCard, ctx, t("act.discard"),
        (cards) => ctx.act({ type: "discard", cards })));
      continue;
    }
    const p = parseEntry(e);
    const label = e.type === "battle" ? t("act.battle_vs", { name: ctx.name(e.target) }) : t(`act.${e.type}`);
    const pays = battlePays(e, ctx);
    if (pays !== null) {
      out.append(actButton(pays.label, e, ctx, { attrs: { "data-amount": pays.n, title: t("act.pays_hint", { n: pays.n }) } }));
    } else if (p.ranges.length) out.append(rangeControl(e, p.ranges[0], ctx, `${label} ${t(`act.${p.ranges[0].f}`)}`));
    else out.append(actButton(label, e, ctx, e.type === "battle" ? { attrs: { "data-target": e.target } } : {}));
  }
  return out.childNodes.length ? out : null;
}

/** What a battle response pays (view.battle: owed, raise_by; rule 8): a call pays what is
 * owed (all-in when the chips are fewer), a limit raise what is owed plus raise_by. `null`
 * for any other entry, and for a no-limit raise (its slider names the amount). */
function battlePays(e, ctx) {
  const b = ctx.view.battle;
  if (!b || ctx.mySeat === null || (e.type !== "call" && e.type !== "raise")) return null;
  const owed = b.owed?.[String(ctx.mySeat)] ?? 0;
  const chips = ctx.view.seats?.[ctx.mySeat]?.chips ?? 0;
  if (e.type === "call") {
    const n = Math.min(owed, chips);
    return { n, label: t(owed > chips ? "act.call_all_in" : "act.call_n", { n }) };
  }
  if (b.raise_by === null || b.raise_by === undefined || "min_by" in e) return null;
  const n = owed + b.raise_by;
  return { n, label: t("act.raise_pay", { n }) };
}

export function describe(ev, ctx) {
  const name = ev.seat !== undefined ? ctx.name(ev.seat) : "";
  switch (ev.kind) {
    case "banners": return t("pp.banners");
    case "palace": return ev.seat === ctx.mySeat ? t("pp.palace", { cards: ev.cards.map(cardText).join(" ") }) : null;
    case "palaces_dealt": return t("pp.palaces_dealt", { n: ev.stock_size });
    case "reshuffle": return t("pp.reshuffle");
    case "buy": return t("pp.buy", { name, paid: ev.paid });
    case "soldier": return t("pp.soldier", { name, card: cardText(ev.card) });
    case "discard": return ev.count ? t("pp.discard", { name, count: ev.count }) : t("pp.keeps_all", { name });
    case "stay": return t("pp.stay", { name });
    case "fold": return t("pp.fold", { name });
    case "battle": return t("pp.battle", { name: ctx.name(ev.attacker), target: ctx.name(ev.defender), paid: ev.paid });
    case "raise": return t("pp.raise", { name, paid: ev.paid });
    case "call": return t("pp.call", { name, paid: ev.paid });
    case "battle_fold": return t("pp.battle_fold", { name });
    case "battle_reveal": return `${t("pp.battle_reveal")}: ${comparedText(ev, [ev.attacker, ev.defender], ctx)}. ${decidedText(ev, ctx)}`.trim();
    case "battle_result":
      if (ev.tie) return t("pp.battle_tie");
      return t("pp.battle_result", { name: ctx.name(ev.winner), loser: ctx.name(ev.loser) });
    case "hand_end": {
      const winners = ev.winners || [];
      return `${tn("pp.hand_end", winners.length, { names: winners.map((s) => ctx.name(s)).join(", "), pot: ev.pot })}${
        ev.reason && ev.reason !== "showdown" ? ` (${reasonText(ev.reason)})` : ""}`;
    }
    case "abandoned": return t("ev.abandoned");
    default: return undefined;
  }
}

/** "Anna: two pair (without ♠) vs Boris: high card": the hands the server compared (a battle's
 * battle_reveal, or a showdown's hand_end.compared), with the banner suit each side lost. */
function comparedText(c, seats, ctx) {
  return seats.map((s) => {
    const hand = c.hands?.[String(s)];
    const ex = c.excluded?.[String(s)];
    return `${ctx.name(s)}: ${hand ? t(`pp.cat.${hand}`) : "?"}${ex ? ` (${t("pp.without", { suit: suitSym(ex) })})` : ""}`;
  }).join(` ${t("pp.vs")} `);
}

// The last called battle this hand that the player saw compared (its battle_reveal): the
// summary of a hand it ended explains it.
let lastReveal = null;

/** table.js's event hook: remember the battle_reveal seen; a new hand forgets it. */
export function onEvent(ev, ctx) {
  if (ev.kind === "banners") lastReveal = null;
  if (ev.kind === "battle_reveal") lastReveal = { ev, names: [ctx.name(ev.attacker), ctx.name(ev.defender)] };
}

/** A called battle's box, for the two who saw it compared (table.js's eventSummary hook). */
export function eventSummary(ev, ctx) {
  return ev.kind === "battle_reveal" ? battleBox(ev, ctx) : null;
}

/** The battle that left one player (reason last_player): who beat whom (view.last_battle,
 * public) and, for a battler, the hands compared. */
function lastBattleEl(outcome, ctx) {
  const lb = ctx.view?.last_battle;
  if (outcome.reason !== "last_player" || !lb || lb.winner === null || lb.winner === undefined) return null;
  const lose = lb.winner === lb.attacker ? lb.defender : lb.attacker;
  // the same battle (not one of another table left mid-hand): its battlers by seat and name
  const r = lastReveal;
  const seen = r && lb.called && r.ev.attacker === lb.attacker && r.ev.defender === lb.defender
    && r.names[0] === ctx.name(lb.attacker) && r.names[1] === ctx.name(lb.defender) ? r.ev : null;
  return h("div", { "data-last-battle": "1" },
    h("p", { class: "decided" }, t("pp.won_battle", { win: ctx.name(lb.winner), lose: ctx.name(lose) })),
    seen ? explainEl(seen, ctx) : null);
}

export function summary(outcome, ctx) {
  const d = outcome.detail || {};
  return h("div", { class: "hand-summary" },
    h("h2", {}, tn("pp.winners", (d.winners || []).length, { names: (d.winners || []).map((s) => ctx.name(s)).join(", ") })),
    h("p", { "data-reason": outcome.reason }, `${reasonText(outcome.reason)} · ${t("pp.pot")} ${d.pot ?? ""}`),
    d.compared ? explainEl(d.compared, ctx, d.shown) : lastBattleEl(outcome, ctx),
    returnsTable(outcome.returns, ctx, t("pp.returns")));
}

/** The rules-config fields the lobby's create form offers (the catalog gives kinds and bounds). */
export const lobbyFields = [
  { name: "small_bet", label: "lobby.small_bet" }, { name: "big_bet", label: "lobby.big_bet" },
  { name: "ante", label: "lobby.ante" },
  { name: "structure", label: "lobby.structure", labels: { limit: "lobby.limit", no_limit: "lobby.no_limit" } },
];

// This game's interface text (en, bg, hy): added to i18n.js's tables when the module loads.
addStrings({
  en: {
    "pp.palaces_dealt": "Palaces dealt; stock {n}.", "pp.palace": "Your palace: {cards}",
    "pp.banners": "Banners dealt.", "pp.soldier": "{name} draws a soldier {card}",
    "pp.buy": "{name} buys ({paid})", "pp.fold": "{name} folds", "pp.stay": "{name} stays",
    "pp.discard": "{name} discards {count}", "pp.keeps_all": "{name} keeps all", "pp.raise": "{name} raises ({paid})",
    "pp.battle": "{name} attacks {target} ({paid})", "pp.battle_fold": "{name} gives up the battle",
    "pp.call": "{name} calls ({paid})", "pp.battle_tie": "The battle is a tie",
    "pp.battle_result": "{name} wins the battle against {loser}",
    "pp.reshuffle": "The discards are reshuffled.", "pp.battle_reveal": "Battle palaces revealed",
    "pp.stock": "Stock", "pp.pot": "Pot", "pp.hand_end": "Hand over: {names} win {pot}",
    "pp.banner": "Banner", "pp.rejected": "Rejected banners", "pp.discards": "Discards",
    "pp.committed": "in pot {n}", "pp.palace_label": "Your palace", "pp.soldiers": "Soldiers",
    "pp.battle_now": "Battle: {a} attacks {d}", "pp.folded": "out", "pp.attack_cost": "attack costs {n}",
    "pp.last_battle": "Last battle: {name} won", "pp.revealed": "Palace", "pp.owed": "{name} owes {n}",
    "pp.returns": "Chips won or lost", "pp.winners": "Winners: {names}",
    "pp.hand_end.other": "Hand over: {names} win {pot}", "pp.hand_end.one": "Hand over: {names} wins {pot}",
    "pp.winners.other": "Winners: {names}", "pp.winners.one": "Winner: {names}",
    "pp.without": "without {suit}", "pp.vs": "vs",
    "pp.compared_battle": "Two players left: compared under battle rules (the opponent's banner suit does not count).",
    "pp.compared_normal": "Showdown: best five of all own cards.", "pp.cat.two_pair": "two pair",
    "pp.cat.pair": "pair", "pp.cat.high_card": "high card", "pp.cat.flush": "flush",
    "pp.cat.straight": "straight", "pp.cat.three_of_a_kind": "three of a kind",
    "pp.cat.four_of_a_kind": "four of a kind", "pp.cat.full_house": "full house",
    "pp.cat.no_cards": "no cards", "pp.cat.straight_flush": "straight flush",
  },
  bg: {
    "pp.palaces_dealt": "Дворците са раздадени; тесте {n}.", "pp.palace": "Вашият дворец: {cards}",
    "pp.banners": "Знамената са раздадени.", "pp.soldier": "{name} тегли войник {card}",
    "pp.buy": "{name} купува ({paid})", "pp.fold": "{name} се отказва", "pp.stay": "{name} остава",
    "pp.discard": "{name} изхвърля {count}", "pp.keeps_all": "{name} не изхвърля нищо", "pp.raise": "{name} вдига ({paid})",
    "pp.battle": "{name} напада {target} ({paid})", "pp.battle_fold": "{name} се отказва от битката",
    "pp.call": "{name} плаща ({paid})", "pp.battle_tie": "Битката е наравно",
    "pp.battle_result": "{name} печели битката срещу {loser}",
    "pp.reshuffle": "Изхвърлените карти се разбъркват.", "pp.battle_reveal": "Дворците в битката са показани",
    "pp.stock": "Тесте", "pp.pot": "Банка", "pp.hand_end": "Край на ръката: {names} печелят {pot}",
    "pp.banner": "Знаме", "pp.rejected": "Отхвърлени знамена", "pp.discards": "Изхвърлени",
    "pp.committed": "в банката {n}", "pp.palace_label": "Вашият дворец", "pp.soldiers": "Войници",
    "pp.battle_now": "Битка: {a} напада {d}", "pp.folded": "вън", "pp.attack_cost": "атака струва {n}",
    "pp.last_battle": "Последна битка: победи {name}", "pp.revealed": "Дворец", "pp.owed": "{name} дължи {n}",
    "pp.returns": "Спечелени или загубени чипове", "pp.winners": "Победители: {names}",
    "pp.hand_end.other": "Край на ръката: {names} печелят {pot}",
    "pp.hand_end.one": "Край на ръката: {names} печели {pot}", "pp.winners.other": "Победители: {names}",
    "pp.winners.one": "Победител: {names}", "pp.without": "без {suit}", "pp.vs": "срещу",
    "pp.compared_battle": "Останаха двама: сравняват се по правилата на битката (боята на знамето на противника не се брои).",
    "pp.compared_normal": "Разкриване: най-добрите пет от всички собствени карти.",
    "pp.cat.two_pair": "два чифта", "pp.cat.pair": "чифт", "pp.cat.high_card": "висока карта",
    "pp.cat.flush": "флош", "pp.cat.straight": "кента", "pp.cat.three_of_a_kind": "тройка",
    "pp.cat.four_of_a_kind": "каре", "pp.cat.full_house": "фул", "pp.cat.no_cards": "няма карти",
    "pp.cat.straight_flush": "кента флош",
  },
  hy: {
    "pp.palaces_dealt": "Պալատները բաժանված են; կապուկ {n}։", "pp.palace": "Ձեր պալատը՝ {cards}",
    "pp.banners": "Դրոշները բաժանված են։", "pp.soldier": "{name}-ը վերցնում է զինվոր {card}",
    "pp.buy": "{name}-ը գնում է ({paid})", "pp.fold": "{name}-ը հրաժարվում է", "pp.stay": "{name}-ը մնում է",
    "pp.discard": "{name}-ը դեն է նետում {count}", "pp.keeps_all": "{name}-ը պահում է բոլորը", "pp.raise": "{name}-ը բարձրացնում է ({paid})",
    "pp.battle": "{name}-ը հարձակվում է {target}-ի վրա ({paid})", "pp.battle_fold": "{name}-ը հանձնվում է",
    "pp.call": "{name}-ը վճարում է ({paid})", "pp.battle_tie": "Ճակատամարտը ոչ-ոքի է",
    "pp.battle_result": "{name}-ը հաղթում է {loser}-ին", "pp.reshuffle": "Դեն նետված քարտերը խառնվում են։",
    "pp.battle_reveal": "Ճակատամարտի պալատները բացված են", "pp.stock": "Կապուկ", "pp.pot": "Բանկ",
    "pp.hand_end": "Ձեռքն ավարտվեց․ {names} շահում են {pot}", "pp.banner": "Դրոշ",
    "pp.rejected": "Մերժված դրոշներ", "pp.discards": "Դեն նետված", "pp.committed": "բանկում {n}",
    "pp.palace_label": "Ձեր պալատը", "pp.soldiers": "Զինվորներ",
    "pp.battle_now": "Ճակատամարտ․ {a}-ը հարձակվում է {d}-ի վրա", "pp.folded": "դուրս",
    "pp.attack_cost": "հարձակումն արժե {n}", "pp.last_battle": "Վերջին ճակատամարտ․ հաղթեց {name}",
    "pp.revealed": "Պալատ", "pp.owed": "{name}-ը պարտք է {n}", "pp.returns": "Շահած կամ կորցրած ժետոններ",
    "pp.winners": "Հաղթողներ՝ {names}", "pp.hand_end.other": "Ձեռքն ավարտվեց․ {names} շահում են {pot}",
    "pp.hand_end.one": "Ձեռքն ավարտվեց․ {names}-ը շահում է {pot}", "pp.winners.other": "Հաղթողներ՝ {names}",
    "pp.winners.one": "Հաղթող՝ {names}", "pp.without": "առանց {suit}", "pp.vs": "ընդդեմ",
    "pp.compared_battle": "Մնաց երկու խաղացող. համեմատվում են մարտի կանոններով (հակառակորդի դրոշի մաստը չի հաշվվում)։",
    "pp.compared_normal": "Բացում. բոլոր սեփական քարտերից լավագույն հինգը։", "pp.cat.two_pair": "երկու զույգ",
    "pp.cat.pair": "զույգ", "pp.cat.high_card": "բարձր քարտ", "pp.cat.flush": "ֆլեշ",
    "pp.cat.straight": "սթրեյթ", "pp.cat.three_of_a_kind": "եռյակ", "pp.cat.four_of_a_kind": "կարե",
    "pp.cat.full_house": "ֆուլ հաուս", "pp.cat.no_cards": "քարտ չկա", "pp.cat.straight_flush": "սթրեյթ ֆլեշ",
  },
});
