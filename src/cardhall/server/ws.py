"""The one WebSocket endpoint ``/ws`` (``design.md`` section 6, protocol in ``docs/protocol.md``).

Each socket has one reader (this handler) and one writer task draining a bounded outbound
queue (:class:`~cardhall.tables.connections.QueueConnection`). The reader checks every frame in
this order: rate (token bucket, every frame counts), text (not binary), size
(``max_frame_bytes``), JSON, message model; a bad frame gets a typed ``error`` and the connection stays usable. Frames above the
hard limit uvicorn enforces (``ws_max_size_bytes``) close the socket with 1009; a client whose
outbound queue overflows is closed with 4008. Frames over the rate are dropped; the drops are
forgiven at the bucket's refill rate and only more than :data:`MAX_DROPPED` unforgiven ones
close the socket (1008). A player holds at most ``max_sockets_per_player`` authenticated
sockets (``server/quotas.py``); the ``hello`` of one more gets ``quota.sockets`` and the socket
closes with :data:`CLOSE_QUOTA_SOCKETS` (4029). A client address holds at most
``max_sockets_per_address`` sockets, and a socket must authenticate within
``hello_timeout_seconds``; a socket whose session is revoked is closed (``server/sockets.py``).
Table requests are posted to the table's inbox; nothing here touches a table's state.

While the server drains (``server/drain.py``) ``hello``, ``join`` and ``rematch`` are refused
with ``server.draining``; the drain closes every open socket (1012) once its queue is sent. A request
the server fails to serve (e.g. the database is down while a ``hello`` checks its token) gets
``server.unavailable`` and closes the socket with 1011 and a reason naming the failure; during a
database outage a ``hello`` (and the ban check of a ``join``) with a token this process saw good
recently is answered from ``app.state.auth_cache`` (``server/authcache.py``) instead; in steady
state a token seen good within ``auth_cache_seconds`` is answered from it without a database
round trip (a reconnect storm, issue 26).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, WebSocket
from pydantic import BaseModel

from ..config import Settings
from ..hall.local import LocalHall
from ..protocol import messages as p
from ..protocol.errors import ErrorCode
from ..protocol.ratelimit import DropMeter, TokenBucket
from ..storage.interface import PlayerRecord, Store
from ..tables.connections import CLOSE, QueueConnection, encode
from ..tables.manager import TableManager
from .authcache import AuthCache, authenticate_cached, still_allowed, still_authenticated
from .drain import is_draining
from .errors import ApiError
from .framesend import frame_sender
from .quotas import LocalSocketQuota, SocketQuota, client_network
from .sockets import (
    CLOSE_ADDRESS_SOCKETS,
    CLOSE_HELLO_TIMEOUT,
    CLOSE_REVOKED,
    AddressCap,
)
from .tourwatch import TournamentFollow
from .wsread import Refusal, read_message

log = logging.getLogger(__name__)
router = APIRouter()

ANONYMOUS = PlayerRecord(id="", name="")
MAX_DROPPED = 200
"""Rate-limited messages tolerated before the socket is closed (1008). Drops are forgiven at
the bucket's refill rate (:class:`~cardhall.protocol.ratelimit.DropMeter`): only unforgiven
ones count, so a client that bursts and then pauses is never closed for it."""
CLOSE_QUOTA_SOCKETS = 4029
"""Close code after ``quota.sockets``: the player already has ``max_sockets_per_player``
authenticated sockets open (an application code, like HTTP 429; not 1008, which is abuse)."""
CLOSE_GRACE_SECONDS = 2.0
"""How long a closing socket's writer may take to flush its queue and send the close frame."""
BANNED_CLOSE_CODE = 4003
"""The close code of a socket whose player was banned (after an ``auth.banned`` error)."""
MAX_REASON_BYTES = 123
"""The longest close reason a WebSocket close frame may carry (RFC 6455 section 5.5)."""


class Session:
    """One socket: authentication state, the reader loop and request dispatch.

    ``sessions`` is the app's registry of open sockets (``app.state.sessions``, what the drain
    closes); the session is in it while :meth:`run` runs. ``quota`` counts each player's
    authenticated sockets (``app.state.socket_quota``; a fresh one when omitted); ``clock``
    is the monotonic clock of the rate limiter (the loop's ``time`` when omitted).
    ``address`` is the client's network (the trusted address, its /64 for IPv6:
    :func:`~.quotas.client_network`) and
    ``caps`` counts the sockets per address (``app.state.address_cap``; none: uncounted).
    """

    def __init__(self, ws: WebSocket, settings: Settings, tables: TableManager | LocalHall,
                 store: Store, sessions: set[Session] | None = None, *,
                 quota: SocketQuota | None = None,
                 clock: Callable[[], float] | None = None,
                 address: str = "unknown", caps: AddressCap | None = None,
                 auth_cache: AuthCache | None = None) -> None:
        self.ws, self.settings, self.store = ws, settings, store
        self.auth_cache = auth_cache
        """Identities recently authenticated: ``hello`` during a database outage."""
        self.hall = tables if isinstance(tables, LocalHall) else LocalHall(tables)
        """Where table requests go (this process's tables, or the cluster's)."""
        self.sessions: set[Session] = set() if sessions is None else sessions
        self.quota: SocketQuota = (quota if quota is not None
                                   else LocalSocketQuota(settings.max_sockets_per_player))
        self.conn = QueueConnection(ANONYMOUS, settings.ws_outbound_queue)
        self.hall.watch(self.conn)
        self.follow = TournamentFollow(self.conn)
        self.authed = False
        self._hello_serving = False  # a hello is being answered (the hello deadline waits)
        self._overdue = False  # the hello deadline passed while it was
        self.token: str | None = None
        """The bearer token of the last ``hello`` answered ``welcome`` (re-checked when the
        player's sessions are revoked, ``server/sockets.py``)."""
        self.address, self.caps = address, caps
        self._counted: str | None = None
        """The player id this socket holds a place of in :attr:`quota` for (released at the end)."""
        now = clock if clock is not None else asyncio.get_running_loop().time
        self.bucket = TokenBucket(settings.ws_rate_per_second, settings.ws_rate_burst, now)
        self.drops = DropMeter(settings.ws_rate_per_second, MAX_DROPPED, now)
        self.close_reason = ""
        """Sent with the close frame (at most :data:`MAX_REASON_BYTES` bytes of UTF-8)."""
        self._writer_task: asyncio.Task[None] | None = None

    def shut(self, code: int, reason: str) -> None:
        """Close the socket with ``code`` and ``reason`` after what is already queued."""
        if not self.conn.closed:
            self.close_reason = reason
        self.conn.close(code)

    def ban(self) -> None:
        """The player was banned: tell it ``auth.banned`` and close the socket (4003) after
        what is already queued; it reads no further message."""
        self.error("auth.banned", f"player {self.conn.player.id} is banned")
        self.shut(BANNED_CLOSE_CODE, "banned")

    def revoke(self) -> None:
        """The session (token) this socket authenticated with was revoked: tell it
        ``auth.session_revoked`` and close the socket (4001) after what is already queued;
        its seats stay, as after a disconnect."""
        self.error("auth.session_revoked", "the session this connection authenticated with "
                   "was revoked; log in again and resume your seats")
        self.shut(CLOSE_REVOKED, "session revoked")

    def _hello_overdue(self) -> None:
        """The hello deadline passed: close the socket unless it has authenticated. A hello
        that arrived in time and is still being served (its token read waits on a busy
        database, a restart storm: issue 26) is not the client's delay: the socket is closed
        only if that hello then fails (:meth:`_hello_served`)."""
        if self.authed or self.conn.closed:
            return
        if self._hello_serving:
            self._overdue = True
            return
        self.error("auth.hello_timeout", f"no hello within hello_timeout_seconds="
                   f"{self.settings.hello_timeout_seconds:g}")
        self.shut(CLOSE_HELLO_TIMEOUT, "no hello in time")

    def _hello_served(self) -> None:
        """A hello was answered: past the deadline and still not authenticated, close."""
        self._hello_serving = False
        if self._overdue:
            self._hello_overdue()

    def _take_address(self) -> bool:
        """Count this socket for its address; ``False`` after answering
        ``quota.address_sockets`` and closing it (4030) when the address is at the cap."""
        if self.caps is None or self.caps.acquire(self.address):
            return True
        self.error("quota.address_sockets", f"this address already has {self.caps.limit} "
                   "sockets open (max_sockets_per_address); close one")
        self.shut(CLOSE_ADDRESS_SOCKETS, "too many sockets from this address")
        return False

    async def flushed(self) -> None:
        """Return once the writer has sent everything queued and the close frame (at once if
        the session has not started or has ended)."""
        if self._writer_task is not None:
            await asyncio.wait({self._writer_task})

    async def run(self) -> None:
        """Read and serve messages until the client goes or the server closes the socket."""
        writer = asyncio.create_task(self._writer(), name=f"ws-writer-{self.conn.id}")
        self._writer_task = writer
        counted_address = self._take_address()
        deadline = asyncio.get_running_loop().call_later(self.settings.hello_timeout_seconds,
                                                         self._hello_overdue)
        self.sessions.add(self)
        try:
            await self._reader()
        finally:
            deadline.cancel()
            if counted_address and self.caps is not None:
                self.caps.release(self.address)
            self.sessions.discard(self)
            self.follow.stop()
            with contextlib.suppress(Exception):  # Redis down: the owner notices the node's death
                await self.hall.disconnected(self.conn)
            self.conn.close()
            # let the writer flush and send the close frame (1008, 4008: the code is the
            # client's only explanation), bounded; then stop it
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(writer), CLOSE_GRACE_SECONDS)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
            # last: a cluster quota's release awaits Redis (this node's count drops at once)
            counted, self._counted = self._counted, None
            if counted is not None:
                await self.quota.release(counted)

    async def _writer(self) -> None:
        queue = self.conn.queue
        send_text = frame_sender(self.ws)  # past the middleware (server/framesend.py)
        while True:
            msg = await queue.get()
            if msg is CLOSE:
                with contextlib.suppress(Exception):
                    await self.ws.close(self.conn.close_code or 1000, _reason(self.close_reason))
                return
            text = encode(msg)
            del msg  # hold no reference to a sent frame while waiting for the next one
            try:
                await send_text(text)
            except Exception:  # the socket is gone; the reader will see the disconnect
                return
            del text

    def error(self, code: ErrorCode, message: str, req: Any = None,
              table_id: str | None = None) -> None:
        ref = req if isinstance(req, p.RequestRef) else None
        if isinstance(req, BaseModel) and ref is None:
            ref = p.RequestRef(type=getattr(req, "type", None), rid=getattr(req, "rid", None),
                               action_id=getattr(req, "action_id", None))
        self.conn.send(p.Error(code=code, message=message, table_id=table_id, request=ref))

    async def _reader(self) -> None:
        while not self.conn.closed:
            frame = await self.ws.receive()
            if frame["type"] == "websocket.disconnect":
                return
            if not self._admit():  # every frame counts, binary and oversized ones included
                continue
            text = frame.get("text")
            if text is None:
                self.error("protocol.binary_frame", "binary frames are not accepted")
                continue
            msg = self._parse(text)
            if msg is not None:
                await self._serve(msg)

    async def _serve(self, msg: Any) -> None:
        """Dispatch ``msg``; a failure to serve it (the store raised, e.g. the database is
        down) is logged, answered ``server.unavailable`` and closes the socket with 1011."""
        try:
            await self._dispatch(msg)
        except Exception as exc:
            log.exception("ws %s: could not serve %s", self.conn.id, getattr(msg, "type", "?"))
            why = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
            self.error("server.unavailable", f"the server could not serve this {msg.type}: {why}",
                       msg, table_id=getattr(msg, "table_id", None))
            self.shut(1011, f"server error: {why}")

    def _admit(self) -> bool:
        """Take a token for one frame; answer ``protocol.rate_limited`` when there is none,
        or close 1008 once more than :data:`MAX_DROPPED` drops are unforgiven."""
        if self.bucket.take():
            return True
        if self.drops.drop():
            self.conn.close(1008)
        else:
            self.error("protocol.rate_limited",
                       f"more than {self.settings.ws_rate_per_second}/s; message dropped")
        return False

    def _parse(self, text: str) -> Any:
        """The client message in ``text``, or ``None`` after answering with a typed error
        (:func:`~.wsread.read_message`)."""
        got = read_message(text, self.settings.max_frame_bytes)
        if isinstance(got, Refusal):
            self.error(got.code, got.message, got.request, table_id=got.table_id)
            return None
        return got

    async def _dispatch(self, msg: Any) -> None:
        match msg:
            case p.Ping():
                self.conn.send(p.Pong(nonce=msg.nonce, rid=msg.rid))
            case p.Hello() if is_draining(self.ws.app):
                self.error("server.draining", "the server is shutting down; reconnect shortly",
                           msg)
                self.shut(1012, "server shutting down")
            case p.Hello():
                await self._hello(msg)
            case _ if not self.authed:
                self.error("auth.required", "send hello with your token first", msg,
                           table_id=getattr(msg, "table_id", None))
            case p.Join() | p.Act() | p.Leave() | p.Resync() | p.Chat() | p.SitOut() | p.Rematch():
                if isinstance(msg, p.Join | p.Rematch):  # a rematch makes a table and joins it
                    if is_draining(self.ws.app):
                        self.error("server.draining", "the server is shutting down; no seat "
                                   "can be taken or resumed now", msg, table_id=msg.table_id)
                        return
                    if await self._banned():
                        self.error("auth.banned", f"player {self.conn.player.id} is banned", msg,
                                   table_id=msg.table_id)
                        return
                await self.hall.route(self.conn, msg)
            case p.WatchTournament():
                await self.follow.watch(getattr(self.ws.app.state, "tournaments", None), msg,
                                        self.error)

    async def _banned(self) -> bool:
        """Whether the player was banned, disabled (or removed) since ``hello`` (checked on
        each join)."""
        return not await still_allowed(self.store, self.conn.player.id, self.auth_cache)

    async def _hello(self, msg: p.Hello) -> None:
        self._hello_serving = True
        try:
            await self._authenticate(msg)
        except BaseException:  # the server failed it: _serve answers server.unavailable, 1011
            self._hello_serving = False
            raise
        self._hello_served()

    async def _authenticate(self, msg: p.Hello) -> None:
        try:
            player = await authenticate_cached(self.store, msg.token, self.auth_cache)
        except ApiError as exc:  # the same codes as REST: auth.invalid_token, auth.banned
            code: ErrorCode = "auth.banned" if exc.code == "auth.banned" else "auth.invalid_token"
            self.error(code, exc.message, msg)
            return
        if self.authed and player.id != self.conn.player.id:
            self.error("auth.already_authenticated",
                       f"this connection is already player {self.conn.player.id}'s", msg)
            return
        if self._counted is None and not await self.quota.acquire(player.id):
            self.error("quota.sockets", f"player {player.id} already has "
                       f"{self.quota.limit} sockets open (max_sockets_per_player); close one",
                       msg)
            self.shut(CLOSE_QUOTA_SOCKETS, "too many sockets for this player")
            return
        self._counted = player.id
        self.conn.player, self.authed, self.token = player, True, msg.token
        # A revocation committed after the check above scanned this socket as not yet
        # authenticated (server/sockets.py): check the token again now that it counts as
        # authenticated, so either this check or the revocation's scan sees it (a fresh cache
        # entry: the revocation drops it before its scan). While the database is away the
        # identity the cache vouched for stands (server/authcache.py).
        if not await still_authenticated(self.store, msg.token, self.auth_cache):
            self.revoke()
            return
        self.conn.send(p.Welcome(player_id=player.id, name=player.name,
                                 max_frame_bytes=self.settings.max_frame_bytes,
                                 rate_per_second=self.settings.ws_rate_per_second, rid=msg.rid))


def close_sessions(sessions: set[Session], player_ids: set[str],
                   cache: AuthCache | None = None) -> int:
    """Close (:meth:`Session.ban`) every open socket authenticated as one of ``player_ids``;
    returns how many. Their identities leave ``cache`` first (the app's ``auth_cache``), on
    every node (:meth:`AuthCache.invalidate`): no ``hello`` is answered from it after."""
    if cache is not None:
        cache.invalidate(player_ids)
    banned = [s for s in list(sessions)
              if s.authed and s.conn.player.id in player_ids and not s.conn.closed]
    for session in banned:
        session.ban()
    return len(banned)


def _reason(text: str) -> str:
    """``text`` cut to fit a close frame (:data:`MAX_REASON_BYTES` of UTF-8)."""
    data = text.encode()
    return data[:MAX_REASON_BYTES].decode(errors="ignore") if len(data) > MAX_REASON_BYTES \
        else text


@router.websocket("/ws")
async def websocket_endpoint(ws: WebSocket) -> None:
    """Accept, then run the session until the client goes or the server closes it."""
    await ws.accept()
    state = ws.app.state
    session = Session(ws, state.settings, state.hall, state.store, state.sessions,
                      quota=state.socket_quota, address=client_network(ws.scope),
                      caps=state.address_cap, auth_cache=getattr(state, "auth_cache", None))
    await session.run()
