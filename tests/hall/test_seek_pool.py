"""The seek pool (``hall/seekpool.py``) over a fake hall and a fake clock: a wait widens the
window until far-apart players meet, tables go through the hall, refusals, expiry, cancel."""

from __future__ import annotations

from typing import Any

import pytest

from cardhall.engine import InvalidConfigError, UnknownGameError
from cardhall.hall.seekpool import SeekError, SeekPool
from cardhall.storage.interface import PlayerRecord
from cardhall.tables.clock import FakeClock
from cardhall.tables.errors import TableLimitError, TableQuotaError

GAME = "soldiers_bluff"


class FakeHall:
    """Records each ``create``; ``refuse`` makes the next creates raise."""

    def __init__(self) -> None:
        self.created: list[dict[str, Any]] = []
        self.refuse: list[Exception] = []

    async def create(self, game: str, **kwargs: Any) -> dict[str, Any]:
        if self.refuse:
            raise self.refuse.pop(0)
        self.created.append({"game": game, **kwargs})
        return {"id": f"t{len(self.created)}", "game": game}


def account(name: str) -> PlayerRecord:
    return PlayerRecord(f"id-{name}", name, username=name)


def make(ratings: dict[str, int], **kw: Any) -> tuple[SeekPool, FakeHall, FakeClock]:
    hall, clock = FakeHall(), FakeClock()

    async def rating_of(player_id: str, game: str) -> int:
        return ratings.get(player_id, 1000)

    return SeekPool(hall, rating_of, clock, **kw), hall, clock


async def test_a_wait_widens_the_window_until_far_apart_players_meet() -> None:
    pool, hall, clock = make({"id-a": 1000, "id-b": 1420})
    a = await pool.add(account("a"), GAME, rated=True)
    b = await pool.add(account("b"), GAME, rated=True)
    for _ in range(34):  # +-400 after 30 s of waiting: not yet a 420 gap
        clock.advance(1.0)
        await pool.tick()
        assert (a.status, b.status) == ("waiting", "waiting")
        assert hall.created == []
    assert pool.public(a)["rating_min"] == 600 and pool.public(b)["rating_max"] == 1820
    clock.advance(1.0)  # 35 s: +-450
    await pool.tick()
    assert (a.status, b.status) == ("seated", "seated")
    assert (a.table_id, a.seat, b.table_id, b.seat) == ("t1", 0, "t1", 1)
    assert a.invite_code == b.invite_code and a.invite_code
    assert hall.created == [{"game": GAME, "created_by": "id-a", "created_from": None,
                             "num_seats": 2, "private": True, "invite_code": a.invite_code,
                             "rated": True}]  # a rated group plays a rated table
    assert pool.public(a)["waited_ms"] == 35_000 and pool.public(a)["rating_min"] is None


async def test_close_ratings_meet_on_the_second_seek() -> None:
    pool, hall, _ = make({"id-a": 1500, "id-b": 1560})
    await pool.add(account("a"), GAME, rated=True)
    b = await pool.add(account("b"), GAME, rated=True)
    assert b.status == "seated" and len(hall.created) == 1


async def test_one_waiting_seek_per_player_and_rated_needs_an_account() -> None:
    pool, _, _ = make({})
    first = await pool.add(account("a"), GAME)
    with pytest.raises(SeekError) as err:
        await pool.add(account("a"), GAME, rated=True)
    assert err.value.code == "seek.already_waiting" and first.id in err.value.message
    with pytest.raises(SeekError) as err:
        await pool.add(PlayerRecord("g", "guest"), GAME, rated=True)
    assert err.value.code == "seek.needs_account"
    with pytest.raises(UnknownGameError):
        await pool.add(account("b"), "chess")
    with pytest.raises(InvalidConfigError, match="seats=9"):
        await pool.add(account("b"), GAME, seats=9)
    assert len(pool.entries) == 1  # refusals change nothing


async def test_quota_cancels_the_creator_a_limit_leaves_everyone_waiting() -> None:
    pool, hall, clock = make({})
    hall.refuse = [TableLimitError("full")]
    a = await pool.add(account("a"), GAME)
    b = await pool.add(account("b"), GAME)
    assert (a.status, b.status) == ("waiting", "waiting")
    hall.refuse = [TableQuotaError("a has 5 tables")]
    clock.advance(1.0)
    await pool.tick()
    assert (a.status, a.reason, b.status) == ("cancelled", "quota.tables", "waiting")
    c = await pool.add(account("c"), GAME)
    assert (b.status, c.status, b.seat, c.seat) == ("seated", "seated", 0, 1)


async def test_expiry_cancel_and_forgetting() -> None:
    pool, _, clock = make({"id-b": 3000}, ttl_seconds=30.0, keep_seconds=10.0,
                          )
    a = await pool.add(account("a"), GAME, rated=True)
    b = await pool.add(account("b"), GAME, rated=True)
    assert (await pool.cancel(b.id, "id-b")).status == "cancelled"
    with pytest.raises(SeekError) as err:
        pool.get(a.id, "id-b")  # another's seek is not found
    assert err.value.code == "seek.not_found"
    clock.advance(30.0)
    await pool.tick()
    assert (a.status, pool.public(a)["expires_in_ms"]) == ("expired", None)
    again = await pool.add(account("a"), GAME)  # a finished seek frees the player
    clock.advance(10.0)
    await pool.tick()
    assert a.id not in pool.entries and again.id in pool.entries


async def test_quick_match_completes_a_waiting_rated_group_else_none() -> None:
    pool, hall, _ = make({"id-a": 1500, "id-q": 1540, "id-far": 2200})
    a = await pool.add(account("a"), GAME, rated=True)
    assert await pool.quick_match(PlayerRecord("g", "guest"), GAME) is None
    assert await pool.quick_match(account("far"), GAME) is None
    found = await pool.quick_match(account("q"), GAME, created_from="10.0.0.0")
    assert found is not None
    table, seat, code = found
    assert (table["id"], seat, a.status, a.seat, a.invite_code) == ("t1", 0, "seated", 1, code)
    assert hall.created[0]["created_by"] == "id-q"
    assert await pool.quick_match(account("r"), GAME) is None  # nobody waits now


async def test_draining_seats_nobody() -> None:
    draining = [True]
    pool, hall, _ = make({}, draining=lambda: draining[0])
    a = await pool.add(account("a"), GAME)
    await pool.add(account("b"), GAME)
    assert a.status == "waiting" and hall.created == []
    draining[0] = False
    await pool.tick()
    assert a.status == "seated"
    await pool.stop()


async def test_quick_match_without_a_rating_leaves_the_free_seat_rule() -> None:
    pool, hall, _ = make({})
    await pool.add(account("a"), GAME, rated=True)

    async def down(player_id: str, game: str) -> int:
        raise TimeoutError("the database did not answer")

    pool.rating_of = down
    assert await pool.quick_match(account("q"), GAME) is None and hall.created == []
