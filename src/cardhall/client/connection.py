"""The SDK's connection: one WebSocket, many tables, reconnect and resume built in.

:class:`Client` opens the socket, authenticates (``hello``), and runs one reader task that
parses every server message with the protocol models (:data:`cardhall.protocol.messages.SERVER`)
and routes it: answers to requests (matched by ``rid``) to their waiters, table messages to the
table's :class:`~.table.TableSession`. When the connection drops (anything but a deliberate
close or a close code in :data:`NO_RECONNECT`) websockets' own reconnect loop (``async for``
over ``connect``) reconnects with our exponential backoff and jitter; the client sends ``hello`` and re-joins every table (seats with their ``seat_token``); the
server answers each with ``joined`` + a full ``state`` and play goes on. A server restart is the
same pause: ``table_closed`` with reason ``shutdown`` does not end the table's session (the
server restores its tables from their log), the 1012 close and the refusals of a starting or
draining server (``server.draining``, ``server.unavailable``) are retried with the same backoff,
and each session is :attr:`~.table.TableSession.paused` until its resume is answered. Outgoing messages are
paced by the protocol's token bucket (:mod:`cardhall.protocol.ratelimit`, the one the server
meters with) at the ``rate_per_second`` the server announced.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import random
import secrets
import urllib.parse
import urllib.request
from collections.abc import AsyncGenerator, Generator
from typing import Any

from pydantic import ValidationError
from websockets.asyncio.client import ClientConnection, connect, process_exception
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ..protocol import messages as p
from ..protocol.ratelimit import TokenBucket
from .table import TableSession

log = logging.getLogger("cardhall.client")

NO_RECONNECT = frozenset({1008, 1009})
"""Close codes after which reconnecting would only repeat the fault (abuse, oversize frame)."""
RETRY_CODES = frozenset({"server.draining", "server.unavailable"})
"""``hello`` refusals that are retried with backoff (the server is starting, draining, or its
database is away); every other refused ``hello`` ends the reconnect loop."""


class ClientError(RuntimeError):
    """The server refused a request (``code`` is the protocol's stable error code), or the
    connection could not be (re-)established."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code, self.message = code, message


class Client:
    """An authenticated connection to a cardhall server that plays or watches many tables.

    Args:
        url: the WebSocket endpoint, e.g. ``ws://127.0.0.1:8000/ws``.
        token: a player's or bot's bearer token (``POST /api/players``).
        reconnect: reconnect and resume after the connection drops.
        backoff_seconds: first reconnect delay; doubled after each failed attempt (with
            ±50% jitter) up to ``max_backoff_seconds``.
        max_attempts: consecutive failed reconnects before giving up (``None``: never).
        rate_burst: client-side burst; the sustained rate is the server's ``rate_per_second``.
        open_timeout_seconds: bound on opening the socket and on each request's answer.

    Use ``async with Client(url, token) as c:`` then ``await c.join(table_id, bot)``.
    """

    def __init__(self, url: str, token: str, *, reconnect: bool = True,
                 backoff_seconds: float = 0.1, max_backoff_seconds: float = 5.0,
                 max_attempts: int | None = 20, rate_burst: int = 10,
                 open_timeout_seconds: float = 10.0) -> None:
        self.url, self.token = url, token
        self.reconnect = reconnect
        self.backoff_seconds, self.max_backoff_seconds = backoff_seconds, max_backoff_seconds
        self.max_attempts = max_attempts
        self.rate_burst = rate_burst
        self.timeout = open_timeout_seconds
        self.welcome: p.Welcome | None = None
        self.tables: dict[str, TableSession] = {}
        self.errors: list[p.Error] = []
        self.reconnects = 0
        self.close_code: int | None = None
        self._ws: ClientConnection | None = None
        self._connections: AsyncGenerator[ClientConnection] | None = None
        self._failures = 0
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self._waiters: dict[str, asyncio.Future[Any]] = {}
        self._rids = (f"r{n}" for n in itertools.count(1))
        self._rematch_bots: dict[str, Any] = {}
        """rid of a ``rematch`` on its way -> the bot that plays the new table."""
        self._prefix = secrets.token_hex(4)
        self._pacer: TokenBucket | None = None
        self._rng = random.Random()
        self._closers: set[asyncio.Future[None]] = set()
        self.tournament_updates: asyncio.Queue[p.TournamentUpdate] = asyncio.Queue()
        """The ``tournament`` messages of a followed tournament (``watch_tournament``), in
        order (:func:`cardhall.client.tournament.enter_tournament` reads them)."""
        self._watching: p.WatchTournament | None = None
        """The last ``watch_tournament`` sent (``None``: none, or it stopped): sent again
        after a reconnect, as the tables are resumed."""

    # ----- lifecycle ------------------------------------------------------------------------
    async def __aenter__(self) -> Client:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def connect(self) -> p.Welcome:
        """Open the socket, authenticate and start the reader.

        Raises:
            ClientError: the token was refused (``auth.*``) or the server is unreachable
                (``client.unreachable``; the first connection is not retried).
        """
        self._connections = connect(  # an async generator: reconnects on each retryable error
            self.url, max_size=2**22, open_timeout=self.timeout, ping_interval=20.0,
            compression=None, process_exception=self._retry_or_raise,
            reconnect_delays=self._reconnect_delays).__aiter__()  # type: ignore[assignment]
        welcome = await self._next_connection(None)
        self._reader = asyncio.create_task(self._run(), name="cardhall-client-reader")
        return welcome

    async def close(self) -> None:
        """Close the socket (1000) and stop the reader; tables are not left (seats are kept
        by the server until their games end)."""
        self._closing = True
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
        if self._connections is not None:
            with contextlib.suppress(Exception):
                await self._connections.aclose()
        for fut in self._waiters.values():
            if not fut.done():
                fut.set_exception(ClientError("client.closed", "the client was closed"))

    # ----- (re)connecting: websockets' own reconnect loop ----------------------------------
    def _reconnect_delays(self) -> Generator[float]:
        """Seconds to wait before each reconnect attempt: ``backoff_seconds`` doubling with
        each consecutive failure up to ``max_backoff_seconds``, each with ±50% jitter. Read
        from the failure count, so it starts again from ``backoff_seconds`` after a success
        (websockets keeps one generator per failure streak and we always resume it with
        ``athrow``)."""
        while True:
            doublings = min(30, max(0, self._failures - 1))
            delay = min(self.max_backoff_seconds, self.backoff_seconds * 2 ** doublings)
            yield delay * (0.5 + self._rng.random())

    def _retry_or_raise(self, exc: Exception) -> Exception | None:
        """websockets' ``process_exception`` hook: ``None`` retries (after the next delay),
        an exception ends the loop. The first connection, a refused token and the
        ``max_attempts``-th consecutive failure are final; so is any error websockets itself
        deems final (e.g. a 404 handshake). A server that is starting or draining
        (:data:`RETRY_CODES`) is retried."""
        if self.welcome is None or (isinstance(exc, ClientError) and exc.code.startswith("auth.")):
            return exc
        self._failures += 1
        if self.max_attempts is not None and self._failures > self.max_attempts:
            return exc
        if isinstance(exc, (ConnectionClosed, ValidationError)):
            return None
        if isinstance(exc, ClientError) and exc.code in RETRY_CODES:
            return None
        return process_exception(exc)

    async def _next_connection(self, failure: Exception | None) -> p.Welcome:
        """The next authenticated connection from the reconnect loop. ``failure`` is why the
        current one is abandoned (handed to the loop, which waits and reconnects or raises).

        Raises:
            ClientError: refused (``auth.*``) or unreachable (``client.unreachable``).
        """
        connections = self._connections
        assert connections is not None, "connect() first"
        while True:
            try:
                if failure is None:
                    ws = await anext(connections)
                else:
                    ws = await connections.athrow(failure)
            except ClientError:
                raise
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed, ValidationError,
                    StopAsyncIteration) as exc:
                raise ClientError("client.unreachable", f"{self.url}: {exc!r}") from exc
            try:
                return await self._greet(ws)
            except (ClientError, ConnectionClosed, TimeoutError, ValidationError) as exc:
                failure = exc

    async def _greet(self, ws: ClientConnection) -> p.Welcome:
        """Send ``hello`` on a fresh socket and wait for ``welcome``.

        Raises:
            ClientError: the server answered with an error (e.g. ``auth.invalid_token``).
        """
        await ws.send(p.Hello(type="hello", token=self.token).model_dump_json(exclude_none=True))
        async with asyncio.timeout(self.timeout):
            while True:
                msg = p.SERVER.validate_json(await ws.recv())
                if isinstance(msg, p.Welcome):
                    break
                if isinstance(msg, p.Error):
                    raise ClientError(msg.code, msg.message)
        self._ws, self.welcome = ws, msg
        if not any(s.paused for s in self.tables.values()):
            self._failures = 0  # else once the resumes are answered (a server may say hello
            # and still refuse joins while it starts: the backoff keeps growing meanwhile)
        self._pacer = TokenBucket(msg.rate_per_second,
                                  min(self.rate_burst, max(1, int(msg.rate_per_second))),
                                  asyncio.get_running_loop().time)
        return msg

    # ----- requests -------------------------------------------------------------------------
    async def join(self, table_id: str, bot: Any = None, *, seat: int | None = None,
                   spectate: bool = False, seat_token: str | None = None) -> TableSession:
        """Take ``seat`` (any free seat when ``None``), resume one (``seat_token``), or watch
        (``spectate``); ``bot.choose`` is then called for every decision of the seat.

        Returns:
            The table's session (``seat``, ``state``, ``games``, ``next_game_over()``).

        One outcome only: it returns once the seat is taken, whether by this ``join``'s
        answer or by its re-send after a reconnect (the connection dropped before the
        answer: the reconnect resumes the session with the same request), or raises, and
        then nothing plays the seat (the session is gone, and a ``leave`` is sent in case the
        server seated it unanswered).

        Raises:
            ClientError: the join was refused (``table.seat_taken``, ``table.not_found``, ...).
            TimeoutError: no answer within ``open_timeout_seconds`` (counted again from each
            reconnect that re-sent it).
        """
        session = self._session(table_id, None if spectate else bot, spectate)
        msg = p.Join(type="join", table_id=table_id, seat=seat, spectate=spectate,
                     seat_token=seat_token, rid=next(self._rids))
        session.requested = msg
        try:
            await self._join_answered(session, msg)
        except BaseException as exc:
            if self.tables.get(table_id) is session:
                del self.tables[table_id]
                if session.closed is None:
                    session.close("join failed")
            if isinstance(exc, TimeoutError | asyncio.CancelledError):
                self._send_later(p.Leave(type="leave", table_id=table_id))
            raise
        return session

    async def _join_answered(self, session: TableSession, msg: p.Join) -> p.Joined:
        """Send ``msg`` and wait for the session's first ``joined`` (see :meth:`join`)."""
        if self._ws is None:
            raise ClientError("client.disconnected", "the connection is down (reconnecting, or "
                              "given up); nothing was sent")
        loop = asyncio.get_running_loop()
        joined: asyncio.Future[p.Joined] = loop.create_future()
        session.joining = joined
        answer: asyncio.Future[Any] = loop.create_future()  # this rid's answer (an error)
        self._waiters[msg.rid or ""] = answer
        try:
            await self.send(msg)
            reconnects = self.reconnects
            while True:
                try:
                    async with asyncio.timeout(self.timeout):
                        await asyncio.wait({joined, answer}, return_when=asyncio.FIRST_COMPLETED)
                except TimeoutError:
                    if self.reconnects != reconnects:  # re-sent meanwhile: wait for that one
                        reconnects = self.reconnects
                        continue
                    raise
                if joined.done():
                    return joined.result()
                answer.result()  # an error answering the join raises here
                answer = loop.create_future()  # a joined answering the rid: its session's too
        finally:
            self._waiters.pop(msg.rid or "", None)
            session.joining = None
            for fut in (joined, answer):
                if not fut.done():
                    fut.cancel()
                elif not fut.cancelled():
                    fut.exception()  # retrieved: the outcome is the one raised or returned

    def _send_later(self, msg: Any) -> None:
        """Send ``msg`` on a task of its own (best effort)."""
        fut = asyncio.ensure_future(self.send(msg))
        self._closers.add(fut)
        fut.add_done_callback(self._closers.discard)

    def _session(self, table_id: str, bot: Any, spectate: bool = False) -> TableSession:
        session = TableSession(table_id, bot, self.send, f"{self._prefix}-{table_id[:12]}",
                               spectate=spectate, fetch_game=self.fetch_game,
                               resume_after_shutdown=self.reconnect)
        self.tables[table_id] = session
        return session

    async def rematch(self, table_id: str, bot: Any = None) -> TableSession:
        """Play again (``docs/protocol.md``, "Play again"): ask for the rematch of table
        ``table_id`` once its match is over. The server seats this player at the new table
        (made now, or by an earlier request of any of the table's players) and this returns
        that table's session, ``bot`` playing it (default: the bot of the old table's
        session). The old table's session stays (leave it when done).

        Raises:
            ClientError: refused (``rematch.not_over``, ``rematch.not_a_player``,
            ``table.not_found``, ``quota.tables``, ...).
        """
        old = self.tables.get(table_id)
        rid = next(self._rids)
        self._rematch_bots[rid] = bot if bot is not None or old is None else old.bot
        try:
            ready = await self._request(p.Rematch(type="rematch", table_id=table_id, rid=rid))
        finally:
            self._rematch_bots.pop(rid, None)
        return self.tables[ready.rematch_table_id]

    async def leave(self, table_id: str) -> None:
        """Leave a table (during a game the seat stays in play until it ends)."""
        session = self.tables.pop(table_id, None)
        if session is not None:
            session.close("left")
        await self._request(p.Leave(type="leave", table_id=table_id, rid=next(self._rids)))

    async def ping(self) -> None:
        """A round trip to the server."""
        await self._request(p.Ping(type="ping", rid=next(self._rids)))

    async def fetch_game(self, game_id: str) -> dict[str, Any] | None:
        """A finished game's history from ``GET /api/games/{id}`` (the HTTP base is the
        WebSocket URL without ``/ws``), or ``None``; retried while the server saves it."""
        base = self.url.replace("ws", "http", 1).removesuffix("/ws")
        url = f"{base}/api/games/{urllib.parse.quote(game_id)}"

        def get() -> dict[str, Any] | None:
            try:
                with urllib.request.urlopen(url, timeout=self.timeout) as resp:
                    doc: dict[str, Any] = json.loads(resp.read())
                    return doc
            except (OSError, ValueError):
                return None

        for attempt in range(10):
            doc = await asyncio.to_thread(get)
            if doc is not None:
                return doc
            await asyncio.sleep(0.1 * (attempt + 1))
        return None

    async def _request(self, msg: Any) -> Any:
        if self._ws is None:
            raise ClientError("client.disconnected", "the connection is down (reconnecting, or "
                              "given up); nothing was sent")
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiters[msg.rid] = fut
        try:
            await self.send(msg)
            async with asyncio.timeout(self.timeout):
                return await fut
        finally:
            self._waiters.pop(msg.rid, None)

    async def send(self, msg: Any) -> None:
        """Send one client message (paced; dropped while the connection is down: the resume
        after reconnecting re-sends what matters: the tables' resumes and the last
        ``watch_tournament``)."""
        if isinstance(msg, p.WatchTournament):
            self._watching = msg if msg.tournament_id is not None else None
        pacer = self._pacer
        while pacer is not None and not pacer.take():
            await asyncio.sleep(pacer.wait_seconds())
        ws = self._ws
        if ws is None:
            return
        with contextlib.suppress(ConnectionClosed):
            await asyncio.shield(ws.send(msg.model_dump_json(  # a stop is an explicit null
                exclude_none=not isinstance(msg, p.WatchTournament))))

    # ----- the reader -----------------------------------------------------------------------
    async def _run(self) -> None:
        while True:
            ws = self._ws
            assert ws is not None
            with contextlib.suppress(ConnectionClosed):
                async for text in ws:
                    self._dispatch(text)
            self.close_code = ws.close_code
            if self._closing:
                return
            if not self.reconnect or self.close_code in NO_RECONNECT:
                log.error("connection closed (%s); not reconnecting", self.close_code)
                self._fail(f"closed with {self.close_code}")
                return
            if not await self._reconnect(ws):
                self._fail("could not reconnect")
                return

    def _fail(self, why: str) -> None:
        self._ws = None
        for session in self.tables.values():
            if session.closed is None:
                session.close(f"connection lost: {why}")
        for fut in self._waiters.values():
            if not fut.done():
                fut.set_exception(ClientError("client.disconnected", f"connection lost: {why}"))

    async def _reconnect(self, dropped: ClientConnection) -> bool:
        """Hand the drop to the reconnect loop (it waits, reconnects, retries), then say
        ``hello`` and re-join every table. False when the loop gives up."""
        self._ws = None
        for session in self.tables.values():
            session.pause("disconnected")  # a shutdown pause keeps its reason
            session.forget_state()
        drop = dropped.protocol.close_exc  # the ConnectionClosed the socket ended with
        try:
            await self._next_connection(drop)
        except ClientError as exc:
            log.error("reconnect failed: %s", exc)
            return False
        self.reconnects += 1
        for session in list(self.tables.values()):
            await self.send(session.resume_request())
        if self._watching is not None:  # a new socket follows no tournament
            await self.send(self._watching.model_copy(update={"rid": None}))
        return True

    def _drop_refused(self) -> None:
        """A resume was refused because the server is starting or draining: it closes the
        socket itself (1012); close it from here too, so the reconnect loop (with backoff)
        runs even if the server does not."""
        ws = self._ws
        if ws is not None:
            fut = asyncio.ensure_future(ws.close(1000, "resume refused: server not ready"))
            self._closers.add(fut)
            fut.add_done_callback(self._closers.discard)

    def _dispatch(self, text: str | bytes) -> None:
        try:
            msg = p.SERVER.validate_json(text)
        except ValidationError:
            log.warning("unparseable server message: %.200r", text)
            return
        rid = msg.request.rid if isinstance(msg, p.Error) and msg.request else \
            getattr(msg, "rid", None)
        fut = self._waiters.get(rid) if rid is not None else None
        if isinstance(msg, p.RematchReady) and msg.rid in self._rematch_bots \
                and msg.rematch_table_id not in self.tables:  # before its joined arrives
            self._session(msg.rematch_table_id, self._rematch_bots[msg.rid])
        if fut is not None and not fut.done():
            if isinstance(msg, p.Error):
                fut.set_exception(ClientError(msg.code, msg.message))
            else:
                fut.set_result(msg)
        if isinstance(msg, p.TournamentUpdate):
            self.tournament_updates.put_nowait(msg)
            return
        table_id = getattr(msg, "table_id", None)
        session = self.tables.get(table_id) if table_id is not None else None
        if session is not None:
            session.handle(msg)
            if isinstance(msg, p.Joined) and not any(s.paused for s in self.tables.values()):
                self._failures = 0
            if isinstance(msg, p.Error) and msg.code in RETRY_CODES and session.paused \
                    and msg.request is not None and msg.request.type == "join":
                self._drop_refused()
        elif isinstance(msg, p.Error):
            self.errors = [*self.errors[-49:], msg]
            log.warning("server error %s: %s", msg.code, msg.message)
