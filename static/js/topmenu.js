// The header's menu on a phone (css/more.css, "The header on a phone"): below 720 px the
// header is one line, the name and a "Menu" button; the links, who you are and the language
// open under it. A wide screen shows them all and never sees the button.

/**
 * Wire the menu button of `header` (the page's `header.top`, holding `[data-menu-toggle]`
 * and `#top-menu`): the button opens and closes the menu (`header.open`, `aria-expanded`);
 * following a link or a button in it, a new page (hashchange), Escape and a click outside
 * close it. Returns nothing.
 */
export function topMenu(header) {
  const btn = header.querySelector("[data-menu-toggle]");
  const menu = header.querySelector("#top-menu");
  const isOpen = () => header.classList.contains("open");
  const set = (open) => {
    header.classList.toggle("open", open);
    btn.setAttribute("aria-expanded", String(open));
  };
  btn.addEventListener("click", () => set(!isOpen()));
  menu.addEventListener("click", (e) => { if (e.target.closest("a, button")) set(false); });
  window.addEventListener("hashchange", () => set(false));
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && isOpen()) { set(false); btn.focus(); }
  });
  document.addEventListener("click", (e) => { if (isOpen() && !header.contains(e.target)) set(false); });
}
