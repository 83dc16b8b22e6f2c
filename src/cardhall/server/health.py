"""Readiness (``GET /readyz``): may a load balancer send this process new work?

``/healthz`` (in ``app.py``) is liveness: the process answers. ``/readyz`` answers 200
``{"status": "ready", "checks": {...}, "failing": []}``, 200 ``{"status": "degraded", ...}``
(the node serves, but a check failed that it can serve through: the database does not answer
while the table log buffers and spills within its bounds) or 503 ``{"status": "not_ready",
...}`` (it cannot), ``failing`` naming the checks that failed, after these checks, each
``{"ok": bool, ...figures}``; a failed check the node serves through also says
``"degraded": true``:

* ``database``: the store's ``ping()`` answers within :data:`PING_TIMEOUT_SECONDS` (failing:
  degraded; no store at all: not ready);
* ``writer``: the game writer runs and its queue of finished games is at most
  :data:`BACKLOG_LIMIT` of ``max_queued``;
* ``log``: when the app has an action log (``app.state.log``), its backlog is at most
  :data:`BACKLOG_LIMIT` of ``max_backlog`` and its spill (``storage/spill.py``) does not fail;
  a log that is not healthy (degraded: an outage; its steps go to the spill) is degraded;
* ``schema``: the migrated database matches this release's models (the store's
  ``schema_drift``, found at start-up: :mod:`cardhall.storage.schema`); a store that does not
  check (the memory store) passes;
* ``draining``: the server is not shutting down (``app.state.draining``);
* ``redis`` (cluster mode only, when ``app.state.redis`` is a client): Redis answers a PING
  within :data:`PING_TIMEOUT_SECONDS` (also reported to ``app.state.redis_health``, the
  ``cardhall_redis_healthy`` gauge).

Everything is read duck-typed from ``app.state`` (the store, the writer and the log are other
modules' objects), so a missing attribute fails its check instead of raising.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

PING_TIMEOUT_SECONDS = 1.0
"""How long the database may take to answer the readiness ping."""

BACKLOG_LIMIT = 0.9
"""Not ready above this share of a queue's bound (writer, action log)."""

Check = dict[str, Any]
"""One check's result: ``{"ok": bool, ...}`` plus the figures it looked at."""

router = APIRouter(tags=["health"])


async def check_database(store: Any, timeout: float = PING_TIMEOUT_SECONDS) -> Check:
    """``{"ok": True, "latency_ms": float}`` when ``store.ping()`` returns within ``timeout``
    seconds, else ``{"ok": False, "error": "<exception class>: <message>"}`` (a store without
    ``ping`` counts as reachable: ``{"ok": True, "ping": "unsupported"}``)."""
    if store is None:
        return {"ok": False, "error": "no store (not started)"}
    ping = getattr(store, "ping", None)
    if ping is None:
        return {"ok": True, "ping": "unsupported"}
    t0 = time.perf_counter()
    try:
        async with asyncio.timeout(timeout):
            await ping()
    except Exception as exc:  # any failure to answer is "not ready", never a 500
        return {"ok": False, "error": _error_text(exc)}
    return {"ok": True, "latency_ms": round((time.perf_counter() - t0) * 1000, 3)}


async def check_redis(client: Any, health: Any = None,
                      timeout: float = PING_TIMEOUT_SECONDS) -> Check:
    """``{"ok": True, "latency_ms": float}`` when the Redis ``client`` answers ``PING`` within
    ``timeout`` seconds, else ``{"ok": False, "error": "<exception class>: <message>"}``; the
    outcome also goes to ``health`` (a ``RedisHealth``: ``ok()`` / ``failed(exc)``) when
    given."""
    t0 = time.perf_counter()
    try:
        async with asyncio.timeout(timeout):
            await client.ping()
    except Exception as exc:  # any failure to answer is "not ready", never a 500
        if health is not None:
            health.failed(exc)
        return {"ok": False, "error": _error_text(exc)}
    if health is not None:
        health.ok()
    return {"ok": True, "latency_ms": round((time.perf_counter() - t0) * 1000, 3)}


def _error_text(exc: BaseException) -> str:
    """``"<exception class>: <first line of its message>"`` (``TimeoutError`` for any timeout)."""
    kind = "TimeoutError" if isinstance(exc, TimeoutError) else type(exc).__name__
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{kind}: {first[:200]}".rstrip(": ")


def check_schema(store: Any) -> Check:
    """``{"ok": True}`` while the store found no schema drift at start-up, else
    ``{"ok": False, "drift": [...lines], "error": "..."}`` naming what differs."""
    drift = list(getattr(store, "schema_drift", None) or [])
    if not drift:
        return {"ok": True}
    return {"ok": False, "drift": drift,
            "error": "the database schema differs from this release's models; see "
                     "docs/operations.md, 'Schema drift'"}


def check_writer(writer: Any, limit: float = BACKLOG_LIMIT) -> Check:
    """``ok`` while the writer runs (``running``, when it has that attribute) and
    ``queued <= limit * max_queued``; reports ``queued`` and ``max_queued`` (games)."""
    if writer is None:
        return {"ok": False, "error": "no game writer (not started)"}
    queued = int(getattr(writer, "queued", 0))
    bound = int(getattr(writer, "max_queued", 0))
    running = bool(getattr(writer, "running", True))
    ok = running and (bound <= 0 or queued <= limit * bound)
    return {"ok": ok, "running": running, "queued": queued, "max_queued": bound}


def check_log(log: Any, limit: float = BACKLOG_LIMIT) -> Check:
    """``ok`` while the action log says ``healthy`` and ``backlog <= limit * max_backlog``;
    a log that is only not ``healthy`` (within its bound, its spill working) is ``degraded``;
    with a spill (``log.spiller``) its ``spill`` figures (``rows`` in the file, ``spilled``
    in all, ``failing`` and the ``error``) are reported and a failing spill is not ready.
    ``{"ok": True, "present": False}`` when the app has no action log."""
    if log is None:
        return {"ok": True, "present": False}
    backlog = int(getattr(log, "backlog", 0))
    bound = int(getattr(log, "max_backlog", 0))
    healthy = bool(getattr(log, "healthy", True))
    within = bound <= 0 or backlog <= limit * bound
    out: Check = {"ok": healthy and within, "healthy": healthy, "backlog": backlog,
                  "max_backlog": bound}
    spiller = getattr(log, "spiller", None)
    failing = False
    if spiller is not None:
        failing = bool(getattr(spiller, "failing", False))
        out["spill"] = {"rows": int(getattr(spiller, "rows", 0)),
                        "spilled": int(getattr(spiller, "spilled", 0)), "failing": failing}
        if failing:
            out["ok"] = False
            out["spill"]["error"] = str(getattr(spiller, "last_error", ""))
    if not healthy and within and not failing:
        out["degraded"] = True
    return out


async def readiness(state: Any, *, ping_timeout: float = PING_TIMEOUT_SECONDS) -> dict[str, Any]:
    """Run every check on an app's ``state``; ``{"status": "ready" | "degraded" |
    "not_ready", "checks": {"database": ..., "writer": ..., "log": ..., "schema": ...,
    "draining": ...}, "failing": [names]}``, plus ``"redis"`` in cluster mode (``state.redis``
    set); the two pings run at once. ``degraded``: every failed check says ``degraded``."""
    draining = bool(getattr(state, "draining", False))
    redis = getattr(state, "redis", None)
    pings = [check_database(getattr(state, "store", None), ping_timeout)]
    if redis is not None:
        pings.append(check_redis(redis, getattr(state, "redis_health", None), ping_timeout))
    database, *cluster = await asyncio.gather(*pings)
    checks: dict[str, Check] = {
        "database": database,
        "writer": check_writer(getattr(state, "writer", None)),
        "log": check_log(getattr(state, "log", None)),
        "schema": check_schema(getattr(state, "store", None)),
        "draining": {"ok": not draining, "draining": draining},
    }
    if cluster:
        checks["redis"] = cluster[0]
    if not database["ok"] and getattr(state, "store", None) is not None:
        database["degraded"] = True  # tables play on buffered; hello falls back to its cache
    failing = [name for name, c in checks.items() if not c["ok"]]
    status = ("ready" if not failing else
              "degraded" if all(checks[n].get("degraded") for n in failing) else "not_ready")
    return {"status": status, "checks": checks, "failing": failing}


class Liveness(BaseModel):
    """``GET /healthz``: the process answers."""

    status: Literal["ok"]
    version: str
    games: list[str]
    """The registered games."""


class Readiness(BaseModel):
    """The readiness answer: ``status`` and each check's ``{"ok": bool, ...figures}``."""

    status: Literal["ready", "degraded", "not_ready"]
    checks: dict[str, dict[str, Any]]
    failing: list[str] = []
    """The checks that failed (``degraded``: only checks the node serves through)."""
    """``database``, ``writer``, ``log``, ``schema``, ``draining``; ``redis`` in cluster mode
    (see the module)."""


@router.get("/readyz", response_model=Readiness, responses={
    503: {"model": Readiness, "description": "not ready (the body says why)"}})
async def readyz(request: Request) -> JSONResponse:
    """Readiness: 200 ``{"status": "ready" | "degraded", "checks": {...}}``, or 503 with
    ``"status": "not_ready"``; the failing checks' ``ok: false`` (see the module)."""
    body = await readiness(request.app.state)
    return JSONResponse(body, status_code=503 if body["status"] == "not_ready" else 200,
                        headers={"Cache-Control": "no-store"})
