"""Where tournaments are kept: one JSON document each (``docs/storage.md``, "tournaments").

Its own small protocol, beside the :class:`~cardhall.storage.interface.Store` roles: the
tournament director (``tournaments/director.py``) saves the whole document after each step
(a round paired, a table made, a board's result, a round scored), so a restart resumes from
the last step. :class:`MemoryTournaments` keeps them in a dict (tests, the memory store);
:class:`SqlTournaments` in the ``tournaments`` table of a SQL store's database.
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any, Protocol

from sqlalchemy import Table, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from .models import TournamentRow

TOURNAMENTS: Table = TournamentRow.__table__  # type: ignore[assignment]


class TournamentStore(Protocol):
    """Tournament documents by id."""

    async def save_tournament(self, doc: dict[str, Any]) -> None:
        """Insert or replace the document ``doc`` (its ``id``, ``game``, ``status``,
        ``created_by`` and ``created_at``, an ISO 8601 text, are read from it)."""

    async def get_tournament(self, tournament_id: str) -> dict[str, Any] | None:
        """The document, or ``None``."""

    async def list_tournaments(self, *, status: str | None = None,
                               limit: int = 50) -> list[dict[str, Any]]:
        """Documents, newest first; ``status`` keeps those with it."""


class MemoryTournaments:
    """A :class:`TournamentStore` in a dict (copies in and out: no shared lists)."""

    def __init__(self) -> None:
        self.docs: dict[str, dict[str, Any]] = {}

    async def save_tournament(self, doc: dict[str, Any]) -> None:
        self.docs[doc["id"]] = copy.deepcopy(doc)

    async def get_tournament(self, tournament_id: str) -> dict[str, Any] | None:
        doc = self.docs.get(tournament_id)
        return None if doc is None else copy.deepcopy(doc)

    async def list_tournaments(self, *, status: str | None = None,
                               limit: int = 50) -> list[dict[str, Any]]:
        docs = sorted(self.docs.values(), key=lambda d: (d["created_at"], d["id"]), reverse=True)
        return [copy.deepcopy(d) for d in docs if status is None or d["status"] == status][:limit]


class SqlTournaments:
    """A :class:`TournamentStore` in the ``tournaments`` table (migration 0009) of ``engine``
    (a :class:`~cardhall.storage.sql.SqlStore`'s)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def save_tournament(self, doc: dict[str, Any]) -> None:
        values = {"id": doc["id"], "game": doc["game"], "status": doc["status"],
                  "created_by": doc["created_by"],
                  "created_at": datetime.fromisoformat(doc["created_at"]),
                  "updated_at": datetime.now(UTC), "doc": doc}
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        stmt = dialect.insert(TOURNAMENTS).values(**values)
        stmt = stmt.on_conflict_do_update(
            index_elements=["id"],
            set_={k: stmt.excluded[k] for k in ("status", "updated_at", "doc")})
        async with self.engine.begin() as conn:
            await conn.execute(stmt)

    async def get_tournament(self, tournament_id: str) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            doc = await conn.scalar(select(TOURNAMENTS.c.doc)
                                    .where(TOURNAMENTS.c.id == tournament_id))
        return None if doc is None else dict(doc)

    async def list_tournaments(self, *, status: str | None = None,
                               limit: int = 50) -> list[dict[str, Any]]:
        query = select(TOURNAMENTS.c.doc).order_by(TOURNAMENTS.c.created_at.desc(),
                                                   TOURNAMENTS.c.id.desc()).limit(limit)
        if status is not None:
            query = query.where(TOURNAMENTS.c.status == status)
        async with self.engine.connect() as conn:
            return [dict(d) for d in (await conn.scalars(query)).all()]


def tournament_store(store: Any) -> TournamentStore:
    """The tournament store beside ``store``: in its SQL database when it has an ``engine``
    (a :class:`~cardhall.storage.sql.SqlStore`), else in memory."""
    engine = getattr(store, "engine", None)
    return SqlTournaments(engine) if isinstance(engine, AsyncEngine) else MemoryTournaments()
