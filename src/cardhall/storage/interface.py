"""The storage contract used by the table runtime and the REST routers, one protocol per role.

A caller that needs one role asks for that role's protocol (:class:`PlayerStore`,
:class:`AuditStore`, :class:`GameArchive`, :class:`RatingStore`, :class:`TableLogStore`,
:class:`ChipStore`); :class:`Store` is all of them, what a server is given. The stores
(``memory.py``, ``sql.py``) are each one object per role behind one
:class:`~.composed.ComposedStore`. The records they keep are in ``records.py`` (imported from
here too).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime
from typing import Any, Protocol

from .accounts import PlayerRating, RatingPoint, SessionRecord
from .chips import CHIPS_START, ChipMove, ChipTake
from .records import (
    AuditEntry,
    GameRecord,
    GameSummary,
    LogBatch,
    LogRow,
    PlayerRecord,
    SeatResult,
)

__all__ = ["CHIPS_START", "AuditEntry", "AuditStore", "ChipMove", "ChipStore", "ChipTake",
           "GameArchive", "GameRecord", "GameSummary", "LogBatch", "LogRow", "PlayerRating",
           "PlayerRecord", "PlayerStore", "RatingPoint", "RatingStore", "SeatResult",
           "SessionRecord", "Store", "StoreLifecycle", "TableLogStore"]


class StoreLifecycle(Protocol):
    """Connecting to the back end and checking it answers. All methods are coroutines."""

    async def start(self) -> None:
        """Connect (and, for SQL stores, apply migrations)."""

    async def close(self) -> None:
        """Release connections."""

    async def ping(self) -> None:
        """Raise unless the database answers (readiness checks)."""


class PlayerStore(Protocol):
    """Players and accounts: identities (people and bots), their bearer tokens, accounts with
    passwords and their sessions (``docs/rest.md``, "Accounts"); the admin's ban and
    disable. All methods are coroutines."""

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

    async def bot_identity(self, name: str) -> PlayerRecord:
        """The built-in bot identity named ``name``, created on first use and reused after."""

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


class AuditStore(Protocol):
    """The admin's audit trail (``server/audit.py``). All methods are coroutines."""

    async def add_audit(self, entry: AuditEntry) -> AuditEntry:
        """Store one admin action; returns it with its ``id``."""

    async def list_audit(self, *, limit: int = 100, offset: int = 0, action: str | None = None,
                         target: str | None = None) -> list[AuditEntry]:
        """Admin actions, newest first (ties: the later stored first), filtered by exact
        ``action`` and ``target``, paginated."""


class GameArchive(Protocol):
    """Finished games: saved once each (with their seats' results and, in the same transaction,
    the ratings they change), listed and read back. All methods are coroutines."""

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
        saved) leave the outbox in the same transaction. Raises the back-end's error
        (``sqlalchemy.exc.IntegrityError`` for a constraint failure such as two results for
        one seat) and then saves nothing of the batch."""

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
        exclude_tables: Collection[str] = (),
    ) -> list[GameSummary]:
        """Finished games, newest first, filtered and paginated; ``result`` (``win``,
        ``loss``, ``draw``; with ``player_id``) keeps the games whose stored mark of that
        player's seat is it; ``exclude_tables``: the games of these tables are left out
        before the page is cut (withheld tournament boards: a page cut first would tell by
        its size that one was there)."""

    async def get_game(self, game_id: str) -> dict[str, Any] | None:
        """The stored history document of a finished game, or ``None``."""


class RatingStore(Protocol):
    """Ratings (``storage/rating.py``): written by :meth:`GameArchive.save_games`, read
    here. All methods are coroutines."""

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


class TableLogStore(Protocol):
    """The live tables' write-ahead log (``storage/log.py``), the outbox of finished games not
    saved yet, and cluster mode's lease epochs (``docs/scaling.md``). All
    methods are coroutines."""

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


class ChipStore(Protocol):
    """Chip balances, keyed moves and holds (``storage/chips.py``). A log batch's moves
    (:attr:`LogBatch.chips`) are applied by :meth:`TableLogStore.write_log`. All methods
    are coroutines."""

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


class Store(StoreLifecycle, PlayerStore, AuditStore, GameArchive, RatingStore, TableLogStore,
            ChipStore, Protocol):
    """Persistence for identities, finished games and live tables: every role above. All
    methods are coroutines."""
