// "Find a game" in the lobby (seeks, docs/rest.md "Seeks (matchmaking by rating)"): a button
// per game asks POST /api/seeks (rated for an account, casual for a guest); while it waits the
// row shows the seconds waited and the ratings it accepts now, polled from GET /api/seeks/{id},
// and a Cancel (DELETE). On a match the browser goes to its table and seat, the private
// table's invite code kept (tablebits.js) for the join. Leaving the lobby cancels the seek.

import { h, fill } from "./util.js";
import { t } from "./i18n.js";
import { api, me } from "./api.js";
import { catalogGames } from "./catalog.js";
import { inviteCode } from "./tablebits.js";
import "./i18n_seek.js";

const POLL_MS = 1000; // a waiting seek is read again this often

/**
 * The lobby's seek control. `view()` builds its row (again after a language switch, keeping
 * the waiting seek); `stop()` ends the polling and cancels a waiting seek. `fail(error)`
 * shows an error.
 */
export function seekControl(fail) {
  let seek = null; // the waiting seek's last answer
  let timer = null;
  let stopped = false;
  let row = null;

  const draw = () => { if (row) fill(row, ...content()); };
  function content() {
    if (!seek) {
      return [h("span", {}, t("seek.find"), ": "), ...catalogGames().map(({ name: g }) =>
        h("button", { type: "button", "data-seek": g, onclick: () => start(g) }, t(`game.${g}`)))];
    }
    const window = seek.rating_min === null ? t("seek.any")
      : t("seek.window", { min: seek.rating_min, max: seek.rating_max });
    const kind = t(seek.rated ? "seek.rated" : "seek.casual");
    return [h("span", { "data-seek-waiting": seek.game, role: "status" },
      t("seek.waiting", { game: t(`game.${seek.game}`), kind, s: Math.floor(seek.waited_ms / 1000) }),
      ", ", h("span", { "data-seek-players": String(seek.seats ?? "") }, t("seek.players", { n: seek.seats })),
      ", ", h("span", { "data-seek-window": "" }, window)),
    h("button", { type: "button", "data-seek-cancel": "", onclick: cancel }, t("seek.cancel"))];
  }

  function settle(s) {
    if (stopped) return;
    if (s.status === "waiting") { seek = s; draw(); timer = setTimeout(poll, POLL_MS); return; }
    seek = null;
    draw();
    if (s.status === "seated") {
      inviteCode(s.table_id, s.invite_code);
      location.hash = `#/table/${s.table_id}/${s.seat}`;
    } else if (s.status === "expired") fail(new Error(t("seek.expired")));
    else if (s.reason === "quota.tables") fail(new Error(t("seek.quota")));
  }

  async function start(game) {
    try { settle(await api("/api/seeks", { method: "POST", body: { game, rated: Boolean(me()?.username) } })); }
    catch (x) { fail(x); }
  }
  async function poll() {
    if (stopped || !seek) return;
    try { settle(await api(`/api/seeks/${seek.seek_id}`)); } catch (x) { seek = null; draw(); fail(x); }
  }
  async function cancel() {
    if (!seek) return;
    clearTimeout(timer);
    const id = seek.seek_id;
    try { settle(await api(`/api/seeks/${id}`, { method: "DELETE" })); } catch (x) { fail(x); }
  }

  return {
    view() { row = h("div", { class: "row seek" }); draw(); return row; },
    stop() {
      stopped = true;
      clearTimeout(timer);
      if (seek) api(`/api/seeks/${seek.seek_id}`, { method: "DELETE" }).catch(() => {});
    },
  };
}
