"""People as entrants over REST (``docs/tournaments.md``, "People as entrants"; ``docs/rest.md``,
"Tournaments"): join, withdraw, start; the person's seat held at the director's table, nobody
watching a duplicate board; a no-show's stand-in plays and the tournament ends; a restart
while it registers keeps the entrants."""

from __future__ import annotations

import asyncio
import time
from contextlib import AsyncExitStack
from pathlib import Path

import httpx
from tests.server.conftest import ADMIN_TOKEN, GENEROUS_LIMITS, database_url, make_client  # noqa: F401
from tests.tournaments.test_rest import until
from tests.tournaments.tourkit import started_client

FAST = {"bot_delay_seconds": 0.0, "turn_timeout_seconds": 0.3}


async def guest(client: httpx.AsyncClient, name: str = "ana") -> dict[str, str]:
    res = await client.post("/api/players", json={"name": name})
    assert res.status_code == 201, res.text
    return {"Authorization": f"Bearer {res.json()['token']}"}


OPEN = {"game": "bazaar_blot", "format": "swiss", "rounds": 1, "boards_per_round": 1,
        "duplicate": True, "bots": 3, "open": True, "starts_in_seconds": 3600}


async def test_a_person_joins_plays_as_a_no_show_and_is_ranked(make_client) -> None:  # noqa: F811
    client = await make_client(**FAST)
    ana, bob = await guest(client), await guest(client, "bob")
    res = await client.post("/api/tournaments", json=OPEN, headers=ana)
    assert res.status_code == 201, res.text
    tid = res.json()["id"]
    assert res.json()["status"] == "registering" and res.json()["starts_at"]
    assert [t["id"] for t in (await client.get(
        "/api/tournaments", params={"status": "registering"})).json()] == [tid]
    res = await client.post(f"/api/tournaments/{tid}/join", headers=bob)
    assert res.status_code == 200, res.text
    me = res.json()["entrants"][-1]
    assert me["name"] == "bob" and me["bots"] == [None, "rule"]
    again = await client.post(f"/api/tournaments/{tid}/join", headers=bob)
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "tournament.already_entered"
    res = await client.post(f"/api/tournaments/{tid}/start", headers=bob)
    assert res.status_code == 403 and res.json()["error"]["code"] == "tournament.not_creator"
    res = await client.post(f"/api/tournaments/{tid}/start", headers=ana)
    assert res.status_code == 200, res.text
    doc = await until(client, tid, lambda d: d["status"] != "registering")
    assert doc["status"] == "running"
    [mine] = [t for t in doc["rounds"][0]["tables"] if me["id"] in t["seats"]]
    doc = await until(client, tid, lambda d: any(
        t["table_id"] for t in d["rounds"][0]["tables"] if me["id"] in t["seats"]))
    [mine] = [t for t in doc["rounds"][0]["tables"] if me["id"] in t["seats"]]
    table = (await client.get(f"/api/tables/{mine['table_id']}")).json()
    seat = mine["seats"].index(me["id"])
    assert table["watchable"] is False
    assert table["rated"] is False  # a live board's rating change would tell its result (A1b)
    assert table["seats"][seat]["player_id"] == me["player_id"]
    assert not table["seats"][seat]["bot"]
    late = await client.post(f"/api/tournaments/{tid}/join", headers=ana)
    assert late.status_code == 409 and late.json()["error"]["code"] == "tournament.closed"
    doc = await until(client, tid, lambda d: d["status"] != "running")
    assert doc["status"] == "finished", doc["error"]
    assert me["id"] in [s["entrant"] for s in doc["standings"]]
    [mine] = [t for t in doc["rounds"][0]["tables"] if me["id"] in t["seats"]]
    game = (await client.get(f"/api/games/{mine['game_id']}")).json()
    assert [s["seat"] for s in game["stand_ins"]] == [seat]  # the no-show's stand-in


async def test_withdraw_and_typed_refusals(make_client) -> None:  # noqa: F811
    client = await make_client(**FAST)
    ana = await guest(client)
    tid = (await client.post("/api/tournaments", json=OPEN, headers=ana)).json()["id"]
    res = await client.post(f"/api/tournaments/{tid}/withdraw", headers=ana)
    assert res.status_code == 409 and res.json()["error"]["code"] == "tournament.not_entered"
    assert (await client.post(f"/api/tournaments/{tid}/join", headers=ana)).status_code == 200
    res = await client.post(f"/api/tournaments/{tid}/withdraw", headers=ana)
    assert res.status_code == 200 and len(res.json()["entrants"]) == 3
    res = await client.post(f"/api/tournaments/{tid}/join")
    assert res.status_code == 401
    res = await client.post("/api/tournaments/nope/join", headers=ana)
    assert res.status_code == 404 and res.json()["error"]["code"] == "tournament.not_found"
    created = (await client.post("/api/tournaments", headers=ana, json={
        "game": "bazaar_blot", "rounds": 1, "boards_per_round": 1, "bots": 4})).json()
    res = await client.post(f"/api/tournaments/{created['id']}/join", headers=ana)
    assert res.status_code == 409 and res.json()["error"]["code"] == "tournament.closed"


async def test_too_few_entrants_cancel(make_client) -> None:  # noqa: F811
    client = await make_client(**FAST)
    ana = await guest(client)
    tid = (await client.post("/api/tournaments", headers=ana, json={**OPEN, "bots": 0})).json()["id"]
    await client.post(f"/api/tournaments/{tid}/join", headers=ana)
    await client.post(f"/api/tournaments/{tid}/start", headers=ana)
    doc = await until(client, tid, lambda d: d["status"] != "registering")
    assert doc["status"] == "cancelled" and "do not fill" in doc["error"]


async def test_a_restart_while_registering_keeps_the_entrants(tmp_path: Path) -> None:
    settings = {"database_url": f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}", **GENEROUS_LIMITS,
                **FAST}
    async with AsyncExitStack() as first:
        client = await started_client(first, settings)
        ana = await guest(client)
        tid = (await client.post("/api/tournaments", json=OPEN, headers=ana)).json()["id"]
        await client.post(f"/api/tournaments/{tid}/join", headers=ana)
    async with AsyncExitStack() as second:
        client = await started_client(second, settings)
        doc = (await client.get(f"/api/tournaments/{tid}")).json()
        assert doc["status"] == "registering" and len(doc["entrants"]) == 4
        res = await client.post(f"/api/tournaments/{tid}/start", headers=ana)
        assert res.status_code == 200, res.text
        doc = await until(client, tid, lambda d: d["status"] not in ("registering", "running"))
        assert doc["status"] == "finished", doc["error"]


async def test_a_person_plays_the_boards_of_a_round_one_after_the_other(make_client) -> None:  # noqa: F811
    client = await make_client(**FAST)
    ana = await guest(client)
    body = {**OPEN, "boards_per_round": 2}
    tid = (await client.post("/api/tournaments", json=body, headers=ana)).json()["id"]
    me = (await client.post(f"/api/tournaments/{tid}/join", headers=ana)).json()["entrants"][-1]
    await client.post(f"/api/tournaments/{tid}/start", headers=ana)
    doc = await until(client, tid, lambda d: d["status"] not in ("registering", "running"))
    assert doc["status"] == "finished", doc["error"]
    games = {t["board"]: (await client.get(f"/api/games/{t['game_id']}")).json()
             for t in doc["rounds"][0]["tables"] if me["id"] in t["seats"]}
    assert sorted(games) == [1, 2]
    assert games[2]["started_at"] >= games[1]["ended_at"]  # board 2 only after board 1


async def test_withdrawals_while_a_round_is_saved_end_it_finished(make_client) -> None:  # noqa: F811
    """Attack29: two of three entrants withdrew while the director saved their scored round
    1 (after it had looked whether enough were left): round 2 was paired for one entrant,
    the pairing raised and the tournament ended ``failed``. It ends ``finished`` instead."""
    client = await make_client(**FAST)
    ana, x, y = await guest(client), await guest(client, "x"), await guest(client, "y")
    body = {**OPEN, "bots": 1, "rounds": 2}
    tid = (await client.post("/api/tournaments", json=body, headers=ana)).json()["id"]
    for who in (x, y):
        assert (await client.post(f"/api/tournaments/{tid}/join", headers=who)).status_code == 200
    director = client._transport.app.state.tournaments  # type: ignore[attr-defined]
    save, pending = director.store.save_tournament, []

    async def save_then_withdraw(doc: dict) -> None:
        await save(doc)
        if not pending and doc["rounds"] and doc["rounds"][0]["status"] == "finished":
            pending.extend(asyncio.create_task(client.post(
                f"/api/tournaments/{tid}/withdraw", headers=who)) for who in (x, y))
            end = time.monotonic() + 10  # bounded: until both entrants are marked withdrawn
            while sum(bool(e.get("withdrawn")) for e in doc["entrants"]) < 2:
                assert time.monotonic() < end, "the withdrawals never landed"
                await asyncio.sleep(0.001)

    director.store.save_tournament = save_then_withdraw
    await client.post(f"/api/tournaments/{tid}/start", headers=ana)
    doc = await until(client, tid, lambda d: d["status"] not in ("registering", "running"))
    assert [r.status_code for r in await asyncio.gather(*pending)] == [200, 200]
    assert doc["status"] == "finished", doc["error"]
    assert len(doc["rounds"]) == 1


async def test_the_creator_or_the_admin_cancels_a_registering_tournament(make_client) -> None:  # noqa: F811
    """A registering tournament holds a place among the running ones (attack finding A3: 16
    empty 24-hour ones locked everyone out), so its creator or the admin may call it off."""
    client = await make_client(**FAST)
    ana, bob = await guest(client), await guest(client, "bob")
    tid = (await client.post("/api/tournaments", json=OPEN, headers=ana)).json()["id"]
    res = await client.post(f"/api/tournaments/{tid}/cancel", headers=bob)
    assert res.status_code == 403 and res.json()["error"]["code"] == "tournament.not_creator"
    res = await client.post(f"/api/tournaments/{tid}/cancel", headers=ana)
    assert res.status_code == 200 and res.json()["status"] == "cancelled", res.text
    doc = await until(client, tid, lambda d: d["status"] == "cancelled")
    assert doc["rounds"] == [] and "creator" in doc["error"]
    res = await client.post(f"/api/tournaments/{tid}/join", headers=bob)
    assert res.status_code == 409 and res.json()["error"]["code"] == "tournament.closed"
    other = (await client.post("/api/tournaments", json=OPEN, headers=bob)).json()["id"]
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    res = await client.post(f"/api/admin/tournaments/{other}/cancel", headers=admin)
    assert res.status_code == 200 and res.json()["status"] == "cancelled", res.text
    res = await client.post(f"/api/admin/tournaments/{other}/cancel", headers=admin)
    assert res.status_code == 409 and res.json()["error"]["code"] == "tournament.closed"
    res = await client.post(f"/api/admin/tournaments/{other}/cancel", headers=ana)
    assert res.status_code == 401
    audit = (await client.get("/api/admin/audit", headers=admin)).json()
    assert any(e["action"] == "tournament.cancel" and e["target"] == other
               for e in audit.get("items", audit))


async def test_a_join_whose_save_fails_changes_nothing(make_client) -> None:  # noqa: F811
    """Attack finding: a join whose document could not be saved answered an error but stayed
    in memory (played, yet never stored). Now the live document is put back."""
    client = await make_client(**FAST)
    ana = await guest(client)
    tid = (await client.post("/api/tournaments", json=OPEN, headers=ana)).json()["id"]
    director = client._transport.app.state.tournaments  # type: ignore[attr-defined]
    save = director.store.save_tournament

    async def broken(doc: dict) -> None:
        raise OSError("disk full")

    director.store.save_tournament = broken
    res = await client.post(f"/api/tournaments/{tid}/join", headers=ana)
    assert res.status_code >= 500
    assert len(director.live[tid]["entrants"]) == 3
    director.store.save_tournament = save
    res = await client.post(f"/api/tournaments/{tid}/join", headers=ana)
    assert res.status_code == 200 and len(res.json()["entrants"]) == 4
