// People as entrants on a tournament's page (docs/tournaments.md "People as entrants"):
// while it registers, when it starts, the entrants, and Join / Withdraw / Start now
// (POST /api/tournaments/{id}/join, /withdraw, /start); once it runs, the link to the
// table where you hold a seat and Withdraw. What you may do is what the document says:
// your entrant (player_id), the creator (created_by), the status.

import "./i18n_tour.js";
import "./i18n_tourentry.js";
import { h } from "./util.js";
import { t, dateText } from "./i18n.js";
import { api, me } from "./api.js";

const enc = encodeURIComponent;

function errText(x) { const k = `tour.err.${x.code}`; const s = t(k); return s === k ? x.message : s; }

/** The table of the current round where `entrant` sits and plays now, or null. */
export function myTable(doc, entrant) {
  const round = (doc.rounds ?? []).at(-1);
  if (!round || !entrant) return null;
  return (round.tables ?? []).find((tb) => tb.table_id && tb.status === "playing"
    && (tb.seats ?? []).includes(entrant.id)) ?? null;
}

/** The entry block of `doc`, or null when there is nothing to say; `reload()` after a change. */
export function entryEl(doc, reload) {
  const who = me();
  const mine = (doc.entrants ?? []).find((e) => who && e.player_id === who.id) ?? null;
  if (!doc.open && !mine) return null;
  const out = h("p", { class: "error-line", role: "alert", "data-entry-error": "1" });
  const step = (path) => (ev) => {
    ev.target.disabled = true;
    out.textContent = "";
    api(`/api/tournaments/${enc(doc.id)}/${path}`, { method: "POST" })
      .then(() => reload()).catch((x) => { out.textContent = errText(x); ev.target.disabled = false; });
  };
  const button = (key, path, cls = "") => h("button", { type: "button", class: cls, [`data-${path}`]: "1", onclick: step(path) }, t(key));
  const parts = [];
  if (doc.status === "registering") {
    parts.push(h("p", { "data-starts-at": doc.starts_at ?? "" }, t("tour.starts_at", { time: doc.starts_at ? dateText(doc.starts_at) : "" })));
    parts.push(h("p", {}, t("tour.entered", { n: (doc.entrants ?? []).length, most: doc.max_entrants ?? 32 }), ": ",
      (doc.entrants ?? []).map((e) => e.name ?? e.id).join(", ")));
    if (!who) parts.push(h("p", { class: "muted" }, t("tour.join_needs_name")));
    else if (!mine) parts.push(button("tour.join", "join", "primary"));
    else {
      parts.push(h("p", { "data-entered": mine.id }, t("tour.you_entered"),
        (mine.bots ?? []).length > 1 ? ` ${t("tour.bot_partner")}` : ""), button("tour.withdraw", "withdraw"));
    }
    if (who && who.id === doc.created_by) parts.push(" ", button("tour.start_now", "start"), " ", button("tour.cancel", "cancel"));
  } else if (mine && doc.status === "running") {
    const tb = myTable(doc, mine);
    if (mine.withdrawn) parts.push(h("p", {}, t("tour.you_withdrew")));
    else {
      parts.push(tb ? h("p", {}, h("a", { href: `#/table/${enc(tb.table_id)}`, class: "button primary", "data-my-table": tb.table_id },
        t("tour.play_your_table"))) : h("p", { class: "muted", "data-my-table": "" }, t("tour.wait_your_table")));
      parts.push(button("tour.withdraw", "withdraw"));
    }
  }
  if (doc.status === "cancelled" && doc.error) parts.push(h("p", { class: "muted" }, t("tour.cancelled_why", { why: doc.error })));
  return h("section", { class: "tour-entry", "data-tour-entry": doc.status }, parts, out);
}
