// REST calls and the guest identity (token kept in localStorage).

const KEY = "cardhall.player";

export function me() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch { return null; }
}

export function forget() { localStorage.removeItem(KEY); }

export class ApiError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

export async function api(path, { method = "GET", body } = {}) {
  const headers = { Accept: "application/json" };
  const who = me();
  if (who?.token) headers.Authorization = `Bearer ${who.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json().catch(() => null);
  if (!r.ok) {
    const err = data?.error || {};
    if (err.code === "auth.invalid_token") { forget(); window.dispatchEvent(new Event("hashchange")); }
    throw new ApiError(r.status, err.code || "request.error", err.message || r.statusText);
  }
  return data;
}

/**
 * One page of a paged list (GET /api/tables): sends `etag` as If-None-Match and answers
 * null when the server says 304 (the page is unchanged), else {data, etag, next}: `next` is
 * the cursor of the following page from the `Link: <...>; rel="next"` header (null: the last).
 */
export async function apiPage(path, etag) {
  const headers = { Accept: "application/json" };
  if (etag) headers["If-None-Match"] = etag;
  // no-store: this code keeps the page and its ETag itself (the HTTP cache would answer a
  // 304 with the cached 200, and the page could not tell an unchanged page from a new one)
  const r = await fetch(path, { headers, cache: "no-store" });
  if (r.status === 304) return null;
  const data = await r.json().catch(() => null);
  if (!r.ok) {
    const err = data?.error || {};
    throw new ApiError(r.status, err.code || "request.error", err.message || r.statusText);
  }
  const link = /<([^>]*)>\s*;\s*rel="next"/.exec(r.headers.get("Link") || "");
  const next = link ? new URL(link[1], location.href).searchParams.get("cursor") : null;
  return { data, etag: r.headers.get("ETag"), next };
}

/** Create a guest player named `name`; remembers {id, name, token}. */
export async function register(name) {
  const saved = me();
  localStorage.removeItem(KEY);
  try {
    const p = await api("/api/players", { method: "POST", body: { name } });
    localStorage.setItem(KEY, JSON.stringify({ id: p.id, name: p.name, token: p.token }));
    return me();
  } catch (e) {
    if (saved) localStorage.setItem(KEY, JSON.stringify(saved));
    throw e;
  }
}

function remember(p) {
  localStorage.setItem(KEY, JSON.stringify({ id: p.id, name: p.name, token: p.token,
    username: p.username || null }));
  return me();
}

/**
 * Register an account (POST /api/accounts). A guest held in this browser is upgraded: its id,
 * games and chips stay. Remembers {id, name, username, token}.
 */
export async function createAccount(username, password) {
  const guest = me();
  const p = await api("/api/accounts", { method: "POST", body: { username, password } });
  const who = remember(p);
  // the guest token this browser held became one of the account's sessions, yet nothing holds
  // it now: revoke it, so "Where you are logged in" lists no stale guest session
  if (guest?.token && !guest.username && guest.id === p.id) {
    await fetch("/api/sessions/current", { method: "DELETE",
      headers: { Authorization: `Bearer ${guest.token}` } }).catch(() => {});
  }
  return who;
}

/** Log in (POST /api/sessions): a new token of the account replaces what this browser held. */
export async function logIn(username, password) {
  const saved = me();
  localStorage.removeItem(KEY);
  try {
    const s = await api("/api/sessions", { method: "POST", body: { username, password } });
    localStorage.setItem(KEY, JSON.stringify({ id: s.id, token: s.token, username: s.username }));
    const who = await api("/api/players/me");
    return remember({ ...who, token: s.token, username: s.username });
  } catch (e) {
    if (saved) localStorage.setItem(KEY, JSON.stringify(saved));
    throw e;
  }
}

/** Log out: revoke this browser's token (DELETE /api/sessions/current) and forget it. */
export async function logOut() {
  try { await api("/api/sessions/current", { method: "DELETE" }); } finally { forget(); }
}

/** Change the account's password (POST /api/accounts/password): the current one is checked;
 * every other session of the account is revoked. Returns {sessions_revoked}. */
export async function changePassword(password, newPassword) {
  return api("/api/accounts/password", { method: "POST", body: { password, new_password: newPassword } });
}

/** The account's sessions (GET /api/sessions): [{id, kind, created_at, current}], oldest first. */
export async function listSessions() {
  return (await api("/api/sessions")).items;
}

/** Revoke one of the account's sessions (DELETE /api/sessions/{id}): that device is logged out. */
export async function revokeSession(id) {
  return api(`/api/sessions/${encodeURIComponent(id)}`, { method: "DELETE" });
}
