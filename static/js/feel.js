// The table's feel (issue 28): which sound each event asks for, the live-region lines, the
// clock's last-seconds ticks and the animation classes of dealing, playing a card and chips
// going to the pot. table.js calls onEvent() for each live event, drawn() after each render
// and stop() when the screen goes. Gathering a trick is pure CSS (.trick.held, css/feel.css).
// Nothing animates under prefers-reduced-motion (no class is added; the CSS turns them off too).

import { play } from "./sound.js";
import { announce } from "./a11y.js";
import { t } from "./i18n.js";

// event kinds (docs/engine.md's events of the three games) -> cue
const CARD = new Set(["played", "soldier", "palace", "discard", "exchanged", "battle_reveal"]);
const DEAL = new Set(["dealt", "deal", "palaces_dealt", "redeal"]);
const CHIPS = new Set(["antes", "bet", "raise", "call", "buy"]);
const WON = new Set(["deal_scored", "hand_end", "pot_awarded", "match_over"]);
const LAST_MS = 3000;  // the clock's last seconds tick (as the countdown bar turns red)

/** True when the player asked the system for less motion. */
export function reducedMotion() {
  return Boolean(window.matchMedia?.("(prefers-reduced-motion: reduce)").matches);
}

/** The cue of event `ev` ("card", "deal", "chips", "win") or null; `chips`: the table has a pot. */
export function cueOf(ev, chips) {
  if (CARD.has(ev.kind)) return "card";
  if (DEAL.has(ev.kind)) return "deal";
  if (WON.has(ev.kind)) return "win";
  if (chips && CHIPS.has(ev.kind)) return "chips";
  return null;
}

function codes(root, sel) {
  return new Set([...root.querySelectorAll(sel)].map((e) => e.dataset.card));
}

/** The feel of one table screen: `countdown` is its Countdown. */
export function tableFeel(countdown) {
  let own = false;  // my own turn now
  let seen = null;  // {hand: Set, table: Set, pot: number|null} of the last render
  let lastSecond = null;
  const clock = setInterval(() => {
    if (!own || !countdown.running) { lastSecond = null; return; }
    const left = countdown.leftMs();
    const sec = Math.ceil(left / 1000);
    if (left > 0 && left <= LAST_MS && sec !== lastSecond) { lastSecond = sec; play("tick"); }
  }, 100);

  return {
    /** A live event with its log line `text`; `chips`: the game has a pot. */
    onEvent(ev, text, chips) {
      const cue = cueOf(ev, chips);
      if (cue) play(cue);
      if (cue === "card" && text) announce(text);
    },
    /** After a render: `mine` = the player's own turn; `board` the drawn board. */
    drawn(board, mine) {
      if (mine && !own) { play("turn"); announce(t("table.your_turn")); }
      own = mine;
      const now = {
        hand: codes(board, ".hand [data-card]"),
        table: codes(board, "[data-card]:not(.hand [data-card]):not(.picker [data-card]):not(.last-trick [data-card])"),
        pot: Number(board.querySelector("[data-pot]")?.dataset.pot ?? NaN),
      };
      if (!reducedMotion()) animate(board, now, seen);
      seen = now;
    },
    stop() { clearInterval(clock); },
  };
}

const RUN_MS = { "feel-deal": 900, "feel-play": 300, "feel-chips": 500 };  // the CSS durations (+ stagger)
const running = new Map();  // "<class>:<card code or pot>" -> performance.now() it began

// The board is drawn anew on every state: an animation still under way goes on in the new
// element from where it was (a negative delay), new cards and a grown pot begin theirs.
function mark(el, cls, key, i = 0) {
  const now = performance.now();
  const t0 = running.get(key) ?? now;
  if (now - t0 > RUN_MS[cls]) return;
  running.set(key, t0);
  el.classList.add(cls);
  el.style.setProperty("--feel-i", String(i));  // the CSSOM: the CSP refuses style attributes
  el.style.setProperty("--feel-t", `${Math.round(now - t0)}ms`);
}

function animate(board, now, seen) {
  const at = performance.now();
  for (const [key, t0] of running) if (at - t0 > 1000) running.delete(key);
  let i = 0;
  for (const el of board.querySelectorAll(".hand [data-card]")) {
    const key = `feel-deal:${el.dataset.card}`;
    if (seen?.hand.has(el.dataset.card) && !running.has(key)) continue;
    mark(el, "feel-deal", key, i++);
  }
  if (!seen) return;  // the first drawing: only the hand is dealt to the player
  for (const el of board.querySelectorAll("[data-card]")) {
    if (el.closest(".hand, .picker, .last-trick")) continue;
    const key = `feel-play:${el.dataset.card}`;
    if (seen.table.has(el.dataset.card) && !running.has(key)) continue;
    mark(el, "feel-play", key);
  }
  const pot = board.querySelector("[data-pot]");
  if (pot && ((Number.isFinite(seen.pot) && now.pot > seen.pot) || running.has("feel-chips:pot"))) {
    mark(pot, "feel-chips", "feel-chips:pot");
  }
}
