// The create-a-tournament form (#/tournaments): POST /api/tournaments (docs/rest.md
// "Tournaments") with game, format (an arena's window in minutes), rounds, boards per round,
// duplicate, bots, open for players (starts in minutes) and name; the
// server's error is shown in the player's language (its code, tour.err.*), nothing is sent twice.

import "./i18n_tour.js";
import "./i18n_tourentry.js";
import { h } from "./util.js";
import { t } from "./i18n.js";
import { api } from "./api.js";
import { catalogGames } from "./catalog.js";

function field(label, input) { return h("label", { class: "field" }, h("span", {}, label), " ", input); }

// The server's own words follow a refused body's translated line: they name the limit.
function errText(x) {
  const k = x.code === "request.invalid" ? "tour.err.not_allowed" : `tour.err.${x.code}`;
  const s = t(k);
  const line = s === k ? t("tour.err.other") : s;
  return x.code === "request.invalid" && x.message ? `${line} ${x.message}` : line;
}

/** The form; `done(id)` is called with the new tournament's id. */
export function tourForm(done) {
  const num = (name, value, min, max) => h("input", { type: "number", name, value: String(value), min: String(min), max: String(max), required: "" });
  const game = h("select", { name: "game" }, catalogGames().map((g) => h("option", { value: g.name }, t(`game.${g.name}`))));
  const format = h("select", { name: "format" }, ["swiss", "knockout", "arena"].map((f) => h("option", { value: f }, t(`tour.format.${f}`))));
  const minutes = num("minutes", 5, 1, 180);
  const rounds = num("rounds", 3, 1, 10);
  const boards = num("boards_per_round", 2, 1, 4);
  const bots = num("bots", 8, 0, 32);
  const open = h("input", { type: "checkbox", name: "open" });
  const rated = h("input", { type: "checkbox", name: "rated", checked: "" });
  const startsIn = num("starts_in", 5, 1, 1440);
  const dup = h("input", { type: "checkbox", name: "duplicate", checked: "" });
  const name = h("input", { type: "text", name: "name", maxlength: "60" });
  const out = h("p", { class: "error-line", role: "alert", "data-form-error": "1" });
  const go = h("button", { type: "submit" }, t("tour.create"));
  const form = h("form", { class: "tour-form", "data-tour-form": "1", "aria-label": t("tour.create") },
    h("h2", {}, t("tour.create")),
    field(t("tour.f.game"), game), field(t("tour.f.format"), format), field(t("tour.f.rounds"), rounds),
    field(t("tour.f.boards"), boards), field(t("tour.f.minutes"), minutes), field(t("tour.f.bots"), bots), field(t("tour.f.duplicate"), dup),
    field(t("tour.f.rated"), rated), field(t("tour.f.open"), open), field(t("tour.f.starts_in"), startsIn),
    field(t("tour.f.name"), name), go, out);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    go.disabled = true;
    out.textContent = "";
    const body = { game: game.value, format: format.value, rounds: Number(rounds.value),
      boards_per_round: Number(boards.value), bots: Number(bots.value), duplicate: dup.checked, name: name.value };
    if (!rated.checked) body.rated = false;
    if (open.checked) { body.open = true; body.starts_in_seconds = 60 * Number(startsIn.value); }
    if (format.value === "arena") body.duration_seconds = 60 * Number(minutes.value); // an arena's window
    api("/api/tournaments", { method: "POST", body })
      .then((d) => done(d.id)).catch((x) => { out.textContent = errText(x); }).finally(() => { go.disabled = false; });
  });
  return form;
}
