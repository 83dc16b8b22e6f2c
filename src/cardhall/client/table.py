"""One table as the SDK sees it: the seat (or spectator role), the latest state, the decisions.

A :class:`TableSession` is created by :meth:`Client.join <cardhall.client.Client.join>` and fed
every server message about its table by the client's reader. For each ``state`` that offers
this seat legal actions it asks the bot (in a task, so a slow bot never blocks other tables)
and sends ``act`` with the state's ``version`` and a fresh ``action_id``. A newer state cancels
a decision still being made. After a reconnect the same pending action is re-sent with the
same ``action_id`` (the server answers a retry of an accepted id with ``duplicate: true``).

A session is **paused** (:attr:`TableSession.paused`) while its table is away but coming back:
from ``table_closed`` with reason ``shutdown`` (the server drains for a restart; the table is
restored from its log when the server is back) or a dropped connection, until the server
answers the resume (``joined`` and a full ``state``). A paused session keeps its seat and seat
token and is not closed; the bot's optional ``on_pause(session)`` and ``on_resume(session)``
hooks are called at both ends (``docs/bots.md``, "What a bot sees during a deploy").
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from ..protocol import messages as p
from ..protocol.frames import DELTA_ONLY

log = logging.getLogger("cardhall.client")

PAUSING_CLOSE = "shutdown"
"""The ``table_closed`` reason after which the table comes back (the server restarts)."""
WAIT_CODES = frozenset({"server.draining", "server.unavailable", "table.moving"})
"""Refusals of a resume that mean "the server is starting or stopping" (or, in cluster mode,
the table is moving to another node): keep waiting (the socket is closed and the client
reconnects with backoff, perhaps to another node)."""

Send = Callable[[Any], Awaitable[None]]
FetchGame = Callable[[str], Awaitable[dict[str, Any] | None]]


class TableClosedError(RuntimeError):
    """The table closed (or this seat was taken over) while waiting for a game to end."""


class TableSession:
    """A joined table. ``seat`` is ``None`` for a spectator.

    Attributes:
        state: the latest ``state`` (a :class:`~cardhall.protocol.messages.State`) or ``None``.
        games: every ``game_over`` received, in order.
        errors: the last 50 ``error`` messages about this table.
        seat_token: resumes the seat on another connection (``join`` with ``seat_token``);
            updated from every ``joined`` (a restarted server may hand out a new one).
        closed: why the session ended (``None`` while it lives): a ``table_closed`` reason
            (``closed``, ``kicked``, ``idle``, ...), ``replaced``, ``rejoin refused: <code>``...
        pause_reason: ``None`` while the table is live here; ``"shutdown"`` after
            ``table_closed``/``shutdown`` (a server restart), ``"disconnected"`` after the
            connection dropped; cleared when the resume is answered.
        resumes: how many times the seat (or watching) was resumed after a pause.

    Args:
        resume_after_shutdown: treat ``table_closed``/``shutdown`` as a pause (the client
            reconnects and resumes); ``False`` ends the session there.
    """

    def __init__(self, table_id: str, bot: Any, send: Send, action_prefix: str,
                 spectate: bool = False, fetch_game: FetchGame | None = None,
                 resume_after_shutdown: bool = True) -> None:
        self.table_id = table_id
        self.bot = bot
        self.spectate = spectate
        self.seat: int | None = None
        self.seat_token: str | None = None
        self.state: p.State | None = None
        self.games: list[p.GameOver] = []
        self.errors: list[p.Error] = []
        self.closed: str | None = None
        self.pause_reason: str | None = None
        self.resumes = 0
        self.moves = 0
        self.resume_after_shutdown = resume_after_shutdown
        self._resume_due = False  # resumed: on_resume once the full state is in
        self._by_identity = False  # the seat token was refused: resume as the same player
        self._send = send
        self._fetch_game = fetch_game
        self._current_game: str | None = None  # the game seen running
        self._seen_over: set[str] = set()
        self._ids = (f"{action_prefix}-{n}" for n in itertools.count(1))
        self._pending: p.Act | None = None  # sent, not yet answered
        self._task: asyncio.Future[None] | None = None
        self._game_over = asyncio.Queue[p.GameOver | None]()
        self._background: set[asyncio.Future[Any]] = set()
        self._close_after_over: str | None = None
        self._maybe_missed: tuple[str, int] | None = None
        self.joining: asyncio.Future[p.Joined] | None = None
        """While :meth:`Client.join <cardhall.client.Client.join>` waits: resolved by the first
        ``joined`` (the join's own answer, or the answer to its re-send after a reconnect),
        failed when the session closes first."""
        self.requested: p.Join | None = None
        """The ``join`` that made this session, re-sent as is while it was never answered."""

    # ----- what the reader feeds in ---------------------------------------------------------
    def handle(self, msg: Any) -> None:
        """Take one server message about this table."""
        if self._maybe_missed is not None:
            missed, self._maybe_missed = self._maybe_missed, None
            if not (isinstance(msg, p.GameOver) and msg.game_id == missed[0]):
                self._seen_over.add(missed[0])
                self._spawn(self._recover(*missed))
        match msg:
            case p.Joined():
                if self.joining is not None and not self.joining.done():
                    self.joining.set_result(msg)
                self.seat, self.seat_token = msg.seat, msg.seat_token or self.seat_token
                self._by_identity = False
                if self.pause_reason is not None:
                    self.pause_reason, self._resume_due = None, True
                    self.resumes += 1
            case p.State():
                self._on_state(msg)
                if self._resume_due:
                    self._resume_due = False
                    self._call_hook("on_resume", self)
            case p.StateDelta():
                self._on_delta(msg)
            case p.Accepted():
                if self._pending is not None and msg.action_id == self._pending.action_id:
                    self._pending = None
            case p.GameOver():
                self._game_ended(msg)
            case p.Error():
                self._on_error(msg)
            case p.TableClosed() if msg.reason == PAUSING_CLOSE and self.resume_after_shutdown:
                self.pause(msg.reason)  # the server restarts: the table comes back
            case p.TableClosed():
                self.close(msg.reason)

    def _game_ended(self, msg: p.GameOver) -> None:
        if any(g.game_id == msg.game_id for g in self.games):
            return
        self._seen_over.add(msg.game_id)
        self.games.append(msg)
        self._game_over.put_nowait(msg)
        self._call_hook("on_game_over", msg)
        if self._close_after_over is not None and self.closed is None:
            self.close(self._close_after_over)

    def _check_missed(self, st: p.State) -> None:
        """A game that ended while the connection was down has no ``game_over`` here: its
        history is fetched from ``GET /api/games/{id}`` and delivered as one."""
        cur = self._current_game
        if cur is not None and cur not in self._seen_over and (
                st.game_id != cur or st.status != "playing"):
            if st.events:
                # the step that ended the game (its events are here) comes just before its
                # game_over: missed only if the next message about this table is another one
                self._maybe_missed = (cur, st.version)
            else:  # a state taken afresh (reconnect, resync) after the game ended
                self._seen_over.add(cur)
                self._spawn(self._recover(cur, st.version))
        if st.status == "playing":
            self._current_game = st.game_id

    async def _recover(self, game_id: str, version: int) -> None:
        history = None if self._fetch_game is None else await self._fetch_game(game_id)
        if history is None:
            log.error("table %s: game %s ended while disconnected; no history", self.table_id,
                      game_id)
            self.close(f"missed the end of game {game_id}")
            return
        over = p.GameOver(table_id=self.table_id, version=version, game_id=game_id,
                          outcome=history.get("outcome") or {}, history=history)
        self._game_ended(over)

    @property
    def paused(self) -> bool:
        """Whether the table is away and the seat waits to be resumed (see ``pause_reason``)."""
        return self.pause_reason is not None

    def pause(self, reason: str) -> None:
        """The table is away but coming back (``"shutdown"``, ``"disconnected"``): stop
        deciding, keep the seat, its token and :meth:`next_game_over` waiters; the resume on
        the next connection ends the pause. The first reason of a pause is kept (a shutdown
        is followed by the socket's close). Calls the bot's ``on_pause(session)`` once."""
        if self.closed is not None:
            return
        self._cancel()
        self._resume_due = False
        if self.pause_reason is None:
            self.pause_reason = reason
            self._call_hook("on_pause", self)

    def close(self, reason: str) -> None:
        """Stop deciding here and wake :meth:`next_game_over` waiters (they raise)."""
        self.closed = reason
        self.pause_reason = None
        self._cancel()
        self._game_over.put_nowait(None)
        if self.joining is not None and not self.joining.done():
            from .connection import ClientError

            code = reason.removeprefix("rejoin refused: ")
            self.joining.set_exception(ClientError(code, f"table {self.table_id}: {reason}"))

    async def next_game_over(self) -> p.GameOver:
        """Wait for the next ``game_over`` at this table.

        Raises:
            TableClosedError: the table closed, the seat was taken over, or (poker) the seat
            ran out of chips first.
        """
        msg = await self._game_over.get()
        if msg is None:
            self._game_over.put_nowait(None)  # keep waking later waiters
            raise TableClosedError(f"table {self.table_id}: {self.closed}")
        return msg

    def resume_request(self) -> p.Join:
        """The ``join`` that resumes this seat (or spectating) on a new connection: with the
        seat token, or by identity (the seat, no token) once the token was refused. A join
        never answered yet is re-sent as it was (the seat it asked for, not any seat)."""
        if self.seat is None and self.requested is not None:
            return self.requested.model_copy(update={"rid": None})
        if self.spectate or self.seat_token is None:
            return p.Join(type="join", table_id=self.table_id, spectate=self.spectate)
        if self._by_identity:
            return p.Join(type="join", table_id=self.table_id, seat=self.seat)
        return p.Join(type="join", table_id=self.table_id, seat=self.seat,
                      seat_token=self.seat_token)

    # ----- decisions ------------------------------------------------------------------------
    @staticmethod
    def _out_of_chips(st: p.State) -> bool:
        """A poker seat that can no longer be dealt in: no game will end for it here."""
        return (st.seat is not None and st.status != "playing"
                and any(s.seat == st.seat and s.out_of_chips for s in st.seats))

    def _needs_decision(self, st: p.State) -> bool:
        """This seat's turn (``to_act[0]``) with legal actions; out-of-turn options (Blot's
        contra by an opponent) only for a bot with ``out_of_turn = True``."""
        if self.bot is None or st.seat is None or st.status != "playing" or st.view is None:
            return False
        mine = st.to_act[:1] == [st.seat] or bool(getattr(self.bot, "out_of_turn", False))
        return mine and bool(st.legal_actions)

    def forget_state(self) -> None:
        """Before resuming on a new connection: the next ``state`` is taken afresh (and a move
        sent but not answered for its version is re-sent with the same ``action_id``)."""
        self.state = None
        self._cancel()

    def _on_delta(self, delta: p.StateDelta) -> None:
        """Apply a delta to the state held (``docs/protocol.md``, "State"); on a gap (a frame
        missed, or no state held after a reconnect) ask for a full state."""
        old = self.state
        if old is not None and delta.version <= old.version:
            return  # overtaken by a newer (full) state
        if old is None or old.version != delta.base_version:
            self._spawn(self._send(p.Resync(type="resync", table_id=self.table_id)))
            return
        self._on_state(merge_delta(old, delta))

    def _on_state(self, st: p.State) -> None:
        old = self.state
        if old is not None and st.version < old.version:
            return  # an older snapshot overtaken by a newer one
        self.state = st
        self._check_missed(st)
        if self._out_of_chips(st) and self.closed is None:
            reason = "this seat is out of chips (fewer than the ante); leave to free it"
            if st.game_id is not None and st.game_id not in self._seen_over:
                self._close_after_over = reason  # the hand's game_over follows this state
            else:
                self.close(reason)
            return
        if old is not None and st.version == old.version and (
                (self._task is not None and not self._task.done())
                or (self._pending is not None and self._pending.version == st.version)):
            return  # a repeat (resync) of the state we are already answering
        self._cancel()
        if not self._needs_decision(st):
            return
        pending = self._pending
        if pending is not None and pending.version == st.version:
            self._task = asyncio.ensure_future(self._send(pending))  # resume: same id, same move
            return
        self._task = asyncio.create_task(self._decide(st), name=f"decide-{self.table_id}")

    async def _decide(self, st: p.State) -> None:
        assert st.view is not None
        try:
            action = self.bot.choose(st.view, list(st.legal_actions))
            if inspect.isawaitable(action):
                action = await action
        except asyncio.CancelledError:
            raise
        except Exception:  # a bot bug must not kill the connection; the timer will act
            log.exception("bot %r failed at table %s v%d", self.bot, self.table_id, st.version)
            return
        act = p.Act(type="act", table_id=self.table_id, version=st.version,
                    action_id=next(self._ids), action=dict(action))
        self._pending = act
        self.moves += 1
        await self._send(act)

    def _on_error(self, err: p.Error) -> None:
        self.errors = [*self.errors[-49:], err]
        mine = (err.request is not None and self._pending is not None
                and err.request.action_id == self._pending.action_id)
        if mine:
            self._pending = None  # refused: nothing applied, not remembered by the server
        behind = self.state is None or (err.version or 0) > self.state.version
        if err.code == "table.stale_version" and behind:
            self._spawn(self._send(p.Resync(type="resync", table_id=self.table_id)))
        elif err.code == "table.replaced":
            self.close("replaced")
        elif err.request is not None and err.request.type == "join":
            self._join_refused(err)
        if mine and err.code != "table.stale_version":
            log.warning("table %s refused our action: %s %s", self.table_id, err.code,
                        err.message)
        self._call_hook("on_error", err)

    def _join_refused(self, err: p.Error) -> None:
        """A ``join`` about this table was refused. While paused (a resume): the server is
        starting or draining (``WAIT_CODES``) -> keep waiting for the next connection; the
        seat token was refused (``table.bad_seat_token``) -> try once more as the same player
        without it; anything else (the table was not restored, the seat was kicked) ends the
        session: no game will end here for us."""
        if self.paused and err.code in WAIT_CODES:
            log.info("table %s: resume refused (%s); waiting for the server", self.table_id,
                     err.code)
            return
        if self.paused and err.code == "table.bad_seat_token" and not self._by_identity \
                and self.seat is not None:
            self._by_identity = True
            self._spawn(self._send(self.resume_request()))
            return
        self.close(f"rejoin refused: {err.code}")

    def _spawn(self, aw: Awaitable[Any]) -> None:
        fut = asyncio.ensure_future(aw)
        self._background.add(fut)
        fut.add_done_callback(self._background.discard)

    def _cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    def _call_hook(self, name: str, arg: Any) -> None:
        hook = getattr(self.bot, name, None)
        if not callable(hook):
            return
        try:
            result = hook(arg)
            if inspect.isawaitable(result):
                self._spawn(result)
        except Exception:
            log.exception("bot hook %s failed", name)


def merge_delta(state: p.State, delta: p.StateDelta) -> p.State:
    """The full state after ``delta`` on top of ``state`` (whose ``version`` is the delta's
    ``base_version``): the rule of :func:`cardhall.protocol.frames.apply_state` on the models.
    Step fields (``events``, ``actor``, ``timeout``) are carried over from the delta."""
    update: dict[str, Any] = {k: getattr(delta, k) for k in delta.model_fields_set
                              if k not in DELTA_ONLY and k not in ("type", "full")}
    update.update(events=delta.events, actor=delta.actor, timeout=delta.timeout)
    if delta.view_patch or delta.view_removed:
        view = {**(state.view or {}), **delta.view_patch}
        for key in delta.view_removed:
            view.pop(key, None)
        update["view"] = view
    return state.model_copy(update=update)
