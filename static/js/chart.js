// A rating-over-time line chart drawn as SVG by our code (no library, no CDN).

import { dateText } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, text = null) {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== null) e.textContent = text;
  return e;
}

/**
 * An <svg> line chart of `points` ([{at: ISO time, rating: int}], oldest first): x is the game
 * number (1 = first rated game, evenly spaced), y the rating with the lowest and highest values
 * labelled; each point carries its rating and date as a <title> tooltip. `label` is the chart's
 * accessible name. Width 600 x height 200 user units, scaled to its box by CSS.
 */
export function ratingChart(points, label) {
  const W = 600, H = 200, L = 44, R = 10, T = 12, B = 22;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": label });
  if (!points.length) return svg;
  const ys = points.map((p) => p.rating);
  let lo = Math.min(...ys), hi = Math.max(...ys);
  if (hi - lo < 20) { lo -= 10; hi += 10; }
  const x = (i) => L + (points.length === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (points.length - 1));
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  svg.append(el("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, class: "axis" }),
    el("line", { x1: L, y1: T, x2: L, y2: H - B, class: "axis" }),
    el("text", { x: L - 4, y: y(hi) + 4, "text-anchor": "end", class: "tick" }, String(Math.round(hi))),
    el("text", { x: L - 4, y: y(lo) + 4, "text-anchor": "end", class: "tick" }, String(Math.round(lo))),
    el("text", { x: W - R, y: H - 6, "text-anchor": "end", class: "tick" }, String(points.length)));
  svg.append(el("polyline", { class: "line", fill: "none",
    points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ") }));
  points.forEach((p, i) => {
    const dot = el("circle", { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3, class: "dot", "data-rating": p.rating });
    dot.append(el("title", {}, `${p.rating} · ${dateText(p.at)}`));
    svg.append(dot);
  });
  return svg;
}
