// Pieces the game screens share: a seat badge (name, bot and its level, stand-in or away,
// dealer, turn, clock).

import { h } from "../util.js";
import { t } from "../i18n.js";

export function seatBadge(gs, ctx, { dealer = null, extra = [] } = {}) {
  const info = ctx.seatInfo?.(gs);
  const turn = ctx.toAct?.includes(gs);
  const me = ctx.mySeat === gs;
  return h("div", { class: `seat${turn ? " turn" : ""}${me ? " me" : ""}`, "data-seat": gs },
    h("div", { class: "seat-name" },
      h("span", { class: "name" }, ctx.name(gs)),
      me ? h("span", { class: "tag" }, t("table.you")) : null,
      info?.bot ? h("span", { class: "tag bot", "data-bot-level": info.bot_level || "" },
        info.bot_level ? t(`lobby.bot_${info.bot_level}`) : t("table.bot")) : null,
      // a stand-in plays the seat (its holder left or is away), or its holder is disconnected
      info?.stand_in && ctx.live ? h("span", { class: "tag stand-in", "data-stand-in": "1", title: t("seat.stand_in_hint") }, t("seat.stand_in")) : null,
      info && !info.bot && !info.stand_in && info.connected === false && ctx.live
        ? h("span", { class: "tag off", "data-away": "1", title: t("seat.away_hint") }, t("seat.away")) : null,
      dealer === gs ? h("span", { class: "tag dealer", title: t("table.dealer") }, "D") : null,
      ctx.clock?.(gs)),
    extra);
}

/** A label: value line of the info bar; `attrs` go on its element (e.g. data-pot for the pot). */
export function row(label, value, attrs = {}) {
  return h("div", { class: "kv", ...attrs }, h("span", { class: "k" }, label), h("span", { class: "v" }, value));
}

export function returnsTable(returns, ctx, label) {
  return h("table", { class: "returns" },
    h("caption", {}, label),
    h("tbody", {}, returns.map((r, gs) => h("tr", {},
      h("th", { scope: "row" }, ctx.name(gs)),
      h("td", { class: r > 0 ? "plus" : r < 0 ? "minus" : "" }, r > 0 ? `+${r}` : String(r))))));
}

/** A game term that explains itself (ctx.term from the table screen), or plain text. */
export function term(ctx, id, text) {
  return ctx.term ? ctx.term(id, text) : text;
}
