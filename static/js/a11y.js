// Screen-reader announcements (issue 28): one polite ARIA live region (#announcer, visually
// hidden) that says "your turn" and the cards played. Each announcement is a new line in the
// region (screen readers read what is added); only the last few lines are kept.

import { h } from "./util.js";

const KEEP = 4;

/** The page's live region, made on first use (one per page). */
export function announcer() {
  let el = document.getElementById("announcer");
  if (!el) {
    el = h("div", { id: "announcer", class: "sr", role: "status", "aria-live": "polite", "aria-atomic": "false" });
    document.body.append(el);
  }
  return el;
}

/** Say `text` to screen readers (empty text is ignored). */
export function announce(text) {
  if (!text) return;
  const el = announcer();
  el.append(h("p", {}, text));
  while (el.childNodes.length > KEEP) el.firstChild.remove();
}

/** Empty the region (a screen is left). */
export function quiet() {
  const el = document.getElementById("announcer");
  if (el) el.textContent = "";
}
