"""A :class:`~.interface.Store` made of one object per role (``interface.py``).

:class:`ComposedStore` holds the role objects in :attr:`ComposedStore.roles` and answers every
method of :class:`~.interface.Store` by handing it to its role's object; a back end
(:class:`~.memory.MemoryStore`, :class:`~.sql.SqlStore`) builds its role objects, passes them
here and adds the lifecycle (``start``, ``close``, ``ping``). ``save_game`` goes through
:meth:`ComposedStore.save_games`, so a store that wraps ``save_games`` (the tests' checks, a
subclass) sees every save.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .accounts import PlayerRating, RatingPoint, SessionRecord
from .chips import CHIPS_START, ChipTake
from .interface import (
    AuditStore,
    ChipStore,
    GameArchive,
    PlayerStore,
    RatingStore,
    TableLogStore,
)
from .records import AuditEntry, GameRecord, GameSummary, LogBatch, LogRow, PlayerRecord, SeatResult


@dataclass(frozen=True, slots=True)
class StoreRoles:
    """The role objects of one store (each satisfies its protocol of ``interface.py``)."""

    players: PlayerStore
    audit: AuditStore
    archive: GameArchive
    ratings: RatingStore
    log: TableLogStore
    chips: ChipStore


class ComposedStore:
    """Every role method of :class:`~.interface.Store`, answered by :attr:`roles` (see the
    module docstring); the subclass adds ``start``, ``close`` and ``ping``."""

    def __init__(self, roles: StoreRoles) -> None:
        self.roles = roles

    # ----- PlayerStore (players) ----------------------------------------------------
    async def create_player(
        self, name: str, *, is_bot: bool = False, owner_id: str | None = None
    ) -> tuple[PlayerRecord, str]:
        return await self.roles.players.create_player(name, is_bot=is_bot, owner_id=owner_id)

    async def player_for_token(self, token: str) -> PlayerRecord | None:
        return await self.roles.players.player_for_token(token)

    async def get_player(self, player_id: str) -> PlayerRecord | None:
        return await self.roles.players.get_player(player_id)

    async def list_players(self, *, limit: int = 100, offset: int = 0) -> list[PlayerRecord]:
        return await self.roles.players.list_players(limit=limit, offset=offset)

    async def set_banned(self, player_id: str, banned: bool) -> PlayerRecord | None:
        return await self.roles.players.set_banned(player_id, banned)

    async def bots_of(self, owner_id: str) -> list[PlayerRecord]:
        return await self.roles.players.bots_of(owner_id)

    async def bot_identity(self, name: str) -> PlayerRecord:
        return await self.roles.players.bot_identity(name)

    async def register(
        self, name: str, username: str, password_hash: str, *, upgrade: str | None = None
    ) -> tuple[PlayerRecord, str]:
        return await self.roles.players.register(name, username, password_hash, upgrade=upgrade)

    async def credentials(self, username: str) -> tuple[PlayerRecord, str] | None:
        return await self.roles.players.credentials(username)

    async def open_session(self, player_id: str, kind: str) -> str:
        return await self.roles.players.open_session(player_id, kind)

    async def list_sessions(
        self, player_id: str, current_token: str | None = None
    ) -> list[SessionRecord]:
        return await self.roles.players.list_sessions(player_id, current_token)

    async def revoke_token(self, token: str) -> bool:
        return await self.roles.players.revoke_token(token)

    async def revoke_session(self, player_id: str, session_id: str) -> bool:
        return await self.roles.players.revoke_session(player_id, session_id)

    async def revoke_sessions(self, player_id: str, *, keep_token: str | None = None) -> int:
        return await self.roles.players.revoke_sessions(player_id, keep_token=keep_token)

    async def set_password(self, player_id: str, password_hash: str) -> bool:
        return await self.roles.players.set_password(player_id, password_hash)

    async def set_disabled(self, player_id: str, disabled: bool) -> PlayerRecord | None:
        return await self.roles.players.set_disabled(player_id, disabled)

    # ----- AuditStore (audit) -------------------------------------------------------
    async def add_audit(self, entry: AuditEntry) -> AuditEntry:
        return await self.roles.audit.add_audit(entry)

    async def list_audit(
        self,
        *,
        limit: int = 100,
        offset: int = 0,
        action: str | None = None,
        target: str | None = None,
    ) -> list[AuditEntry]:
        return await self.roles.audit.list_audit(
            limit=limit, offset=offset, action=action, target=target
        )

    # ----- GameArchive (archive) ----------------------------------------------------
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
        [saved] = await self.save_games(
            [GameRecord(game_id, game, table_id, history, outcome, results, started_at, ended_at)]
        )
        return saved

    async def save_games(
        self, records: Sequence[GameRecord], *, from_outbox: bool = False
    ) -> list[bool]:
        return await self.roles.archive.save_games(records, from_outbox=from_outbox)

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
        return await self.roles.archive.list_games(
            game=game,
            player_id=player_id,
            since=since,
            until=until,
            limit=limit,
            offset=offset,
            result=result,
            exclude_tables=exclude_tables,
        )

    async def get_game(self, game_id: str) -> dict[str, Any] | None:
        return await self.roles.archive.get_game(game_id)

    # ----- RatingStore (ratings) ----------------------------------------------------
    async def leaderboard(
        self, game: str, *, bots: bool = False, limit: int = 50, offset: int = 0
    ) -> list[PlayerRating]:
        return await self.roles.ratings.leaderboard(game, bots=bots, limit=limit, offset=offset)

    async def player_ratings(self, player_id: str) -> list[PlayerRating]:
        return await self.roles.ratings.player_ratings(player_id)

    async def rating_history(
        self, player_id: str, game: str, *, limit: int = 500
    ) -> list[RatingPoint]:
        return await self.roles.ratings.rating_history(player_id, game, limit=limit)

    # ----- TableLogStore (log) ------------------------------------------------------
    async def write_log(self, batch: LogBatch) -> set[str] | None:
        return await self.roles.log.write_log(batch)

    async def load_log(self, table_id: str | None = None) -> list[LogRow]:
        return await self.roles.log.load_log(table_id)

    async def claim_table(self, table_id: str, node: str) -> int:
        return await self.roles.log.claim_table(table_id, node)

    async def claimed_tables(self) -> dict[str, int]:
        return await self.roles.log.claimed_tables()

    async def load_outbox(self) -> list[GameRecord]:
        return await self.roles.log.load_outbox()

    # ----- ChipStore (chips) --------------------------------------------------------
    async def chip_balance(
        self,
        player_id: str,
        *,
        top_up_below: int = 0,
        top_up_to: int = CHIPS_START,
        top_up_every_seconds: float = 0.0,
        now: datetime | None = None,
    ) -> int:
        return await self.roles.chips.chip_balance(
            player_id,
            top_up_below=top_up_below,
            top_up_to=top_up_to,
            top_up_every_seconds=top_up_every_seconds,
            now=now,
        )

    async def hold_chips(
        self,
        player_id: str,
        hold_id: str,
        *,
        asked: int | None,
        most: int,
        table_id: str | None = None,
        epoch: int | None = None,
        top_up_below: int = 0,
        top_up_to: int = CHIPS_START,
        top_up_every_seconds: float = 0.0,
        now: datetime | None = None,
    ) -> ChipTake | None:
        return await self.roles.chips.hold_chips(
            player_id,
            hold_id,
            asked=asked,
            most=most,
            table_id=table_id,
            epoch=epoch,
            top_up_below=top_up_below,
            top_up_to=top_up_to,
            top_up_every_seconds=top_up_every_seconds,
            now=now,
        )

    async def release_hold(self, player_id: str, hold_id: str) -> int:
        return await self.roles.chips.release_hold(player_id, hold_id)

    async def release_stale_holds(self, table_id: str | None = None) -> int:
        return await self.roles.chips.release_stale_holds(table_id)
