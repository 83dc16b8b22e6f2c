// The check of a finished game's deals, in words (#/verify/ID): the server recomputes every
// deal from the revealed seeds (GET /api/games/{id}/verify, docs/fairness.md section 5); this
// page says what it found in the player's language, the raw answer a link away.

import { h, fill } from "./util.js";
import { t, tn, onLang, addStrings } from "./i18n.js";
import { api } from "./api.js";

const RAW = (id) => `/api/games/${encodeURIComponent(id)}/verify`;

/** The verify page's link (game-over summary, game list, replay viewer). */
export function verifyHref(gameId) { return `#/verify/${encodeURIComponent(gameId)}`; }

// The server names its checks "commitment: ...", "deals: ...", "replay: ..." (engine/verify.py).
function checkText(check) {
  const id = String(check).split(":")[0];
  const key = `verify.check.${id}`;
  const s = t(key);
  return s === key ? check : s;
}

function verdictEl(r) {
  const ok = r.verified;
  return h("div", { class: `verdict ${ok ? "ok" : "bad"}`, "data-verified": String(ok), role: "status" },
    h("p", { class: "big" }, ok ? `✓ ${t("verify.ok")}` : `✗ ${t("verify.bad")}`),
    h("p", {}, tn("verify.deals_n", r.chance_actions, { n: r.chance_actions })),
    r.checked?.length ? h("div", {}, h("h2", {}, t("verify.checked")),
      h("ul", { class: "checks" }, r.checked.map((c) => h("li", { "data-check": String(c).split(":")[0] },
        ok ? "✓ " : "", checkText(c))))) : null,
    r.not_checked?.length ? h("div", {}, h("h2", {}, t("verify.not_checked")),
      h("ul", {}, r.not_checked.map((c) => h("li", {}, checkText(c))))) : null,
    r.mismatches?.length ? h("div", { "data-mismatches": r.mismatches.length },
      h("h2", {}, tn("verify.mismatches", r.mismatches.length, { n: r.mismatches.length })),
      h("ul", {}, r.mismatches.map((m) => h("li", {},
        m.index === null ? t("verify.whole") : t("verify.at", { n: m.index + 1 }), ": ",
        h("code", {}, m.reason))))) : null);
}

/** #/verify/ID: the verdict, what was checked, and links to the raw JSON and the replay. */
export function verifyScreen(root, gameId) {
  const body = h("div", { class: "verify-body" }, h("p", { class: "muted" }, t("verify.loading")));
  const draw = (r, err) => {
    fill(root, h("section", { class: "verify-screen", "data-verify-page": gameId },
      h("h1", {}, t("verify.title")),
      h("p", { class: "muted" }, t("verify.what")),
      err ? h("p", { class: "error-line", role: "alert" }, err) : r ? verdictEl(r) : body,
      h("p", { class: "verify-links" },
        h("a", { href: `#/replay/${encodeURIComponent(gameId)}`, class: "button small" }, t("games.replay")), " ",
        h("a", { href: RAW(gameId), "data-raw-json": "1", target: "_blank", rel: "noopener" }, t("verify.raw")))));
  };
  let result = null;
  let error = null;
  draw(null, null);
  api(RAW(gameId)).then((r) => { result = r; draw(result, error); })
    .catch((x) => { error = x.code === "game.not_found" ? t("verify.not_found") : x.message; draw(result, error); });
  return onLang(() => draw(result, error));
}

addStrings({
  en: {
    "verify.title": "Are the deals fair?", "verify.loading": "Checking…",
    "verify.what": "The server recomputes every deal of this game from the seeds revealed when it ended, and checks that the seed is the one committed to before the first card.",
    "verify.ok": "Fair: every deal is what the seeds give.", "verify.bad": "The check failed: this game's deals do not match its seeds.",
    "verify.deals_n.one": "{n} deal recomputed.", "verify.deals_n.other": "{n} deals recomputed.",
    "verify.checked": "What was checked", "verify.not_checked": "Not checked",
    "verify.check.commitment": "The seed matches the commitment published when the game began.",
    "verify.check.deals": "Every deal recomputed from the seeds.",
    "verify.check.replay": "Every move accepted by the rules, and the same result reached.",
    "verify.mismatches.one": "{n} mismatch", "verify.mismatches.other": "{n} mismatches",
    "verify.at": "Step {n}", "verify.whole": "The whole game", "verify.raw": "The server's answer (JSON)",
    "verify.not_found": "No finished game with this id.",
  },
  bg: {
    "verify.title": "Честни ли са раздаванията?", "verify.loading": "Проверка…",
    "verify.what": "Сървърът изчислява отново всяко раздаване на играта от семената, разкрити в края ѝ, и проверява, че семето е обявеното преди първата карта.",
    "verify.ok": "Честно: всяко раздаване е това, което дават семената.", "verify.bad": "Проверката не мина: раздаванията не съвпадат със семената.",
    "verify.deals_n.one": "Изчислено отново {n} раздаване.", "verify.deals_n.other": "Изчислени отново {n} раздавания.",
    "verify.checked": "Какво е проверено", "verify.not_checked": "Непроверено",
    "verify.check.commitment": "Семето съвпада с отпечатъка, обявен в началото на играта.",
    "verify.check.deals": "Всяко раздаване е изчислено отново от семената.",
    "verify.check.replay": "Всеки ход е приет от правилата и резултатът е същият.",
    "verify.mismatches.one": "{n} несъответствие", "verify.mismatches.other": "{n} несъответствия",
    "verify.at": "Стъпка {n}", "verify.whole": "Цялата игра", "verify.raw": "Отговорът на сървъра (JSON)",
    "verify.not_found": "Няма завършена игра с този номер.",
  },
  hy: {
    "verify.title": "Արդա՞ր են բաժանումները", "verify.loading": "Ստուգում…",
    "verify.what": "Սերվերը վերահաշվում է խաղի յուրաքանչյուր բաժանում՝ ավարտին բացահայտված սերմերից, և ստուգում, որ սերմը նույնն է, ինչ հայտարարվել էր առաջին քարտից առաջ։",
    "verify.ok": "Արդար է․ յուրաքանչյուր բաժանում այն է, ինչ տալիս են սերմերը։", "verify.bad": "Ստուգումը չանցավ․ բաժանումները չեն համապատասխանում սերմերին։",
    "verify.deals_n.one": "Վերահաշվվեց {n} բաժանում։", "verify.deals_n.other": "Վերահաշվվեց {n} բաժանում։",
    "verify.checked": "Ինչ է ստուգվել", "verify.not_checked": "Չստուգված",
    "verify.check.commitment": "Սերմը համընկնում է խաղի սկզբում հրապարակված հանձնառության հետ։",
    "verify.check.deals": "Յուրաքանչյուր բաժանում վերահաշվվել է սերմերից։",
    "verify.check.replay": "Յուրաքանչյուր քայլ ընդունվել է կանոններով, և արդյունքը նույնն է։",
    "verify.mismatches.one": "{n} անհամապատասխանություն", "verify.mismatches.other": "{n} անհամապատասխանություն",
    "verify.at": "Քայլ {n}", "verify.whole": "Ամբողջ խաղը", "verify.raw": "Սերվերի պատասխանը (JSON)",
    "verify.not_found": "Այս համարով ավարտված խաղ չկա։",
  },
});
