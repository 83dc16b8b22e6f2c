// Entry point: language switch, the signed-in name, and a hash router.
//   #/               lobby            #/games         finished games
//   #/table/ID[/N]   play (seat N)    #/replay/ID[?seat=&step=&by=]  replay viewer
//   #/watch/ID       spectate         #/account       register / log in
//   #/ratings[/GAME[/bots]]  leaderboards            #/player/ID     a player's profile
//   #/rules[/GAME]   rules and glossary  #/invite/ID/CODE  a private table's invite link
//   #/verify/ID      the check of a finished game's deals, in words
//   #/tournaments[/ID] the tournament list, or one tournament's page (tournaments.js)

import { t, lang, setLang, onLang, translateStatic } from "./i18n.js";
import "./i18n_more.js";
import "./i18n_controls.js";
import "./i18n_feel.js";
import "./i18n_accounts.js";
import "./i18n_feel_b.js";
import "./i18n_keys.js";
import { soundToggle } from "./sound.js";
import { topMenu } from "./topmenu.js";
import { me, register } from "./api.js";
import { accountScreen, drawMe as drawWho } from "./account.js";
import { ratingsScreen } from "./ratings.js";
import { profileScreen } from "./profile.js";
import { lobbyScreen, nameForm } from "./lobby.js";
import { tableScreen } from "./table.js";
import { buyInFirst } from "./chips_ui.js";
import { loadCatalog } from "./catalog.js";
import { gamesScreen, replayScreen } from "./replay.js";
import { rulesScreen } from "./rules.js";
import { verifyScreen } from "./verify.js";
import { tournamentsScreen, tournamentScreen } from "./tournaments.js";

const app = document.getElementById("app");
const langSel = document.getElementById("lang");
let cleanup = () => {};

function drawMe() {
  drawWho(document.getElementById("me"), () => { location.hash = "#/"; route(); });
}

function route() {
  cleanup();
  cleanup = () => {};
  drawMe();
  const [path] = location.hash.replace(/^#\/?/, "").split("?");
  const parts = path.split("/").filter(Boolean);
  const [page, id, extra] = parts;
  if (page === "watch" && !me()) {  // watching needs no name: a guest named "Spectator" watches
    register(t("watch.guest")).then(route, () => nameForm(app, () => route()));
    return;
  }
  if ((page === "table" || page === "invite") && !me()) {
    nameForm(app, () => route());
    return;
  }
  switch (page) {
    case "table": {  // poker: the buy-in is chosen first (chips_ui.js)
      const seat = extra === undefined ? null : Number(extra);
      cleanup = buyInFirst(app, id, seat, (buyIn) => tableScreen(app, id, { seat, buyIn }));
      break;
    }
    case "invite":  // #/invite/ID/CODE: a friend's link to a private table
      cleanup = tableScreen(app, id, { invite: extra });
      break;
    case "watch":
      cleanup = tableScreen(app, id, { spectate: true });
      break;
    case "games":
      cleanup = gamesScreen(app);
      break;
    case "rules":
      cleanup = rulesScreen(app, id);
      break;
    case "replay":
      cleanup = replayScreen(app, id);
      break;
    case "verify":
      cleanup = verifyScreen(app, id);
      break;
    case "tournaments":
      cleanup = id ? tournamentScreen(app, id) : tournamentsScreen(app);
      break;
    case "account":
      cleanup = accountScreen(app, drawMe);
      break;
    case "ratings":
      cleanup = ratingsScreen(app, id, extra);
      break;
    case "player":
      cleanup = profileScreen(app, id);
      break;
    default:
      cleanup = lobbyScreen(app) || (() => {});
  }
}

langSel.value = lang();
document.documentElement.lang = lang();
langSel.addEventListener("change", () => setLang(langSel.value));
const sound = soundToggle();  // the table sounds' mute, remembered (sound.js)
document.querySelector("header [data-menu-toggle]").before(sound);  // in the bar on a phone too
topMenu(document.querySelector("header.top"));
onLang(() => { translateStatic(); drawMe(); sound.redraw(); });
translateStatic();
try {
  await loadCatalog();  // the games, their view modules and card tables (js/catalog.js)
} catch (e) {
  console.warn(`catalog not loaded: ${e.message}`);
}
window.addEventListener("hashchange", route);
route();
