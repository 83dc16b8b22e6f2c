"""Game flow of a table actor: start a game, draw chance, fan out, finish and save.

A part of :class:`~.actor.Table` (held as ``table.flow``); runs only inside the table's task.

* **Start**: when every seat is taken (later poker hands: at least ``rules.min_players(config)``
  seats with ``rules.min_stack(config)`` chips), a fresh 32-byte ``secrets`` server seed is
  drawn; the seats' client seeds are fixed, and :func:`~cardhall.engine.game_seed` of both drives
  a :class:`~cardhall.engine.SeededShuffler` (``docs/fairness.md``); the server seed's commitment
  is published in a ``game_started`` table event and every ``state``.
* **Chance** actions are applied as soon as they are due, drawn from that shuffler.
* **Fan-out**: each step ends with one ``state`` frame per recipient: the events it may see
  (``Event.visible_to`` of its game seat; spectators and seats not in the hand see public events
  only) and what changed in its view (:mod:`.fanout`).
* **End**: the deadline is cancelled in the same step; the history (with ``id``, ``table_id``,
  ``started_at``, ``ended_at``, ``outcome``, ``seed_commitment``, the revealed ``seed``, the
  derivation ``shuffle`` and the seats' ``client_seeds``) is
  saved once with one :class:`~cardhall.storage.interface.SeatResult` per game seat; poker stacks
  move by the returns and the next hand is dealt after a pause; a Blot table is finished.
"""

from __future__ import annotations

import logging
import uuid
from datetime import datetime
from typing import Any

from ..engine import (
    SHUFFLE,
    Event,
    Recorder,
    SeatInfo,
    SeededShuffler,
    commitment,
    game_seed,
    table_copy,
)
from ..protocol.frames import Frame
from ..storage.interface import GameRecord, SeatResult
from .chips import Chips, rebuy_event
from .connections import Connection
from .durable import Durability
from .fanout import Fanout
from .standin import StandIns
from .state import TableState
from .timers import Timers

log = logging.getLogger(__name__)


class GameFlow:
    """The game lifecycle of one table (see the module docstring).

    Args:
        t: the table's state (seats, the running game, version and status).
        fanout: builds each step's frames.
        timers: the deadline, the pause between hands, the idle timer.
        stand_ins: stand-in periods go into a finished history; a timed-out seat counts.
        chips: a leaving seat cashes out when the game ends.
        durable: takes the finished game (the outbox of the step's commit).
    """

    def __init__(self, t: TableState, fanout: Fanout, timers: Timers, stand_ins: StandIns,
                 chips: Chips, durable: Durability) -> None:
        self.t = t
        self.fanout = fanout
        self.timers = timers
        self.stand_ins = stand_ins
        self.chips = chips
        self.durable = durable
        self.games_saved = 0
        """Games handed to the game writer (or the outbox)."""

    # ----- start ----------------------------------------------------------------------------
    def _eligible(self) -> list[int]:
        """The table seats the next hand deals in: taken, not leaving, not sitting out
        (``sit_out``) and not out of chips (``rules.min_stack``)."""
        return [s.index for s in self.t.seats if s.taken and not s.leaving
                and not s.sitting_out and not self.t.out_of_chips(s.index)]

    def start_game_if_ready(self) -> bool:
        """Start the next game if the table is ready; returns whether one started."""
        if self.t.rules.uses_stacks:
            self._top_up_builtin_bots()
        eligible = self._eligible()
        full = all(s.taken for s in self.t.seats)
        if self.t.status == "waiting":
            ready = full and len(eligible) >= self.t.rules.min_players(self.t.config)
        elif self.t.status == "between_hands":
            # built-in bots alone, or with clients whose sockets are all gone, stop (no endless hands)
            ready = len(eligible) >= self.t.rules.min_players(self.t.config) and self.t.people_present(eligible)
            if not ready:
                self.t.status = "waiting"
                self.t.version += 1
                self.broadcast_state()
                self.timers.arm_reap()
        else:
            ready = False
        if ready:
            self._start(eligible)
        return ready

    def _next_dealer(self, eligible: list[int]) -> int:
        if self.t._dealer_seat is None:
            return eligible[0]
        later = [s for s in eligible if s > self.t._dealer_seat]
        return later[0] if later else eligible[0]

    def _start(self, eligible: list[int]) -> None:
        self.t.seat_map = list(eligible)
        dealer_ts = self._next_dealer(eligible)
        self.t._dealer_seat = dealer_ts
        infos = [SeatInfo(self.t.seats[ts].name or f"seat {ts}", self.t.seats[ts].bot,
                          self.t.seats[ts].player_id) for ts in eligible]
        stacks = [self.t.seats[ts].stack or 0 for ts in eligible] if self.t.rules.uses_stacks else None
        self.t.recorder = Recorder(self.t.rules, self.t.config, infos, eligible.index(dealer_ts), stacks)
        self.t.seed, self.t.seed_commitment = self.t.next_seed, self.t.next_seed_commitment
        self.t.client_seeds = [self.t.seats[ts].client_seed for ts in eligible]
        self.t.shuffler = SeededShuffler(game_seed(self.t.seed, self.t.client_seeds))
        self.t.game_id = uuid.uuid4().hex
        self.t.started_at = self.t.clock.wall()
        self.t._t0 = self.t.clock.now()
        self.t.hand += 1
        self.t.next_seed = self.t.seed_source(self.t.hand + 1)
        self.t.next_seed_commitment = commitment(self.t.next_seed)
        self.t.status = "playing"
        self.t.version += 1
        self.timers.arm_reap()  # not idle any more: cancels the idle timer
        started = Event("game_started", {"game_id": self.t.game_id, "hand": self.t.hand,
                                         "seat_map": list(eligible), "dealer": dealer_ts,
                                         "seed_commitment": self.t.seed_commitment})
        self.fan_events([started], None, timeout=False)
        self.after_action([], None, timeout=False)

    # ----- after each accepted action -------------------------------------------------------
    def after_action(self, events: list[Event], seat: int | None, *, timeout: bool) -> None:
        """Fan out ``events`` (already applied; version already bumped), apply due chance
        actions, finish the game if it ended, re-arm the deadline and send every state."""
        assert self.t.recorder is not None and self.t.shuffler is not None
        if events:
            self.fan_events(events, seat, timeout=timeout)
        state = self.t.recorder.state
        while not state.is_over and state.chance_due():
            chance = state.chance_action(self.t.shuffler)
            more = self.t.recorder.act(None, chance, t_ms=self.t.t_ms())
            self.t.version += 1
            self.fan_events(more, None, timeout=False)
        self.t.game_version = self.t.version
        if state.is_over:
            self._finish()
            return
        self.timers.arm_deadline()
        self.broadcast_state()

    def fan_events(self, events: list[Event], seat: int | None, *, timeout: bool) -> None:
        """Queue ``events`` for the step's frames (each recipient gets those its game seat may
        see, with the next :meth:`broadcast_state`)."""
        self.fanout.add_events(events, seat, timeout=timeout)

    def broadcast_state(self) -> None:
        """Send every seat and spectator one ``state`` frame for the step: a delta on top of
        what it holds, or a full state (:class:`~.fanout.Fanout`)."""
        self.fanout.broadcast()

    def state_for(self, conn: Connection, seat: int | None) -> Frame:
        """The full redacted state of table seat ``seat`` (``None`` = spectator) for ``conn``
        (join, resume, resync); later deltas to ``conn`` build on it."""
        return self.fanout.full(conn, seat)

    # ----- end ------------------------------------------------------------------------------
    def _finish(self) -> None:
        assert self.t.recorder is not None and self.t.recorder.state.outcome is not None
        self.timers.cancel()  # the same step that ends the game
        outcome = self.t.recorder.state.outcome
        ended_at = self.t.clock.wall()
        history = self.finished_history(ended_at)
        self.t.status = "between_hands" if self.t.rules.uses_stacks else "finished"
        self._save(history, ended_at)
        if self.t.rules.uses_stacks:
            for gs, ts in enumerate(self.t.seat_map):
                seat = self.t.seats[ts]
                seat.stack = (seat.stack or 0) + outcome.returns[gs]
            self._top_up_builtin_bots()
        if any(s.leaving for s in self.t.seats):
            for s in self.t.seats:
                if s.leaving:
                    self.chips.cash_out(s)
                    s.free()
            self.t.version += 1
        for s in self.t.seats:  # a timed-out holder's stand-in plays on: from the next game's start
            if s.stand_in is not None:
                s.stand_in_from = 0
        self.broadcast_state()  # the last step's events and the new status, before game_over
        self._send_game_over(history)
        if self.t.rules.uses_stacks:
            self.timers.arm_pause(self.t.spec.next_hand_pause_seconds)
        else:
            self.timers.arm_reap()

    def _send_game_over(self, history: dict[str, Any]) -> None:
        """One ``game_over`` per connection: the *full copy* of ``history`` (every card, the
        seed) to each player of the game (a connection holding a table seat dealt into it,
        built-in bots included), the *table copy* (``engine.table_copy``: cards the table never
        saw are ``??``, no seed; ``docs/fairness.md`` section 7) to spectators and to seats
        not dealt in. Each copy is encoded once."""
        assert self.t.recorder is not None
        base = {"type": "game_over", "table_id": self.t.id, "version": self.t.version,
                "game_id": self.t.game_id or "", "outcome": history["outcome"]}
        full: Frame | None = None
        table: Frame | None = None
        players = {conn.id for conn in self._game_players()}
        for conn in self.t.connections():
            if conn.id in players:
                full = full or Frame({**base, "history": history})
                self.t.send(conn, full)
            else:
                table = table or Frame({**base, "history": table_copy(history)})
                self.t.send(conn, table)

    def _game_players(self) -> list[Connection]:
        """The connections of the finished game's players: each table seat of ``seat_map``
        whose holder is the player the history names for that game seat, and each watching
        connection of such a player who is not a bot (a holder a stand-in played for after
        its timeouts watches the table meanwhile: it is still a player of the game, entitled to
        the full copy, as ``GET /api/games/{id}?full=1`` with its token is)."""
        assert self.t.recorder is not None
        out = []
        people: set[str] = set()
        for gs, ts in enumerate(self.t.seat_map):
            seat = self.t.seats[ts]
            named = self.t.recorder.history.seats[gs].player_id
            if seat.conn is not None and seat.player_id == named:
                out.append(seat.conn)
            if named is not None and not seat.bot:
                people.add(named)
        out += [c for c in self.t.spectators.values() if c.player.id in people]
        return out

    def _top_up_builtin_bots(self) -> None:
        """A built-in bot's seat out of chips gets the table's starting stack again (the house
        bankrolls its bots), so a client playing against built-in bots keeps being dealt; a
        public ``rebuy`` table event (``house``) says so with the next state."""
        for s in self.t.seats:
            if s.bot_kind is not None and not s.leaving and self.t.out_of_chips(s.index):
                added = (self.t.spec.starting_stack or 0) - (s.stack or 0)
                s.stack = self.t.spec.starting_stack
                self.fan_events([rebuy_event(s, added, house=True)], None, timeout=False)

    def finished_history(self, ended_at: datetime) -> dict[str, Any]:
        """The finished history document with the stored-game fields and the revealed seed."""
        assert self.t.recorder is not None and self.t.recorder.state.outcome is not None
        assert self.t.seed is not None and self.t.started_at is not None
        self.t.recorder.history.extra.update({
            "id": self.t.game_id,
            "table_id": self.t.id,
            "started_at": self.t.started_at.isoformat(),
            "ended_at": ended_at.isoformat(),
            "outcome": self.t.recorder.state.outcome.to_json(),
            "seed_commitment": self.t.seed_commitment,
            "seed": self.t.seed.hex(),
            "shuffle": SHUFFLE,
            "client_seeds": list(self.t.client_seeds),
        })
        stand_ins = self.stand_ins.periods()
        if stand_ins:  # seats a stand-in bot played (tables/standin.py)
            self.t.recorder.history.extra["stand_ins"] = stand_ins
        return self.t.recorder.history.to_json()

    def _save(self, history: dict[str, Any], ended_at: datetime) -> None:
        """Hand the finished game to the game writer (``storage/writer.py``): no await, no
        I/O on the table's task. ``games_saved`` counts games handed over; the writer counts
        what it stored and what it lost."""
        assert self.t.recorder is not None and self.t.recorder.state.outcome is not None
        assert self.t.game_id is not None and self.t.started_at is not None
        outcome = self.t.recorder.state.outcome
        results = [
            SeatResult(seat=gs, name=info.name, result=outcome.returns[gs],
                       player_id=info.player_id, is_bot=info.bot)
            for gs, info in enumerate(self.t.recorder.history.seats)
        ]
        try:
            self.durable.log_finished(GameRecord(
                game_id=self.t.game_id, game=self.t.rules.name, table_id=self.t.id, history=history,
                outcome=outcome.to_json(), results=results, started_at=self.t.started_at,
                ended_at=ended_at, rated=self.t.spec.rated,
            ))
            self.games_saved += 1
        except Exception:
            log.exception("table %s: saving game %s failed", self.t.id, self.t.game_id)

    # ----- the clock and abandonment --------------------------------------------------------
    def timeout(self, version: int) -> None:
        """The deadline armed at ``version`` expired: apply the game's timeout action for the
        seat the timer runs for (logged ``timeout=True``) and count it for that seat's
        stand-in (:meth:`~.standin.StandIns.count_timeout`). Keyed by the decision point it was
        armed for, not the table version: a seat taken or freed outside the hand bumps the
        version without re-arming, and must not void it."""
        t = self.t
        if version != self.timers.deadline_version or t.status != "playing" or t.recorder is None:
            return  # something happened first: the timer lost the race
        state = t.recorder.state
        gs = state.timer_seat()
        action = None if gs is None else state.timeout_action(gs)
        if gs is None or action is None:
            return
        events = t.recorder.act(gs, action, timeout=True, t_ms=t.t_ms())
        t.version += 1
        self.after_action(events, t.table_seat(gs), timeout=True)
        self.stand_ins.count_timeout(t.table_seat(gs))

    def abandon(self) -> None:
        """End the running game, if any, as ``abandoned`` (:mod:`.abandon`; saved,
        ``game_over`` sent)."""
        t = self.t
        recorder = t.recorder
        if t.status == "playing" and recorder is not None and not recorder.state.is_over:
            events = recorder.abandon(t_ms=t.t_ms())
            t.version += 1
            self.after_action(events, None, timeout=False)
