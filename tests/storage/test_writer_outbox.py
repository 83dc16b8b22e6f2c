"""The game writer in outbox mode (the durable server: ``max_attempts=None, outbox=True``):
it retries a database outage forever, saves from the outbox, and what it cannot save by
:meth:`GameWriter.close` (or refuses when full) is deferred to the next start, not lost; a
record the database refuses is still lost (retrying cannot help)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime

from cardhall.storage import GameRecord, GameWriter, MemoryStore, SeatResult
from cardhall.storage.interface import LogBatch

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def record(game_id: str) -> GameRecord:
    return GameRecord(game_id, "blot", "t1", {"id": game_id}, {}, [SeatResult(0, "a", 1)], T0, T0)


class FlakyStore(MemoryStore):
    """``down``: every save raises ``ConnectionError``; a ``poison`` id raises ``ValueError``."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.poison: str | None = None
        self.attempts = 0
        self.outbox_flags: list[bool] = []

    async def save_games(self, records: Sequence[GameRecord], *,
                         from_outbox: bool = False) -> list[bool]:
        self.attempts += 1
        self.outbox_flags.append(from_outbox)
        await asyncio.sleep(0)
        if self.down:
            raise ConnectionError("database went away")
        if self.poison in {r.game_id for r in records}:
            raise ValueError(f"bad record {self.poison}")
        return await super().save_games(records, from_outbox=from_outbox)


async def no_sleep(_seconds: float) -> None:
    await asyncio.sleep(0)


def outbox_writer(store: FlakyStore, **kwargs: object) -> GameWriter:
    return GameWriter(store, max_attempts=None, outbox=True, sleep=no_sleep,  # type: ignore[arg-type]
                      **kwargs)


async def wait_for(pred: object) -> None:
    async with asyncio.timeout(10):
        while not pred():  # type: ignore[operator]
            await asyncio.sleep(0.001)  # polling a condition, bounded by the timeout


async def test_an_outage_is_retried_past_any_attempt_limit_then_saved_and_out_of_the_outbox(
        ) -> None:
    store = FlakyStore()
    await store.write_log(LogBatch(outbox=[record("g1"), record("g2")]))
    store.down = True
    writer = outbox_writer(store)
    writer.start()
    writer.submit(record("g1"))
    writer.submit(record("g2"))
    await wait_for(lambda: writer.attempts_failed >= 20)  # the default limit is 6
    assert writer.failed == 0 and writer.saved == 0 and writer.queued == 2
    store.down = False
    async with asyncio.timeout(10):
        await writer.flush()
    assert writer.saved == 2 and writer.failed == 0 and writer.deferred == 0
    assert set(store.games) == {"g1", "g2"} and store.outbox == {}
    assert all(store.outbox_flags)
    await writer.close()


async def test_close_while_the_database_is_down_defers_instead_of_losing() -> None:
    store = FlakyStore()
    store.down = True
    writer = outbox_writer(store, batch_size=1)
    writer.start()
    for i in range(3):
        writer.submit(record(f"g{i}"))
    await wait_for(lambda: writer.attempts_failed >= 3)
    await writer.close(timeout=0.05)
    assert not writer.running
    assert writer.deferred == 3 and writer.failed == 0 and writer.queued == 0


async def test_a_full_queue_defers_and_a_refused_record_is_lost() -> None:
    store = FlakyStore()
    store.poison = "bad"
    writer = outbox_writer(store, max_queued=2)
    for game_id in ("ok", "bad", "late"):  # not started: the third finds the queue full
        writer.submit(record(game_id))
    assert writer.deferred == 1 and writer.failed == 0
    writer.start()
    async with asyncio.timeout(10):
        await writer.flush()
    assert set(store.games) == {"ok"} and writer.failed == 1  # retrying cannot help a bad record
    await writer.close()
