"""Durability of a table actor: each step is logged before anyone sees it (``docs/operations.md``).

A part of :class:`~.actor.Table` (held as ``table.durable``); runs only inside the table's
task. Every message the table sends during a step is held by its :class:`~.output.Output`; at
the end of the step (:meth:`Durability.step`) this part works out what the step changed
and hands those log entries to the :class:`~cardhall.storage.log.TableLog`, whose group commit
releases the step's messages in order once the entries are in the database. A step that
changed nothing durable releases its messages at once, or behind the steps still waiting for
their commit.

The entries (``storage/interface.py`` :class:`~cardhall.storage.interface.LogRow`):

* ``snapshot``: the table's spec, status, hand number, dealer, who created it and when (what
  the per-player table quota counts), the next game's server seed (its commitment is public),
  the running game's id and every seat (holder, bot kind, the seat token's SHA-256, stack,
  leaving, client seed, stand-in reason and the action it took over from, the take id, whether
  the stack came from the holder's chip balance, the rebuys and sitting out), and since when the
  table has been idle (``idle_since``, ``null`` while not idle), written whenever one of them
  changed, with the time it was logged (``at``: a restored table's last activity). The snapshot that opens a game compacts the table's older entries away.
* ``game``: a game started: its id, ``started_at``, the history header (seats, dealer, stacks,
  config) and the seat map, the seed (server side only: it is never sent before the game
  ends), the seed derivation ``shuffle`` and the seats' ``client_seeds`` (``docs/fairness.md``).
* ``act``: one applied action of that game (chance actions included), as in the history:
  ``seat`` (the game seat, ``null`` for chance), ``action``, ``timeout``, ``t_ms``.

A step's chip balance moves (:mod:`.chips`) go in the same commit as its entries.
A finished game goes to the outbox in the same commit, and from the log to the game writer
after it (one way: table -> log -> writer, ``TableLog.deliver_to``). A
closed table's log is deleted; a table stopped by a shutdown keeps it and is restored at the
next start (:mod:`.restore`). Every entry carries ``v``, the table version after its step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..engine.shuffle import SHUFFLE
from ..storage.interface import ChipMove, GameRecord, LogRow
from ..storage.log import TableLog
from ..storage.writer import GameWriter
from .chips import Chips
from .state import TableState


@dataclass
class LogStep:
    """One step's share of the table log (:meth:`~cardhall.storage.log.TableLog.append`).

    Attributes:
        rows: the step's entries (snapshot, game, act).
        compact: delete the table's entries before this ``seq`` (a game started).
        drop: delete the table's whole log (it closed for good).
        outbox: finished games (the log hands them to the game writer once committed).
        chips: balance moves (buy-ins, cash-outs), in the same commit.
    """

    rows: list[LogRow]
    compact: int | None
    drop: bool
    outbox: list[GameRecord]
    chips: list[ChipMove] = field(default_factory=list)


class Durability:
    """The durability of one table (see the module docstring).

    Args:
        t: the table's state (what the snapshot and the game entries hold).
        chips: the step's balance moves go into the step's commit.
        log: the table log; ``None``: nothing is logged and messages go out at once.
        writer: takes finished games when there is no log (with a log, the log hands them
            over once committed).
    """

    def __init__(self, t: TableState, chips: Chips, log: TableLog | None,
                 writer: GameWriter) -> None:
        self.t = t
        self.out = t.out
        self.chips = chips
        self.writer = writer
        self.table_log = log
        self._spec_json = spec_json(t.spec)
        self.log_seq = 0
        """The ``seq`` of this table's latest log entry."""
        self.logged_snapshot: dict[str, Any] | None = None
        self.logged_game: str | None = None
        self.logged_actions = 0
        """How many of the running game's history entries are logged."""
        self.keep_log = False
        """Set by a shutdown close: the log stays, and the table is restored at the next start."""
        self._drop_log = False
        self._outbox: list[GameRecord] = []
        self.lease_epoch: int | None = None
        """Cluster mode: the lease epoch every log step is fenced with (``None``: one
        process, no fencing)."""
        self.on_fenced: Callable[[], None] | None = None
        """Cluster mode: called (from the log's task) when a step was refused because another
        node took the table over; the table's owner then stops it (:class:`~.messages.Fenced`)."""

    @property
    def fenced_out(self) -> bool:
        """Whether the table stopped because it was fenced."""
        return self.out.fenced_out

    # ----- output ---------------------------------------------------------------------------
    def log_finished(self, record: GameRecord) -> None:
        """Keep a finished game in the outbox (this step's commit); the log hands it to the
        game writer once that commit landed: not when the step's messages go out, which a
        degraded log does before the commit (a game saved before its outbox row lands stays
        in the outbox). Without a log it goes to the writer now."""
        if self.table_log is None:
            self.writer.submit(record)
        else:
            self._outbox.append(record)

    def close_log(self) -> None:
        """The table closes for good: its log is deleted with this step (kept on shutdown)."""
        self._drop_log = not self.keep_log

    # ----- the end of a step ----------------------------------------------------------------
    def step(self) -> LogStep | None:
        """What the log must commit for the step that ends (``None``: nothing durable, or no
        log); the actor appends it (:meth:`~.actor.Table.carry`)."""
        if self.table_log is None:
            return None
        rows: list[LogRow] = []
        compact: int | None = None
        if not (self.keep_log and self.t.status == "closed"):  # a shutdown: the log stays as is
            rows, compact = self._step_rows()
        chips = self.chips.step_moves()
        if not (rows or compact is not None or self._drop_log or self._outbox or chips):
            return None
        outbox, self._outbox = self._outbox, []
        drop, self._drop_log = self._drop_log, False
        return LogStep(rows, compact, drop, outbox, chips)

    def fence_out(self) -> None:
        """Stop logging and sending for good (the table was taken over by another node): every
        held message is dropped; the caller detaches the connections."""
        self.out.fence_out()
        self.table_log = None
        self._outbox = []

    def _row(self, kind: str, data: dict[str, Any]) -> LogRow:
        self.log_seq += 1
        data["v"] = self.t.version
        return LogRow(self.t.id, self.log_seq, kind, data)

    def _step_rows(self) -> tuple[list[LogRow], int | None]:
        """The entries of this step (and a compaction point when a game started)."""
        t = self.t
        rows: list[LogRow] = []
        compact = None
        snap = self.snapshot()
        rec = t.recorder
        new_game = rec is not None and t.game_id is not None and t.game_id != self.logged_game
        if snap != self.logged_snapshot or new_game:
            # ``at``: when it was logged (a restore's last activity); not compared.
            rows.append(self._row("snapshot", {**snap, "at": t.clock.wall().isoformat()}))
            self.logged_snapshot = snap
            if new_game:
                compact = self.log_seq
        if new_game and rec is not None:
            rows.append(self._row("game", self.game_header()))
            self.logged_game, self.logged_actions = t.game_id, 0
        if rec is not None and t.game_id == self.logged_game:
            entries = rec.history.actions
            for entry in entries[self.logged_actions:]:
                rows.append(self._row("act", entry.to_json()))
            self.logged_actions = len(entries)
        return rows, compact

    def snapshot(self) -> dict[str, Any]:
        """The table facts a restore needs besides the game (see the module docstring)."""
        t = self.t
        return {
            "spec": self._spec_json,
            "status": t.status,
            "hand": t.hand,
            "dealer_seat": t._dealer_seat,
            "had_client": t.had_client,
            "next_seed": t.next_seed.hex(),
            "created_by": t.created_by,
            "created_at": t.created_at.isoformat(),
            "idle_since": None if t.idle_since is None else t.idle_since.isoformat(),
            "game_id": t.game_id if t.status == "playing" else None,
            "seats": [{"player_id": s.player_id, "name": s.name, "bot": s.bot,
                       "bot_kind": s.bot_kind, "token_hash": s.token_hash, "stack": s.stack,
                       "leaving": s.leaving, "client_seed": s.client_seed,
                       "stand_in": s.stand_in, "stand_in_from": s.stand_in_from,
                       "take_id": s.take_id, "funded": s.funded, "rebuys": s.rebuys,
                       "owner_id": s.owner_id,
                       "sitting_out": s.sitting_out}
                      for s in t.seats],
        }

    def game_header(self) -> dict[str, Any]:
        """The ``game`` entry of the running game (its seed stays server side)."""
        t = self.t
        assert t.recorder is not None and t.seed is not None and t.started_at is not None
        header = t.recorder.history.to_json()
        del header["actions"]
        return {"game_id": t.game_id, "seed": t.seed.hex(), "shuffle": SHUFFLE,
                "client_seeds": list(t.client_seeds), "seat_map": list(t.seat_map),
                "started_at": t.started_at.isoformat(), "history": header}


def spec_json(spec: Any) -> dict[str, Any]:
    """A :class:`~.actor.TableSpec` as JSON (``bots`` keys become strings; ``label`` only when set,
    ``watchable`` and ``rated`` only when ``False``, so the log of any other table is as before)."""
    return {"game": spec.game, "config": dict(spec.config), "num_seats": spec.num_seats,
            "turn_timeout_seconds": spec.turn_timeout_seconds,
            "starting_stack": spec.starting_stack,
            "bots": {str(k): v for k, v in spec.bots.items()},
            "next_hand_pause_seconds": spec.next_hand_pause_seconds,
            "bot_delay_seconds": spec.bot_delay_seconds,
            "idle_ttl_seconds": spec.idle_ttl_seconds,
            "abandoned_ttl_seconds": spec.abandoned_ttl_seconds,
            "abandon_after_seconds": spec.abandon_after_seconds,
            "private": spec.private, "invite_code": spec.invite_code,
            "stand_in_after_timeouts": spec.stand_in_after_timeouts,
            **({} if spec.label is None else {"label": spec.label}),
            **({} if spec.watchable else {"watchable": False}),
            **({} if spec.rated else {"rated": False})}
