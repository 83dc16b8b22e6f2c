// A player's profile (#/player/ID): name, account age, rating per game with its chart
// (GET /api/players/{id}/ratings/{game}), and the player's games with filters (game, result,
// dates) and an NDJSON download (GET /api/players/{id}/games.ndjson).

import { h, fill } from "./util.js";
import { t, onLang, dateText } from "./i18n.js";
import { api } from "./api.js";
import { ratingChart } from "./chart.js";
import { gameRow } from "./gamelist.js";
import { gameLinks } from "./replay.js";
import { ratedGames } from "./catalog.js";

const PAGE = 20;

function select(id, options, value) {
  return h("select", { id }, options.map(([v, label]) => h("option", { value: v, selected: v === value }, label)));
}

function ratingsBlock(p, chartBox, pick) {
  if (!p.ratings.length) return h("p", { class: "muted" }, t("prof.no_ratings"));
  return h("table", { class: "leaderboard profile-ratings" },
    h("thead", {}, h("tr", {}, ["filter.game", "rank.rating", "rank.games", "rank.wins"].map((k) => h("th", {}, t(k))))),
    h("tbody", {}, p.ratings.map((r) => h("tr", { "data-rating-game": r.game },
      h("td", {}, h("button", { type: "button", class: "link", onclick: () => pick(r.game) }, t(`game.${r.game}`))),
      h("td", { "data-rating": r.rating }, r.rating), h("td", {}, r.games), h("td", {}, r.wins)))));
}

export function profileScreen(root, playerId) {
  const err = h("p", { class: "error-line", role: "alert" });
  const chartBox = h("div", { class: "chart-box", "data-chart": "1" });
  const list = h("ul", { class: "game-list" });
  const more = h("button", { type: "button", hidden: true, onclick: () => loadGames(false) }, t("games.more"));
  const filters = { game: "", result: "", since: "", until: "" };
  let offset = 0;

  async function chart(game) {
    try {
      const hist = await api(`/api/players/${encodeURIComponent(playerId)}/ratings/${game}`);
      fill(chartBox, h("h3", {}, `${t("prof.chart")}: ${t(`game.${game}`)}`),
        ratingChart(hist.items, `${t("prof.chart")}: ${t(`game.${game}`)}`));
    } catch (x) { err.textContent = x.message; }
  }

  function query() {
    const q = new URLSearchParams({ player: playerId, limit: String(PAGE), offset: String(offset) });
    for (const k of ["game", "result"]) if (filters[k]) q.set(k, filters[k]);
    if (filters.since) q.set("since", `${filters.since}T00:00:00Z`);
    if (filters.until) q.set("until", `${filters.until}T23:59:59Z`);
    return q;
  }

  async function loadGames(reset) {
    if (reset) { offset = 0; fill(list); }
    try {
      const page = await api(`/api/games?${query()}`);
      if (!page.items.length && offset === 0) list.append(h("li", { class: "muted" }, t("games.none")));
      for (const g of page.items) list.append(gameRow(g, { player: playerId, links: gameLinks }));
      offset = page.next_offset ?? offset;
      more.hidden = page.next_offset === null;
    } catch (x) { err.textContent = x.message; }
  }

  function filterForm() {
    const gameSel = select("f-game", [["", t("filter.any")], ...ratedGames().map((g) => [g, t(`game.${g}`)])], filters.game);
    const resSel = select("f-result", [["", t("filter.any")], ...["win", "loss", "draw"].map((m) => [m, t(`mark.${m}`)])], filters.result);
    const since = h("input", { id: "f-since", type: "date", value: filters.since });
    const until = h("input", { id: "f-until", type: "date", value: filters.until });
    const lab = (id, k) => h("label", { for: id }, t(k));
    return h("form", { class: "row filters", onsubmit: (e) => {
      e.preventDefault();
      Object.assign(filters, { game: gameSel.value, result: resSel.value, since: since.value, until: until.value });
      loadGames(true);
    } }, lab("f-game", "filter.game"), gameSel, lab("f-result", "filter.result"), resSel,
    lab("f-since", "filter.since"), since, lab("f-until", "filter.until"), until,
    h("button", { type: "submit", "data-filter": "1" }, t("filter.apply")));
  }

  async function draw() {
    try {
      const p = await api(`/api/players/${encodeURIComponent(playerId)}`);
      const since = p.created_at ? dateText(p.created_at, true) : "";
      fill(root, h("section", { class: "profile", "data-profile": p.id },
        h("h1", {}, t("prof.title", { name: p.name })),
        h("p", { class: "muted" }, t(p.registered ? "prof.account" : "prof.guest"),
          since ? ` · ${t("prof.since", { date: since })}` : ""),
        err, h("h2", {}, t("prof.ratings")), ratingsBlock(p, chartBox, chart), chartBox,
        h("h2", {}, t("prof.games")), filterForm(),
        h("p", {}, h("a", { href: `/api/players/${encodeURIComponent(p.id)}/games.ndjson`, download: "",
          class: "button small", "data-download": "ndjson" }, t("prof.download"))),
        list, more));
      if (p.ratings.length) chart(p.ratings[0].game);
      loadGames(true);
    } catch (x) { fill(root, h("p", { class: "error-line", role: "alert" }, x.message)); }
  }
  draw();
  return onLang(() => draw());
}
