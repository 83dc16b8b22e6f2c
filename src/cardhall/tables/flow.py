"""Game flow of a table actor: start a game, draw chance, fan out, finish and save.

Mixed into :class:`~.actor.Table`; runs only inside the table's task.

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
import secrets
import uuid
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

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
from .fanout import Fanout

if TYPE_CHECKING:
    from .connections import Connection

log = logging.getLogger(__name__)


def _fresh_seed(_hand: int) -> bytes:
    """A game's server seed: 32 bytes from ``secrets``."""
    return secrets.token_bytes(32)


class GameFlow:
    """The game-lifecycle half of a table (see the module docstring)."""

    if TYPE_CHECKING:  # provided by Table
        id: str
        rules: Any
        config: Any
        spec: Any
        store: Any
        writer: Any
        clock: Any
        seats: list[Any]
        spectators: dict[str, Connection]
        version: int
        status: str
        games_saved: int

        def arm_deadline(self) -> None: ...
        def deadline_ms(self) -> int | None: ...
        def arm_pause(self, seconds: float) -> None: ...
        def _cancel_timers(self) -> None: ...
        def arm_reap(self, *, resumed: bool = False) -> None: ...
        def people_present(self, among: list[int] | None = None) -> bool: ...
        def send(self, conn: Connection, msg: Any) -> None: ...
        def log_finished(self, record: GameRecord) -> None: ...
        def stand_ins(self) -> list[dict[str, Any]]: ...
        def cash_out(self, seat: Any) -> None: ...

    def __init__(self, seed_source: Callable[[int], bytes] | None = None) -> None:
        self.fanout = Fanout(self)
        self.seed_source = seed_source or _fresh_seed
        """``hand number -> 32-byte seed`` of each game (``secrets`` unless a test fixes it)."""
        self.recorder: Recorder | None = None
        self.hand = 0
        self.seat_map: list[int] = []
        self.game_id: str | None = None
        self.seed: bytes | None = None
        """The running game's server seed (committed to at its start, revealed at its end)."""
        self.client_seeds: list[str | None] = []
        """The client seed of each game seat of the running game (fixed at its start)."""
        self.seed_commitment: str | None = None
        self.next_seed: bytes = self.seed_source(1)
        """The server seed of the next game, drawn one game ahead: its commitment
        (:attr:`next_seed_commitment`) is public before any client seed of that game is fixed,
        so the server cannot choose its seed after seeing them (``docs/fairness.md``)."""
        self.next_seed_commitment: str = commitment(self.next_seed)
        self.shuffler: SeededShuffler | None = None
        self.started_at: datetime | None = None
        self._t0 = 0.0
        self._dealer_seat: int | None = None
        self.game_version = 0
        """The table version at the game state's latest change: an ``act`` made against any
        version from this one on saw the current game state (seats taken or freed outside
        the hand bump the table version, not this)."""

    # ----- seat mapping ---------------------------------------------------------------------
    def in_hand(self, seat: int) -> bool:
        return self.recorder is not None and seat in self.seat_map

    def game_seat(self, seat: int) -> int | None:
        """The game's seat index of table seat ``seat`` (``None`` if not in this hand)."""
        return self.seat_map.index(seat) if self.in_hand(seat) else None

    def table_seat(self, game_seat: int | None) -> int | None:
        return None if game_seat is None else self.seat_map[game_seat]

    def t_ms(self) -> int:
        """Milliseconds since the running game started."""
        return max(0, round((self.clock.now() - self._t0) * 1000))

    def connections(self) -> list[Connection]:
        out = [s.conn for s in self.seats if s.conn is not None]
        return out + list(self.spectators.values())

    # ----- start ----------------------------------------------------------------------------
    def out_of_chips(self, seat: int) -> bool:
        """Whether table seat ``seat`` is taken by a holder with too few chips to be dealt in
        (poker games; it sits out until its holder leaves)."""
        s = self.seats[seat]
        return (self.rules.uses_stacks and s.taken and s.stack is not None
                and s.stack < self.rules.min_stack(self.config))

    def _eligible(self) -> list[int]:
        """The table seats the next hand deals in: taken, not leaving, not sitting out
        (``sit_out``) and not out of chips (``rules.min_stack``)."""
        return [s.index for s in self.seats if s.taken and not s.leaving
                and not s.sitting_out and not self.out_of_chips(s.index)]

    async def start_game_if_ready(self) -> bool:
        """Start the next game if the table is ready; returns whether one started."""
        if self.rules.uses_stacks:
            self._top_up_builtin_bots()
        eligible = self._eligible()
        full = all(s.taken for s in self.seats)
        if self.status == "waiting":
            ready = full and len(eligible) >= self.rules.min_players(self.config)
        elif self.status == "between_hands":
            # built-in bots alone, or with clients whose sockets are all gone, stop (no endless hands)
            ready = len(eligible) >= self.rules.min_players(self.config) and self.people_present(eligible)
            if not ready:
                self.status = "waiting"
                self.version += 1
                self.broadcast_state()
                self.arm_reap()
        else:
            ready = False
        if ready:
            await self._start(eligible)
        return ready

    def _next_dealer(self, eligible: list[int]) -> int:
        if self._dealer_seat is None:
            return eligible[0]
        later = [s for s in eligible if s > self._dealer_seat]
        return later[0] if later else eligible[0]

    async def _start(self, eligible: list[int]) -> None:
        self.seat_map = list(eligible)
        dealer_ts = self._next_dealer(eligible)
        self._dealer_seat = dealer_ts
        infos = [SeatInfo(self.seats[ts].name or f"seat {ts}", self.seats[ts].bot,
                          self.seats[ts].player_id) for ts in eligible]
        stacks = [self.seats[ts].stack or 0 for ts in eligible] if self.rules.uses_stacks else None
        self.recorder = Recorder(self.rules, self.config, infos, eligible.index(dealer_ts), stacks)
        self.seed, self.seed_commitment = self.next_seed, self.next_seed_commitment
        self.client_seeds = [self.seats[ts].client_seed for ts in eligible]
        self.shuffler = SeededShuffler(game_seed(self.seed, self.client_seeds))
        self.game_id = uuid.uuid4().hex
        self.started_at = self.clock.wall()
        self._t0 = self.clock.now()
        self.hand += 1
        self.next_seed = self.seed_source(self.hand + 1)
        self.next_seed_commitment = commitment(self.next_seed)
        self.status = "playing"
        self.version += 1
        self.arm_reap()  # not idle any more: cancels the idle timer
        started = Event("game_started", {"game_id": self.game_id, "hand": self.hand,
                                         "seat_map": list(eligible), "dealer": dealer_ts,
                                         "seed_commitment": self.seed_commitment})
        self.fan_events([started], None, timeout=False)
        await self.after_action([], None, timeout=False)

    # ----- after each accepted action -------------------------------------------------------
    async def after_action(self, events: list[Event], seat: int | None, *, timeout: bool) -> None:
        """Fan out ``events`` (already applied; version already bumped), apply due chance
        actions, finish the game if it ended, re-arm the deadline and send every state."""
        assert self.recorder is not None and self.shuffler is not None
        if events:
            self.fan_events(events, seat, timeout=timeout)
        state = self.recorder.state
        while not state.is_over and state.chance_due():
            chance = state.chance_action(self.shuffler)
            more = self.recorder.act(None, chance, t_ms=self.t_ms())
            self.version += 1
            self.fan_events(more, None, timeout=False)
        self.game_version = self.version
        if state.is_over:
            await self._finish()
            return
        self.arm_deadline()
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
    async def _finish(self) -> None:
        assert self.recorder is not None and self.recorder.state.outcome is not None
        self._cancel_timers()  # the same step that ends the game
        outcome = self.recorder.state.outcome
        ended_at = self.clock.wall()
        history = self.finished_history(ended_at)
        self.status = "between_hands" if self.rules.uses_stacks else "finished"
        await self._save(history, ended_at)
        if self.rules.uses_stacks:
            for gs, ts in enumerate(self.seat_map):
                seat = self.seats[ts]
                seat.stack = (seat.stack or 0) + outcome.returns[gs]
            self._top_up_builtin_bots()
        if any(s.leaving for s in self.seats):
            for s in self.seats:
                if s.leaving:
                    self.cash_out(s)
                    s.free()
            self.version += 1
        for s in self.seats:  # a timed-out holder's stand-in plays on: from the next game's start
            if s.stand_in is not None:
                s.stand_in_from = 0
        self.broadcast_state()  # the last step's events and the new status, before game_over
        self._send_game_over(history)
        if self.rules.uses_stacks:
            self.arm_pause(self.spec.next_hand_pause_seconds)
        else:
            self.arm_reap()

    def _send_game_over(self, history: dict[str, Any]) -> None:
        """One ``game_over`` per connection: the *full copy* of ``history`` (every card, the
        seed) to each player of the game (a connection holding a table seat dealt into it,
        built-in bots included), the *table copy* (``engine.table_copy``: cards the table never
        saw are ``??``, no seed; ``docs/fairness.md`` section 7) to spectators and to seats
        not dealt in. Each copy is encoded once."""
        assert self.recorder is not None
        base = {"type": "game_over", "table_id": self.id, "version": self.version,
                "game_id": self.game_id or "", "outcome": history["outcome"]}
        full: Frame | None = None
        table: Frame | None = None
        players = {conn.id for conn in self._game_players()}
        for conn in self.connections():
            if conn.id in players:
                full = full or Frame({**base, "history": history})
                self.send(conn, full)
            else:
                table = table or Frame({**base, "history": table_copy(history)})
                self.send(conn, table)

    def _game_players(self) -> list[Connection]:
        """The connections of the finished game's players: each table seat of ``seat_map``
        whose holder is the player the history names for that game seat, and each watching
        connection of such a player who is not a bot (a holder a stand-in played for after
        its timeouts watches the table meanwhile: it is still a player of the game, entitled to
        the full copy, as ``GET /api/games/{id}?full=1`` with its token is)."""
        assert self.recorder is not None
        out = []
        people: set[str] = set()
        for gs, ts in enumerate(self.seat_map):
            seat = self.seats[ts]
            named = self.recorder.history.seats[gs].player_id
            if seat.conn is not None and seat.player_id == named:
                out.append(seat.conn)
            if named is not None and not seat.bot:
                people.add(named)
        out += [c for c in self.spectators.values() if c.player.id in people]
        return out

    def _top_up_builtin_bots(self) -> None:
        """A built-in bot's seat out of chips gets the table's starting stack again (the house
        bankrolls its bots), so a client playing against built-in bots keeps being dealt."""
        for s in self.seats:
            if s.bot_kind is not None and not s.leaving and self.out_of_chips(s.index):
                s.stack = self.spec.starting_stack

    def finished_history(self, ended_at: datetime) -> dict[str, Any]:
        """The finished history document with the stored-game fields and the revealed seed."""
        assert self.recorder is not None and self.recorder.state.outcome is not None
        assert self.seed is not None and self.started_at is not None
        self.recorder.history.extra.update({
            "id": self.game_id,
            "table_id": self.id,
            "started_at": self.started_at.isoformat(),
            "ended_at": ended_at.isoformat(),
            "outcome": self.recorder.state.outcome.to_json(),
            "seed_commitment": self.seed_commitment,
            "seed": self.seed.hex(),
            "shuffle": SHUFFLE,
            "client_seeds": list(self.client_seeds),
        })
        stand_ins = self.stand_ins()
        if stand_ins:  # seats a stand-in bot played (tables/standin.py)
            self.recorder.history.extra["stand_ins"] = stand_ins
        return self.recorder.history.to_json()

    async def _save(self, history: dict[str, Any], ended_at: datetime) -> None:
        """Hand the finished game to the game writer (``storage/writer.py``): no await, no
        I/O on the table's task. ``games_saved`` counts games handed over; the writer counts
        what it stored and what it lost."""
        assert self.recorder is not None and self.recorder.state.outcome is not None
        assert self.game_id is not None and self.started_at is not None
        outcome = self.recorder.state.outcome
        results = [
            SeatResult(seat=gs, name=info.name, result=outcome.returns[gs],
                       player_id=info.player_id, is_bot=info.bot)
            for gs, info in enumerate(self.recorder.history.seats)
        ]
        try:
            self.log_finished(GameRecord(
                game_id=self.game_id, game=self.rules.name, table_id=self.id, history=history,
                outcome=outcome.to_json(), results=results, started_at=self.started_at,
                ended_at=ended_at,
            ))
            self.games_saved += 1
        except Exception:
            log.exception("table %s: saving game %s failed", self.id, self.game_id)
