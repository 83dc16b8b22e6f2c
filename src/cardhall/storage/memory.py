"""An in-memory :class:`~cardhall.storage.interface.Store` for tests and throwaway servers.

One role object each (``composed.py``): :class:`~.memory_accounts.MemoryPlayers`,
:class:`MemoryAudit`, :class:`MemoryArchive`, :class:`~.memory_accounts.MemoryRatings`,
:class:`MemoryTableLog` and :class:`~.memory_chips.MemoryChips`, sharing the dicts they both
read (a dict is the store's table; :class:`MemoryStore` shows them as its attributes).
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from .composed import ComposedStore, StoreRoles
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
from .memory_accounts import MemoryPlayers, MemoryRatings
from .memory_chips import MemoryChips
from .tokens import hash_token, new_token

__all__ = ["MemoryStore", "hash_token", "new_token"]

Games = dict[str, tuple[GameSummary, dict[str, Any]]]
"""game id -> (its summary, its history)."""


def _new_id() -> str:
    """A new identity's id: 32 hex digits (``uuid`` is looked up when called: a test may patch
    ``memory.uuid`` to draw the same ids in every run)."""
    return uuid.uuid4().hex


class MemoryAudit:
    """Admin actions kept in a list, oldest first (:class:`~.interface.AuditStore`)."""

    def __init__(self) -> None:
        self.audit: list[AuditEntry] = []

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


class MemoryArchive:
    """Finished games kept in a dict (:class:`~.interface.GameArchive`): each saved game is
    rated by ``ratings`` and leaves the ``outbox`` (the table log's) when saved from it."""

    def __init__(self, games: Games, outbox: dict[str, GameRecord],
                 ratings: MemoryRatings) -> None:
        self.games, self.outbox, self.ratings = games, outbox, ratings

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
                                      r.outcome, self.ratings.rate(r))
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
        exclude_tables: Collection[str] = (),
    ) -> list[GameSummary]:
        rows = [s for s, _ in self.games.values() if s.table_id not in exclude_tables]
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


class MemoryTableLog:
    """The table log, the outbox and the lease epochs kept in dicts
    (:class:`~.interface.TableLogStore`); a batch's chip moves go to ``chips``, a game of the
    outbox already in ``games`` is not kept."""

    def __init__(self, games: Games, chips: MemoryChips) -> None:
        self.games, self.chips = games, chips
        self.fences = chips.fences
        """table id -> lease epoch (cluster mode, :meth:`claim_table`)."""
        self.log: dict[str, dict[int, LogRow]] = {}
        """table id -> seq -> entry (the table log; it outlives a server over this store)."""
        self.outbox: dict[str, GameRecord] = {}
        self.log_writes = 0
        """Group commits written (:meth:`write_log` calls)."""

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
        self.chips.apply_chips(batch.chips)
        return fenced

    async def load_log(self, table_id: str | None = None) -> list[LogRow]:
        return [self.log[t][s] for t in sorted(self.log) for s in sorted(self.log[t])
                if table_id is None or t == table_id]

    async def claim_table(self, table_id: str, node: str) -> int:
        self.fences[table_id] = self.fences.get(table_id, 0) + 1
        await self.chips.release_stale_holds(table_id)  # no await inside: one step with the claim
        return self.fences[table_id]

    async def claimed_tables(self) -> dict[str, int]:
        return dict(self.fences)

    async def load_outbox(self) -> list[GameRecord]:
        return [self.outbox[g] for g in sorted(self.outbox)]


class MemoryStore(ComposedStore):
    """Keeps everything in dicts; same behaviour as the SQL store. Its role objects' dicts are
    its attributes too (``players``, ``games``, ``log``, ``chips`` ...), for tests to read and
    seed."""

    def __init__(self) -> None:
        self.players: dict[str, PlayerRecord] = {}
        self.tokens: dict[str, str] = {}
        self.games: Games = {}
        self.fences: dict[str, int] = {}
        """table id -> lease epoch (cluster mode, :meth:`claim_table`)."""
        people = MemoryPlayers(self.players, self.tokens, _new_id)
        rating = MemoryRatings(self.players)
        self._chips = MemoryChips(self.fences)
        self._log = MemoryTableLog(self.games, self._chips)
        audit = MemoryAudit()
        super().__init__(StoreRoles(
            players=people, audit=audit,
            archive=MemoryArchive(self.games, self._log.outbox, rating),
            ratings=rating, log=self._log, chips=self._chips))
        self.log = self._log.log
        """table id -> seq -> entry (the table log; it outlives a server over this store)."""
        self.outbox = self._log.outbox
        self.audit = audit.audit
        """Admin actions, oldest first."""
        self.chips = self._chips.chips
        """player id -> chip balance (absent: :data:`CHIPS_START`)."""
        self.topped_up = self._chips.topped_up
        self.chip_moves: dict[str, ChipMove] = self._chips.chip_moves
        """key -> applied move (each key moves a balance once)."""
        self.passwords, self.session_rows = people.passwords, people.session_rows
        self.ratings, self.rating_points = rating.ratings, rating.rating_points

    @property
    def log_writes(self) -> int:
        """Group commits written (:meth:`write_log` calls)."""
        return self._log.log_writes

    def apply_chips(self, moves: Sequence[ChipMove]) -> None:
        """Apply each move whose key is new (:meth:`MemoryChips.apply_chips`)."""
        self._chips.apply_chips(moves)

    async def start(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def ping(self) -> None:
        """Always answers (nothing to reach)."""
        return None
