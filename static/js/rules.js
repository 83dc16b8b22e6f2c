// Rule pages for players (GET /api/rules/{game}?lang=) and the glossary behind the table's
// term tooltips. The text is the server's; this module only fetches, caches and draws it.

import { h, fill } from "./util.js";
import { t, lang, onLang } from "./i18n.js";
import { api } from "./api.js";
import { ruleGames } from "./catalog.js";

const pages = new Map();  // "game/lang" -> page (or a pending promise)
const listeners = new Set();

/** The rule page of `game` in the current language (cached); resolves to null on failure. */
export function loadRules(game, language = lang()) {
  const key = `${game}/${language}`;
  if (!pages.has(key)) {
    pages.set(key, api(`/api/rules/${game}?lang=${language}`).then((p) => {
      pages.set(key, p);
      listeners.forEach((f) => f());
      return p;
    }).catch(() => { pages.delete(key); return null; }));
  }
  return Promise.resolve(pages.get(key));
}

/** Call `fn` whenever a page arrives (the table redraws its tooltips); returns the remover. */
export function onRules(fn) { listeners.add(fn); return () => listeners.delete(fn); }

function glossaryEntry(game, id) {
  const p = pages.get(`${game}/${lang()}`);
  if (!p || p instanceof Promise) { loadRules(game); return null; }
  return p.glossary.find((g) => g.id === id) || null;
}

/** A game term that explains itself on hover, keyboard focus or tap (the glossary's text). */
export function term(game, id, text) {
  const g = glossaryEntry(game, id);
  const el = h("span", { class: "term", "data-term": id, tabindex: "0", role: "button",
    "aria-label": g ? `${text}: ${g.text}` : text, title: g ? g.text : null,
    "data-tip": g ? g.text : null }, text);
  el.addEventListener("click", (e) => { e.stopPropagation(); el.toggleAttribute("data-open"); });
  el.addEventListener("blur", () => el.removeAttribute("data-open"));
  return el;
}

function pageNode(p) {
  return h("article", { class: "rules-page", "data-rules": p.game, lang: p.lang },
    h("h1", {}, p.title),
    h("p", { class: "lead" }, p.summary),
    p.sections.map((s) => h("section", { "data-section": s.id },
      h("h2", {}, s.title), s.paragraphs.map((x) => h("p", {}, x)))),
    h("section", { "data-section": "glossary" },
      h("h2", {}, t("rules.glossary")),
      h("dl", { class: "glossary" }, p.glossary.map((g) => [
        h("dt", { id: `term-${g.id}` }, g.term), h("dd", {}, g.text)]))));
}

function drawInto(box, game) {
  fill(box, h("p", { class: "muted" }, t("rules.loading")));
  loadRules(game).then((p) => fill(box, p ? pageNode(p) : h("p", { class: "error-line" }, t("rules.failed"))));
}

/** The rules screen (#/rules/GAME): a tab per game of the catalog, the page in the current language. */
export function rulesScreen(root, game = ruleGames()[0]) {
  const box = h("div", { class: "rules-body" });
  const tabs = h("nav", { class: "rules-tabs", "aria-label": t("nav.rules") });
  function draw() {
    fill(tabs, ruleGames().map((g) => h("a", { href: `#/rules/${g}`, "data-game": g,
      "aria-current": g === game ? "page" : null }, t(`game.${g}`))));
    drawInto(box, game);
  }
  fill(root, h("section", { class: "rules-screen" }, tabs, box));
  draw();
  return onLang(draw);
}

/** The rules of `game` over the table (a modal panel; the table keeps running beneath). */
export function rulesDialog(game) {
  const box = h("div", { class: "rules-body" });
  const close = () => { panel.remove(); off(); };
  const panel = h("div", { class: "rules-dialog", role: "dialog", "aria-modal": "true",
    "aria-label": t("nav.rules"), onclick: (e) => { if (e.target === panel) close(); } },
  h("div", { class: "rules-sheet" },
    h("button", { type: "button", class: "close", "data-close-rules": "1", "aria-label": t("table.close"), onclick: close }, "×"),
    box));
  const off = onLang(() => drawInto(box, game));
  panel.addEventListener("keydown", (e) => { if (e.key === "Escape") close(); });
  document.body.append(panel);
  drawInto(box, game);
  panel.querySelector("button.close").focus();
  return panel;
}
