"""The app's services, started and stopped in order (``docs/operations.md``).

Start: the store connects (SQL stores apply the Alembic migrations), the table log's spill is
replayed into the database (the steps a process that died during an outage had sent but not
committed, ``storage/spill.py``; before anything else reads the log), the game writer
(``app.state.writer``, which saves finished games in batches), the table log (``app.state.log``:
SQL stores with ``durable_tables``), the table manager (``app.state.tables``, which restores the
live tables of the log), the tournament director (``app.state.tournaments``; one process
resumes its running tournaments, ``docs/tournaments.md``), the seek pool (``app.state.seeks``,
``hall/seekpool.py``: this node's seeks), the socket quota (in cluster mode it refreshes its counts in Redis)
and the GC tuning. Stop, in reverse: the seek pool (waiting seeks are cancelled), the tournaments and then the tables stop first (their logs stay, so they come back
at the next start), then the log is flushed, then the writer saves what is queued, then the
store closes, the socket quota withdraws its counts and the Redis client closes. With a spill
the log and the writer get :data:`DURABLE_CLOSE_SECONDS` together (what is not committed by
then is in the spill or the outbox, not lost), so that a shutdown during a database outage fits
a 30 s stop timeout: ``CARDHALL_SHUTDOWN_GRACE_SECONDS`` (10) plus this.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI

from ..cluster.hall import ClusterHall
from ..cluster.node import ClusterNode
from ..config import Settings
from ..hall.local import LocalHall
from ..hall.seekpool import SeekPool, store_rating
from ..storage.factory import make_store
from ..storage.interface import Store
from ..storage.log import TableLog
from ..storage.spill import Spill, SpillBusyError, database_key, default_path, replay
from ..storage.tournaments import tournament_store
from ..storage.writer import CLOSE_TIMEOUT_SECONDS, GameWriter
from ..tables.manager import TableManager
from ..tournaments import Director
from . import gctune
from .authcache import AuthCache

log = logging.getLogger(__name__)


def make_lifespan(settings: Settings) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The FastAPI ``lifespan`` of an app with ``settings`` (see the module docstring)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = make_store(settings.database_url, timeout_seconds=settings.db_timeout_seconds,
                           schema=settings.database_schema,
                           migrate_on_start=settings.migrate_on_start,
                           pool_size=settings.db_pool_size, max_overflow=settings.db_max_overflow,
                           pool_timeout_seconds=settings.db_pool_timeout_seconds)
        await store.start()
        app.state.store = store
        try:
            spill = await _take_spill(_spills(settings), store, max(
                30.0, last_resort_seconds(settings.db_timeout_seconds)))
        except BaseException:
            await store.close()
            raise
        writer, table_log = _durability(settings, store, spill)
        app.state.writer, app.state.log = writer, table_log
        manager = TableManager(settings, store, writer=writer, log=table_log)
        app.state.tables = manager
        node = None
        if settings.redis_url is not None:  # cluster mode (docs/scaling.md)
            node = ClusterNode(settings, manager, store, node_id=app.state.node_id)
            await node.start()
        app.state.hall = LocalHall(manager) if node is None else ClusterHall(manager, node)
        app.state.hall.on_sockets = functools.partial(_close_sockets, app)
        if node is not None:
            node.on_sockets = app.state.hall.on_sockets
            share_auth_cache(getattr(app.state, "auth_cache", None), node)
        await manager.start(restore_all=node is None)
        seeks = SeekPool(app.state.hall, store_rating(store, settings.db_timeout_seconds),
                         manager.clock, ttl_seconds=settings.seek_ttl_seconds,
                         tick_seconds=settings.seek_tick_seconds,
                         draining=lambda: bool(getattr(app.state, "draining", False)))
        app.state.seeks = seeks  # this node's seeks (docs/rest.md, "Seeks")
        seeks.start()
        director = Director(manager, tournament_store(store))
        app.state.tournaments = director
        if node is None:  # one process: resume its running tournaments (docs/tournaments.md)
            await director.start()
        if node is not None:
            await node.scan()  # take over the orphaned tables now, not at the first scan
        quota = app.state.socket_quota  # cluster mode: its counts refresh in Redis
        await quota.start()
        refreezer = None
        if settings.gc_tuning:
            gctune.tune(settings.gc_threshold0, settings.gc_threshold1)
            refreezer = gctune.Refreezer(settings.gc_freeze_interval_seconds,
                                         settings.gc_full_collect_seconds)
            refreezer.start()
        try:
            yield
        finally:
            if refreezer is not None:
                await refreezer.stop()
            try:
                if node is not None:
                    node.forget_remote_sockets()
                await seeks.stop()
                await director.stop()
                await manager.stop()
                if node is not None:
                    await node.stop()
                # the log and the writer share one bound: a hung database holds the
                # shutdown CLOSE_TIMEOUT_SECONDS once, not once each
                bound = CLOSE_TIMEOUT_SECONDS if spill is None else DURABLE_CLOSE_SECONDS
                deadline = time.monotonic() + bound
                if table_log is not None:
                    await table_log.close(timeout=bound if spill is None else bound / 2)
                await writer.close(timeout=max(deadline - time.monotonic(), 0.1))
            finally:
                await store.close()
                await quota.stop()
                redis = getattr(app.state, "redis", None)
                if redis is not None:
                    await redis.aclose()

    return lifespan


DURABLE_CLOSE_SECONDS = 4.0
"""With a spill: the shutdown's bound for the table log's last commits (half of it; the rest
is spilled) and the game writer's saves (what is left; unsaved games stay in the outbox)."""


WORKER_SPILL_SLOTS = 64
"""How many numbered spills the workers of ``cardhall serve --workers N`` may take."""


def _spills(settings: Settings) -> list[Spill]:
    """The spills this durable server may take, in order (empty: not durable, or
    ``log_spill`` off): the one of ``CARDHALL_LOG_SPILL_PATH``, else the default of the node
    id (``storage/spill.py`` ``default_path``). In cluster mode without a node id
    (``cardhall serve --workers N``: each worker names itself anew at every start, so a spill
    named after it would be orphaned when it restarts) that path, then the numbered slots
    ``<path>-worker0``, ``<path>-worker1``, ...: a worker takes the first free one, and a
    restarted worker the one its predecessor left, whose steps it replays."""
    if not (settings.durable_tables and settings.log_spill
            and settings.database_url != "memory://"):
        return []
    key = database_key(settings.database_url, settings.database_schema)
    path = (settings.log_spill_path or default_path(
        settings.database_url, settings.database_schema, settings.node_id)).absolute()
    paths = [path]
    if settings.redis_url and not settings.node_id:
        paths += [path.with_name(f"{path.name}-worker{i}") for i in range(WORKER_SPILL_SLOTS)]
    return [Spill(p, key) for p in paths]


def _acquire(spills: list[Spill]) -> Spill | None:
    """Take the first of ``spills`` no other process holds; ``None`` (logged) when every one
    is held: this server then runs without a spill (a second server on one database is a
    mistake outside cluster mode, ``docs/operations.md``; its steps sent during an outage are
    not durable)."""
    busy: SpillBusyError | None = None
    for spill in spills:
        try:
            spill.acquire()
        except SpillBusyError as exc:
            busy = exc
            continue
        return spill
    log.error("%s; this server runs WITHOUT a spill", busy)
    return None


async def _take_spill(spills: list[Spill], store: Store,
                      timeout_seconds: float) -> Spill | None:
    """Take the first free of ``spills`` (:func:`_acquire`) and replay it into ``store``;
    ``None`` when there are none or every one is held. Raises what :func:`replay` raises
    (the spill released)."""
    if not spills:
        return None
    spill = _acquire(spills)
    if spill is None:
        return None
    try:
        await replay(store, spill, timeout_seconds=timeout_seconds)
    except BaseException:
        spill.close()
        raise
    await _replay_orphans([s for s in spills if s is not spill], store, timeout_seconds)
    return spill


async def _replay_orphans(spills: list[Spill], store: Store, timeout_seconds: float) -> None:
    """The workers' numbered slots that no process holds but that exist (left by a run with
    more workers, or by a retired worker a restart did not replace): replay each into
    ``store`` and remove it when empty, so their steps do not wait for a run that takes that
    slot again. A slot held by a worker, or that fails to replay, is left (logged)."""
    for other in spills:
        if not other.exists():
            continue
        try:
            other.acquire()
        except SpillBusyError:
            continue
        try:
            await replay(store, other, timeout_seconds=timeout_seconds)
        except Exception:
            log.exception("table log spill %s left by another worker: not replayed now; "
                          "the next start tries again", other.path)
        finally:
            other.close(remove_if_empty=True)


async def _close_sockets(app: FastAPI, player_ids: set[str], why: str) -> int:
    """Close this process's sockets of ``player_ids`` for ``why`` (``server/sockets.py``;
    asked by this node's routes or, in cluster mode, by another node's)."""
    from .sockets import close_sockets

    return await close_sockets(app.state.sessions, player_ids,
                               "banned" if why == "banned" else "revoked", app.state.store,
                               getattr(app.state, "auth_cache", None))


def share_auth_cache(cache: AuthCache | None, node: ClusterNode) -> None:
    """Cluster mode: ``cache``'s invalidations go to every node on the bus, and the other
    nodes' come back to it; a gap in the bus drops it all (``cluster/authbus.py``)."""
    if cache is None:
        return

    def drop(player_ids: list[str] | None) -> None:
        if player_ids is None:
            cache.clear()
            return
        for player_id in player_ids:
            cache.forget_player(player_id)

    cache.broadcast, node.auth.on_drop = node.auth.publish, drop


def last_resort_seconds(db_timeout_seconds: float) -> float:
    """The bound the table log and the game writer put around one transaction: past the
    store's own bounds (the wait for the SQLite write turn, then the driver's lock wait or
    statement timeout, each ``db_timeout_seconds``), so that those end a stuck transaction
    cleanly first. Cancelling a transaction in the middle of a statement could leave its
    connection holding SQLite's write lock."""
    return 2 * db_timeout_seconds + 1.0


def _durability(settings: Settings, store: Store,
                spill: Spill | None = None) -> tuple[GameWriter, TableLog | None]:
    """The started game writer and, for a durable server (a SQL store and
    ``durable_tables``), the started table log; the writer then keeps games in the outbox
    and retries until they land."""
    durable = settings.durable_tables and settings.database_url != "memory://"
    bound = last_resort_seconds(settings.db_timeout_seconds)
    writer = GameWriter(store, max_queued=settings.save_queue_max,
                        max_attempts=None if durable else 6, outbox=durable,
                        db_timeout_seconds=bound)
    writer.start()
    if not durable:
        return writer, None
    table_log = TableLog(store, max_backlog=settings.log_backlog_max,
                         sync_timeout_seconds=settings.log_sync_timeout_seconds,
                         db_timeout_seconds=bound, spill=spill,
                         commit_interval_seconds=settings.log_commit_interval_seconds)
    table_log.start()
    return writer, table_log
