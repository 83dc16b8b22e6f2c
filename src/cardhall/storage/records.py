"""The records the stores keep and return (``interface.py`` gives the stores' contract)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .chips import ChipMove


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
        rated: whether the game counts for ratings (``False``: a casual table's, e.g. an
            unrated tournament's or a casual seek's; its marks are still stored).
    """

    game_id: str
    game: str
    table_id: str
    history: dict[str, Any]
    outcome: dict[str, Any]
    results: Sequence[SeatResult]
    started_at: datetime
    ended_at: datetime
    rated: bool = True

    def to_json(self) -> dict[str, Any]:
        """The record as one JSON object (the outbox keeps it so; :meth:`from_json` reads it)."""
        return {"game_id": self.game_id, "game": self.game, "table_id": self.table_id,
                "history": self.history, "outcome": self.outcome,
                "results": [{"seat": r.seat, "name": r.name, "result": r.result,
                             "player_id": r.player_id, "is_bot": r.is_bot}
                            for r in self.results],
                "started_at": self.started_at.isoformat(), "ended_at": self.ended_at.isoformat(),
                **({} if self.rated else {"rated": False})}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> GameRecord:
        """The record :meth:`to_json` wrote. Raises ``KeyError``/``ValueError`` on another."""
        return cls(doc["game_id"], doc["game"], doc["table_id"], doc["history"], doc["outcome"],
                   [SeatResult(**r) for r in doc["results"]],
                   datetime.fromisoformat(doc["started_at"]),
                   datetime.fromisoformat(doc["ended_at"]), bool(doc.get("rated", True)))


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
