"""The seek pool of one process (``docs/rest.md``, "Seeks"): holds the waiting seeks, runs the
matcher (:mod:`.seeks`) on each new seek and on a periodic tick, and seats each group it
finds at a new table.

* **A table per group**, made through the hall (:meth:`~.local.LocalHall.create`, the path of
  ``POST /api/tables``: quotas, limits and the table log's backlog apply), created by the
  group's longest-waiting player (it counts towards their ``max_live_tables_per_player``) from
  that player's address. It is **private** with a fresh invite code that only the group's
  seekers get, so no lobby player or quick seat takes a seat meant for them; seeker ``i`` of
  the group (longest waiting first) gets seat ``i``. If the creator is over a quota its seek is
  cancelled (``reason`` ``quota.tables``) and the others wait on; another refusal (the server's
  table limit, a backed-up log, a cluster error) leaves every seek waiting for the next tick.
* **One waiting seek per player**; a seek not matched within ``ttl_seconds`` expires. A
  finished seek (seated, cancelled, expired) is remembered for ``keep_seconds`` so its owner
  can read how it ended, then forgotten.
* Matching and table creation run under one lock, so a seek is seated at most once and a cancel
  either comes first or finds the seek seated.
* While the server drains no group is seated (the seeks wait, then expire or are cancelled at
  shutdown).

In cluster mode each node pools the seeks it was given (the pool is memory of this process);
the tables it makes go to the least loaded node like any table (``docs/scaling.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal, Protocol

from ..engine import InvalidConfigError, get_game
from ..storage.interface import PlayerRecord
from ..storage.rating import DISPLAY_TARGET, Skill
from ..tables.clock import Clock
from ..tables.errors import TableQuotaError
from .seeks import Seek, Window, match, match_with

log = logging.getLogger(__name__)

SeekStatus = Literal["waiting", "seated", "cancelled", "expired"]
SeekErrorCode = Literal["seek.not_found", "seek.already_waiting", "seek.needs_account",
                        "seek.pool_full"]
MAX_WAITING = 10_000
"""Waiting seeks a process holds at most (one per player; more: ``seek.pool_full``)."""


class SeekError(Exception):
    """A seek request refused; ``code`` is its stable REST code, ``message`` names the value."""

    def __init__(self, code: SeekErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: SeekErrorCode = code
        self.message = message


class TableMaker(Protocol):
    """What the pool needs of the hall: ``create`` answering the new table's summary."""

    async def create(self, game: str, **kwargs: Any) -> dict[str, Any]: ...


RatingOf = Callable[[str, str], Awaitable[int]]
"""``(player id, game) -> displayed rating`` (1000 for a player never rated in the game)."""


@dataclass(slots=True)
class SeekEntry:
    """A seek and how it stands. ``table_id``/``seat``/``invite_code`` once seated;
    ``reason`` once cancelled (``cancelled``: by its owner; ``quota.tables``: its table could
    not be made; ``shutdown``); ``ended`` is the pool clock's time it stopped waiting."""

    id: str
    seek: Seek
    created_at: datetime
    created_from: str | None
    status: SeekStatus = "waiting"
    table_id: str | None = None
    seat: int | None = None
    invite_code: str | None = None
    reason: str | None = None
    ended: float | None = None

    def public(self, now: float, window: Window, ttl_seconds: float) -> dict[str, Any]:
        """The owner's view (``GET /api/seeks/{id}``): ``waited_ms``, the current window
        ``rating_min``/``rating_max`` (``null``: any rating, or not waiting) and
        ``expires_in_ms`` (``null`` unless waiting). Never another seeker's data."""
        s = self.seek
        waiting = self.status == "waiting"
        at = now if self.ended is None else self.ended
        low, high = window.bounds(s, now) if waiting else (None, None)
        return {"seek_id": self.id, "game": s.game, "seats": s.seats, "rated": s.rated,
                "rating": s.rating, "status": self.status,
                "created_at": self.created_at.isoformat().replace("+00:00", "Z"),
                "waited_ms": round(max(0.0, at - s.since) * 1000),
                "rating_min": low, "rating_max": high,
                "expires_in_ms": round(max(0.0, s.since + ttl_seconds - now) * 1000)
                if waiting else None,
                "table_id": self.table_id, "seat": self.seat, "invite_code": self.invite_code,
                "reason": self.reason}


class SeekPool:
    """The waiting seeks of this process (see the module docstring).

    Args:
        hall: makes the tables (:class:`TableMaker`: the app's hall).
        rating_of: the rating lookup (:data:`RatingOf`; :func:`store_rating`).
        clock: injected time (tests: a ``FakeClock``, and :meth:`tick` called by hand).
        ttl_seconds: a seek expires after waiting this long.
        tick_seconds: how often :meth:`start`'s task runs :meth:`tick`.
        keep_seconds: how long a finished seek is still answered.
        window: the rating window (:class:`~.seeks.Window`).
        draining: ``True`` while the server drains (no table is made then).
    """

    def __init__(self, hall: TableMaker, rating_of: RatingOf, clock: Clock, *,
                 ttl_seconds: float = 300.0, tick_seconds: float = 1.0,
                 keep_seconds: float = 120.0, window: Window | None = None,
                 draining: Callable[[], bool] = lambda: False) -> None:
        self.hall, self.rating_of, self.clock = hall, rating_of, clock
        self.ttl_seconds, self.tick_seconds = ttl_seconds, tick_seconds
        self.keep_seconds = keep_seconds
        self.window = window or Window()
        self.draining = draining
        self.entries: dict[str, SeekEntry] = {}
        """Seek id -> entry: the waiting and the recently finished."""
        self._waiting: dict[str, SeekEntry] = {}
        """Player id -> its waiting seek."""
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Run :meth:`tick` every ``tick_seconds`` until :meth:`stop`."""
        self._task = asyncio.get_running_loop().create_task(self._loop(), name="seek-pool")

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                await self.tick()
            except Exception:  # a tick never ends the pool
                log.exception("seek pool tick failed")

    async def stop(self) -> None:
        """Stop the tick; every waiting seek is cancelled (``reason`` ``shutdown``)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for entry in list(self._waiting.values()):
            self._end(entry, "cancelled", reason="shutdown")

    def public(self, entry: SeekEntry) -> dict[str, Any]:
        """``entry`` as its owner sees it now (:meth:`SeekEntry.public`)."""
        return entry.public(self.clock.now(), self.window, self.ttl_seconds)

    async def add(self, player: PlayerRecord, game: str, *, seats: int | None = None,
                  rated: bool = False, created_from: str | None = None) -> SeekEntry:
        """A new waiting seek of ``player`` (matched at once if a group forms).

        Raises:
            UnknownGameError: no such game. InvalidConfigError: ``seats`` outside the game's
            range (default: the game's minimum). SeekError: ``seek.needs_account`` (a rated
            seek of a guest or bot), ``seek.already_waiting`` (the player has a waiting
            seek; its id is in the message), ``seek.pool_full``. Store errors of the rating
            lookup.
        """
        rules = get_game(game)
        n = rules.min_seats if seats is None else seats
        if not rules.min_seats <= n <= rules.max_seats:
            raise InvalidConfigError(f"{game} seats {rules.min_seats} to {rules.max_seats}, "
                                     f"got seats={n!r}")
        if rated and (player.username is None or player.is_bot):
            raise SeekError("seek.needs_account",
                            "a rated seek needs an account (POST /api/accounts)")
        self._check_free(player.id)
        rating = await self.rating_of(player.id, game)
        self._check_free(player.id)  # again: another request ran during the lookup
        entry = SeekEntry(secrets.token_hex(8), Seek(player.id, game, n, rated, rating,
                                                     self.clock.now()),
                          self.clock.wall(), created_from)
        self.entries[entry.id] = entry
        self._waiting[player.id] = entry
        await self._seat_groups()
        return entry

    def _check_free(self, player_id: str) -> None:
        mine = self._waiting.get(player_id)
        if mine is not None:
            raise SeekError("seek.already_waiting",
                            f"player {player_id} already waits with seek {mine.id}")
        if len(self._waiting) >= MAX_WAITING:
            raise SeekError("seek.pool_full", f"{len(self._waiting)} seeks wait "
                            f"(at most {MAX_WAITING}); try again later")

    def get(self, seek_id: str, player_id: str) -> SeekEntry:
        """``player_id``'s seek ``seek_id``. Raises SeekError ``seek.not_found`` when there is
        none, it was forgotten, or it is another player's (never says which)."""
        entry = self.entries.get(seek_id)
        if entry is None or entry.seek.player != player_id:
            raise SeekError("seek.not_found", f"no seek {seek_id!r} of yours")
        return entry

    async def cancel(self, seek_id: str, player_id: str) -> SeekEntry:
        """Cancel ``player_id``'s waiting seek; a finished one is answered as it ended (a
        cancel that lost the race to a match finds its table). Raises SeekError like
        :meth:`get`."""
        entry = self.get(seek_id, player_id)
        async with self._lock:
            if entry.status == "waiting":
                self._end(entry, "cancelled", reason="cancelled")
        return entry

    async def tick(self) -> None:
        """Expire seeks that waited ``ttl_seconds``, forget those finished ``keep_seconds``
        ago, then seat every group that fits (the windows have widened)."""
        now = self.clock.now()
        async with self._lock:  # not a seek of a group whose table is being made
            for entry in list(self._waiting.values()):
                if now - entry.seek.since >= self.ttl_seconds:
                    self._end(entry, "expired")
        for key, entry in list(self.entries.items()):
            if entry.ended is not None and now - entry.ended >= self.keep_seconds:
                del self.entries[key]
        await self._seat_groups()

    def _end(self, entry: SeekEntry, status: SeekStatus, *, reason: str | None = None) -> None:
        entry.status, entry.reason, entry.ended = status, reason, self.clock.now()
        if self._waiting.get(entry.seek.player) is entry:
            del self._waiting[entry.seek.player]

    async def _seat_groups(self) -> None:
        if self.draining():
            return
        async with self._lock:
            by_seek = {id(e.seek): e for e in self._waiting.values()}
            for group in match([e.seek for e in self._waiting.values()], self.clock.now(),
                               self.window):
                entries = [by_seek[id(s)] for s in group]
                if any(e.status != "waiting" for e in entries):
                    continue
                try:
                    table, code = await self._make_table(group, entries[0].created_from)
                except TableQuotaError as exc:
                    log.info("seek %s: no table (%s)", entries[0].id, exc.message)
                    self._end(entries[0], "cancelled", reason="quota.tables")
                    continue
                except Exception as exc:  # the server's limit, the log, the cluster: retry
                    log.warning("seek group of %s waits: no table (%s)", group[0].game, exc)
                    continue
                for seat, entry in enumerate(entries):
                    entry.table_id, entry.seat, entry.invite_code = table["id"], seat, code
                    self._end(entry, "seated")

    async def _make_table(self, group: tuple[Seek, ...],
                          created_from: str | None) -> tuple[dict[str, Any], str]:
        """A private table of ``group``'s game and seats, created by its first player;
        its summary and invite code. Raises what ``hall.create`` raises."""
        first = group[0]
        code = secrets.token_urlsafe(9)
        table = await self.hall.create(first.game, created_by=first.player,
                                       created_from=created_from, num_seats=first.seats,
                                       private=True, invite_code=code, rated=first.rated)
        log.info("seek: table %s for %s (%s)", table["id"], [s.player for s in group],
                 first.game)
        return table, code

    async def quick_match(self, player: PlayerRecord, game: str, *,
                          created_from: str | None = None,
                          ) -> tuple[dict[str, Any], int, str] | None:
        """A quick seat's first try (``docs/rest.md``, "Seeks"): an account that completes a
        group of waiting **rated** seeks of ``game`` at the game's minimum seats (its own
        window the narrowest, so only close ratings) sits down with them at once, at seat 0
        of a new private table it creates: ``(table summary, 0, invite code)``; the seekers
        are seated there. ``None`` (the caller goes on with the free-seat rule): a guest or
        bot, a player who waits with a seek, no such group, the rating lookup failed, or the
        table could not be made. Raises UnknownGameError for an unknown game."""
        seats = get_game(game).min_seats
        if player.username is None or player.is_bot or player.id in self._waiting \
                or self.draining() or not any(
                    (e.seek.game, e.seek.seats, e.seek.rated) == (game, seats, True)
                    for e in self._waiting.values()):
            return None
        try:
            rating = await self.rating_of(player.id, game)
        except Exception as exc:  # the database is slow or down: quick seat goes on without
            log.warning("quick seat of %s: no rating (%s); free-seat rule", player.id, exc)
            return None
        async with self._lock:
            cand = Seek(player.id, game, seats, True, rating, self.clock.now())
            by_seek = {id(e.seek): e for e in self._waiting.values()}
            group = match_with(cand, [e.seek for e in self._waiting.values()],
                               self.clock.now(), self.window)
            if group is None:
                return None
            try:
                table, code = await self._make_table(group, created_from)
            except Exception as exc:  # the free-seat rule may still seat the player
                log.info("quick seat of %s: no seek table (%s)", player.id, exc)
                return None
            for seat, s in enumerate(group[1:], start=1):
                entry = by_seek[id(s)]
                entry.table_id, entry.seat, entry.invite_code = table["id"], seat, code
                self._end(entry, "seated")
            return table, 0, code


def store_rating(store: Any, timeout_seconds: float) -> RatingOf:
    """:data:`RatingOf` over a store's ``player_ratings`` (``storage/rating.py``'s displayed
    rating; a game the player was never rated in: 1000), each lookup bounded by
    ``timeout_seconds`` (``TimeoutError`` past it)."""
    async def rating_of(player_id: str, game: str) -> int:
        async with asyncio.timeout(timeout_seconds):
            ratings = await store.player_ratings(player_id)
        for r in ratings:
            if r.game == game:
                return Skill(r.mu, r.sigma).display
        return round(DISPLAY_TARGET)

    return rating_of
