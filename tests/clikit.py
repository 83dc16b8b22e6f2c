"""Helpers of the ``cardhall`` command's tests.

:func:`run`: a command with its stderr on a pseudo-terminal (``os.openpty``) and its stdout on
a pipe, as a person at a terminal piping the JSON to a script would; what each side got. Reads
are bounded (``select`` with a short poll and an overall deadline, never a sleep).
:func:`saved_game`: a finished game that ``cardhall verify`` verifies.
"""

from __future__ import annotations

import hashlib
import os
import select
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardhall.engine import commitment
from cardhall.selfplay import play_one

ROOT = Path(__file__).resolve().parents[1]
CARDHALL = [sys.executable, "-m", "cardhall"]


@dataclass
class Run:
    """What a command left: its status, stdout (the pipe) and stderr (the terminal or pipe)."""

    status: int
    out: str
    err: str


def run(argv: list[str], *, tty: bool = True, stdin: bytes | None = None,
        timeout: float = 120.0) -> Run:
    """Run ``argv`` from the repository root; stderr on a pseudo-terminal when ``tty``, else a
    pipe. Raises ``TimeoutError`` past ``timeout`` seconds (the process is killed)."""
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
    for var in ("NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        env.pop(var, None)
    master, slave = os.openpty() if tty else (-1, -1)
    proc = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stderr=slave if tty else subprocess.PIPE)
    if tty:
        os.close(slave)
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
    try:
        out, err = _collect(proc, master, time.monotonic() + timeout)
    except TimeoutError as exc:
        proc.kill()
        proc.wait()
        raise TimeoutError(f"{argv} ran past {timeout} s") from exc
    finally:
        if tty:
            os.close(master)
    return Run(proc.returncode, out.decode(), err.decode(errors="replace"))


def _collect(proc: subprocess.Popen[bytes], master: int, deadline: float) -> tuple[bytes, bytes]:
    """Read stdout and stderr (the terminal ``master``, or the pipe when it is -1) until both
    are closed and the process has exited; raises ``TimeoutError`` past ``deadline``."""
    assert proc.stdout is not None
    err_fd = master if master >= 0 else proc.stderr.fileno()  # type: ignore[union-attr]
    got = {proc.stdout.fileno(): b"", err_fd: b""}
    open_fds = set(got)
    while open_fds:
        if time.monotonic() > deadline:
            raise TimeoutError
        ready, _, _ = select.select(list(open_fds), [], [], 0.2)
        for fd in ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO on the terminal: every writer of it is gone
                chunk = b""
            if chunk:
                got[fd] += chunk
            else:
                open_fds.discard(fd)
    proc.wait(timeout=max(0.1, deadline - time.monotonic()))
    return got[proc.stdout.fileno()], got[err_fd]


def saved_game(game: str, seats: int, seed: int) -> dict[str, Any]:
    """A finished self-play game with the fairness fields a stored game carries (the seed
    revealed, its commitment; the legacy derivation: the server seed shuffles directly), so
    ``cardhall verify`` verifies it (exit 0)."""
    rec, violations, _ = play_one(game, seats, seed=seed, check=False)
    assert not violations and rec.state.outcome is not None
    server = hashlib.sha256(f"selfplay:{seed}".encode()).digest()
    doc = rec.history.to_json()
    doc.update({"id": f"g{seed}", "outcome": rec.state.outcome.to_json(), "seed": server.hex(),
                "seed_commitment": commitment(server)})
    return doc


def tampered(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with its commitment changed: a mismatch of the whole history (exit 1)."""
    return {**doc, "seed_commitment": "0" * 64}
