"""Random client traffic at a real game's table (fake clock): joins, acts (legal, illegal and
malformed), leaves, resyncs, disconnects and ticks from five connections, each message first
parsed by the wire protocol exactly as a socket would. No message may break the table: it
never stops and nothing is logged as a failure (``design.md`` section 7: bad input gets a
typed error and changes nothing)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from pydantic import ValidationError
from tablekit import Harness

from cardhall.engine import game_names
from cardhall.protocol import messages as p
from cardhall.tables.messages import ClientRequest, Disconnected

WEIRD: list[Any] = [None, True, 0, -1, 1.5, 2**63, "", "Js", "x" * 200, "\u00e9", [], {},
                    ["Js"], [[]], {"a": [1]}, [None]]
TYPES = ["play", "bid", "pass", "raise", "exchange", "battle", "discard", "buy", "fold", "call",
         "deal", "kapot", "contra"]
FIELDS = ["card", "cards", "to", "by", "target", "extra", "level", "trump", "declare", "hands",
          "zz"]


def concrete(entry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Some instance of a legal-action entry (not always a legal one)."""
    action = {"type": entry["type"]}
    for k, v in entry.items():
        if k.endswith("_from"):
            action[k[:-5]] = rng.sample(v, min(len(v), rng.randint(0, 2)))
        elif k.startswith("min_"):
            action[k[4:]] = v
        elif k != "type" and not k.startswith("max_"):
            action[k] = v
    return action


def random_request(table: Any, conn: Any, rng: random.Random) -> dict[str, Any] | None:
    kind = rng.choice(["join", "act", "act", "act", "leave", "resync"])
    raw: dict[str, Any] = {"type": kind, "table_id": table.id}
    if kind == "join":
        if rng.random() < .5:
            raw["seat"] = rng.randint(0, 5)
        if rng.random() < .2:
            raw["spectate"] = rng.random() < .5
        if rng.random() < .3:
            raw["seat_token"] = rng.choice(["x", "\u00e9", table.seats[0].token or "y"])
    elif kind == "act":
        states = conn.of_type("state")
        legal = states[-1].legal_actions if states else []
        if legal and rng.random() < 0.5:
            action = concrete(rng.choice(legal), rng)
        else:
            action = {"type": rng.choice([*TYPES, rng.choice(WEIRD)])}
            for _ in range(rng.randint(0, 3)):
                action[rng.choice(FIELDS)] = rng.choice(WEIRD)
        raw.update(version=max(0, table.version - rng.randint(0, 1)),
                   action_id=f"a{rng.randint(0, 30)}", action=action)
        if rng.random() < .2:
            raw["seat"] = rng.randint(0, 5)
    return raw


@pytest.mark.parametrize("game", [g for g in ("soldiers_bluff", "palace_poker", "bazaar_blot")
                                  if g in game_names()])
async def test_random_traffic_never_breaks_a_table(
        h: Harness, game: str, caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random(game)
    n = 4 if game == "bazaar_blot" else 3
    table = await h.manager.create(game, num_seats=n, bots={n - 1: "random"})
    # everyone leaving between hands would (rightly) reap the table after 1 s, everyone
    # disconnected for 60 s would abandon it; keep it open
    table.spec = dataclasses.replace(table.spec, abandoned_ttl_seconds=1e9,
                                     abandon_after_seconds=1e9)
    conns = [await h.player(f"p{i}") for i in range(5)]
    for step in range(1500):
        conn = rng.choice(conns)
        roll = rng.random()
        if roll < 0.05:
            table.post(Disconnected(conn))
        elif roll < 0.15:
            await h.advance(table, rng.choice([0.5, 1.0, 10.0]))
            continue
        else:
            try:
                msg = p.CLIENT.validate_python(random_request(table, conn, rng))
            except ValidationError:
                continue
            table.post(ClientRequest(conn, msg))
        await h.settle(table)
        assert not table.stopped, (step, caplog.text[-2000:])
    assert table.hand >= 1 and "Traceback" not in caplog.text
