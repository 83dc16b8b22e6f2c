"""``cardhall serve --workers N`` (``server/main.py``, ``docs/scaling.md``): more than one
worker needs cluster mode and is refused (exit 2, the reason on stderr) without it; with Redis
the workers serve and SIGTERM ends them all (exit 0)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from cardhall.cli import main

BOUND_SECONDS = 60.0
"""The longest the real workers may take to get ready, or to stop."""


def test_more_than_one_worker_without_redis_is_refused(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("CARDHALL_REDIS_URL", raising=False)
    assert main(["serve", "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert "each worker would have its own tables" in err
    assert "CARDHALL_REDIS_URL" in err and "docs/scaling.md" in err


def test_a_fixed_node_id_with_workers_is_refused(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CARDHALL_REDIS_URL", "redis://127.0.0.1:6379/0")
    monkeypatch.setenv("CARDHALL_NODE_ID", "node-a")
    assert main(["serve", "--workers", "3"]) == 2
    assert "CARDHALL_NODE_ID='node-a'" in capsys.readouterr().err


def test_zero_workers_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["serve", "--workers", "0"])
    assert info.value.code == 2
    assert "must be at least 1" in capsys.readouterr().err


def test_the_refusal_through_the_console_script() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDHALL_")}
    done = subprocess.run([sys.executable, "-m", "cardhall.cli", "serve", "--workers", "2"],
                          env=env, capture_output=True, text=True, timeout=BOUND_SECONDS)
    assert done.returncode == 2
    assert "docs/scaling.md" in done.stderr and "Traceback" not in done.stderr


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
@pytest.mark.parametrize("database", ["memory", "sqlite_file"])
def test_two_workers_serve_and_stop_on_sigterm(redis_url: str, redis_prefix: str,
                                               database: str, tmp_path: Path) -> None:
    """On a fresh SQLite file too (the default database): the two workers migrate one after
    the other (they both created the tables and one crashed) and each takes a spill of its
    own (the second ran without one)."""
    port = free_port()
    db = tmp_path / "hall.db"
    url = "memory://" if database == "memory" else f"sqlite+aiosqlite:///{db}"
    env = {**os.environ, "CARDHALL_REDIS_URL": redis_url, "CARDHALL_REDIS_PREFIX": redis_prefix,
           "CARDHALL_DATABASE_URL": url, "CARDHALL_GC_TUNING": "false",
           "CARDHALL_SHUTDOWN_GRACE_SECONDS": "2"}
    env.pop("CARDHALL_NODE_ID", None)
    proc = subprocess.Popen([sys.executable, "-m", "cardhall.cli", "serve", "--workers", "2",
                             "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + BOUND_SECONDS
        status = None
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as r:
                    status = r.status
                    break
            except OSError:
                time.sleep(0.1)  # polling a condition, bounded by the deadline
        assert status == 200, f"not ready: exit {proc.poll()}"
        if database == "sqlite_file":  # each worker holds a spill of its own
            want = ["hall.db.spill-worker0.lock", "hall.db.spill.lock"]
            while time.monotonic() < deadline and sorted(
                    p.name for p in tmp_path.glob("*spill*.lock")) != want:
                time.sleep(0.1)  # polling a condition, bounded by the deadline
            assert sorted(p.name for p in tmp_path.glob("*spill*.lock")) == want
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=BOUND_SECONDS)
        assert proc.returncode == 0, err[-2000:]
        assert err.count("draining: refusing new tables") == 2, err[-2000:]  # each worker
        assert "WITHOUT a spill" not in err and "already exists" not in err, err[-2000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def test_a_worker_that_dies_during_its_health_check_is_seen_dead_at_once() -> None:
    """uvicorn's supervisor pings a live worker and waits up to the health-check timeout (60 s
    here, ``WORKER_HEALTHCHECK_SECONDS``) for the answer; the supervisor holds the worker's end
    of the pipe itself, so a worker killed after the ping never closes it. Seen live with
    ``kill -9`` on a worker: replaced 60 s later, the supervisor deaf to SIGTERM meanwhile. The
    wait must end as soon as the worker is dead."""
    import uvicorn

    from cardhall.server.main import DrainingProcess, worker_options

    config = uvicorn.Config("cardhall.server.app:create_app_from_env",
                            **worker_options(2))
    proc = DrainingProcess(config, [])
    alive = iter([True])  # alive when checked, dead once the ping is on its way

    class Dying:
        def is_alive(self) -> bool:
            return next(alive, False)

    proc.process = Dying()  # type: ignore[assignment]
    started = time.monotonic()
    assert not proc.is_alive(timeout=10)
    assert time.monotonic() - started < 3
