// Table chat: the lines the server sends (`chat`, `chat_removed`), a box to say something,
// and a mute per player kept in this browser. Text is always set as text, never as markup.

import { h, fill } from "./util.js";
import { t } from "./i18n.js";

const MUTE_KEY = "cardhall.muted";
const MAX_LINES = 100;

function muted() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTE_KEY) || "[]")); } catch { return new Set(); }
}
function setMuted(set) { try { localStorage.setItem(MUTE_KEY, JSON.stringify([...set])); } catch { /* off */ } }

/** A chat panel for table `tableId`; `send(text)` says a line. Returns {el, onMessage, redraw}. */
export function chatPanel(tableId, send, myId) {
  const lines = [];
  const list = h("ol", { class: "chat-list", "aria-live": "polite" });
  const input = h("input", { type: "text", maxlength: 200, class: "chat-input", "aria-label": t("chat.say") });
  const title = h("summary", {}, t("chat.title"));
  const button = h("button", { type: "submit", class: "small" }, t("chat.send"));
  const form = h("form", { class: "chat-form", onsubmit: (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (text) { send(text); input.value = ""; }
  } }, input, button);
  const el = h("details", { class: "chat", open: true }, title, list, form);

  function draw() {
    const off = muted();
    title.textContent = t("chat.title");
    button.textContent = t("chat.send");
    input.placeholder = t("chat.say");
    fill(list, lines.filter((l) => !off.has(l.player_id)).map((l) => h("li", { "data-chat-id": l.id },
      h("strong", {}, l.name), ": ", h("span", { class: "chat-text" }, l.text), " ",
      l.player_id !== myId ? h("button", { type: "button", class: "link mute", "data-mute": l.player_id,
        title: t("chat.mute", { name: l.name }), onclick: () => { const m = muted(); m.add(l.player_id); setMuted(m); draw(); } },
      t("chat.mute_short")) : null)));
    list.scrollTop = list.scrollHeight;
  }

  function onMessage(msg) {
    if (msg.table_id !== tableId) return;
    if (msg.type === "chat") {
      if (lines.some((l) => l.id === msg.id)) return;  // kept lines come again on a rejoin
      lines.push(msg);
      if (lines.length > MAX_LINES) lines.shift();
    } else if (msg.type === "chat_removed") {
      const i = lines.findIndex((l) => l.id === msg.id);
      if (i >= 0) lines.splice(i, 1);
    }
    draw();
  }
  draw();
  return { el, onMessage, redraw: draw };
}
