"""Where a SQLite database URL keeps its file (shared by the store's migration lock, the table
log's spill and the backup)."""

from __future__ import annotations

import urllib.parse

from sqlalchemy.engine import URL


def sqlite_file(url: URL) -> str | None:
    """The file of a SQLite database ``url``, ``None`` for another back-end or an in-memory
    database. A URI filename (``sqlite+aiosqlite:///file:/data/hall.db?uri=true``, SQLite's
    ``file:`` form) names the file in its path; ``mode=memory`` or ``:memory:`` is in memory."""
    database = url.database
    if url.get_backend_name() != "sqlite" or database in (None, "", ":memory:"):
        return None
    if str(url.query.get("uri", "")).lower() in ("true", "1") and database.startswith("file:"):
        if url.query.get("mode") == "memory":
            return None
        database = urllib.parse.unquote(urllib.parse.urlsplit(database).path)
        if database in ("", ":memory:"):
            return None
    return database
