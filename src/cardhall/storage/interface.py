"""The storage contract used by the table runtime and the REST routers."""

from __future__ import annotations

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
        Idempotent on ``game_id``: returns ``False`` if it was already saved."""

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
