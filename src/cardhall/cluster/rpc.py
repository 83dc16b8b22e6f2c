"""Requests from one node to another over the bus, and their answers (``docs/scaling.md``).

A request is ``R <JSON>`` on the target's ``<p>:to:<node>`` channel: ``{"id", "op", "args",
"from"}``; the answer is ``A <JSON>`` on the asker's channel: ``{"id", "ok", "result"}`` or
``{"id", "ok": false, "code", "message"}``. An error with a code travels as its code and
message and is raised again on the asking node as :class:`RemoteError` (REST answers it with
the code's status, as if the table were local).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

from ..tables.errors import TableError
from .bus import Bus
from .keys import Keys

log = logging.getLogger(__name__)

Op = Callable[[dict[str, Any]], Awaitable[Any]]
"""A served operation: JSON arguments in, a JSON-able result out (or raises)."""


class RemoteError(TableError):
    """An error another node answered (its ``code`` and ``message`` unchanged)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code  # type: ignore[assignment]  # any REST or engine code


class ClusterUnavailableError(TableError):
    """The node that should answer did not within ``cluster_request_timeout_seconds`` (it
    died, or Redis is down); REST answers 503 ``cluster.unavailable``."""

    code = "cluster.unavailable"


class Rpc:
    """Both sides: :meth:`call` another node, :meth:`serve` requests for ``ops``."""

    def __init__(self, bus: Bus, keys: Keys, node_id: str, ops: dict[str, Op],
                 timeout_seconds: float) -> None:
        self.bus, self.keys, self.node_id, self.ops = bus, keys, node_id, ops
        self.timeout_seconds = timeout_seconds
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future[Any]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def call(self, node: str, op: str, *, timeout: float | None = None,
                   **args: Any) -> Any:
        """Run ``op(args)`` on ``node``; returns its result. ``timeout``: seconds to wait for
        the answer (default :attr:`timeout_seconds`).

        Raises:
            RemoteError: the operation raised there. ClusterUnavailableError: no answer in
            time.
        """
        wait = self.timeout_seconds if timeout is None else timeout
        rid = f"{self.node_id}:{next(self._ids)}"
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = fut
        body = {"id": rid, "op": op, "args": args, "from": self.node_id}
        self.bus.publish(self.keys.to_node(node), "R " + orjson.dumps(body).decode())
        try:
            async with asyncio.timeout(wait):
                return await fut
        except TimeoutError:
            raise ClusterUnavailableError(
                f"node {node} did not answer {op} within {wait} s") from None
        finally:
            self._waiting.pop(rid, None)

    def answered(self, data: str) -> None:
        """An ``A`` message: resolve the waiting call."""
        body = orjson.loads(data[2:])
        fut = self._waiting.get(body["id"])
        if fut is None or fut.done():
            return
        if body["ok"]:
            fut.set_result(body.get("result"))
        else:
            fut.set_exception(RemoteError(body["code"], body["message"]))

    def requested(self, data: str) -> None:
        """An ``R`` message: serve it on a task of its own (the bus reader never waits)."""
        body = orjson.loads(data[2:])
        task = asyncio.get_running_loop().create_task(self._serve(body))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _serve(self, body: dict[str, Any]) -> None:
        answer: dict[str, Any] = {"id": body["id"]}
        op = self.ops.get(body["op"])
        try:
            if op is None:
                raise RemoteError("request.not_found", f"unknown cluster op {body['op']!r}")
            answer.update(ok=True, result=await op(body["args"]))
        except Exception as exc:
            code = getattr(exc, "code", None)
            if not isinstance(code, str):
                log.exception("cluster: %s failed", body["op"])
                code = "server.error"
            message = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            answer.update(ok=False, code=code, message=message)
        self.bus.publish(self.keys.to_node(body["from"]), "A " + orjson.dumps(answer).decode())
