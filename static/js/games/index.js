// The game view modules by the server's game name: js/games/<name>.js for each game of the
// catalog (js/catalog.js loads them before the first screen). A view module draws its game
// (board, controls, describe, summary, ...) and brings its own interface text (addStrings).

export const GAMES = {};

/** Import the view module of each game name; resolves once every one is in GAMES. */
export async function loadGames(names) {
  const safe = names.filter((n) => /^[a-z][a-z0-9_]*$/.test(n));
  const mods = await Promise.all(safe.map((n) => import(`./${n}.js`)));
  safe.forEach((n, i) => { GAMES[n] = mods[i]; });
}
