"""Issue 27 case 3: during a database outage a node that still serves stays in the balancer
and a client whose connection blips resumes its seat (``docs/operations.md``, "Health
endpoints"; ``docs/security.md``, "The identity cache").

A real ``cardhall serve`` on PostgreSQL through a TCP proxy (``dbproxy.py``) the test stops.
A player joins a table (its ``hello`` was answered by the database), its socket drops, the
database goes away; then ``/readyz`` must answer 200 ``degraded`` on every poll (the shipped
HAProxy config expects 200: before, it answered 503 from the first poll on and every node left
the balancer), a new socket's ``hello`` with the same token gets ``welcome`` (before:
``server.unavailable: ConnectionRefusedError``) and the ``join`` with its seat token resumes
the seat. A token this process never saw still gets ``server.unavailable``. Once the database
is back ``/readyz`` is ``ready`` again.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from dbproxy import db_proxy
from livesrv import Client
from procsrv import ProcServer
from test_outage_restart_process import ENV, database
from websockets.asyncio.client import connect

pytestmark = [pytest.mark.slow, pytest.mark.postgres]


async def test_readyz_is_degraded_not_503_and_hello_resumes_during_an_outage(
        tmp_path: Path) -> None:
    async with database() as dbname, db_proxy("127.0.0.1", 5432) as proxy:
        env = {**ENV, "CARDHALL_CHIP_BALANCES": "true", "CARDHALL_DATABASE_URL":
               f"postgresql+asyncpg://postgres@127.0.0.1:{proxy.port}/{dbname}",
               "CARDHALL_LOG_SPILL_PATH": str(tmp_path / "spill.db")}
        srv = ProcServer(tmp_path, env)
        await srv.start()
        try:
            async with srv.http() as http:
                tokens = []
                for name in ("ana", "never-said-hello"):
                    r = await http.post("/api/players", json={"name": name})
                    assert r.status_code == 201, r.text
                    tokens.append(r.json()["token"])
                r = await http.post("/api/tables", headers={"Authorization": f"Bearer {tokens[0]}"},
                                    json={"game": "palace_poker", "seats": 3,
                                          "starting_stack": 200, "bots": [{"seat": 1, "kind": "rule"},
                                                   {"seat": 2, "kind": "rule"}]})
                assert r.status_code == 201, r.text
                table_id = r.json()["id"]
                async with connect(srv.ws_url) as ws:
                    c = Client(ws)
                    await c.hello(tokens[0])
                    await c.send({"type": "join", "table_id": table_id, "seat": 0})
                    seat_token = (await c.expect("joined"))["seat_token"]
                # the socket blipped; now the database goes away
                await proxy.refuse()
                statuses = []
                t0 = time.monotonic()
                while time.monotonic() - t0 < 4.0:  # a few health-check intervals
                    r = await http.get("/readyz")
                    statuses.append((r.status_code, r.json()["status"]))
                    await asyncio.sleep(0.2)  # the balancer's polling interval, shortened
                codes = [code for code, _ in statuses]
                print("readyz during the outage:", {c: codes.count(c) for c in set(codes)})
                assert set(codes) == {200}, statuses
                assert statuses[-1][1] == "degraded", statuses

                async with connect(srv.ws_url) as ws:
                    c = Client(ws)
                    await c.send({"type": "hello", "token": tokens[0]})
                    answer = await c.until(lambda m: m["type"] in ("welcome", "error"))
                    assert answer["type"] == "welcome", answer
                    await c.send({"type": "join", "table_id": table_id, "seat": 0,
                                  "seat_token": seat_token})
                    joined = await c.until(lambda m: m["type"] in ("joined", "error"))
                    assert joined["type"] == "joined" and joined["resumed"] is True, joined
                async with connect(srv.ws_url) as ws:  # never seen: the database must answer
                    c = Client(ws)
                    await c.send({"type": "hello", "token": tokens[1]})
                    answer = await c.until(lambda m: m["type"] in ("welcome", "error"))
                    assert answer["type"] == "error" and answer["code"] == "server.unavailable"

                await proxy.forward()
                async with asyncio.timeout(30):
                    while (await http.get("/readyz")).json()["status"] != "ready":
                        await asyncio.sleep(0.1)  # polling the recovery, bounded
        finally:
            await srv.stop()
