"""Saved games and identities: SQLAlchemy 2 async (SQLite default, PostgreSQL by URL) + Alembic.

The table runtime and the REST routers talk to storage only through the :class:`Store`
interface (``store.py``); :class:`MemoryStore` implements it in memory for tests.
"""

from .interface import GameSummary, PlayerRecord, SeatResult, Store
from .memory import MemoryStore

__all__ = ["GameSummary", "MemoryStore", "PlayerRecord", "SeatResult", "Store"]
