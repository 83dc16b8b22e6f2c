"""``cardhall db backup`` / ``db restore`` on SQLite: an online backup of a filled database,
restored, gives back every game, and each one verifies (issue 27, "Backup and restore")."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cardhall.engine.verify import verify_history
from cardhall.storage import SeatResult
from cardhall.storage.backup import BackupError, backup_sqlite, restore_sqlite
from cardhall.storage.sql import SqlStore

PAST = Path(__file__).resolve().parents[1] / "engine" / "past_releases" / "df87eb7.ndjson"


async def _fill(store: SqlStore) -> list[str]:
    ids = []
    now = datetime.now(UTC)
    for i, line in enumerate(PAST.read_text().splitlines()):
        doc = json.loads(line)
        game_id = f"g{i}"
        seats = [SeatResult(s, seat["name"], doc["outcome"]["returns"][s], None, True)
                 for s, seat in enumerate(doc["seats"])]
        await store.save_game(game_id=game_id, game=doc["game"], table_id=f"t{i}", history=doc,
                              outcome=doc["outcome"], results=seats, started_at=now,
                              ended_at=now)
        ids.append(game_id)
    return ids


async def test_a_live_backup_restored_gives_back_every_game_and_each_verifies(
        tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'live.db'}"
    store = SqlStore(url)
    await store.start()
    try:
        ids = await _fill(store)
        steps: list[tuple[int, int]] = []
        result = backup_sqlite(url, tmp_path / "backup" / "cardhall.db",
                               progress=lambda done, total: steps.append((done, total)))
        assert result.games == len(ids) == 14 and result.revision is not None
        assert steps and steps[-1][0] == steps[-1][1]
        await store.create_player("after the backup")  # the server kept writing meanwhile
    finally:
        await store.close()
    lost_url = f"sqlite+aiosqlite:///{tmp_path / 'lost.db'}"
    (tmp_path / "lost.db").write_bytes(b"a disk that went bad")
    restored = restore_sqlite(result.path, lost_url)
    assert restored.games == len(ids)
    assert list(tmp_path.glob("lost.db.replaced-*")), "the replaced file is kept"
    again = SqlStore(lost_url)
    await again.start()
    try:
        assert again.schema_drift == []
        for game_id in ids:
            doc = await again.get_game(game_id)
            assert doc is not None and verify_history(doc).verified, game_id
    finally:
        await again.close()


def test_a_backup_never_overwrites_and_postgres_is_sent_to_pg_dump(tmp_path: Path) -> None:
    (tmp_path / "x.db").write_bytes(b"")
    with pytest.raises(BackupError, match="never overwrites"):
        backup_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", tmp_path / "x.db")
    with pytest.raises(BackupError, match="pg_dump"):
        backup_sqlite("postgresql+asyncpg://u@h/db", tmp_path / "y.db")
    with pytest.raises(BackupError, match="no database"):
        backup_sqlite(f"sqlite+aiosqlite:///{tmp_path / 'none.db'}", tmp_path / "z.db")


def test_a_corrupt_backup_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    live = tmp_path / "live.db"
    live.write_bytes(b"keep me")
    with pytest.raises(BackupError):
        restore_sqlite(bad, f"sqlite+aiosqlite:///{live}")
    assert live.read_bytes() == b"keep me"


async def test_a_restore_under_a_running_server_is_refused(tmp_path: Path) -> None:
    """The new-user trial restored over a live server, which kept writing to the replaced
    file: a server holds its spill's lock, and the restore now refuses while it does."""
    from cardhall.storage.spill import Spill, database_key, default_path

    url = f"sqlite+aiosqlite:///{tmp_path / 'served.db'}"
    store = SqlStore(url)
    await store.start()
    await store.close()
    backup = backup_sqlite(url, tmp_path / "b.db").path
    spill = Spill(default_path(url, None), database_key(url, None))
    spill.acquire()  # what a running server holds
    try:
        with pytest.raises(BackupError, match="stop it first"):
            restore_sqlite(backup, url)
        assert not list(tmp_path.glob("served.db.replaced-*"))
    finally:
        spill.close()
    assert restore_sqlite(backup, url).games == 0
