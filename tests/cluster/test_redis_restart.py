"""When Redis restarts (every lease gone at once, every owner alive) the tables stay where they
are; a ``moved`` event a node missed is caught up at its next tick (``cluster/node.py``)."""

from __future__ import annotations

from typing import Any

from hallkit import hall, until


async def test_after_a_redis_restart_owners_take_their_leases_back_first(
        redis_url: str, redis_prefix: str) -> None:
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        table = await a.manager.create("bazaar_blot", bots={s: "rule" for s in range(4)})
        await b.node.scan()  # b has seen this Redis
        real_info = b.node.redis.info

        async def restarted(section: str) -> dict[str, Any]:
            info = dict(await real_info(section))
            info["run_id"] = "0" * 40  # another server: Redis restarted
            return info

        b.node.redis.info = restarted  # type: ignore[method-assign]
        await a.node.redis.delete(a.node.keys.lease(table.id))  # the restart lost every key
        await b.node.scan()
        assert b.node.takeovers == 0 and table.id not in b.node.owned
        await a.node._tick()  # the owner renews: the key is gone, so it takes it back
        assert await a.node.redis.get(a.node.keys.lease(table.id)) == "a"
        assert table.id in a.node.owned and not table.stopped


async def test_a_missed_moved_event_is_caught_up_at_the_next_tick(
        redis_url: str, redis_prefix: str) -> None:
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        table = await a.manager.create("bazaar_blot", bots={s: "rule" for s in range(3)})
        conn = await b.socket("ana")
        await b.send(conn, {"type": "join", "table_id": table.id, "seat": 3})
        await until(lambda: (conn.id + "." + b.node.incarnation, table.id) in b.node.sockets.roles,
                    what="b noted the seat")
        await b.node._tick()
        assert b.node._owners[table.id] == "a"
        rejoined: list[str] = []
        b.node.sockets.rejoin = lambda t: rejoined.append(t) or 0  # type: ignore[method-assign]
        await a.node.redis.set(a.node.keys.lease(table.id), "c")  # moved; b heard nothing
        await b.node._tick()
        assert rejoined == [table.id] and b.node._owners[table.id] == "c"
        await b.node._tick()
        assert rejoined == [table.id]  # once
