"""A TCP proxy for outage tests: the app talks to the database through it, and the test can
make the database "refuse connections" (:meth:`DbProxy.refuse`) and come back
(:meth:`DbProxy.forward`).

While refusing, the listening socket is closed (a new connection gets ``ECONNREFUSED``) and
every open connection is reset (``SO_LINGER`` 0, so the peer sees ``ECONNRESET``, not a clean
end of stream). :meth:`forward` listens again on the same port. :meth:`cut_after_reply_to`
resets the connection that next sends a given statement once the database has answered it,
before the answer reaches the client (a connection lost during ``COMMIT``: the transaction
landed, the client cannot know). Runs on the test's loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import AsyncIterator


class DbProxy:
    """Forwards ``127.0.0.1:<port>`` to ``upstream`` until told to refuse."""

    def __init__(self, upstream_host: str, upstream_port: int) -> None:
        self.upstream = (upstream_host, upstream_port)
        self.port = 0
        self.connections = 0
        """Connections accepted and forwarded (since the start)."""
        self.resets = 0
        """Open connections reset by :meth:`refuse`."""
        self._server: asyncio.Server | None = None
        self._pairs: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._marker: bytes | None = None
        self._cut: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self.cuts = 0
        """Connections reset by :meth:`cut_after_reply_to`."""

    def cut_after_reply_to(self, marker: bytes) -> None:
        """Arm: the next client chunk holding ``marker`` (e.g. ``b"COMMIT"``) is forwarded;
        the database's next answer on that connection is dropped and both sides are reset."""
        self._marker = marker

    @property
    def refusing(self) -> bool:
        return self._server is None

    async def forward(self) -> None:
        """Listen (again, on the same port once one was chosen) and forward new connections."""
        if self._server is not None:
            return
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port,
                                                  reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]

    async def refuse(self) -> None:
        """Stop listening and reset every open connection."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
            await server.wait_closed()
        for pair in list(self._pairs):
            for w in pair:
                _reset(w)
            self.resets += 1
        self._pairs.clear()

    async def close(self) -> None:
        await self.refuse()
        for t in list(self._tasks):
            t.cancel()
        for t in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._server is None:  # accepted just before refuse() closed the socket
            _reset(writer)
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            _reset(writer)
            return
        self.connections += 1
        pair = (writer, up_writer)
        self._pairs.add(pair)
        for src, dst, upward in ((reader, up_writer, True), (up_reader, writer, False)):
            task = asyncio.create_task(self._pump(src, dst, pair, upward))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter,
                    pair: tuple[asyncio.StreamWriter, asyncio.StreamWriter],
                    upward: bool = True) -> None:
        try:
            while data := await src.read(65_536):
                if not upward and pair in self._cut:  # the answer: dropped, then reset
                    self._cut.discard(pair)
                    self._pairs.discard(pair)
                    self.cuts += 1
                    for w in pair:
                        _reset(w)
                    return
                if upward and self._marker is not None and self._marker in data:
                    self._marker = None
                    self._cut.add(pair)
                dst.write(data)
                await dst.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            if pair in self._pairs:  # one side ended: end the other (not a reset)
                self._pairs.discard(pair)
                for w in pair:
                    w.close()


def _reset(writer: asyncio.StreamWriter) -> None:
    """Abort ``writer``'s connection with a TCP reset."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


@contextlib.asynccontextmanager
async def db_proxy(host: str, port: int) -> AsyncIterator[DbProxy]:
    """A forwarding :class:`DbProxy` to ``host:port`` (closed on exit)."""
    proxy = DbProxy(host, port)
    await proxy.forward()
    try:
        yield proxy
    finally:
        await proxy.close()
