"""A TCP proxy in front of the test Redis, to give cluster nodes a Redis outage of the test's
choosing (``docs/scaling.md``, "Faults").

    async with redis_proxy() as proxy:
        env = {"CARDHALL_REDIS_URL": proxy.url}
        ...
        await proxy.down()   # every connection through it is reset, new ones are refused
        await proxy.up()     # it listens again on the same port

``down()`` is what a node sees when Redis (or the network to it) goes away: its open
connections are reset and its reconnects are refused. Redis itself keeps running, so its clock
keeps expiring the keys nobody renews meanwhile, as a real outage of the link does. Nodes not
behind the proxy keep talking to Redis directly (a fault of one node's link only).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import urllib.parse
from collections.abc import AsyncIterator

REDIS_URL = os.environ.get("CARDHALL_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


class RedisProxy:
    """Forwards ``127.0.0.1:<port>`` to the test Redis byte for byte until :meth:`down`."""

    def __init__(self, target_url: str = REDIS_URL) -> None:
        parsed = urllib.parse.urlsplit(target_url)
        self.target = (parsed.hostname or "127.0.0.1", parsed.port or 6379)
        self.path = parsed.path or "/0"
        self.port = 0
        self._server: asyncio.Server | None = None
        self._links: set[asyncio.StreamWriter] = set()
        self._pipes: set[asyncio.Task[None]] = set()
        self.connections = 0
        """Connections accepted so far (a counter)."""

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}{self.path}"

    async def up(self) -> None:
        """Listen (again, on the same port once it has one)."""
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port,
                                                  reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]

    async def down(self) -> None:
        """Stop listening and reset every open connection (both ends)."""
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._links):
            writer.transport.abort()
        self._links.clear()
        for task in list(self._pipes):
            task.cancel()
        await asyncio.gather(*self._pipes, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self._links |= {writer, up_writer}
        loop = asyncio.get_running_loop()
        pipes = [loop.create_task(self._pipe(reader, up_writer)),
                 loop.create_task(self._pipe(up_reader, writer))]
        self._pipes.update(pipes)
        try:
            await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in pipes:
                task.cancel()
                self._pipes.discard(task)
            for w in (writer, up_writer):
                self._links.discard(w)
                w.transport.abort()

    @staticmethod
    async def _pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError):
            while data := await src.read(65536):
                dst.write(data)
                await dst.drain()


@contextlib.asynccontextmanager
async def redis_proxy(target_url: str = REDIS_URL) -> AsyncIterator[RedisProxy]:
    """A started :class:`RedisProxy` (stopped afterwards)."""
    proxy = RedisProxy(target_url)
    await proxy.up()
    try:
        yield proxy
    finally:
        await proxy.down()
