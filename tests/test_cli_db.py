"""``cardhall db downgrade``, ``db backup`` and ``db restore`` (issue 27, cases 6 and "Backup
and restore"): a downgrade that would drop data is refused and names it; a backup taken with the
command restores a database whose every game verifies; the backup's bar is on a terminal only."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from cardhall.cli import main
from clikit import CARDHALL, run


def _filled(path: Path) -> str:
    from tests.storage.test_backup import _fill

    from cardhall.storage.sql import SqlStore

    url = f"sqlite+aiosqlite:///{path}"

    async def fill() -> None:
        store = SqlStore(url)
        await store.start()
        try:
            await _fill(store)
        finally:
            await store.close()

    asyncio.run(fill())
    return url


def test_downgrade_refuses_to_drop_data_names_it_and_changes_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = _filled(tmp_path / "hall.db")
    assert main(["db", "downgrade", "base", "--url", url, "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["code"] == "cli.data_loss" and "table games (14 rows" in \
        out["error"]["message"]
    assert main(["db", "downgrade", "0005", "--dry-run", "--url", url, "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["done"] is False and {"table": "ratings", "column": None, "rows": 0} in \
        plan["dropped"]
    assert main(["db", "upgrade", "--url", url, "--json"]) == 0  # still at head: nothing to do
    assert json.loads(capsys.readouterr().out)["applied"] == []


def test_backup_and_restore_through_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cardhall.engine.verify import verify_history
    from cardhall.storage.sql import SqlStore

    url = _filled(tmp_path / "hall.db")
    backup = tmp_path / "backups" / "hall.db"
    assert main(["db", "backup", str(backup), "--url", url, "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert made["games"] == 14 and made["revision"]
    assert main(["db", "backup", str(backup), "--url", url]) == 1  # never overwrites
    (tmp_path / "hall.db").write_bytes(b"gone")
    assert main(["db", "restore", str(backup), "--url", url]) == 0
    assert "restored" in capsys.readouterr().out

    async def verify_all() -> int:
        store = SqlStore(url)
        await store.start()
        try:
            games = await store.list_games(limit=100)
            for g in games:
                doc = await store.get_game(g.id)
                assert doc is not None and verify_history(doc).verified
            return len(games)
        finally:
            await store.close()

    assert asyncio.run(verify_all()) == 14


def test_db_backup_draws_its_bar_on_a_terminal_only(tmp_path: Path) -> None:
    url = _filled(tmp_path / "hall.db")
    shown = run([*CARDHALL, "db", "backup", str(tmp_path / "one.db"), "--url", url, "--json"])
    assert shown.status == 0, shown.out + shown.err
    assert json.loads(shown.out)["games"] == 14
    assert "db backup" in shown.err and "pages/s" in shown.err
    piped = run([*CARDHALL, "db", "backup", str(tmp_path / "two.db"), "--url", url, "--json"],
                tty=False)
    assert piped.status == 0 and "db backup" not in piped.err


def test_stamp_then_upgrade_repairs_a_database_stamped_at_a_revision_it_never_ran(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The runbook's "Schema drift" repair, with the commands the image has: a database at
    0003 wrongly stamped 0004 (its table_fence never made) is stamped back and upgraded."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    assert main(["db", "upgrade", "--url", url, "--revision", "0003"]) == 0
    assert main(["db", "stamp", "0004", "--url", url]) == 0  # the wrong stamp
    assert "stamped 0004" in capsys.readouterr().out
    assert main(["db", "stamp", "0003", "--url", url]) == 0  # the repair
    assert main(["db", "upgrade", "--url", url, "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["applied"][0] == "0004"
    assert main(["db", "stamp", "nope", "--url", url]) == 1
