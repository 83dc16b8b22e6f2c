"""Prometheus collectors that read other modules' figures at scrape time (duck-typed from
``app.state``, so a figure a module does not have yet is simply not exported).

* :class:`TablesCollector`: ``TableManager.stats()`` (tables, seats, connections, saves,
  restores and aborts at start-up);
* :class:`WriterCollector`: the game writer's counters, queue and ``save_seconds`` histogram;
* :class:`LogCollector`: the action log's counters, backlog and ``append_seconds`` histogram;
* :class:`ClusterCollector`: cluster mode's leases, takeovers and Redis traffic;
* :class:`RedisCollector`: cluster mode's ``cardhall_redis_healthy``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector


def _histogram(owner: Any, name: str) -> Iterator[Metric]:
    """The families of ``owner.<name>`` when it is a collector (a ``prometheus_client``
    ``Histogram`` made with ``registry=None``), else nothing."""
    histogram = getattr(owner, name, None)
    collect = getattr(histogram, "collect", None)
    if collect is not None:
        yield from collect()


class TablesCollector(Collector):
    """``cardhall_tables{status}``, ``cardhall_seats_taken``, ``cardhall_connections``,
    ``cardhall_inbox_backlog`` (gauges); ``cardhall_games_saved_total``,
    ``cardhall_tables_closed_total``, and when the manager reports them
    ``cardhall_tables_restored_total``, ``cardhall_tables_aborted_total`` (counters)."""

    def __init__(self, app: FastAPI) -> None:
        self._app = app

    def collect(self) -> Iterator[Metric]:
        manager = getattr(self._app.state, "tables", None)
        s: dict[str, Any] | None = None if manager is None else manager.stats()
        if not s:
            return
        tables = GaugeMetricFamily("cardhall_tables", "Live tables by status", labels=["status"])
        for status, n in sorted(s.get("tables_by_status", {}).items()):
            tables.add_metric([status], n)
        yield tables
        for key, help_text in (("seats_taken", "Seats taken at live tables"),
                               ("connections", "People's connections (sockets, no bots) at live tables"),
                               ("inbox_backlog", "Messages waiting in table inboxes")):
            yield GaugeMetricFamily(f"cardhall_{key}", help_text, value=s.get(key, 0))
        yield CounterMetricFamily("cardhall_games_saved",
                                  "Finished games handed to the writer since start",
                                  value=s.get("games_saved", 0))
        yield CounterMetricFamily("cardhall_tables_closed", "Tables closed since start",
                                  value=s.get("tables_closed", 0))
        for key, help_text in (("tables_restored", "Tables restored from the action log at start"),
                               ("tables_aborted", "Tables that could not be restored at start")):
            if key in s:
                yield CounterMetricFamily(f"cardhall_{key}", help_text, value=s[key])


class WriterCollector(Collector):
    """The game writer's (``storage/writer.py``) counters since start:
    ``cardhall_writer_{submitted,saved,failed,batches,retries}_total``, the gauge
    ``cardhall_writer_queued`` and, when the writer has it, its ``save_seconds`` histogram."""

    def __init__(self, app: FastAPI) -> None:
        self._app = app

    def collect(self) -> Iterator[Metric]:
        w = getattr(self._app.state, "writer", None)
        if w is None:
            return
        for key, help_text in (("submitted", "Finished games handed to the game writer"),
                               ("saved", "Finished games the game writer stored"),
                               ("failed", "Finished games lost after the writer's retries"),
                               ("batches", "Transactions the game writer committed"),
                               ("retries", "Failed save attempts the game writer retried"),
                               ("attempts_failed", "Save transactions that failed (each try)"),
                               ("deferred", "Finished games left in the outbox for the "
                                            "next start")):
            yield CounterMetricFamily(f"cardhall_writer_{key}", help_text,
                                      value=getattr(w, key, 0))
        yield GaugeMetricFamily("cardhall_writer_queued", "Finished games waiting to be saved",
                                value=getattr(w, "queued", 0))
        yield from _histogram(w, "save_seconds")


class LogCollector(Collector):
    """The action log's (``app.state.log``, when present) figures, each only when the log has
    it: ``cardhall_log_{appended,commits,failures}_total`` (counters), ``cardhall_log_backlog``
    (gauge) and its ``append_seconds`` histogram."""

    def __init__(self, app: FastAPI) -> None:
        self._app = app

    def collect(self) -> Iterator[Metric]:
        log = getattr(self._app.state, "log", None)
        if log is None:
            return
        for key, help_text in (("appended", "Table steps appended to the table log"),
                               ("commits", "Group commits of the table log"),
                               ("failures", "Failed commits of the table log (retried)"),
                               ("lost", "Table log entries the database refused as invalid"),
                               ("fenced", "Table steps refused because another node took the "
                                          "table over (cluster mode)")):
            value = getattr(log, key, None)
            if isinstance(value, int | float):
                yield CounterMetricFamily(f"cardhall_log_{key}", help_text, value=value)
        backlog = getattr(log, "backlog", None)
        if isinstance(backlog, int | float):
            yield GaugeMetricFamily("cardhall_log_backlog",
                                    "Table log entries waiting for their commit",
                                    value=backlog)
        healthy = getattr(log, "healthy", None)
        if isinstance(healthy, bool):
            yield GaugeMetricFamily("cardhall_log_healthy", "1 while every step is durable "
                                    "before it is sent, 0 while degraded", value=int(healthy))
        yield from _spill_metrics(getattr(log, "spiller", None))
        yield from _histogram(log, "append_seconds")


def _spill_metrics(spiller: object) -> Iterator[Metric]:
    """The table log's spill (``storage/spiller.py``), when it has one:
    ``cardhall_log_spilled_total``, ``cardhall_log_spill_steps``, ``cardhall_log_spill_failing``."""
    if spiller is None:
        return
    yield CounterMetricFamily("cardhall_log_spilled", "Table steps written to the local spill "
                              "(sent before their commit, during an outage)",
                              value=int(getattr(spiller, "spilled", 0)))
    yield GaugeMetricFamily("cardhall_log_spill_steps", "Steps in the spill file not known "
                            "committed yet", value=int(getattr(spiller, "rows", 0)))
    yield GaugeMetricFamily("cardhall_log_spill_failing", "1 while writing the spill fails",
                            value=int(bool(getattr(spiller, "failing", False))))


class ClusterCollector(Collector):
    """Cluster mode (``docs/scaling.md``; nothing without it): ``cardhall_cluster_tables_owned``
    (gauge: leases this node holds), ``cardhall_cluster_takeovers_total``,
    ``cardhall_cluster_leases_lost_total``, ``cardhall_cluster_bus_{published,received}_total``
    and ``cardhall_cluster_remote_frames_total`` (frames sent to sockets of other nodes)."""

    def __init__(self, app: FastAPI) -> None:
        self._app = app

    def collect(self) -> Iterator[Metric]:
        node = getattr(getattr(self._app.state, "hall", None), "cluster", None)
        if node is None:
            return
        yield GaugeMetricFamily("cardhall_cluster_tables_owned",
                                "Table leases this node holds", value=len(node.owned))
        for name, value, help_text in (
                ("takeovers", node.takeovers, "Tables this node took over from a dead node"),
                ("leases_lost", node.leases_lost, "Table leases this node lost to another"),
                ("bus_published", node.bus.published, "Messages published on Redis"),
                ("bus_received", node.bus.received, "Messages received from Redis"),
                ("remote_frames", node.peers.frames, "Frames sent to other nodes' sockets")):
            yield CounterMetricFamily(f"cardhall_cluster_{name}", help_text, value=value)


class RedisCollector(Collector):
    """``cardhall_redis_healthy`` (gauge), in cluster mode (``app.state.redis`` set) once
    anything talked to Redis: 1 while the last Redis command answered, else 0
    (``app.state.redis_health``, kept current by the socket quota's refresh every third of
    ``lease_seconds`` and by ``/readyz``)."""

    def __init__(self, app: FastAPI) -> None:
        self._app = app

    def collect(self) -> Iterator[Metric]:
        if getattr(self._app.state, "redis", None) is None:
            return
        healthy = getattr(getattr(self._app.state, "redis_health", None), "healthy", None)
        if isinstance(healthy, bool):
            yield GaugeMetricFamily("cardhall_redis_healthy", "1 while the last Redis command "
                                    "answered, 0 when it failed", value=int(healthy))
