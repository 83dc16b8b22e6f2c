// Accounts in the browser: the register / log-in page (#/account) and the header's "who am I"
// (name, my games, log out). The token stays in localStorage as for guests (api.js).

import { h, clear, fill } from "./util.js";
import { t } from "./i18n.js";
import { me, forget, createAccount, logIn, logOut } from "./api.js";

/** The header's identity line: name, "my games", log in / register or log out. */
export function drawMe(el, onChange) {
  const who = me();
  clear(el);
  if (who) {
    el.append(t("me.as", { name: who.name }), " ",
      h("a", { href: `#/player/${who.id}`, "data-my-games": "1" }, t("nav.my_games")), " · ");
  }
  if (who?.username) {
    el.append(h("button", { type: "button", class: "link", "data-logout": "1", onclick: async () => {
      try { await logOut(); } finally { onChange(); }
    } }, t("me.logout")));
  } else {
    if (who) {
      el.append(h("button", { type: "button", class: "link", onclick: () => { forget(); onChange(); } },
        t("me.change")), " · ");
    }
    el.append(h("a", { href: "#/account", "data-account": "1" }, t("nav.account")));
  }
}

function field(id, label, attrs) {
  return h("div", { class: "field" }, h("label", { for: id }, label), h("input", { id, name: id, required: true, ...attrs }));
}

function form(kind, submit) {
  const err = h("p", { class: "error-line", role: "alert" });
  const el = h("form", { class: "card-panel name-form", "data-form": kind, onsubmit: async (e) => {
    e.preventDefault();
    const user = el.querySelector(`#${kind}-username`).value.trim();
    const pass = el.querySelector(`#${kind}-password`).value;
    try { await submit(user, pass); } catch (x) { err.textContent = x.message; }
  } },
  h("h2", {}, t(`acct.${kind}`)),
  h("p", { class: "muted" }, t(`acct.${kind}_hint`)),
  field(`${kind}-username`, t("acct.username"), { maxlength: 24, autocomplete: "username" }),
  field(`${kind}-password`, t("acct.password"), { type: "password", maxlength: 256,
    minlength: kind === "register" ? 8 : null,
    autocomplete: kind === "register" ? "new-password" : "current-password" }),
  h("button", { type: "submit", class: "primary" }, t(`acct.${kind}`)), err);
  return el;
}

/** #/account: register (upgrading the guest held here) and log in, side by side. */
export function accountScreen(root, onDone) {
  const done = (who) => { onDone(); location.hash = `#/player/${who.id}`; };
  fill(root, h("section", { class: "account" }, h("h1", {}, t("acct.title")),
    h("div", { class: "account-forms" },
      form("register", async (u, p) => done(await createAccount(u, p))),
      form("login", async (u, p) => done(await logIn(u, p))))));
  return () => {};
}
