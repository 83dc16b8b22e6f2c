// The games and their facts, from GET /api/catalog (the server's registry): display names in
// every language, seat ranges, starting stacks, rules-config fields with defaults and bounds,
// rated or not, rule pages, card tables. The browser keeps no list of games: loadCatalog()
// runs once before the first screen, adds each game's display name (`game.<name>`) to the
// interface text, imports each game's view module (js/games/<name>.js) and its card table.
// The answer carries an ETag, so the browser's cache revalidates it with a 304.

import { api } from "./api.js";
import { addStrings, LANGS } from "./i18n.js";
import { loadGames } from "./games/index.js";
import { loadCardTables } from "./cards.js";

let catalog = { games: [], languages: [], turn_timeout_seconds: null };

/** Fetch the catalog and load what the screens need from it (see the top of this file). */
export async function loadCatalog() {
  catalog = await api("/api/catalog");
  const names = {};
  for (const g of catalog.games) {
    for (const [l, title] of Object.entries(g.titles)) {
      if (LANGS.includes(l)) (names[l] ||= {})[`game.${g.name}`] = title;
    }
  }
  addStrings(names);
  await loadGames(catalog.games.map((g) => g.name));
  try {
    await loadCardTables(catalog.games.map((g) => g.rules?.cards).filter(Boolean));
  } catch (e) {
    console.warn(`card table not loaded: ${e.message}`);  // cards then show their ids
  }
}

/** Every game of the catalog, in its order: {name, title, titles, seats, stacks, config, ...}. */
export function catalogGames() { return catalog.games; }

/** The server's turn time in seconds: `{default, min, max}` (null before the catalog is read). */
export function turnTimeout() { return catalog.turn_timeout_seconds; }

/** One game's catalog entry, or null. */
export function gameInfo(name) { return catalog.games.find((g) => g.name === name) || null; }

/** Names of the games with leaderboards. */
export function ratedGames() { return catalog.games.filter((g) => g.rated).map((g) => g.name); }

/** Names of the games with rule pages. */
export function ruleGames() { return catalog.games.filter((g) => g.rules).map((g) => g.name); }
