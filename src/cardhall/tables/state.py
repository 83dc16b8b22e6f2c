"""The facts of one table that its parts read and change (``design.md`` section 5).

:class:`TableState` holds the seats, the status and version, the running game (recorder,
seat map, seeds) and the clock, with the questions every part asks about them (who holds a
seat, who is dealt in, who is connected, whether the table is idle). It never imports a part:
the parts (:mod:`.flow`, :mod:`.seating`, :mod:`.timers`, :mod:`.standin`, :mod:`.chips`,
:mod:`.chat`, :mod:`.departures`, :mod:`.durable`) take a state and the few other parts they
call, so the table (:class:`~.actor.Table`, a state with its parts as fields) is wired in one
place and no part re-declares what it borrows.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ..engine import GameRules, Recorder, SeededShuffler, commitment
from ..protocol import messages as p
from ..protocol.errors import ErrorCode
from .clock import Clock
from .connections import Connection, Outgoing
from .messages import InboxMessage
from .output import Output
from .seats import Seat

STAND_IN_RETURNABLE = ("left", "timeouts")
"""Stand-in reasons whose holder may take the seat back by resuming it (a player who left
mid-game, or timed out ``stand_in_after_timeouts`` times in a row); a kicked or banned
holder may not."""
WATCHED_STATUSES = ("playing", "between_hands", "waiting")
"""Statuses in which an unattended table is abandoned (``waiting`` only after a hand)."""


def fresh_seed(_hand: int) -> bytes:
    """A game's server seed: 32 bytes from ``secrets``."""
    return secrets.token_bytes(32)



def buy_in_range(rules: Any, config: Any, starting_stack: int | None) -> tuple[int, int]:
    """``(min_buy_in, max_buy_in)`` in chips of a poker table: the most is the table's
    ``starting_stack``, the least a tenth of it but never below the ante's minimum stack
    (``rules.min_stack``) nor above the most."""
    most = starting_stack or 0
    least = max(rules.min_stack(config), most // 10)
    return min(least, most), most


@dataclass(frozen=True)
class TableSpec:
    """How a table was created (validated by the manager).

    Attributes:
        game: registered game name.
        config: the partial rules config (validated by the game).
        num_seats: seats at the table.
        turn_timeout_seconds: the decision deadline.
        starting_stack: chips a seat gets when taken (poker games), else ``None``.
        bots: seat -> built-in bot kind (``"random"``/``"rule"``) for seats bots take.
        next_hand_pause_seconds: pause between poker hands.
        bot_delay_seconds: a bot's thinking time before it acts.
        idle_ttl_seconds: an idle table (finished, or waiting with no person connected) closes
            after this long.
        abandoned_ttl_seconds: see the attribute.
        abandon_after_seconds: a game or a table with no client connected for this long ends
            as ``abandoned`` (:mod:`.abandon`).
    """

    game: str
    config: dict[str, Any] = field(default_factory=dict)
    num_seats: int = 2
    turn_timeout_seconds: float = 10.0
    starting_stack: int | None = None
    bots: dict[int, str] = field(default_factory=dict)
    next_hand_pause_seconds: float = 3.0
    bot_delay_seconds: float = 0.5
    idle_ttl_seconds: float = 300.0
    abandoned_ttl_seconds: float = 1.0
    """An abandoned table (a game was played, and every client has left its seat since)
    closes after this long instead of ``idle_ttl_seconds``."""
    abandon_after_seconds: float = 300.0
    private: bool = False
    """A private table: not listed in the lobby; taking a seat or watching needs
    ``invite_code``."""
    invite_code: str | None = None
    """The private table's invite code (never in a summary)."""
    stand_in_after_timeouts: int = 3
    """Timeouts in a row after which a stand-in plays a person's seat; 0: never."""
    label: dict[str, Any] | None = None
    """A tournament's table: ``{"tournament_id", "name", "round", "board"}``, shown in the
    lobby (``tournament`` of a summary and a lobby row); ``None`` elsewhere."""
    rated: bool = True
    """Whether the table's finished games count for ratings (``GameRecord.rated``): ``False``
    at a casual table (``POST /api/tables`` with ``rated: false``, a casual seek's, an
    unrated tournament's)."""
    watchable: bool = True
    """Whether anyone may watch (``join`` with ``spectate``): ``False`` at a duplicate
    tournament's table with people entrants while its board may be live at another table
    (``docs/tournaments.md``, "People as entrants"); a spectate join is refused
    ``table.not_watchable``."""


class TableState:
    """What one table is now (see the module docstring). Only the table's own task changes it.

    Args:
        table_id: the table's id.
        rules: the game's rules object.
        config: the validated rules config.
        spec: how the table was created.
        clock: the injected clock (timers, ``t_ms``, wall times).
        holding: messages are held until their step is durable (the table has a log).
        seed_source: ``hand number -> 32-byte seed`` of each game (``secrets`` unless a test
            fixes it).
    """

    def __init__(self, table_id: str, rules: GameRules[Any], config: Any, spec: TableSpec,
                 clock: Clock, *, holding: bool,
                 seed_source: Callable[[int], bytes] | None = None) -> None:
        self.id = table_id
        self.rules = rules
        self.config = config
        self.spec = spec
        self.clock = clock
        self.out = Output(holding)
        """The step's outgoing messages (:mod:`.output`)."""
        self.seats = [Seat(i) for i in range(spec.num_seats)]
        self.spectators: dict[str, Connection] = {}
        self.kicked: set[str] = set()
        """Player ids kicked from this table: never offered, nor granted, its rematch."""
        self.version = 0
        self.status: str = "waiting"
        self.stopped = False
        self.had_client = False
        """Whether a client (person or SDK bot) ever held a seat here."""
        self.created_by: str | None = None
        """The id of the player who created the table (``None``: the server, e.g. a test or
        an old log); what ``max_live_tables_per_player`` counts. Survives a restore."""
        self.created_from: str | None = None
        """The client address that created the table over REST (``None``: anything else);
        what ``max_waiting_tables_per_address`` counts. Never in a summary, not restored."""
        self.created_at: datetime = clock.wall()
        """When the table was created (UTC; survives a restore)."""
        self.last_active_at: datetime = self.created_at
        """The last time a client's request reached the table or its version changed (UTC;
        a restored table starts from the restore)."""
        self.idle_since: datetime | None = None
        """Wall time since which the table has been idle (:meth:`~.timers.Timers.arm_reap`);
        kept in the snapshot, so a restart does not start its time to live again."""
        self.deadline: float | None = None
        """Clock seconds at which the running turn deadline expires (``None``: none runs)."""
        # ----- the running game (:mod:`.flow`)
        self.seed_source = seed_source or fresh_seed
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
        self.stand_ins_done: list[dict[str, Any]] = []
        """Stand-in periods of the running game that ended when the holder came back."""

    # ----- the inbox ------------------------------------------------------------------------
    def post(self, msg: InboxMessage) -> None:
        """Enqueue a message for the table (the actor overrides this with its inbox)."""
        raise NotImplementedError

    # ----- output ---------------------------------------------------------------------------
    def send(self, conn: Connection, msg: Outgoing) -> None:
        """Send ``msg`` to ``conn`` once this step is durable (:meth:`.output.Output.send`)."""
        self.out.send(conn, msg)

    def send_behind(self, conn: Connection, msg: Outgoing) -> None:
        """Send ``msg`` outside any step (:meth:`.output.Output.send_behind`)."""
        self.out.send_behind(conn, msg)

    def error(self, conn: Connection, code: ErrorCode, message: str, req: Any = None, *,
              behind: bool = False) -> None:
        """Answer ``req`` with an error (``behind``: outside a step, see
        :meth:`send_behind`)."""
        ref = None
        if req is not None:
            ref = p.RequestRef(type=req.type, rid=req.rid,
                               action_id=getattr(req, "action_id", None))
        msg = p.Error(code=code, message=message, table_id=self.id, version=self.version,
                      request=ref)
        (self.send_behind if behind else self.send)(conn, msg)

    def connections(self) -> list[Connection]:
        """Every connection at the table: seat holders (in seat order), then spectators."""
        out = [s.conn for s in self.seats if s.conn is not None]
        return out + list(self.spectators.values())

    # ----- seats ----------------------------------------------------------------------------
    def seat_of(self, conn: Connection) -> Seat | None:
        """The seat this connection holds here, if any."""
        return next((s for s in self.seats if s.conn is conn), None)

    def own_seat(self, conn: Connection) -> Seat | None:
        """The seat this connection's person holds here (resumable), if any: one a stand-in
        plays because its holder left or timed out counts (the holder takes it back)."""
        return next((s for s in self.seats if s.taken and s.bot_kind is None
                     and (not s.leaving or s.stand_in in STAND_IN_RETURNABLE)
                     and s.player_id == conn.player.id), None)

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

    def deadline_ms(self) -> int | None:
        """Milliseconds left on the running deadline (``None`` if none runs)."""
        if self.deadline is None:
            return None
        return max(0, round((self.deadline - self.clock.now()) * 1000))

    def out_of_chips(self, seat: int) -> bool:
        """Whether table seat ``seat`` is taken by a holder with too few chips to be dealt in
        (poker games; it sits out until its holder leaves)."""
        s = self.seats[seat]
        return (self.rules.uses_stacks and s.taken and s.stack is not None
                and s.stack < self.rules.min_stack(self.config))

    def buy_in_range(self) -> tuple[int, int]:
        """``(min_buy_in, max_buy_in)`` of this table, chips (:func:`buy_in_range`)."""
        return buy_in_range(self.rules, self.config, self.spec.starting_stack)

    def buy_in_limits(self) -> dict[str, int | None]:
        """``{"min_buy_in", "max_buy_in"}`` in chips (both ``None`` at a table without
        stacks): what full states and the lobby show."""
        if not self.rules.uses_stacks:
            return {"min_buy_in": None, "max_buy_in": None}
        least, most = self.buy_in_range()
        return {"min_buy_in": least, "max_buy_in": most}

    # ----- presence -------------------------------------------------------------------------
    def people_present(self, among: list[int] | None = None) -> bool:
        """Whether a client (a person or an SDK bot, not a built-in bot or a stand-in) holding
        one of the seats ``among`` (default: all) is connected now."""
        seats = self.seats if among is None else [self.seats[i] for i in among]
        return any(s.taken and s.bot_kind is None and not s.leaving and (
            self._holder_watching(s) if s.stand_in is not None
            else s.conn is not None and not s.conn.closed) for s in seats)

    def _holder_watching(self, seat: Seat) -> bool:
        """A stand-in plays ``seat`` after its holder's timeouts, and the holder's socket is
        still here (watching): the holder is present."""
        return any(c.player.id == seat.player_id and not c.closed
                   for c in self.spectators.values())

    def idle(self) -> bool:
        """Finished, or waiting with no client (only built-in bots, or nobody, or only clients
        whose sockets are gone) connected. SDK bots are clients."""
        return (self.status == "finished" or (self.status == "waiting" and not self.people_present())
                or self.abandoned())

    def abandoned(self) -> bool:
        """A game was played here with a client (person or SDK bot) seated, none is running, and
        no client holds a seat any more: everyone left (only built-in bots, or nobody, remain)."""
        return self.had_client and self.hand > 0 and self.status != "playing" and not any(
            s.taken and s.bot_kind is None for s in self.seats)

    def unattended(self) -> bool:
        """A client has held a seat here, a game has started and is running, between hands
        or stopped for want of connected players, and no client holding a seat is connected
        (a seat being left counts as not connected; :mod:`.abandon`)."""
        return (self.had_client and self.hand > 0 and self.status in WATCHED_STATUSES
                and not self.people_present())
