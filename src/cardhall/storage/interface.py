"""The storage contract used by the table runtime and the REST routers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player identity (a person or a bot). Tokens are never stored in clear."""

    id: str
    name: str
    is_bot: bool = False
    banned: bool = False
    owner_id: str | None = None


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result in a finished game: chips won/lost (poker) or team match total (Blot)."""

    seat: int
    name: str
    result: int
    player_id: str | None = None
    is_bot: bool = False


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

    async def save_games(self, records: Sequence[GameRecord]) -> list[bool]:
        """Save many finished games in ONE transaction (all or nothing).

        Returns one flag per record, in order: ``True`` if this call stored it, ``False`` if
        its ``game_id`` was already saved (earlier, by a concurrent save, or by an earlier
        record of the same batch). Raises the back-end's error (``sqlalchemy.exc.IntegrityError``
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
    ) -> list[GameSummary]:
        """Finished games, newest first, filtered and paginated."""

    async def get_game(self, game_id: str) -> dict[str, Any] | None:
        """The stored history document of a finished game, or ``None``."""
