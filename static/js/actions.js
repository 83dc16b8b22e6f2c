// Controls built only from the server's legal-action entries (docs/engine.md): concrete
// entries are buttons, min_<f>/max_<f> ranges are sliders, <f>_from choices are card pickers.
// Every control that sends an action carries data-act="<type>"; picker toggles carry data-pick.

import { h } from "./util.js";
import { t, tn } from "./i18n.js";

/** Split an entry into {type, fixed, ranges: [{f,min,max}], choices: [{f,from,min,max}]}. */
export function parseEntry(entry) {
  const choices = [];
  const ranges = [];
  const fixed = {};
  const choiceFields = new Set();
  for (const k of Object.keys(entry)) {
    if (k.endsWith("_from")) choiceFields.add(k.slice(0, -5));
  }
  for (const f of choiceFields) {
    choices.push({ f, from: entry[`${f}_from`], min: entry[`min_${f}`] ?? 0, max: entry[`max_${f}`] ?? entry[`${f}_from`].length });
  }
  for (const [k, v] of Object.entries(entry)) {
    if (k === "type" || k.endsWith("_from")) continue;
    const m = /^(min|max)_(.+)$/.exec(k);
    if (m) {
      if (choiceFields.has(m[2])) continue;
      if (m[1] === "min") ranges.push({ f: m[2], min: v, max: entry[`max_${m[2]}`] });
      continue;
    }
    fixed[k] = v;
  }
  return { type: entry.type, fixed, ranges, choices };
}

export function isConcrete(entry) {
  const p = parseEntry(entry);
  return p.ranges.length === 0 && p.choices.length === 0;
}

/** A button sending a concrete action. */
export function actButton(label, action, ctx, extra = {}) {
  return h("button", {
    type: "button", class: `act act-${action.type} ${extra.class || ""}`, "data-act": action.type,
    disabled: ctx.busy || !ctx.act, onclick: () => ctx.act(action), ...extra.attrs,
  }, label);
}

/** A slider over [min, max] for field f with a send button: {type, ...fixed, f: value}. */
export function rangeControl(entry, range, ctx, label) {
  const p = parseEntry(entry);
  if (range.min === range.max) {  // one amount only: a plain button, no slider of one value
    return actButton(`${label} ${range.min}`, { type: p.type, ...p.fixed, [range.f]: range.min }, ctx,
      { attrs: { "data-amount": String(range.min) } });
  }
  const out = h("output", { class: "amount" }, String(range.min));
  const input = h("input", {
    type: "range", min: range.min, max: range.max, step: 1, value: range.min,
    "aria-label": `${label} (${range.min}–${range.max})`, "data-range": range.f,
  });
  const num = h("input", { type: "number", min: range.min, max: range.max, value: range.min,
    class: "amount-num", "aria-label": label });
  const sync = (v) => {
    const n = Math.max(range.min, Math.min(range.max, Math.round(Number(v) || range.min)));
    input.value = n; num.value = n; out.textContent = String(n);
  };
  input.addEventListener("input", () => sync(input.value));
  num.addEventListener("change", () => sync(num.value));
  // while typing: the button says the amount as soon as it is one it can send (clamped on change)
  num.addEventListener("input", () => {
    const n = Number(num.value);
    if (Number.isInteger(n) && n >= range.min && n <= range.max) { input.value = n; out.textContent = String(n); }
  });
  const send = h("button", {
    type: "button", class: `act act-${p.type}`, "data-act": p.type, disabled: ctx.busy || !ctx.act,
    onclick: () => ctx.act({ type: p.type, ...p.fixed, [range.f]: Number(input.value) }),
  }, label, " ", out);
  return h("div", { class: "range-control" }, send, input, num);
}

/** What a card choice asks, in words: "Choose 1 card, then press Discard." (exactly n),
 * "Choose up to 3 cards to exchange, or keep all." (from 0), else the range. */
export function pickHint(choice, label) {
  const { min, max } = choice;
  if (min === max) return tn("pick.exactly", min, { n: min, label });
  if (min === 0) return tn("pick.up_to", max, { n: max, label });
  return t("pick.range", { min, max, label });
}

/** The picker's confirm button text: the action and how many cards it takes ("Discard 1
 * card"); "Keep all" only where choosing none is allowed; the bare action while too few. */
export function pickLabel(choice, label, k) {
  if (k === 0) return choice.min === 0 ? t("act.keep_all") : label;
  return tn("act.pick_n", k, { label, k });
}

/** Toggle-select cards from choice.from (min..max), then confirm with onConfirm(cards). */
export function cardPicker(choice, render, ctx, label, onConfirm) {
  const chosen = new Set();
  const confirm = h("button", { type: "button", class: "act confirm", "data-act": "confirm" });
  const update = () => {
    const k = chosen.size;
    confirm.textContent = pickLabel(choice, label, k);
    confirm.disabled = ctx.busy || !ctx.act || k < choice.min || k > choice.max;
  };
  const row = h("div", { class: "cards picker" }, choice.from.map((c) => {
    const el = render(c, {
      toggle: true, dataset: { pick: "1" },
      onclick: () => {
        if (chosen.has(c)) chosen.delete(c); else chosen.add(c);
        el.classList.toggle("selected", chosen.has(c));
        el.setAttribute("aria-pressed", String(chosen.has(c)));
        update();
      },
    });
    return el;
  }));
  confirm.addEventListener("click", () => onConfirm([...chosen]));
  update();
  return h("div", { class: "picker-box" },
    h("p", { class: "hint" }, pickHint(choice, label)), row, confirm);
}

/** Generic control for any entry (fallback when a game has no special widget for it). */
export function genericControl(entry, ctx, render, labelOf) {
  const p = parseEntry(entry);
  const label = labelOf ? labelOf(entry) : t(`act.${p.type}`);
  if (p.choices.length) {
    const ch = p.choices[0];
    return cardPicker(ch, render, ctx, label, (cards) => ctx.act({ type: p.type, ...p.fixed, [ch.f]: cards }));
  }
  if (p.ranges.length) return rangeControl(entry, p.ranges[0], ctx, label);
  return actButton(label, entry, ctx);
}
