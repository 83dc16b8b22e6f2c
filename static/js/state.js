// Protocol 2 `state` frames: a full state (`"full": true`, or no `full` at all as protocol 1
// sent it) replaces the state held; a delta (`"full": false`) applies only on top of the state
// whose `version` is its `base_version` (docs/protocol.md; the server's and the SDK's side of
// the same rule is `apply_state` in src/cardhall/protocol/frames.py).

/** Fields of a delta that describe the step or the patch, never copied into the state. */
export const DELTA_ONLY = new Set(["base_version", "view_patch", "view_removed", "events", "actor", "timeout"]);

/** Fields that describe the step a frame reports (a full state may carry them too). */
export const STEP_FIELDS = new Set(["events", "actor", "timeout"]);

/** True when `frame` is a full state (protocol 1 frames have no `full` and are all full). */
export function isFull(frame) {
  return frame.full === undefined || frame.full === null || frame.full === true;
}

/**
 * The full state after `frame` on top of `current`.
 *
 * current: the full state held for the table (an object as returned here, or null).
 * frame: a `state` message as parsed JSON (full or delta).
 * Returns a new object (neither argument is modified) without the step fields
 * (`events`, `actor`, `timeout`: the caller reads them from the frame), or null when `frame` is
 * a delta whose `base_version` is not `current.version` (or nothing is held): a frame was
 * missed, the caller sends `resync` and gets a full state.
 *
 * A delta copies every top-level field it carries except DELTA_ONLY (absent optional fields such
 * as `seats`, `seat_map`, `game_id`, `seed_commitment` keep their held value), then patches the
 * view: `view = {...view, ...view_patch}` without the keys in `view_removed`. A delta with an
 * empty patch and nothing removed leaves the view as it was (a null view stays null).
 */
export function applyState(current, frame) {
  if (isFull(frame)) {
    const out = {};
    for (const [k, v] of Object.entries(frame)) if (!STEP_FIELDS.has(k)) out[k] = v;
    return out;
  }
  if (!current || current.version !== frame.base_version) return null;
  const out = { ...current };
  for (const [k, v] of Object.entries(frame)) if (!DELTA_ONLY.has(k)) out[k] = v;
  out.full = true;
  const patch = frame.view_patch || {};
  const removed = frame.view_removed || [];
  if (Object.keys(patch).length || removed.length) {
    const view = { ...(current.view || {}), ...patch };
    for (const k of removed) delete view[k];
    out.view = view;
  }
  return out;
}

/**
 * The step a `state` frame reports, in the shape of a protocol 1 `events` message
 * (`{events, seat, timeout}`, `seat` being the acting table seat), or null when the frame
 * carries no events list (a protocol 1 state).
 */
export function stepOf(frame) {
  if (!Array.isArray(frame.events)) return null;
  return { type: "events", table_id: frame.table_id, version: frame.version, events: frame.events,
    seat: frame.actor ?? null, timeout: Boolean(frame.timeout) };
}
