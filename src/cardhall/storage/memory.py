"""An in-memory :class:`~cardhall.storage.interface.Store` for tests and throwaway servers."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from .interface import (
    AuditEntry,
    ChipMove,
    GameRecord,
    GameSummary,
    LogBatch,
    LogRow,
    PlayerRecord,
    SeatResult,
)
from .memory_accounts import MemoryAccounts
from .memory_chips import MemoryChips
from .tokens import hash_token, new_token

__all__ = ["MemoryStore", "hash_token", "new_token"]


class MemoryStore(MemoryChips, MemoryAccounts):
    """Keeps everything in dicts; same behaviour as the SQL store."""

    def __init__(self) -> None:
        self.players: dict[str, PlayerRecord] = {}
        self.tokens: dict[str, str] = {}
        self.games: dict[str, tuple[GameSummary, dict[str, Any]]] = {}
        self.log: dict[str, dict[int, LogRow]] = {}
        """table id -> seq -> entry (the table log; it outlives a server over this store)."""
        self.fences: dict[str, int] = {}
        """table id -> lease epoch (cluster mode, :meth:`claim_table`)."""
        self.outbox: dict[str, GameRecord] = {}
        self.audit: list[AuditEntry] = []
        """Admin actions, oldest first."""
        self.chips: dict[str, int] = {}
        """player id -> chip balance (absent: :data:`CHIPS_START`)."""
        self.topped_up: dict[str, datetime] = {}
        self.chip_moves: dict[str, ChipMove] = {}
        """key -> applied move (each key moves a balance once)."""
        self.log_writes = 0
        """Group commits written (:meth:`write_log` calls)."""
        self._init_accounts()

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def ping(self) -> None:
        """Always answers (nothing to reach)."""
        return None

    async def create_player(
        self, name: str, *, is_bot: bool = False, owner_id: str | None = None
    ) -> tuple[PlayerRecord, str]:
        rec = PlayerRecord(uuid.uuid4().hex, name, is_bot, False, owner_id,
                           created_at=datetime.now(UTC))
        token = new_token()
        self.players[rec.id] = rec
        self.tokens[hash_token(token)] = rec.id
        return rec, token

    async def player_for_token(self, token: str) -> PlayerRecord | None:
        pid = self.tokens.get(hash_token(token)) or self._session_player(token)
        return None if pid is None else self.players.get(pid)

    async def get_player(self, player_id: str) -> PlayerRecord | None:
        return self.players.get(player_id)

    async def list_players(self, *, limit: int = 100, offset: int = 0) -> list[PlayerRecord]:
        return list(self.players.values())[offset : offset + limit]

    async def set_banned(self, player_id: str, banned: bool) -> PlayerRecord | None:
        rec = self.players.get(player_id)
        if rec is None:
            return None
        self.players[player_id] = rec = replace(rec, banned=banned)
        return rec

    async def bots_of(self, owner_id: str) -> list[PlayerRecord]:
        """The bots ``owner_id`` owns, oldest first."""
        return [r for r in self.players.values() if r.is_bot and r.owner_id == owner_id]

    async def add_audit(self, entry: AuditEntry) -> AuditEntry:
        """Keep one admin action (ids 1, 2, ...)."""
        stored = replace(entry, id=len(self.audit) + 1)
        self.audit.append(stored)
        return stored

    async def list_audit(self, *, limit: int = 100, offset: int = 0, action: str | None = None,
                         target: str | None = None) -> list[AuditEntry]:
        """Admin actions newest first, filtered (see :meth:`Store.list_audit`)."""
        rows = [e for e in self.audit if (action is None or e.action == action)
                and (target is None or e.target == target)]
        rows.sort(key=lambda e: (e.at, e.id or 0), reverse=True)
        return rows[offset : offset + limit]

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
        [saved] = await self.save_games([GameRecord(game_id, game, table_id, history, outcome,
                                                    results, started_at, ended_at)])
        return saved

    async def save_games(self, records: Sequence[GameRecord], *,
                         from_outbox: bool = False) -> list[bool]:
        """Store each record not already stored (see :meth:`Store.save_games`); never raises."""
        flags = []
        for r in records:
            flags.append(r.game_id not in self.games)
            if flags[-1]:
                summary = GameSummary(r.game_id, r.game, r.table_id, r.started_at, r.ended_at,
                                      r.outcome, self._rate(r))
                self.games[r.game_id] = (summary, r.history)
            if from_outbox:
                self.outbox.pop(r.game_id, None)
        return flags

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
        rows = [s for s, _ in self.games.values()]
        if game:
            rows = [s for s in rows if s.game == game]
        if player_id:
            rows = [s for s in rows if any(r.player_id == player_id and result in (None, r.mark)
                                           for r in s.seats)]
        if since:
            rows = [s for s in rows if s.ended_at >= since]
        if until:
            rows = [s for s in rows if s.ended_at < until]
        rows.sort(key=lambda s: s.ended_at, reverse=True)
        return rows[offset : offset + limit]

    async def get_game(self, game_id: str) -> dict[str, Any] | None:
        got = self.games.get(game_id)
        return None if got is None else got[1]

    async def bot_identity(self, name: str) -> PlayerRecord:
        for rec in self.players.values():
            if rec.is_bot and rec.owner_id is None and rec.name == name:
                return rec
        rec, _ = await self.create_player(name, is_bot=True)
        return rec

    async def write_log(self, batch: LogBatch) -> set[str]:
        """One group commit (see :meth:`Store.write_log`); never raises."""
        self.log_writes += 1
        fenced = {t for t, e in batch.fences.items() if self.fences.get(t) != e}
        if fenced:
            batch = batch.without(fenced)
        for table_id in batch.drop:
            self.fences.pop(table_id, None)
        for table_id in batch.drop:
            self.log.pop(table_id, None)
        for table_id, before in batch.compact.items():
            entries = self.log.get(table_id, {})
            for seq in [s for s in entries if s < before]:
                del entries[seq]
        for row in batch.rows:
            if row.table_id not in batch.drop:
                self.log.setdefault(row.table_id, {})[row.seq] = row
        for record in batch.outbox:
            if record.game_id not in self.games:
                self.outbox.setdefault(record.game_id, record)
        self.apply_chips(batch.chips)
        return fenced

    async def load_log(self, table_id: str | None = None) -> list[LogRow]:
        return [self.log[t][s] for t in sorted(self.log) for s in sorted(self.log[t])
                if table_id is None or t == table_id]

    async def claim_table(self, table_id: str, node: str) -> int:
        self.fences[table_id] = self.fences.get(table_id, 0) + 1
        await self.release_stale_holds(table_id)  # no await inside: one step with the claim
        return self.fences[table_id]

    async def claimed_tables(self) -> dict[str, int]:
        return dict(self.fences)

    async def load_outbox(self) -> list[GameRecord]:
        return [self.outbox[g] for g in sorted(self.outbox)]
