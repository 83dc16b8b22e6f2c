// Bazaar Blot table: four seats around a trick, the auction, the bidding box, the deal summary.

import { h } from "../util.js";
import { t, reasonText, addStrings } from "../i18n.js";
import { frenchCard, backs, suitSym, cardText } from "../cards.js";
import { parseEntry, actButton } from "../actions.js";
import { seatBadge, row } from "./common.js";
import { trickEl, lastTrickEl, onEvent } from "./blot_trick.js";

export { onEvent };

const SUITS = ["c", "d", "h", "s"];
const POS = ["bottom", "left", "top", "right"];

function teamOf(seat) { return seat % 2; }

/** The teams in the order a seated player reads them: their own first ("Us : Them"). */
function teamOrder(ctx) {
  if (ctx.mySeat === null || ctx.mySeat === undefined) return [0, 1];
  return [teamOf(ctx.mySeat), 1 - teamOf(ctx.mySeat)];
}

function teamLabel(team, ctx) {
  if (ctx.mySeat === null || ctx.mySeat === undefined) return t("blot.team", { n: team + 1 });
  return team === teamOf(ctx.mySeat) ? t("blot.we") : t("blot.they");
}

/** Under a seat's name: "partner" for the seat across the felt from a player; a spectator
 * reads each seat's team ("Team 1", "Team 2"). */
function teamTag(s, ctx) {
  if (ctx.mySeat === null || ctx.mySeat === undefined) {
    return h("span", { class: "tag team", "data-team-tag": teamOf(s) }, t("blot.team", { n: teamOf(s) + 1 }));
  }
  if (s === ctx.mySeat || teamOf(s) !== teamOf(ctx.mySeat)) return null;
  return h("span", { class: "tag partner", "data-partner": "1" }, t("blot.partner"));
}

function contractText(c) {
  if (!c) return t("blot.none");
  const what = c.kapot ? `${t("blot.kapot_word")} ${suitSym(c.trump)}` : `${c.level}${suitSym(c.trump)}`;
  return what + (c.multiplier > 1 ? ` ×${c.multiplier}` : "");
}

function declText(d) {
  const kind = d.kind === "sequence" ? t("blot.sequence", { n: d.length }) : t("blot.carre");
  const cards = d.cards ? ` (${d.cards.map(cardText).join(" ")})` : "";
  return `${kind} = ${d.value}${cards}`;
}

// Selected trick-1 declaration (a key of declare_from sets) kept across renders.
let chosenDecl = null;

function declareKey(cards) { return [...cards].sort().join(","); }

export function board(ctx) {
  const v = ctx.view;
  const me = ctx.mySeat ?? 0;
  const rel = (s) => POS[(s - me + 4) % 4];
  const plays = new Map();
  for (const e of ctx.legal) if (e.type === "play") {
    if (!plays.has(e.card)) plays.set(e.card, []);
    plays.get(e.card).push(e);
  }
  const trick = v.trick?.cards || [];
  const [a, b] = teamOrder(ctx);
  const info = h("div", { class: "infobar" },
    row(t("blot.contract_label"), v.contract
      ? `${contractText(v.contract)} — ${ctx.name(v.contract.declarer)}`
      : (v.auction?.standing ? `(${contractText({ ...v.auction.standing, multiplier: v.auction.multiplier })} — ${ctx.name(v.auction.standing.seat)})` : t("blot.none"))),
    row(t("blot.match"), `${teamLabel(a, ctx)} ${v.match_score[a]} : ${v.match_score[b]} ${teamLabel(b, ctx)} (${t("blot.target", { n: v.target_score })})`),
    row(t("blot.tricks"), `${v.tricks_won[a]} : ${v.tricks_won[b]}`),
    row(t("blot.points"), `${v.card_points[a]} : ${v.card_points[b]}`));

  const seats = [0, 1, 2, 3].map((s) => {
    const isMe = ctx.mySeat === s;
    return h("div", { class: `blot-seat pos-${rel(s)} team-${teamOf(s)}`, "data-team": teamOf(s) },
      seatBadge(s, ctx, { dealer: v.dealer, extra: teamTag(s, ctx) }),
      isMe ? null : backs(v.hand_sizes[s]));
  });
  seats.push(trickEl(ctx, trick, rel));  // a finished trick stays a moment (blot_trick.js)

  const hand = ctx.mySeat === null ? null : h("div", { class: "hand cards", role: "group", "aria-label": "hand" },
    v.hand.map((c) => {
      const entries = plays.get(c);
      if (!entries || !ctx.act) return frenchCard(c, { dataset: entries ? { playable: "1" } : {} });
      return frenchCard(c, {
        legal: true, dataset: { act: "play" },
        onclick: () => {
          const withDecl = chosenDecl && entries.find((e) => e.declare_from && declareKey(e.declare_from) === chosenDecl);
          chosenDecl = null;
          ctx.act(withDecl ? { type: "play", card: c, declare: withDecl.declare_from } : { type: "play", card: c });
        },
      });
    }));

  const calls = v.auction?.calls?.length && (v.phase === "auction" || v.phase === "contra_response" || !v.contract)
    ? h("div", { class: "auction" }, h("h3", {}, t("blot.auction")),
      h("ol", {}, v.auction.calls.map((c) => h("li", {}, callText(c.seat, c, ctx)))))
    : null;
  const decls = v.declarations?.length
    ? h("div", { class: "decls" }, h("h3", {}, t("blot.declarations")),
      h("ul", {}, v.declarations.map((d) => h("li", {}, `${ctx.name(d.seat)}: ${declText(d)}`))))
    : null;
  const last = lastTrickEl(v, ctx);

  return h("div", { class: "blot" }, info,
    h("div", { class: "felt" }, seats), hand,
    h("div", { class: "side" }, calls, decls, last));
}

function callText(seat, call, ctx) {
  const name = ctx.name(seat);
  switch (call.type) {
    case "bid": return t("blot.bids", { name, level: call.level, suit: suitSym(call.trump) });
    case "kapot": return t("blot.kapot", { name, suit: suitSym(call.trump) });
    case "pass": return t("blot.passes", { name });
    case "contra": return t("blot.contra", { name });
    case "recontra": return t("blot.recontra", { name });
    default: return `${name}: ${call.type}`;
  }
}

export function controls(ctx) {
  const bids = ctx.legal.filter((e) => e.type === "bid");
  const kapots = ctx.legal.filter((e) => e.type === "kapot");
  const simple = ctx.legal.filter((e) => ["pass", "contra", "recontra"].includes(e.type));
  const plays = ctx.legal.filter((e) => e.type === "play" && e.declare_from);
  const out = h("div", { class: "blot-controls" });
  // Pass (the most common call), contra and recontra first: on a phone they sit above the grid
  if (simple.length) out.append(h("div", { class: "row calls" }, simple.map((e) => actButton(t(`act.${e.type}`), e, ctx))));
  if (bids.length) {
    const lo = Math.min(...bids.map((e) => e.min_level));
    const hi = Math.max(...bids.map((e) => e.max_level));
    const grid = h("div", { class: "bidbox", role: "group", "aria-label": t("blot.bidding") });
    for (let level = lo; level <= hi; level++) {
      for (const s of SUITS) {
        const e = bids.find((b) => b.trump === s);
        const ok = e && level >= e.min_level && level <= e.max_level;
        grid.append(ok ? actButton(`${level}${suitSym(s)}`, { type: "bid", level, trump: s }, ctx,
          { class: `bid suit-${s}`, attrs: { "aria-label": `${t("act.bid")} ${level}${suitSym(s)}` } })
          : h("span", { class: "bid off" }));
      }
    }
    out.append(grid);
  }
  if (kapots.length) {
    out.append(h("div", { class: "row" }, kapots.map((e) =>
      actButton(`${t("act.kapot")} ${suitSym(e.trump)}`, e, ctx, { class: `suit-${e.trump}` }))));
  }
  if (plays.length) {
    const seen = new Map();
    for (const e of plays) seen.set(declareKey(e.declare_from), e.declare_from);
    out.append(h("div", { class: "row declare" }, h("span", {}, t("act.declare"), ": "),
      [...seen].map(([key, cards]) => {
        const b = h("button", { type: "button", class: `toggle${chosenDecl === key ? " selected" : ""}`,
          "aria-pressed": String(chosenDecl === key), "data-declare": key,
          onclick: () => { chosenDecl = chosenDecl === key ? null : key; b.classList.toggle("selected", chosenDecl === key); b.setAttribute("aria-pressed", String(chosenDecl === key)); } },
        cards.map(cardText).join(" "));
        return b;
      })));
  }
  const other = ctx.legal.filter((e) => !["bid", "kapot", "pass", "contra", "recontra", "play"].includes(e.type));
  for (const e of other) if (parseEntry(e).ranges.length === 0) out.append(actButton(t(`act.${e.type}`), e, ctx));
  return out.childNodes.length ? out : null;
}

/** A frame's events in log order: a deal's public "dealt" (who deals) before the own cards
 * it dealt (the engine lists the private ones first). */
export function orderEvents(events) {
  const pub = events.findIndex((e) => e.kind === "dealt" && !e.cards);
  const own = events.findIndex((e) => e.kind === "dealt" && e.cards);
  if (own < 0 || pub < own) return events;
  const out = [...events];
  out.splice(own, 0, ...out.splice(pub, 1));
  return out;
}

/** The log's line for a new table game: a Blot game is a match of many deals. */
export function startedText(n, dealer) {
  return dealer ? t("blot.match_begins", { n, name: dealer }) : t("blot.match_begins_nodealer", { n });
}

export function describe(ev, ctx) {
  const name = ev.seat !== undefined ? ctx.name(ev.seat) : "";
  switch (ev.kind) {
    case "dealt":
      if (ev.cards) return ev.seat === ctx.mySeat ? t("blot.dealt_you", { cards: ev.cards.map(cardText).join(" ") }) : null;
      // deal 1: the table's "Hand 1 begins; X deals." line of this frame just said so
      return ctx.started ? null : t("blot.dealt", { name: ctx.name(ev.dealer) });
    case "call": return callText(ev.seat, ev.call, ctx);
    case "redeal": return t("blot.redeal");
    case "contract": return t("blot.contract", { what: contractText({ ...ev, multiplier: 1 }), name: ctx.name(ev.declarer),
      mult: ev.multiplier > 1 ? ` ×${ev.multiplier}` : "" });
    case "declared": return t("blot.declared", { name, what: declText({ kind: ev.combination, length: ev.length, value: ev.value }) });
    case "played": return t("blot.plays", { name, card: cardText(ev.card) });
    case "trick_won": return t("blot.trick", { name, points: ev.points });
    case "declarations_shown":
      return ev.declarations.length ? t("blot.shown", { what: ev.declarations.map((d) => `${ctx.name(d.seat)} ${declText(d)}`).join("; ") }) : null;
    case "deal_scored": return t("blot.deal_scored", { n: ev.deal, a: ev.scores[0], b: ev.scores[1] });
    // the winner's total first, as the summary box says it ("Us win 146 – 31")
    case "match_over": return `${t("blot.match_over_teams", { team: teamLabel(ev.winner_team, ctx),
      a: ev.totals[ev.winner_team], b: ev.totals[1 - ev.winner_team] })}${
      resultFor(ev.winner_team, ctx) ? ` — ${resultFor(ev.winner_team, ctx)}` : ""}`;
    case "abandoned": return t("ev.abandoned");
    default: return undefined;
  }
}

/** "You won" / "You lost" for a seated player (null for a spectator or no winner). */
function resultFor(winnerTeam, ctx) {
  if (ctx.mySeat === null || ctx.mySeat === undefined || winnerTeam === null || winnerTeam === undefined) return null;
  return winnerTeam === ctx.mySeat % 2 ? t("blot.you_won") : t("blot.you_lost");
}

/** The end-of-deal summary (from the public deal_scored event or a scored deal in the view). */
export function dealSummary(d, ctx) {
  const teams = teamOrder(ctx);  // columns: the own team first
  const line = (label, vals) => h("tr", {}, h("th", { scope: "row" }, label), teams.map((tm) => h("td", {}, String(vals[tm]))));
  return h("div", { class: "deal-summary", "data-deal": d.deal },
    h("h2", {}, t("blot.deal_summary", { n: d.deal })),
    h("p", {}, `${t("blot.contract_label")}: ${contractText(d.contract)} — ${ctx.name(d.contract.declarer)} (${t("blot.declarer")})`),
    h("p", { class: d.made ? "made" : "failed", "data-made": String(d.made) }, d.made ? t("blot.made") : t("blot.failed"),
      d.contract.multiplier > 1 ? h("span", { "data-multiplier": d.contract.multiplier }, ` · ${t(d.contract.multiplier > 2 ? "blot.recontra_x" : "blot.contra_x", { n: d.contract.multiplier })}`) : null),
    d.last_trick_team !== null && d.last_trick_team !== undefined
      ? h("p", { "data-last-trick": d.last_trick_team }, t("blot.last_trick_to", { team: teamLabel(d.last_trick_team, ctx), n: d.last_trick_bonus ?? 10 })) : null,
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}), teams.map((tm) => h("th", { scope: "col" }, teamLabel(tm, ctx))))),
      h("tbody", {},
        line(t("blot.tricks"), d.tricks),
        line(t("blot.card_points"), d.card_points),
        line(t("blot.small"), d.card_small),
        // in small points like the rows around it (the event counts them in card points: 20 = 2)
        line(t("blot.combinations"), d.combinations.map((x) => Math.floor(x / 10))),
        line(t("blot.scores"), d.scores),
        line(t("blot.totals"), d.totals))));
}

export function eventSummary(ev, ctx) {
  return ev.kind === "deal_scored" ? dealSummary(ev, ctx) : null;
}

export function summary(outcome, ctx) {
  const d = outcome.detail || {};
  const totals = d.totals || outcome.returns.slice(0, 2);
  const last = d.deals?.[d.deals.length - 1];
  return h("div", { class: "match-summary" },
    outcome.reason !== "abandoned" && resultFor(d.winner_team, ctx)
      ? h("p", { class: `result ${d.winner_team === ctx.mySeat % 2 ? "won" : "lost"}`, "data-result": d.winner_team === ctx.mySeat % 2 ? "won" : "lost" },
        h("strong", {}, resultFor(d.winner_team, ctx))) : null,
    h("h2", {}, outcome.reason === "abandoned"
      ? t("blot.match_abandoned", { a: totals[0], b: totals[1] })
      : t("blot.match_over_teams", { team: teamLabel(d.winner_team ?? 0, ctx),
        a: totals[d.winner_team ?? 0], b: totals[1 - (d.winner_team ?? 0)] })),
    h("p", { "data-reason": outcome.reason }, reasonText(outcome.reason)),
    last ? dealSummary(last, ctx) : null);
}

/** The rules-config fields the lobby's create form offers (the catalog gives kinds and bounds). */
export const lobbyFields = [{ name: "target_score", label: "lobby.target", choices: [101, 201, 301] }];

// This game's interface text (en, bg, hy): added to i18n.js's tables when the module loads.
addStrings({
  en: {
    "blot.kapot": "{name} bids kapot {suit}", "blot.bids": "{name} bids {level}{suit}",
    "blot.recontra": "{name}: recontra!", "blot.contra": "{name}: contra!", "blot.passes": "{name} passes",
    "blot.redeal": "All pass: redeal.", "blot.contract": "Contract: {what} by {name}{mult}",
    "blot.trick": "{name} takes the trick ({points} points)", "blot.plays": "{name} plays {card}",
    "blot.shown": "Combinations shown: {what}", "blot.declared": "{name} declares {what}",
    "blot.deal_scored": "Deal {n} scored: {a} – {b}", "blot.dealt_you": "You get {cards}.",
    "blot.dealt": "{name} deals.", "blot.match": "Match", "blot.none": "none yet",
    "blot.contract_label": "Contract", "blot.tricks": "Tricks", "blot.team": "Team {n}",
    "blot.target": "to {n}", "blot.last_trick": "Last trick", "blot.auction": "Auction",
    "blot.points": "Card points", "blot.carre": "carré", "blot.sequence": "sequence of {n}",
    "blot.declarations": "Combinations", "blot.card_points": "Card points", "blot.deal_summary": "Deal {n}",
    "blot.made": "Contract made", "blot.small": "Small points", "blot.combinations": "Combinations",
    "blot.totals": "Match score", "blot.scores": "Deal score", "blot.failed": "Contract failed",
    "blot.they": "Them", "blot.we": "Us", "blot.declarer": "declarer", "blot.bidding": "Bidding box",
    "blot.kapot_word": "kapot", "blot.match_abandoned": "Match abandoned at {a} – {b}",
    "blot.you_lost": "You lost.", "blot.you_won": "You won!",
    "blot.match_over_teams": "Match over: {team} win {a} – {b}", "blot.recontra_x": "recontra ×{n}",
    "blot.contra_x": "contra ×{n}", "blot.last_trick_to": "Last trick (+{n}): {team}",
    "blot.match_begins_nodealer": "Match {n} begins.", "blot.match_begins": "Match {n} begins; {name} deals.",
  },
  bg: {
    "blot.kapot": "{name} обявява капо {suit}", "blot.bids": "{name} обявява {level}{suit}",
    "blot.recontra": "{name}: реконтра!", "blot.contra": "{name}: контра!", "blot.passes": "{name} казва пас",
    "blot.redeal": "Всички пас: ново раздаване.", "blot.contract": "Договор: {what} на {name}{mult}",
    "blot.trick": "{name} взима ръката ({points} точки)", "blot.plays": "{name} играе {card}",
    "blot.shown": "Показани комбинации: {what}", "blot.declared": "{name} обявява {what}",
    "blot.deal_scored": "Раздаване {n}: {a} – {b}",
    "blot.dealt_you": "Получавате {cards}.", "blot.dealt": "{name} раздава.", "blot.match": "Мач",
    "blot.none": "още няма", "blot.contract_label": "Договор", "blot.tricks": "Ръце",
    "blot.team": "Отбор {n}", "blot.target": "до {n}", "blot.last_trick": "Последна ръка",
    "blot.auction": "Наддаване", "blot.points": "Точки от карти", "blot.carre": "каре",
    "blot.sequence": "поредица от {n}", "blot.declarations": "Комбинации",
    "blot.card_points": "Точки от карти", "blot.deal_summary": "Раздаване {n}",
    "blot.made": "Договорът е изпълнен", "blot.small": "Малки точки", "blot.combinations": "Комбинации",
    "blot.totals": "Резултат в мача", "blot.scores": "Точки от раздаването",
    "blot.failed": "Договорът е провален", "blot.they": "Те", "blot.we": "Ние",
    "blot.declarer": "играч на договора", "blot.bidding": "Кутия за обяви", "blot.kapot_word": "капо",
    "blot.match_abandoned": "Мачът е прекратен при {a} – {b}", "blot.you_lost": "Загубихте.",
    "blot.you_won": "Спечелихте!", "blot.match_over_teams": "Край на мача: {team} печелят {a} – {b}",
    "blot.recontra_x": "реконтра ×{n}", "blot.contra_x": "контра ×{n}",
    "blot.last_trick_to": "Последна ръка (+{n}): {team}", "blot.match_begins_nodealer": "Мач {n} започва.",
    "blot.match_begins": "Мач {n} започва; раздава {name}.",
  },
  hy: {
    "blot.kapot": "{name}՝ կապոտ {suit}", "blot.bids": "{name}՝ {level}{suit}",
    "blot.recontra": "{name}՝ ռեկոնտրա!", "blot.contra": "{name}՝ կոնտրա!", "blot.passes": "{name}՝ պաս",
    "blot.redeal": "Բոլորը պաս. նոր բաժանում։", "blot.contract": "Պայմանագիր՝ {what}, {name}{mult}",
    "blot.trick": "{name}-ը վերցնում է ձեռքը ({points} միավոր)", "blot.plays": "{name}՝ {card}",
    "blot.shown": "Ցույց տրված համակցություններ՝ {what}", "blot.declared": "{name}-ը հայտարարում է {what}",
    "blot.deal_scored": "Բաժանում {n}՝ {a} – {b}", "blot.dealt_you": "Ստանում եք {cards}։",
    "blot.dealt": "{name}-ը բաժանում է։", "blot.match": "Մրցախաղ", "blot.none": "դեռ չկա",
    "blot.contract_label": "Պայմանագիր", "blot.tricks": "Ձեռքեր", "blot.team": "Թիմ {n}",
    "blot.target": "մինչև {n}", "blot.last_trick": "Վերջին ձեռքը", "blot.auction": "Աճուրդ",
    "blot.points": "Քարտերի միավորներ", "blot.carre": "կարե", "blot.sequence": "{n} հաջորդական",
    "blot.declarations": "Համակցություններ", "blot.card_points": "Քարտերի միավորներ",
    "blot.deal_summary": "Բաժանում {n}", "blot.made": "Պայմանագիրը կատարված է",
    "blot.small": "Փոքր միավորներ", "blot.combinations": "Համակցություններ", "blot.totals": "Մրցախաղի հաշիվ",
    "blot.scores": "Բաժանման միավորներ", "blot.failed": "Պայմանագիրը ձախողված է", "blot.they": "Նրանք",
    "blot.we": "Մենք", "blot.declarer": "հայտատու", "blot.bidding": "Հայտերի տուփ",
    "blot.kapot_word": "կապոտ", "blot.match_abandoned": "Խաղը դադարեցվեց {a} – {b} հաշվով",
    "blot.you_lost": "Դուք պարտվեցիք։", "blot.you_won": "Դուք հաղթեցիք։",
    "blot.match_over_teams": "Խաղն ավարտվեց. {team} հաղթում են {a} – {b}", "blot.recontra_x": "ռեկոնտրա ×{n}",
    "blot.contra_x": "կոնտրա ×{n}", "blot.last_trick_to": "Վերջին կաշառք (+{n}). {team}",
    "blot.match_begins_nodealer": "Սկսվում է մրցախաղ {n}-ը։",
    "blot.match_begins": "Սկսվում է մրցախաղ {n}-ը; բաժանում է {name}։",
  },
});
