// Accounts in the browser: the register / log-in page (#/account) and the header's "who am I"
// (name, my games, log out). The token stays in localStorage as for guests (api.js).

import { h, clear, fill } from "./util.js";
import { t, onLang, dateText } from "./i18n.js";
import { me, forget, createAccount, logIn, logOut, changePassword, listSessions, revokeSession } from "./api.js";

/** The header's identity line: name, "my games", the account (password, sessions) and log
 * out, or log in / register. */
export function drawMe(el, onChange) {
  const who = me();
  clear(el);
  if (who) {
    el.append(t("me.as", { name: who.name }), " · ",
      h("a", { href: `#/player/${who.id}`, "data-my-games": "1" }, t("nav.my_games")), " · ");
  }
  if (who?.username) {
    el.append(h("a", { href: "#/account", "data-account-manage": "1" }, t("me.account", { username: who.username })), " · ",
      h("button", { type: "button", class: "link", "data-logout": "1", onclick: async () => {
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

/** #/account: register (upgrading the guest held here) and log in, side by side; signed in
 * with an account, the password change and the list of sessions instead. */
export function accountScreen(root, onDone) {
  const done = (p) => { onDone(); location.hash = `#/player/${p.id}`; };
  const draw = () => {  // again on a language switch
    const who = me();
    if (who?.username) { manageScreen(root, who); return; }
    fill(root, h("section", { class: "account" }, h("h1", {}, t("acct.title")),
      h("div", { class: "account-forms" },
        form("register", async (u, p) => done(await createAccount(u, p))),
        form("login", async (u, p) => done(await logIn(u, p))))));
  };
  draw();
  return onLang(draw);
}

/** The password change: the current password, the new one; other sessions are logged out. */
function passwordForm(onChanged) {
  const err = h("p", { class: "error-line", role: "alert" });
  const ok = h("p", { class: "muted", role: "status" });
  const el = h("form", { class: "card-panel name-form", "data-form": "password", onsubmit: async (e) => {
    e.preventDefault();
    err.textContent = ""; ok.textContent = "";
    try {
      const r = await changePassword(el.querySelector("#pw-current").value, el.querySelector("#pw-new").value);
      ok.textContent = t("acct.password_changed", { n: r.sessions_revoked });
      el.reset();
      onChanged();
    } catch (x) { err.textContent = x.message; }
  } },
  h("h2", {}, t("acct.change_password")),
  field("pw-current", t("acct.current_password"), { type: "password", maxlength: 256, autocomplete: "current-password" }),
  field("pw-new", t("acct.new_password"), { type: "password", minlength: 8, maxlength: 256, autocomplete: "new-password" }),
  h("button", { type: "submit", class: "primary" }, t("acct.change_password")), err, ok);
  return el;
}

/** The account's sessions, this browser marked; any other can be logged out from here. */
function sessionsPanel() {
  const list = h("ul", { class: "sessions", "data-sessions": "1" });
  const err = h("p", { class: "error-line", role: "alert" });
  async function load() {
    try {
      const items = await listSessions();
      fill(list, ...items.map((s) => h("li", { "data-session": s.id, "data-kind": s.kind, "data-current": String(s.current) },
        `${dateText(s.created_at)} · ${t(`acct.session_kind.${s.kind}`)}`,
        " ", s.current ? h("strong", {}, `(${t("acct.this_browser")})`)
          : h("button", { type: "button", class: "small", "data-revoke": s.id, onclick: async () => {
            try { await revokeSession(s.id); await load(); } catch (x) { err.textContent = x.message; }
          } }, t("acct.revoke")))));
      if (!items.some((s) => !s.current)) list.append(h("li", { class: "muted" }, t("acct.no_sessions")));
    } catch (x) { err.textContent = x.message; }
  }
  load();
  return { el: h("div", { class: "card-panel" }, h("h2", {}, t("acct.sessions")), list, err), load };
}

function manageScreen(root, who) {
  const sessions = sessionsPanel();
  fill(root, h("section", { class: "account", "data-manage": who.id },
    h("h1", {}, t("acct.manage", { username: who.username })),
    h("p", {}, h("a", { href: `#/player/${who.id}` }, t("nav.my_games"))),
    h("div", { class: "account-forms" }, passwordForm(() => sessions.load()), sessions.el)));
}
