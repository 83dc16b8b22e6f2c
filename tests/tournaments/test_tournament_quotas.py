"""Tournament quotas (attacker finding F2: five guests made 643 bot tables in 2 s): a global
cap of running tournaments and of tournament tables, a per-address cap of running
tournaments, and a tournament's tables counted against its creator's table quota
(``docs/tournaments.md``, "Limits")."""

from __future__ import annotations

from typing import Any

import httpx
from tests.server.conftest import GENEROUS_LIMITS, database_url, make_client  # noqa: F401
from tests.tournaments.test_rest import BODY, guest, until

SLOW = {"bot_delay_seconds": 5.0}  # the tournaments stay running


async def guest_id(client: httpx.AsyncClient) -> tuple[str, dict[str, str]]:
    res = await client.post("/api/players", json={"name": "bea"})
    assert res.status_code == 201, res.text
    return res.json()["id"], {"Authorization": f"Bearer {res.json()['token']}"}


def _app(client: httpx.AsyncClient) -> Any:
    return client._transport.app  # type: ignore[attr-defined]


async def test_global_cap_of_running_tournaments(make_client) -> None:  # noqa: F811
    client = await make_client(**SLOW, max_running_tournaments=2)
    for _ in range(2):
        auth = await guest(client)
        assert (await client.post("/api/tournaments", json=BODY, headers=auth)).status_code == 201
    res = await client.post("/api/tournaments", json=BODY, headers=await guest(client))
    assert res.status_code == 503, res.text
    assert res.json()["error"]["code"] == "tournament.limit"
    assert "max_running_tournaments" in res.json()["error"]["message"]
    assert res.headers["Retry-After"] == "60"
    assert len((await client.get("/api/tournaments")).json()) == 2  # nothing was created


async def test_per_address_cap_of_running_tournaments(make_client) -> None:  # noqa: F811
    client = await make_client(**SLOW, max_running_tournaments_per_address=2)
    for _ in range(2):  # two guests from the one address of the test client
        auth = await guest(client)
        assert (await client.post("/api/tournaments", json=BODY, headers=auth)).status_code == 201
    res = await client.post("/api/tournaments", json=BODY, headers=await guest(client))
    assert res.status_code == 429, res.text
    assert res.json()["error"]["code"] == "quota.tournaments"
    assert "max_running_tournaments_per_address" in res.json()["error"]["message"]
    assert len((await client.get("/api/tournaments")).json()) == 2


async def test_per_player_cap_is_a_setting(make_client) -> None:  # noqa: F811
    client = await make_client(**SLOW, max_running_tournaments_per_player=1)
    auth = await guest(client)
    assert (await client.post("/api/tournaments", json=BODY, headers=auth)).status_code == 201
    res = await client.post("/api/tournaments", json=BODY, headers=auth)
    assert res.status_code == 429 and res.json()["error"]["code"] == "quota.tournaments"


def _peak_tables(manager: Any) -> list[int]:
    """Wrap ``manager.create``: the live tables at each creation, after it (the peak)."""
    seen: list[int] = []
    create = manager.create

    async def counting(*args: Any, **kwargs: Any) -> Any:
        table = await create(*args, **kwargs)
        seen.append(sum(1 for t in manager.tables.values() if not t.stopped))
        return table

    manager.create = counting
    return seen


async def test_tournament_tables_count_against_the_creators_table_quota(make_client) -> None:  # noqa: F811
    """8 entrants, 1 board: 4 tables a round; with ``max_live_tables_per_player`` 2 the
    director runs at most 2 at once (the others wait for room), all the creator's, and the
    tournament still finishes."""
    client = await make_client(bot_delay_seconds=0.0, max_live_tables_per_player=2)
    seen = _peak_tables(_app(client).state.tables)
    me, auth = await guest_id(client)
    body = {**BODY, "bots": 8, "rounds": 1}
    tid = (await client.post("/api/tournaments", json=body, headers=auth)).json()["id"]
    doc = await until(client, tid, lambda d: d["status"] != "running")
    assert doc["status"] == "finished", doc["error"]
    assert len(doc["rounds"][0]["tables"]) == 4 and len(seen) == 4
    assert max(seen) <= 2, seen
    manager = _app(client).state.tables
    assert manager.live_tables_created_by(me) == 0  # all closed


async def test_a_running_tournament_uses_the_creators_table_quota(make_client) -> None:  # noqa: F811
    client = await make_client(**SLOW, max_live_tables_per_player=2)
    me, auth = await guest_id(client)
    tid = (await client.post("/api/tournaments", json={**BODY, "bots": 8, "rounds": 1},
                             headers=auth)).json()["id"]
    doc = await until(client, tid, lambda d: sum(bool(t["table_id"])
                                                 for t in d["rounds"][0]["tables"]) >= 2)
    tables = [t for t in doc["rounds"][0]["tables"] if t["table_id"]]
    assert len(tables) == 2  # the other two wait for room
    for t in tables:
        assert (await client.get(f"/api/tables/{t['table_id']}")).json()["created_by"] == me
    res = await client.post("/api/tables", json={"game": "bazaar_blot"}, headers=auth)
    assert res.status_code == 429 and res.json()["error"]["code"] == "quota.tables"


async def test_global_cap_of_tournament_tables(make_client) -> None:  # noqa: F811
    client = await make_client(bot_delay_seconds=0.0, max_tournament_tables=3)
    seen = _peak_tables(_app(client).state.tables)
    ids = []
    for _ in range(2):  # two players, 4 tables a round each: at most 3 at once in all
        auth = await guest(client)
        body = {**BODY, "bots": 8, "rounds": 1}
        ids.append((await client.post("/api/tournaments", json=body, headers=auth)).json()["id"])
    for tid in ids:
        doc = await until(client, tid, lambda d: d["status"] != "running")
        assert doc["status"] == "finished", doc["error"]
    assert len(seen) == 8 and max(seen) <= 3, seen
