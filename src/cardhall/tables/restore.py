"""Restore live tables from their write-ahead log at start-up (``docs/operations.md``).

For each table with log entries (:mod:`.durable` describes them): the latest ``snapshot``
gives the spec, the seats (holders, bot kinds, the hashes of their seat tokens, stacks), the
status and hand; when it says a game is running, the ``game`` entry and the ``act`` entries
after it are replayed through the engine. Chance actions are drawn again from the game's
shuffle seed (the server seed and the seats' client seeds of the ``game`` entry, as
``docs/fairness.md`` derives it) and must equal the logged ones, so the replay is exact and the
deals that follow are the ones the game would have dealt. The table version continues
:data:`RESTORE_VERSION_GAP` after the largest logged one (so that no state a client saw before
the crash is current); the
decision that was interrupted gets its full time again (downtime never becomes a timeout);
built-in bots and stand-in bots (:mod:`.standin`) take their seats again, and clients resume
theirs with their seat tokens. The table keeps who created it and when (``created_by`` still
counts towards that player's live-table quota), its last activity (``last_active_at``: the
latest the log shows) and how long it has been idle (``idle_since``), so an idle table closes
when its time to live runs out however often the server restarts.

A table whose log cannot be replayed is recorded as ``aborted``: its partial history is saved as
a finished game with outcome ``{"reason": "aborted", "returns": [0, ...]}`` (through the outbox),
and its log is deleted. It is never silently dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from itertools import groupby
from typing import Any

from ..bots import get_policy
from ..engine import ABANDON, Recorder, SeatInfo, SeededShuffler, commitment, get_game
from ..engine.history import History, LoggedAction
from ..engine.shuffle import LEGACY_SHUFFLE, shuffle_seed
from ..storage.interface import GameRecord, LogRow, PlayerRecord, SeatResult
from .actor import Table
from .bots import BotConnection
from .seats import Seat
from .state import TableSpec

log = logging.getLogger(__name__)


RESTORE_VERSION_GAP = 1_000_000
"""How far a restored table's version jumps past the largest logged one. While the log is
degraded (an outage) steps are sent before they are committed; if the process dies then,
clients hold versions the log never saw. Continuing at the logged version + 1 gave one of them
the restored table's own version, and its ``act`` was applied to a game state it never saw;
past the gap every pre-crash version is stale. (A table steps at most a few times a second:
the gap outlasts weeks of outage, and 2**53 / 10**6 restarts.)"""


class RestoreError(Exception):
    """A table's log cannot be replayed (the message says where)."""


class TableImage:
    """A table's log entries, read: the latest snapshot, and the running game if any."""

    def __init__(self, table_id: str, rows: list[LogRow]) -> None:
        self.table_id = table_id
        self.rows = rows
        self.snapshot: dict[str, Any] | None = None
        self.game: dict[str, Any] | None = None
        self.acts: list[dict[str, Any]] = []
        self.errors: list[str] = []
        """What is wrong with the rows (a corrupted or hand-edited entry): such a row is
        skipped here, and :func:`rebuild` refuses the image (the table is aborted)."""
        self.version = 0
        for row in rows:
            if not isinstance(row.data, dict):
                self.errors.append(f"entry {row.seq}: data is not an object")
                continue
            try:
                self.version = max(self.version, int(row.data.get("v", 0)))
            except (TypeError, ValueError):
                self.errors.append(f"entry {row.seq}: version {row.data.get('v')!r}")
            match row.kind:
                case "snapshot":
                    self.snapshot = row.data
                case "game":
                    self.game, self.acts = row.data, []
                case "act":
                    self.acts.append(row.data)
                case other:
                    self.errors.append(f"entry {row.seq}: unknown kind {other!r}")
        self.last_seq = rows[-1].seq if rows else 0

    @property
    def game_running(self) -> bool:
        s = self.snapshot
        return (s is not None and s["status"] == "playing" and self.game is not None
                and s["game_id"] == self.game["game_id"])


def images(rows: Iterable[LogRow]) -> list[TableImage]:
    """Group ``rows`` (ordered by table, then ``seq``) into one image per table."""
    return [TableImage(tid, list(group)) for tid, group in groupby(rows, key=lambda r: r.table_id)]


def spec_from_json(data: dict[str, Any]) -> TableSpec:
    """The :class:`~.state.TableSpec` that :func:`~.durable.spec_json` wrote."""
    fields = dict(data)
    fields["bots"] = {int(k): v for k, v in fields.get("bots", {}).items()}
    return TableSpec(**fields)


def rebuild(image: TableImage, make_table: Callable[[str, Any, Any, TableSpec], Table]) -> Table:
    """A table in the state its log describes (not started: no task, no timers yet).

    Raises:
        RestoreError: a corrupted entry (:attr:`TableImage.errors`), no snapshot, an entry the
            engine refuses, a chance action that differs
            from the one its seed draws, or a game that ended without its end being logged.
    """
    if image.errors:
        raise RestoreError(f"table {image.table_id}: {'; '.join(image.errors)}")
    snap = image.snapshot
    if snap is None:
        raise RestoreError(f"table {image.table_id}: no snapshot in its log")
    spec = spec_from_json(snap["spec"])
    rules = get_game(spec.game)
    config = rules.config(spec.config)
    table = make_table(image.table_id, rules, config, spec)
    for seat, data in zip(table.seats, snap["seats"], strict=True):
        _seat(seat, data)
    table.status, table.hand = snap["status"], snap["hand"]
    table._dealer_seat, table.had_client = snap["dealer_seat"], snap["had_client"]
    if snap.get("next_seed") is not None:  # the commitment clients saw stays the one kept
        table.next_seed = bytes.fromhex(snap["next_seed"])
        table.next_seed_commitment = commitment(table.next_seed)
    table.created_by = snap.get("created_by")  # absent in logs written before the quota
    if snap.get("created_at"):
        table.created_at = datetime.fromisoformat(snap["created_at"])
    if snap.get("idle_since"):  # absent in logs written before it, and while not idle
        table.idle_since = datetime.fromisoformat(snap["idle_since"])
    table.last_active_at = _last_activity(table, snap, image)
    if image.game_running:
        _replay(table, image)
    table.version = image.version + RESTORE_VERSION_GAP
    table.durable.log_seq = image.last_seq
    table.durable.logged_snapshot = table.durable.snapshot()
    for seat in table.seats:
        if seat.stand_in is not None:
            table.stand_ins.attach_stand_in(seat)
        elif seat.bot_kind is not None:
            _seat_bot(table, seat)
    return table


def _last_activity(table: Table, snap: dict[str, Any], image: TableImage) -> datetime:
    """The latest activity the log shows: when the latest snapshot was logged (``at``), the
    running game's start plus its last action's ``t_ms``, or the creation time."""
    times = [table.created_at]
    if snap.get("at"):
        times.append(datetime.fromisoformat(snap["at"]))
    if image.game_running and image.game is not None and image.game.get("started_at"):
        started = datetime.fromisoformat(image.game["started_at"])
        last_ms = max((int(a.get("t_ms") or 0) for a in image.acts), default=0)
        times.append(started + timedelta(milliseconds=last_ms))
    return max(times)


def _seat(seat: Seat, data: dict[str, Any]) -> None:
    seat.player_id, seat.name, seat.bot = data["player_id"], data["name"], data["bot"]
    seat.bot_kind, seat.token_hash = data["bot_kind"], data["token_hash"]
    seat.stack, seat.leaving = data["stack"], data["leaving"]
    seat.client_seed = data.get("client_seed")  # logs written before client seeds have none
    seat.stand_in, seat.stand_in_from = data.get("stand_in"), data.get("stand_in_from")
    seat.take_id = data.get("take_id")  # logs written before chip balances have none
    seat.funded, seat.rebuys = bool(data.get("funded")), int(data.get("rebuys") or 0)
    seat.owner_id = data.get("owner_id")  # the holder's owner (a bot identity's), if any
    seat.sitting_out = bool(data.get("sitting_out"))  # older logs: dealt in


def _seat_bot(table: Table, seat: Seat) -> None:
    assert seat.player_id is not None and seat.bot_kind is not None
    player = PlayerRecord(seat.player_id, seat.name or f"{seat.bot_kind}-bot", is_bot=True)
    policy = get_policy(table.rules.name, seat.bot_kind, table.config)
    bot = BotConnection(player, policy, table.clock, table.spec.bot_delay_seconds, table.post)
    bot.tables.add(table.id)
    seat.conn = bot


def _replay(table: Table, image: TableImage) -> None:
    """Re-run the running game: the header, then every logged action through the engine."""
    assert image.game is not None
    game = image.game
    header = History.from_json({**game["history"], "actions": []})
    table.seat_map = list(game["seat_map"])
    table.recorder = rec = Recorder(table.rules, table.config, header.seats, header.dealer,
                                    header.stacks)
    table.seed = bytes.fromhex(game["seed"])
    table.seed_commitment = commitment(table.seed)
    table.client_seeds = _client_seeds(game)
    table.shuffler = shuffler = SeededShuffler(
        shuffle_seed(game.get("shuffle", LEGACY_SHUFFLE), table.seed, table.client_seeds))
    table.game_id = game["game_id"]
    table.started_at = datetime.fromisoformat(game["started_at"])
    last_t_ms = 0
    for i, act in enumerate(image.acts):
        entry = LoggedAction(act["seat"], act["action"], act.get("timeout", False), act.get("t_ms"))
        if entry.seat is None and entry.action != ABANDON:
            drawn = rec.state.chance_action(shuffler)
            if drawn != entry.action:
                raise RestoreError(f"table {table.id}: chance action {i} differs from the one "
                                   f"its seed draws")
        try:
            if entry.seat is None and entry.action == ABANDON:
                rec.abandon(t_ms=entry.t_ms)
            else:
                rec.act(entry.seat, entry.action, timeout=entry.timeout, t_ms=entry.t_ms)
        except Exception as exc:
            raise RestoreError(f"table {table.id}: logged action {i} rejected: {exc}") from exc
        last_t_ms = entry.t_ms if entry.t_ms is not None else last_t_ms
    if rec.state.is_over:
        raise RestoreError(f"table {table.id}: the game ended but its end was not logged")
    table._t0 = table.clock.now() - last_t_ms / 1000
    table.durable.logged_game = table.game_id
    table.durable.logged_actions = len(rec.history.actions)
    table.game_version = image.version + RESTORE_VERSION_GAP


def _client_seeds(game: dict[str, Any]) -> list[str | None]:
    """The client seeds of a ``game`` entry (none per seat in logs written before them)."""
    return list(game.get("client_seeds") or [None] * len(game["history"]["seats"]))


def aborted_record(image: TableImage, why: str) -> GameRecord | None:
    """The finished-game record of a table that cannot be restored (its partial history with
    outcome ``aborted``), or ``None`` when no game was running."""
    game = image.game
    if game is None or image.snapshot is None or not image.game_running:
        return None
    now = datetime.now(UTC)
    history = {**game["history"], "actions": image.acts}
    seats = [SeatInfo(s.get("name", f"seat {i}"), s.get("bot", False), s.get("player_id"))
             for i, s in enumerate(game["history"]["seats"])]
    outcome = {"reason": "aborted", "returns": [0] * len(seats)}
    log.error("table %s cannot be restored (%s): its game is saved as aborted", image.table_id, why)
    seed = bytes.fromhex(game["seed"])
    history.update({"id": game["game_id"], "table_id": image.table_id,
                    "started_at": game["started_at"], "ended_at": now.isoformat(),
                    "outcome": outcome, "seed_commitment": commitment(seed), "seed": seed.hex()})
    if "shuffle" in game:  # the derivation the deals came from (verify_history reads it)
        history.update({"shuffle": game["shuffle"], "client_seeds": _client_seeds(game)})
    results = [SeatResult(i, s.name, 0, s.player_id, s.bot) for i, s in enumerate(seats)]
    return GameRecord(game["game_id"], game["history"]["game"], image.table_id, history, outcome,
                      results, datetime.fromisoformat(game["started_at"]), now)


def resume_timers(table: Table) -> None:
    """Inside the restored table's task: arm what its status needs (the decision's full time,
    the pause before the next poker hand, the idle timer) and give its bots their state."""
    if table.status == "playing":
        table.timers.arm_deadline()
    elif table.status == "between_hands":
        table.timers.arm_pause(table.spec.next_hand_pause_seconds)
    table.timers.arm_reap(resumed=True)
    table.watch_abandon()
    for seat in table.seats:
        if (seat.bot_kind is not None or seat.stand_in is not None) and seat.conn is not None:
            table.send(seat.conn, table.fanout.full(seat.conn, seat.index))
