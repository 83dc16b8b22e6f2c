"""Cluster mode: an identity-cache invalidation on one node drops the player's entries on
every node through the Redis bus (``cluster/authbus.py``, ``server/authcache.py``; issue 26),
with no socket of that player on the other node to carry it; a node whose bus lost messages
drops its whole cache."""

from __future__ import annotations

from hallkit import hall, until

from cardhall.server.authcache import AuthCache
from cardhall.server.lifespan import share_auth_cache
from cardhall.storage.interface import PlayerRecord

ANA = PlayerRecord(id="p1", name="ana")
BO = PlayerRecord(id="p2", name="bo")


async def test_a_ban_on_one_node_drops_the_cached_identity_on_the_other(
        redis_url: str, redis_prefix: str) -> None:
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        caches = [AuthCache(fresh_seconds=300), AuthCache(fresh_seconds=300)]
        for node, cache in zip((a, b), caches, strict=True):
            share_auth_cache(cache, node.node)
            cache.put("tok-ana", ANA)
            cache.put("tok-bo", BO)
        on_a, on_b = caches
        on_a.invalidate({"p1"})  # what a ban, a revocation or a disable on node a does
        assert on_a.fresh("tok-ana") is None
        await until(lambda: on_b.fresh("tok-ana") is None, 5.0, "node b dropped ana")
        assert on_b.fresh("tok-bo") == BO and on_a.fresh("tok-bo") == BO  # only ana


async def test_a_node_whose_bus_lost_messages_drops_its_whole_cache(
        redis_url: str, redis_prefix: str) -> None:
    async with hall(redis_url, redis_prefix, 1) as (a,):
        cache = AuthCache(fresh_seconds=300)
        share_auth_cache(cache, a.node)
        cache.put("tok-ana", ANA)
        assert a.node.bus.on_gap is not None
        a.node.bus.on_gap()  # what the subscriber does when it reads again after a failure
        assert cache.fresh("tok-ana") is None


async def test_a_ban_drops_the_identity_on_every_node_before_that_node_kicks(
        redis_url: str, redis_prefix: str) -> None:
    """The order a ban's route keeps (``admin_players.ban``): the cache first, then the kicks.
    On the other node both arrive on the bus, the invalidation queued first, and one reader
    handles a node's messages in order: so when node b runs its part of the kick, its cache
    has already dropped the player, and a ``join`` sent on b during the kicks asks the
    database (which says banned) instead of the cached identity."""
    async with hall(redis_url, redis_prefix, 2) as (a, b):
        caches = [AuthCache(fresh_seconds=300), AuthCache(fresh_seconds=300)]
        for node, cache in zip((a, b), caches, strict=True):
            share_auth_cache(cache, node.node)
            cache.put("tok-ana", ANA)
        on_a, on_b = caches
        seen_on_b: list[PlayerRecord | None] = []
        kick_on_b = b.manager.kick_player

        async def watched_kick(player_id: str, reason: str = "kicked") -> list[str]:
            seen_on_b.append(on_b.fresh("tok-ana"))
            return await kick_on_b(player_id, reason=reason)

        b.manager.kick_player = watched_kick  # type: ignore[method-assign]
        on_a.invalidate({"p1"})  # the route's order: the cache, then every node's kick
        await a.hall.kick_player("p1", reason="banned")
        assert seen_on_b == [None]  # node b ran its kick with ana already dropped
