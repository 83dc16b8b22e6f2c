// Sounds of the table (issue 28): short Web Audio blips, no sound files. Cues: "turn" (your
// turn), "card" (a card played), "tick" (the clock's last seconds, once a second), "win" (a
// hand or match won), "deal" and "chips". The mute choice is kept in localStorage. Every cue
// asked for is noted in window.cardhallCues ({cue, muted}) so tests can see what was played.

import { h } from "./util.js";
import { t } from "./i18n.js";

const KEY = "cardhall.sound.muted";
// [frequency Hz, seconds, wave] per note; notes follow each other
const CUES = {
  turn: [[660, 0.09, "sine"], [880, 0.12, "sine"]],
  card: [[320, 0.05, "triangle"]],
  tick: [[1000, 0.03, "square"]],
  win: [[523, 0.1, "sine"], [659, 0.1, "sine"], [784, 0.18, "sine"]],
  deal: [[240, 0.03, "triangle"], [260, 0.03, "triangle"]],
  chips: [[1400, 0.03, "triangle"], [1700, 0.03, "triangle"]],
};
const VOLUME = 0.08;
let audio = null;
const listeners = new Set();

/** True when the player muted the table sounds (remembered across reloads). */
export function muted() {
  try { return localStorage.getItem(KEY) === "1"; } catch { return false; }
}

/** Mute (true) or unmute (false); remembered in localStorage. */
export function setMuted(on) {
  try { localStorage.setItem(KEY, on ? "1" : "0"); } catch { /* private mode: this page only */ }
  listeners.forEach((fn) => fn(on));
}

function context() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return null;
  if (!audio) audio = new Ctx();
  if (audio.state === "suspended") audio.resume?.();
  return audio;
}

/** Play cue `name` (one of CUES) unless muted; unknown names are ignored. */
export function play(name) {
  const notes = CUES[name];
  if (!notes) return;
  const off = muted();
  (window.cardhallCues ||= []).push({ cue: name, muted: off });
  if (off) return;
  const ac = context();
  if (!ac) return;
  let at = ac.currentTime;
  for (const [freq, secs, wave] of notes) {
    const osc = ac.createOscillator();
    const gain = ac.createGain();
    osc.type = wave;
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(VOLUME, at);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + secs);
    osc.connect(gain).connect(ac.destination);
    osc.start(at);
    osc.stop(at + secs + 0.02);
    at += secs;
  }
}

/** The header's sound on/off button (aria-pressed = muted). */
export function soundToggle() {
  const btn = h("button", { type: "button", class: "small sound-toggle", "data-sound-toggle": "1" });
  const draw = () => {
    const off = muted();
    btn.textContent = off ? "🔇" : "🔊";
    btn.setAttribute("aria-pressed", String(off));
    btn.setAttribute("aria-label", t("feel.mute"));
    btn.title = off ? t("feel.sound_off") : t("feel.sound_on");
  };
  btn.addEventListener("click", () => { setMuted(!muted()); });
  listeners.add(draw);
  draw();
  btn.redraw = draw;
  return btn;
}
