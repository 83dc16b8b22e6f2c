// Leaderboards (#/ratings/GAME[/bots]): GET /api/ratings?game=&bots=&limit=&offset=, paged.

import { h, fill } from "./util.js";
import { t, onLang } from "./i18n.js";
import { api } from "./api.js";
import { ratedGames } from "./catalog.js";

const PAGE = 25;

/** The leaderboard of `game` (a rated game of the catalog; default the first). */
export function ratingsScreen(root, game = ratedGames()[0], which = "people") {
  if (!ratedGames().includes(game)) game = ratedGames()[0];
  const bots = which === "bots";
  let offset = 0;
  const rows = h("tbody");
  const err = h("p", { class: "error-line", role: "alert" });
  const more = h("button", { type: "button", hidden: true, "data-more": "1", onclick: () => load() }, t("games.more"));
  async function load() {
    try {
      const page = await api(`/api/ratings?game=${game}&bots=${bots}&limit=${PAGE}&offset=${offset}`);
      if (!page.items.length && offset === 0) rows.append(h("tr", {}, h("td", { colspan: 5, class: "muted" }, t("rank.none"))));
      for (const e of page.items) {
        rows.append(h("tr", { "data-player": e.player_id },
          h("td", {}, e.rank),
          h("td", {}, h("a", { href: `#/player/${e.player_id}` }, e.name)),
          h("td", { "data-rating": e.rating }, e.rating),
          h("td", {}, e.games), h("td", {}, e.wins)));
      }
      offset = page.next_offset ?? offset;
      more.hidden = page.next_offset === null;
    } catch (x) { err.textContent = x.message; }
  }
  const tab = (g, w, label) => h("a", { href: `#/ratings/${g}${w === "bots" ? "/bots" : ""}`,
    class: `button small${g === game && w === which ? " primary" : ""}`, "data-tab": `${g}:${w}` }, label);
  fill(root, h("section", { class: "ratings" },
    h("h1", {}, `${t("rank.title")}: ${t(`game.${game}`)}`),
    h("div", { class: "row" }, ratedGames().map((g) => tab(g, which, t(`game.${g}`)))),
    h("div", { class: "row" }, tab(game, "people", t("rank.people")), tab(game, "bots", t("rank.bots"))),
    err,
    h("table", { class: "leaderboard" },
      h("thead", {}, h("tr", {}, ["rank.rank", "rank.player", "rank.rating", "rank.games", "rank.wins"]
        .map((k) => h("th", {}, t(k))))), rows),
    more));
  load();
  return onLang(() => ratingsScreen(root, game, which));
}
