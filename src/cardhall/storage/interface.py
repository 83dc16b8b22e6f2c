"""The storage contract used by the table runtime and the REST routers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from .accounts import PlayerRating, RatingPoint, SessionRecord
from .chips import CHIPS_START, ChipMove, ChipTake


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player identity (a person or a bot). Tokens are never stored in clear.

    ``username`` is set for an account (registered, ``docs/rest.md`` "Accounts"); ``disabled``
    by the admin; ``created_at`` is when the identity was made (aware UTC; ``None`` when the
    store does not say).
    """

    id: str
    name: str
    is_bot: bool = False
    banned: bool = False
    owner_id: str | None = None
    username: str | None = None
    disabled: bool = False
    created_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result in a finished game: chips won/lost (poker) or team match total (Blot)."""

    seat: int
    name: str
    result: int
    player_id: str | None = None
    is_bot: bool = False
    mark: str | None = None
    """``win``/``loss``/``draw`` as stored (``storage/rating.py``); ``None`` before saving,
    for an unrated game, or for a game saved before marks were kept."""


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A finished game as listed by ``GET /api/games`` (no history)."""

    id: str
    game: str
    table_id: str
    started_at: datetime
    ended_at: datetime
    outcome: dict[str, Any]
    seats: list[SeatResult]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game ready to be saved: one ``games`` row plus one ``game_results`` row per
    seat (``docs/storage.md``).

    Attributes:
        game_id: the runtime's game id (the primary key; saving is idempotent on it).
        game: the game's registered name (``bazaar_blot``, ...).
        table_id: the live table it was played at.
        history: the finished ``cardhall-history/1`` document (JSON-serialisable).
        outcome: the outcome object shown in game lists.
        results: one :class:`SeatResult` per game seat (seat numbers distinct).
        started_at, ended_at: aware datetimes (naive ones are taken as UTC).
    """

    game_id: str
    game: str
    table_id: str
    history: dict[str, Any]
    outcome: dict[str, Any]
    results: Sequence[SeatResult]
    started_at: datetime
    ended_at: datetime

    def to_json(self) -> dict[str, Any]:
        """The record as one JSON object (the outbox keeps it so; :meth:`from_json` reads it)."""
        return {"game_id": self.game_id, "game": self.game, "table_id": self.table_id,
                "history": self.history, "outcome": self.outcome,
                "results": [{"seat": r.seat, "name": r.name, "result": r.result,
                             "player_id": r.player_id, "is_bot": r.is_bot}
                            for r in self.results],
                "started_at": self.started_at.isoformat(), "ended_at": self.ended_at.isoformat()}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> GameRecord:
        """The record :meth:`to_json` wrote. Raises ``KeyError``/``ValueError`` on another."""
        return cls(doc["game_id"], doc["game"], doc["table_id"], doc["history"], doc["outcome"],
                   [SeatResult(**r) for r in doc["results"]],
                   datetime.fromisoformat(doc["started_at"]),
                   datetime.fromisoformat(doc["ended_at"]))


@dataclass(frozen=True, slots=True)
class LogRow:
    """One entry of a live table's write-ahead log (``docs/operations.md``).

    Attributes:
        table_id: the live table.
        seq: its position in that table's log (1, 2, ... per table; never reused).
        kind: ``"snapshot"`` (the table's seats, status and spec), ``"game"`` (a game started:
            its seed and history header) or ``"act"`` (one applied action of that game).
        data: the entry's JSON object.
    """

    table_id: str
    seq: int
    kind: str
    data: dict[str, Any]


@dataclass(slots=True)
class LogBatch:
    """What one group commit writes (:meth:`Store.write_log`), in one transaction.

    Attributes:
        rows: log entries to append.
        compact: ``table_id -> seq``: delete that table's entries before ``seq``.
        drop: tables whose whole log is deleted (closed tables).
        outbox: finished games to keep until the game writer has saved them.
        fences: ``table_id -> epoch``: cluster mode (``docs/scaling.md``), the lease epoch
            the writing node holds for each table it writes. A table whose stored epoch
            (:meth:`Store.claim_table`) is another is *fenced*: none of its entries, outbox
            games, compactions or drops are written. Tables not listed are not checked.
    """

    rows: list[LogRow] = field(default_factory=list)
    compact: dict[str, int] = field(default_factory=dict)
    drop: set[str] = field(default_factory=set)
    outbox: list[GameRecord] = field(default_factory=list)
    fences: dict[str, int] = field(default_factory=dict)
    chips: list[ChipMove] = field(default_factory=list)
    """Balance moves of the batch's steps (buy-ins, cash-outs), applied once each by key in
    the same transaction as the snapshots that show the seats' stacks."""
    idempotent: bool = False
    """A replay (``storage/spill.py``): an entry whose ``(table_id, seq)`` is stored already
    is skipped instead of refusing the batch."""

    def without(self, fenced: set[str]) -> LogBatch:
        """This batch less everything of the ``fenced`` tables."""
        return LogBatch(idempotent=self.idempotent,
                        rows=[r for r in self.rows if r.table_id not in fenced],
                        compact={t: s for t, s in self.compact.items() if t not in fenced},
                        drop=self.drop - fenced,
                        outbox=[g for g in self.outbox if g.table_id not in fenced],
                        fences={t: e for t, e in self.fences.items() if t not in fenced},
                        chips=[m for m in self.chips if m.table_id not in fenced])

    def __len__(self) -> int:
        return (len(self.rows) + len(self.compact) + len(self.drop) + len(self.outbox)
                + len(self.chips))


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One admin action as stored in ``admin_audit`` (``server/audit.py``).

    Attributes:
        action: a dotted name (``player.ban``, ``table.kick``, ...).
        target: what it was done to (a player or table id).
        details: what it did (JSON-serialisable).
        who: ``"admin"`` (the admin token is shared).
        request_id: the HTTP request's id (``X-Request-ID``), if any.
        client: the client's address, if known.
        at: when (aware; naive is taken as UTC).
        id: the row's id, set by the store (``None`` before it is stored).
    """

    action: str
    target: str
    details: dict[str, Any]
    at: datetime
    who: str = "admin"
    request_id: str | None = None
    client: str | None = None
    id: int | None = None


class Store(Protocol):
    """Persistence for identities and finished games. All methods are coroutines."""

    async def start(self) -> None:
        """Connect (and, for SQL stores, apply migrations)."""

    async def close(self) -> None:
        """Release connections."""

    async def create_player(
        self, name: str, *, is_bot: bool = False, owner_id: str | None = None
    ) -> tuple[PlayerRecord, str]:
        """Create an identity; returns ``(record, bearer_token)``. Only a hash is stored."""

    async def player_for_token(self, token: str) -> PlayerRecord | None:
        """The identity a bearer token belongs to, or ``None``."""

    async def get_player(self, player_id: str) -> PlayerRecord | None:
        """An identity by id, or ``None``."""

    async def list_players(self, *, limit: int = 100, offset: int = 0) -> list[PlayerRecord]:
        """Identities, oldest first."""

    async def set_banned(self, player_id: str, banned: bool) -> PlayerRecord | None:
        """Ban or unban; ``None`` if there is no such player."""

    async def bots_of(self, owner_id: str) -> list[PlayerRecord]:
        """The bot identities ``owner_id`` owns (``players.owner_id``), oldest first."""

    async def add_audit(self, entry: AuditEntry) -> AuditEntry:
        """Store one admin action; returns it with its ``id``."""

    async def list_audit(self, *, limit: int = 100, offset: int = 0, action: str | None = None,
                         target: str | None = None) -> list[AuditEntry]:
        """Admin actions, newest first (ties: the later stored first), filtered by exact
        ``action`` and ``target``, paginated."""

    async def save_game(
        self,
        *,
        game_id: str,
        game: str,
        table_id: str,
        history: dict[str, Any],
        outcome: dict[str, Any],
        results: list[SeatResult],
        started_at: datetime,
        ended_at: datetime,
    ) -> bool:
        """Save a finished game once: one game row plus one result row per seat.
        Idempotent on ``game_id``: returns ``False`` if it was already saved.
        The same as ``save_games([GameRecord(...)])``."""

    async def save_games(self, records: Sequence[GameRecord], *,
                         from_outbox: bool = False) -> list[bool]:
        """Save many finished games in ONE transaction (all or nothing).

        Returns one flag per record, in order: ``True`` if this call stored it, ``False`` if
        its ``game_id`` was already saved (earlier, by a concurrent save, or by an earlier
        record of the same batch). With ``from_outbox`` the saved games (and those found
        saved) leave the outbox in the same transaction. Raises the back-end's error (``sqlalchemy.exc.IntegrityError``
        for a constraint failure such as two results for one seat) and then saves nothing
        of the batch."""

    async def list_games(
        self,
        *,
        game: str | None = None,
        player_id: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int = 50,
        offset: int = 0,
        result: str | None = None,
    ) -> list[GameSummary]:
        """Finished games, newest first, filtered and paginated; ``result`` (``win``,
        ``loss``, ``draw``; with ``player_id``) keeps the games whose stored mark of that
        player's seat is it."""

    async def get_game(self, game_id: str) -> dict[str, Any] | None:
        """The stored history document of a finished game, or ``None``."""

    async def ping(self) -> None:
        """Raise unless the database answers (readiness checks)."""

    async def bot_identity(self, name: str) -> PlayerRecord:
        """The built-in bot identity named ``name``, created on first use and reused after."""

    async def write_log(self, batch: LogBatch) -> set[str] | None:
        """Apply one group commit of the table log (:class:`LogBatch`) in ONE transaction.
        Returns the tables it fenced (their entries were not written; ``None`` or empty:
        none). Raises the back-end's error and then writes nothing."""

    async def load_log(self, table_id: str | None = None) -> list[LogRow]:
        """Every live table's log entries (or only ``table_id``'s), ordered by table then
        ``seq``."""

    async def claim_table(self, table_id: str, node: str) -> int:
        """Cluster mode: make ``node`` the table's writer. Returns the new lease epoch (1 for
        a table never claimed, else one more than the last), after which every log write
        fenced with an older epoch is refused (:attr:`LogBatch.fences`); in the same
        transaction the table's holds not settled yet are released (:meth:`release_hold`:
        the old owner can no longer settle them). A closed table's claim is deleted with its
        log."""

    async def claimed_tables(self) -> dict[str, int]:
        """Cluster mode: ``table_id -> epoch`` of every claimed table whose log is live (the
        tables a node may have to take over)."""

    async def load_outbox(self) -> list[GameRecord]:
        """The finished games of the outbox (not yet saved by the game writer)."""

    # ----- accounts and sessions (docs/rest.md, "Accounts") -----------------------------------
    async def register(self, name: str, username: str, password_hash: str, *,
                       upgrade: str | None = None) -> tuple[PlayerRecord, str]:
        """Create an account (or make the guest ``upgrade`` one, keeping its id, games and
        its guest token, which becomes a ``guest`` session); returns it and a new session
        token. ``username`` is stored as given (the REST layer passes its NFKC form,
        ``storage/usernames.py``). Raises :class:`~.accounts.UsernameTakenError` (its
        :func:`~.usernames.username_key` is taken), :class:`~.accounts.UsernameConfusableError`
        (its :func:`~.usernames.username_skeleton` is another account's) or
        :class:`~.accounts.AlreadyRegisteredError` (``upgrade`` is an account or a bot, or
        does not exist); nothing is changed then."""

    async def credentials(self, username: str) -> tuple[PlayerRecord, str] | None:
        """The account named ``username`` (by :func:`~.usernames.username_key`: case and
        compatibility forms do not matter) and its password hash, or ``None``. An account
        that kept its pre-0007 key (``docs/security.md``) is found by that key first."""

    async def open_session(self, player_id: str, kind: str) -> str:
        """Issue a new bearer token of ``player_id`` (a ``kind`` session); only its hash is
        stored."""

    async def list_sessions(self, player_id: str,
                            current_token: str | None = None) -> list[SessionRecord]:
        """The player's sessions, oldest first; the one of ``current_token`` is ``current``."""

    async def revoke_token(self, token: str) -> bool:
        """Revoke one bearer token (a session, or a guest's identity token); whether it
        existed."""

    async def revoke_session(self, player_id: str, session_id: str) -> bool:
        """Revoke one session of ``player_id``; whether it existed."""

    async def revoke_sessions(self, player_id: str, *, keep_token: str | None = None) -> int:
        """Revoke every session of ``player_id`` but ``keep_token``'s; how many."""

    async def set_password(self, player_id: str, password_hash: str) -> bool:
        """Store a new password hash for an account; ``False`` if it is no account."""

    async def set_disabled(self, player_id: str, disabled: bool) -> PlayerRecord | None:
        """Disable or enable an identity; ``None`` if there is no such player."""

    # ----- ratings (storage/rating.py) --------------------------------------------------------
    async def leaderboard(self, game: str, *, bots: bool = False, limit: int = 50,
                          offset: int = 0) -> list[PlayerRating]:
        """Ratings in ``game`` best first (``mu - 3 sigma`` descending, ties by id), people
        only or (``bots``) bots only; banned and disabled identities left out."""

    async def player_ratings(self, player_id: str) -> list[PlayerRating]:
        """The player's rating in every game it was rated in, by game name."""

    async def rating_history(self, player_id: str, game: str, *,
                             limit: int = 500) -> list[RatingPoint]:
        """The player's rating after each of its last ``limit`` rated games of ``game``,
        oldest first."""

    async def chip_balance(self, player_id: str, *, top_up_below: int = 0,
                           top_up_to: int = CHIPS_START, top_up_every_seconds: float = 0.0,
                           now: datetime | None = None) -> int:
        """The player's chip balance (chips; :data:`CHIPS_START` before any move). The free
        top-up: when the balance is below ``top_up_below`` and the latest top-up is older
        than ``top_up_every_seconds`` (or there was none), it is first raised to
        ``top_up_to`` and the top-up time set to ``now``, atomically (two nodes racing top
        up once)."""

    async def hold_chips(self, player_id: str, hold_id: str, *, asked: int | None, most: int,
                         table_id: str | None = None, epoch: int | None = None,
                         top_up_below: int = 0, top_up_to: int = CHIPS_START,
                         top_up_every_seconds: float = 0.0,
                         now: datetime | None = None) -> ChipTake | None:
        """One transaction: the free top-up (as :meth:`chip_balance`), then the atomic
        conditional debit of :func:`~.chips.hold_amount` chips (``asked``, default ``most``
        or the whole balance) with its ``hold:<hold_id>`` move (:mod:`.chips`): the balance
        never goes below zero, on any number of nodes. A retry with the same ``hold_id``
        debits nothing more (its first answer is given again; a released hold's is ``0``).
        ``None``: ``epoch`` is given and is no longer ``table_id``'s lease epoch (the table was
        taken over; nothing is debited)."""

    async def release_hold(self, player_id: str, hold_id: str) -> int:
        """Release a hold no table will settle: its whole debit comes back (under the key
        ``settle:<hold_id>``, once) and returns it, chips; a hold not written yet never will
        be (a ``void`` row takes its key: a :meth:`hold_chips` still in flight takes 0)."""

    async def release_stale_holds(self, table_id: str | None = None) -> int:
        """Release every hold not settled yet (of ``table_id``; ``None``: of every table, at
        the start of a single process, before its tables are restored). Returns the chips
        given back. :meth:`claim_table` does this for its table in its own transaction."""
