"""Chip balances of the :class:`~.memory.MemoryStore` (one of its role objects): the same
behaviour as the SQL store's ``sql_chips.py``, in dicts. Every method runs without an
``await`` between its read and its write, so each is atomic on the event loop."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from .chips import CHIPS_START, ChipMove, ChipTake, hold_amount, hold_key, settle_key


class MemoryChips:
    """Balances, keyed moves and holds kept in dicts (:class:`~.interface.ChipStore`).

    Args:
        fences: table id -> lease epoch (the table log's, read here: a hold of a table taken
            over is refused).
    """

    def __init__(self, fences: dict[str, int]) -> None:
        self.fences = fences
        self.chips: dict[str, int] = {}
        """player id -> chip balance (absent: :data:`CHIPS_START`)."""
        self.topped_up: dict[str, datetime] = {}
        self.chip_moves: dict[str, ChipMove] = {}
        """key -> applied move (each key moves a balance once)."""

    def apply_chips(self, moves: Sequence[ChipMove]) -> None:
        """Apply each move whose key is new (see :class:`ChipMove`)."""
        for move in moves:
            if move.key in self.chip_moves:
                continue
            self.chip_moves[move.key] = move
            self.chips[move.player_id] = self.chips.get(move.player_id, CHIPS_START) + move.delta

    def _topped_up(self, player_id: str, top_up_below: int, top_up_to: int,
                   top_up_every_seconds: float, now: datetime | None) -> int:
        now = now or datetime.now(UTC)
        balance = self.chips.get(player_id, CHIPS_START)
        last = self.topped_up.get(player_id)
        if balance < min(top_up_below, top_up_to + 1) and (last is None or
                                       (now - last).total_seconds() >= top_up_every_seconds):
            balance = self.chips[player_id] = max(balance, top_up_to)
            self.topped_up[player_id] = now
        return balance

    async def chip_balance(self, player_id: str, *, top_up_below: int = 0,
                           top_up_to: int = CHIPS_START, top_up_every_seconds: float = 0.0,
                           now: datetime | None = None) -> int:
        return self._topped_up(player_id, top_up_below, top_up_to, top_up_every_seconds, now)

    async def hold_chips(self, player_id: str, hold_id: str, *, asked: int | None, most: int,
                         table_id: str | None = None, epoch: int | None = None,
                         top_up_below: int = 0, top_up_to: int = CHIPS_START,
                         top_up_every_seconds: float = 0.0,
                         now: datetime | None = None) -> ChipTake | None:
        if epoch is not None and table_id is not None and self.fences.get(table_id) != epoch:
            return None
        done = self.chip_moves.get(hold_key(hold_id))
        if done is not None:  # a retry: the first answer
            return ChipTake(self.chips.get(player_id, CHIPS_START) - done.delta, -done.delta)
        balance = self._topped_up(player_id, top_up_below, top_up_to, top_up_every_seconds,
                                  now)
        take = hold_amount(asked, balance, most)
        if take:
            self.apply_chips([ChipMove(hold_key(hold_id), player_id, -take, "hold", table_id)])
        return ChipTake(balance, take)

    async def release_hold(self, player_id: str, hold_id: str) -> int:
        hold = self.chip_moves.get(hold_key(hold_id))
        if hold is None:  # never written: it never will be
            self.chip_moves[hold_key(hold_id)] = ChipMove(hold_key(hold_id), player_id, 0, "void")
            return 0
        return self._release(hold)

    def _release(self, hold: ChipMove) -> int:
        key = settle_key(hold.key.removeprefix("hold:"))
        if key in self.chip_moves:
            return 0
        self.apply_chips([ChipMove(key, hold.player_id, -hold.delta, "settle", hold.table_id)])
        return -hold.delta

    async def release_stale_holds(self, table_id: str | None = None) -> int:
        stale = [m for m in self.chip_moves.values() if m.reason == "hold"
                 and (table_id is None or m.table_id == table_id)]
        return sum(self._release(m) for m in stale)
