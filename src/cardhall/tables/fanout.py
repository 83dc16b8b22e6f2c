"""Fan-out: one ``state`` frame per recipient per applied step (protocol 2, ``docs/protocol.md``).

A step's frames are built in three layers so that the cost of a step grows with what changed,
not with how many recipients there are or how long the game has run:

1. **Once per step**: the public view (:meth:`GameState.public_view`, the spectator's view) and
   its top-level diff against the previous step's (:func:`~cardhall.protocol.frames.diff_view`),
   each changed value encoded once (an :class:`orjson.Fragment`); the public seat list; the
   fields every recipient shares.
2. **Once per audience**: the events a game seat may see (``Event.visible_to``), encoded once
   per game seat and once for everyone else; spectators at the same base share one frame.
3. **Per seat**: only its private view keys (:meth:`GameState.private_view`, e.g. its hand),
   sent when they changed, and its legal actions.

The fan-out remembers per connection the version it last got, its private keys and the
table facts (seats, seat map, game id, commitment) it holds, so a delta says only what changed
for it. A recipient whose base is not the previous step's (it joined, resynced or resumed
since) gets a full state instead. Full states (join, resume, resync) are built by
:meth:`Fanout.full`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from ..engine import Event
from ..protocol.frames import Frame, diff_view
from .connections import Connection
from .state import STAND_IN_RETURNABLE

_MISSING = object()
EXTRAS = ("seats", "seat_map", "game_id", "seed_commitment", "next_seed_commitment")
"""Table facts a delta carries only when they changed for its recipient."""


@dataclass(slots=True)
class _Sent:
    """What one connection holds: the version of its last state, its private view keys and
    the table facts (:data:`EXTRAS`) it was last told."""

    version: int
    private: dict[str, Any]
    extras: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class _Step:
    """What the table computed once for the step being sent."""

    public: dict[str, Any] | None
    patch: dict[str, Any]
    removed: list[str]
    common: dict[str, Any]
    extras: dict[str, Any]
    """The table facts (:data:`EXTRAS`); the previous step's own dict when they did not
    change, so a recipient holding them is known by identity, without comparing."""
    encoded: dict[str, Any] = field(default_factory=dict)
    """The :data:`EXTRAS` values some recipient needs, as fragments (each encoded once, on
    first use: a step whose facts nobody lacks encodes none)."""

    def fragment(self, key: str) -> Any:
        """The :data:`EXTRAS` value ``key`` encoded (once per step)."""
        frag = self.encoded.get(key)
        if frag is None:
            frag = self.encoded[key] = _frag(self.extras[key])
        return frag


def _frag(value: Any) -> orjson.Fragment:
    return orjson.Fragment(orjson.dumps(value))


class Fanout:
    """The per-table fan-out state (owned by one table actor; see the module docstring).

    Args:
        table: the :class:`~.actor.Table` whose recipients, game and timers it reads.
    """

    def __init__(self, table: Any) -> None:
        self.table = table
        self._sent: dict[str, _Sent] = {}
        self._public: dict[str, Any] | None = None
        self._version: int | None = None
        self._events: list[Event] = []
        self._actor: int | None = None
        self._timeout = False
        self._has_step = False
        self._extras_sent: dict[str, Any] | None = None
        """The table facts the previous step sent (spectators holding them share frames)."""

    # ----- what a step produced ---------------------------------------------------------------
    def add_events(self, events: list[Event], actor: int | None, *, timeout: bool) -> None:
        """Queue ``events`` for the next :meth:`broadcast` (the step's first ``actor`` and
        ``timeout`` describe the step)."""
        if not self._has_step:
            self._actor, self._timeout, self._has_step = actor, timeout, True
        self._events.extend(events)

    def forget(self, conn: Connection) -> None:
        """Drop what ``conn`` held (it left or disconnected): its next state is full."""
        self._sent.pop(conn.id, None)

    def clear(self) -> None:
        self._sent.clear()

    # ----- the table's facts ------------------------------------------------------------------
    def _view_parts(self, gs: int | None) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """(public view, private keys of game seat ``gs``); ``(None, {})`` before any game."""
        rec = self.table.recorder
        if rec is None:
            return None, {}
        st = rec.state
        return st.public_view(), ({} if gs is None else st.private_view(gs))

    def _private(self, gs: int | None) -> dict[str, Any]:
        rec = self.table.recorder
        return {} if gs is None or rec is None else rec.state.private_view(gs)

    def _extras(self) -> dict[str, Any]:
        t = self.table
        return {
            "seats": [s.public_json(t.in_hand(s.index), t.out_of_chips(s.index)) for s in t.seats],
            "seat_map": list(t.seat_map),
            "game_id": t.game_id,
            "seed_commitment": t.seed_commitment,
            "next_seed_commitment": t.next_seed_commitment,
        }

    def _decision(self, seat: int | None, gs: int | None) -> dict[str, Any]:
        t = self.table
        legal: list[dict[str, Any]] = []
        if gs is not None and t.status == "playing" and t.recorder is not None:
            legal = t.recorder.state.legal_actions(gs)
        return {"seat": seat, "game_seat": gs, "legal_actions": legal}

    def _decided(self, seat: int | None, gs: int | None, seen: int | None) -> dict[str, Any]:
        """:meth:`_decision`; a holder watching its stand-in (``seat`` ``None``) gets the
        ``game_seat`` whose cards it sees (``seen``), still with no legal moves."""
        out = self._decision(seat, gs)
        if seat is None and seen is not None:
            out["game_seat"] = seen
        return out

    def held_seat(self, conn: Connection) -> int | None:
        """The game seat of the seat ``conn``'s person holds while a stand-in plays it (the
        holder left or timed out, :data:`~.state.STAND_IN_RETURNABLE`, and now watches), or
        ``None``. The holder still sees that seat's own cards (its private view and events),
        never another seat's; it has no legal moves there until it takes the seat back."""
        t = self.table
        for s in t.seats:
            if (s.stand_in in STAND_IN_RETURNABLE and s.conn is not conn
                    and s.player_id is not None and s.player_id == conn.player.id):
                return t.game_seat(s.index)
        return None

    def _common(self) -> dict[str, Any]:
        t = self.table
        to_act: list[int] = []
        timer = None
        if t.recorder is not None:
            st = t.recorder.state
            to_act = [t.seat_map[g] for g in st.to_act()]
            timer = t.table_seat(st.timer_seat()) if t.status == "playing" else None
        return {"status": t.status, "hand": t.hand, "to_act": to_act, "timer_seat": timer,
                "deadline_ms": t.deadline_ms() if timer is not None else None}

    # ----- full states ------------------------------------------------------------------------
    def full(self, conn: Connection, seat: int | None, *, step: bool = False,
             public: dict[str, Any] | None = None,
             extras: dict[str, Any] | None = None) -> Frame:
        """The full state of table seat ``seat`` (``None`` = spectator) for ``conn``, recorded
        as what ``conn`` now holds. ``step``: carry the step being broadcast (events etc.)."""
        t = self.table
        gs = None if seat is None else t.game_seat(seat)
        seen = gs if seat is not None else self.held_seat(conn)  # whose cards it sees
        if public is None:
            pub, private = self._view_parts(seen)
        else:  # the step's public view, already built
            pub, private = public, self._private(seen)
        view = None if pub is None else {**pub, **private}
        extras = extras if extras is not None else self._extras()
        data: dict[str, Any] = {
            "type": "state", "full": True, "table_id": t.id, "version": t.version,
            "game": t.rules.name, **self._common(), **self._decided(seat, gs, seen), **extras,
            "view": view, "turn_timeout_ms": round(t.spec.turn_timeout_seconds * 1000),
            **t.buy_in_limits(),
        }
        if step:
            data["events"] = [e.to_json() for e in self._events if e.visible_to(seen)]
            data["actor"], data["timeout"] = self._actor, self._timeout
        self._sent[conn.id] = _Sent(t.version, private, dict(extras))
        return Frame(data)

    # ----- the step ---------------------------------------------------------------------------
    def broadcast(self) -> None:
        """Send every seat connection and spectator one ``state`` frame for the step (a delta
        where its base is the previous step's, else a full state), then start a new step."""
        t = self.table
        public, _ = self._view_parts(None)
        patch, removed = diff_view(self._public if self._version is not None else None, public)
        extras = self._extras()
        before = self._extras_sent
        if before is not None and extras == before:
            extras = before  # unchanged: who holds them is known by identity
        step = _Step(public, patch, removed,
                     {**self._common(), "actor": self._actor, "timeout": self._timeout},
                     extras)
        encoded_patch = {k: _frag(v) for k, v in patch.items()}
        events: dict[int | None, orjson.Fragment] = {}
        shared: Frame | None = None
        for s in t.seats:
            if s.conn is not None:
                t.send(s.conn, self._frame(s.conn, s.index, t.game_seat(s.index), step,
                                           encoded_patch, events))
        for conn in t.spectators.values():
            if self.held_seat(conn) is not None:  # a holder watching its stand-in: own cards
                t.send(conn, self._frame(conn, None, None, step, encoded_patch, events))
                continue
            sent = self._sent.get(conn.id)
            usual = (sent is not None and sent.version == self._version
                     and sent.extras is self._extras_sent and not sent.private)
            if usual and shared is not None:
                self._sent[conn.id] = _Sent(t.version, {}, extras)
                t.send(conn, shared)
                continue
            frame = self._frame(conn, None, None, step, encoded_patch, events)
            if usual:
                shared = frame  # every spectator at the usual base gets these same bytes
            t.send(conn, frame)
        self._extras_sent = extras
        self._public, self._version = public, t.version
        self._events, self._actor, self._timeout, self._has_step = [], None, False, False

    def _frame(self, conn: Connection, seat: int | None, gs: int | None, step: _Step,
               encoded_patch: dict[str, Any], events: dict[int | None, Any]) -> Frame:
        t = self.table
        sent = self._sent.get(conn.id)
        if sent is None or self._version is None or sent.version != self._version:
            return self.full(conn, seat, step=True, public=step.public, extras=step.extras)
        seen = gs if seat is not None else self.held_seat(conn)  # whose cards it sees
        private = self._private(seen)
        view_patch, view_removed = self._view_patch(sent.private, private, step, encoded_patch)
        if seen not in events:
            events[seen] = _frag([e.to_json() for e in self._events if e.visible_to(seen)])
        data: dict[str, Any] = {
            "type": "state", "full": False, "table_id": t.id, "version": t.version,
            "game": t.rules.name, "base_version": sent.version, **step.common,
            **self._decided(seat, gs, seen), "events": events[seen], "view_patch": view_patch,
        }
        if view_removed:
            data["view_removed"] = view_removed
        if sent.extras is not step.extras:
            for key in EXTRAS:
                if sent.extras.get(key, _MISSING) != step.extras[key]:
                    data[key] = step.fragment(key)
        self._sent[conn.id] = _Sent(t.version, private, step.extras)
        return Frame(data)

    @staticmethod
    def _view_patch(old_private: dict[str, Any], private: dict[str, Any], step: _Step,
                    encoded_patch: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """A recipient's view patch: the public patch (shared fragments) except keys its
        private view overrides, plus its private keys that changed; a key that stopped being
        private gets its public value back."""
        out = {k: v for k, v in encoded_patch.items() if k not in private}
        removed = [k for k in step.removed if k not in private]
        for key, value in private.items():
            if key in step.patch or old_private.get(key, _MISSING) != value:
                out[key] = value
        public = step.public or {}
        for key in old_private:
            if key not in private:
                if key in public:
                    out[key] = public[key]
                else:
                    removed.append(key)
        return out, removed
