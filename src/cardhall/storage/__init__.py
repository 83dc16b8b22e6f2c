"""Saved games and identities: SQLAlchemy 2 async (SQLite default, PostgreSQL by URL) + Alembic.

The table runtime and the REST routers talk to storage only through the :class:`Store`
interface (``interface.py``); :class:`MemoryStore` implements it in memory for tests. Finished
games reach the store through a :class:`GameWriter` (``writer.py``), which batches them off the
tables' tasks.
"""

from .interface import GameRecord, GameSummary, PlayerRecord, SeatResult, Store
from .memory import MemoryStore
from .writer import GameWriter

__all__ = ["GameRecord", "GameSummary", "GameWriter", "MemoryStore", "PlayerRecord", "SeatResult",
           "Store"]
