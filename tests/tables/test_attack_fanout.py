"""Adversarial protocol-2 fan-out checks: random role switches (spectate, sit, leave, resume
on another socket, kick, disconnect, resync, act) at real games' tables, on the fake clock.

After every message, each connection that is a recipient of the table's frames must hold
(rebuilt from full states and deltas by the client rule) exactly what a fresh ``resync``
would give it, and no frame may ever show a card hidden from its recipient."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from tablekit import Harness, LeakCheckingConnection
from test_actor_fuzz import concrete

from cardhall.protocol import messages as p
from cardhall.tables.actor import Table
from cardhall.tables.messages import ClientRequest, Disconnected

VOLATILE = ("deadline_ms",)


class Client(LeakCheckingConnection):
    """A socket client: applies deltas, and on a gap asks for a full state (as the SDK)."""

    def __init__(self, player: Any, table: Table) -> None:
        super().__init__(player, table)
        self.resyncs = 0

    def send(self, msg: Any) -> None:
        gaps = self.gaps
        super().send(msg)
        if self.gaps > gaps:
            self.resyncs += 1
            self.table.post(ClientRequest(self, p.Resync(type="resync", table_id=self.table.id)))


def _strip(state: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in state.items() if k not in VOLATILE}
    out["seats"] = [{k: v for k, v in s.items() if k != "connected"}
                    for s in out.get("seats") or []]
    return out


def fresh(table: Table, conn: Any) -> dict[str, Any] | None:
    """What a resync would give ``conn`` now (without changing what the fan-out remembers)."""
    seat = table.seat_of(conn)
    if seat is None and conn.id not in table.spectators:
        return None
    fan = table.fanout
    saved = fan._sent.get(conn.id)
    frame = fan.full(conn, None if seat is None else seat.index)
    if saved is None:
        fan._sent.pop(conn.id, None)
    else:
        fan._sent[conn.id] = saved
    data = frame.data
    data.pop("events", None)
    data.pop("actor", None)
    data.pop("timeout", None)
    return data


def divergences(table: Table, conns: list[Client]) -> list[str]:
    """Recipients whose state differs from what a resync would give them now."""
    out = []
    for c in conns:
        want = fresh(table, c)
        if want is None or c.closed:
            continue
        held = c.states.get(table.id)
        if held is None:
            out.append(f"{c.id} holds nothing at v{table.version}")
            continue
        a, b = _strip(held), _strip(want)
        if a != b:
            keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            detail = {k: (a.get(k), b.get(k)) for k in keys if k != "view"}
            if "view" in keys:
                va, vb = a.get("view") or {}, b.get("view") or {}
                detail["view"] = {k: (va.get(k), vb.get(k)) for k in set(va) | set(vb)
                                  if va.get(k) != vb.get(k)}
            out.append(f"{c.id} v{table.version}: {detail}")
    return out


async def _fuzz(h: Harness, game: str, seed: int, steps: int) -> tuple[list[str], list[str]]:
    rng = random.Random(f"{game}-{seed}")
    n = 4
    table = await h.manager.create(game, num_seats=n, bots={n - 1: "random"},
                                   turn_timeout_seconds=5.0)
    table.spec = dataclasses.replace(table.spec, abandoned_ttl_seconds=1e9,
                                     abandon_after_seconds=1e9, idle_ttl_seconds=1e9)
    players = [(await h.player(f"p{i}")).player for i in range(4)]
    live: dict[int, Client] = {}
    everyone: list[Client] = []

    def conn_of(i: int) -> Client:
        if i not in live or live[i].closed:
            live[i] = Client(players[i], table)
            everyone.append(live[i])
        return live[i]

    problems: list[str] = []
    for step in range(steps):
        if table.stopped:
            break
        i = rng.randrange(4)
        roll = rng.random()
        c = conn_of(i)
        if roll < 0.25:
            kw: dict[str, Any] = {}
            r = rng.random()
            if r < 0.3:
                kw["spectate"] = True
            elif r < 0.7:
                kw["seat"] = rng.randrange(n)
            table.post(ClientRequest(c, p.Join(type="join", table_id=table.id, **kw)))
        elif roll < 0.33:
            table.post(ClientRequest(c, p.Leave(type="leave", table_id=table.id)))
        elif roll < 0.38:
            c.closed = True
            table.post(Disconnected(c))
        elif roll < 0.43:  # the same player on a new socket (the old one stays open)
            new = Client(players[i], table)
            everyone.append(new)
            live[i] = new
            table.post(ClientRequest(new, p.Join(type="join", table_id=table.id)))
        elif roll < 0.46:
            seat = rng.randrange(n)
            if table.seats[seat].bot_kind is None:
                await table.call(lambda t, s=seat: t.departures.kick_now(s))
        elif roll < 0.5:
            table.post(ClientRequest(c, p.Resync(type="resync", table_id=table.id)))
        elif roll < 0.8:
            held = c.states.get(table.id)
            if held and held.get("legal_actions"):
                entry = rng.choice(held["legal_actions"])
                table.post(ClientRequest(c, p.Act(
                    type="act", table_id=table.id, version=held["version"],
                    action_id=f"x{rng.randrange(6)}", action=concrete(entry, rng))))
        else:
            await h.advance(table, rng.choice([0.5, 1.0, 3.0, 6.0]))
        await h.settle(table)
        await h.settle(table)  # resyncs posted while settling
        for d in divergences(table, everyone):
            problems.append(f"step {step}: {d}")
        if len(problems) > 5:
            break
    leaks = [v for c in everyone for v in c.violations]
    gaps = sum(c.resyncs for c in everyone)
    if gaps:  # the server always knows what each recipient holds: no delta misses its base
        problems.append(f"{gaps} gaps")
    return problems, leaks


@pytest.mark.parametrize("game", ["palace_poker", "soldiers_bluff", "bazaar_blot"])
@pytest.mark.parametrize("seed", range(3))
async def test_random_role_switches_never_diverge_or_leak(h: Harness, game: str,
                                                          seed: int) -> None:
    problems, leaks = await _fuzz(h, game, seed, 400)
    assert leaks == [], leaks[:5]
    assert problems == [], problems[:3]



async def test_spectate_and_resync_answers_carry_no_step_taking_a_seat_does(
        h: Harness) -> None:
    """``docs/protocol.md``: the answers to a spectator's join and a resync carry no
    ``events``/``actor``/``timeout``; taking a seat is a step, whose full state (sent in
    place of a delta: the recipient's base is unknown) carries it."""
    table = await h.manager.create("toy_duel", num_seats=2)
    ana, bob, eve = await h.player("ana"), await h.player("bob"), await h.player("eve")
    await h.join(table, eve, spectate=True)
    assert not {"events", "actor", "timeout"} & set(eve.frames[-1])
    await h.join(table, ana, seat=0)
    assert ana.frames[-1]["full"] is True and ana.frames[-1]["events"] == []
    await h.join(table, bob, seat=1)  # the game starts: bob's base is unknown, a full state
    started = bob.frames[-1]
    assert started["type"] == "state" and started["full"] is True
    assert [e["kind"] for e in started["events"]][:1] == ["game_started"]
    table.post(ClientRequest(bob, p.Resync(type="resync", table_id=table.id)))
    await h.settle(table)
    assert bob.frames[-1]["full"] is True and "events" not in bob.frames[-1]
