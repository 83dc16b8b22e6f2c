// Keyboard play at the table (issue 28). Number keys 1–9 focus the nth card you may play or
// pick, the arrow keys move the focus over the cards and buttons you may use, Enter (or Space)
// confirms the focused one, "?" opens the shortcut help, Escape closes it. With "confirm before
// playing a card" on (remembered in localStorage) a card that plays at once is only marked by
// the first click or Enter, and played by the second: against misclicks.

import { h } from "./util.js";
import { t } from "./i18n.js";
import { muted, setMuted } from "./sound.js";

const CONFIRM_KEY = "cardhall.confirm_play";
const CARDS = "[data-card][data-act]:not([disabled]), [data-pick]:not([disabled])";
const ITEMS = ".board [data-act]:not([disabled]), .board [data-pick], .controls [data-act]:not([disabled]), .controls [data-pick]";

/** True when a card play waits for a second click (the remembered setting). */
export function confirmPlay() {
  try { return localStorage.getItem(CONFIRM_KEY) === "1"; } catch { return false; }
}

/** Turn the confirm-before-playing setting on or off (remembered). */
export function setConfirmPlay(on) {
  try { localStorage.setItem(CONFIRM_KEY, on ? "1" : "0"); } catch { /* this page only */ }
}

const typing = (el) => el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));

function checkbox(id, label, checked, onchange) {
  const box = h("input", { type: "checkbox", id, checked, onchange: (e) => onchange(e.target.checked) });
  return h("p", {}, box, " ", h("label", { for: id }, label));
}

function helpDialog(close) {
  const rows = [["1–9", "keys.n"], ["← →", "keys.arrows"], ["Enter", "keys.enter"], ["?", "keys.help"], ["Esc", "keys.esc"]];
  const done = h("button", { type: "button", class: "small", "data-close-keys": "1", onclick: close }, t("table.close"));
  return h("div", { class: "keys-help", role: "dialog", "aria-modal": "true", "aria-labelledby": "keys-title", "data-keys-help": "1" },
    h("h2", { id: "keys-title" }, t("keys.title")),
    h("dl", {}, rows.map(([k, id]) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, t(id))])),
    checkbox("keys-confirm", t("keys.confirm_play"), confirmPlay(), setConfirmPlay),
    checkbox("keys-mute", t("feel.mute"), muted(), setMuted),
    done);
}

/** Keyboard play on table `screen`; returns {button() -> the "?" head button, drawn(), stop()}. */
export function tableKeys(screen) {
  let armed = null;  // the card code a first click marked (confirm before playing)
  let help = null;
  const hint = h("p", { class: "armed-hint", role: "status", hidden: true });

  function openHelp() {
    if (help) return;
    const back = document.activeElement;
    help = helpDialog(() => { help?.remove(); help = null; back?.focus?.(); });
    screen.append(help);
    help.querySelector("input")?.focus();
  }
  function closeHelp() { help?.querySelector("[data-close-keys]")?.click(); }

  function move(step) {
    const items = [...screen.querySelectorAll(ITEMS)].filter((e) => e.tabIndex >= 0);
    if (!items.length) return;
    const at = items.indexOf(document.activeElement);
    const next = at < 0 ? (step > 0 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
    items[next].focus();
  }

  function onKey(e) {
    if (!screen.isConnected || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape" && help) { e.preventDefault(); closeHelp(); return; }
    if (typing(e.target) || help) return;
    if (e.key === "?") { e.preventDefault(); openHelp(); return; }
    if (/^[1-9]$/.test(e.key)) {
      const card = screen.querySelectorAll(CARDS)[Number(e.key) - 1];
      if (card) { e.preventDefault(); card.focus(); }
      return;
    }
    if (e.key === "ArrowRight" || e.key === "ArrowDown") { e.preventDefault(); move(1); }
    if (e.key === "ArrowLeft" || e.key === "ArrowUp") { e.preventDefault(); move(-1); }
  }

  // capture phase: the first click on a playing card marks it, the second plays it
  function onClick(e) {
    const card = e.target.closest?.(".card[data-act][data-card]");
    if (!card || !confirmPlay() || card.disabled) { if (card) armed = null; return; }
    if (armed === card.dataset.card) { armed = null; hint.hidden = true; return; }
    e.preventDefault();
    e.stopPropagation();
    armed = card.dataset.card;
    drawn();
  }

  function drawn() {
    const card = armed ? screen.querySelector(`.card[data-act][data-card="${CSS.escape(armed)}"]`) : null;
    if (!card) armed = null;
    screen.querySelectorAll(".card.armed").forEach((x) => x.classList.remove("armed"));
    if (card) card.classList.add("armed");
    hint.hidden = !card;
    hint.textContent = card ? t("keys.again", { card: card.getAttribute("aria-label") || armed }) : "";
    if (card && !hint.isConnected) screen.querySelector(".controls")?.before(hint);
  }

  document.addEventListener("keydown", onKey);
  screen.addEventListener("click", onClick, true);
  return {
    button: () => h("button", { type: "button", class: "small keys-btn", "data-keys": "1",
      "aria-keyshortcuts": "?", title: t("keys.title"), onclick: openHelp }, t("keys.button")),
    drawn,
    stop() { document.removeEventListener("keydown", onKey); },
  };
}
