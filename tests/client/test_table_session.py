"""``TableSession`` decisions without a server: one act per decision, the same ``action_id``
re-sent after a resume, a resync only when no newer state is in hand, repeats ignored."""

from __future__ import annotations

import asyncio
from typing import Any

from cardhall.client.table import TableSession
from cardhall.protocol import messages as p

ENTRY = {"type": "bid", "trump": "h", "min_level": 8, "max_level": 16}


def state(version: int, *, turn: bool = True, status: str = "playing") -> p.State:
    return p.State(table_id="t1", version=version, game="bazaar_blot", status=status, hand=1,
                   seat=0, game_seat=0, seat_map=[0, 1, 2, 3], seats=[],
                   view={"hand": []}, legal_actions=[ENTRY] if turn else [],
                   to_act=[0] if turn else [1], timer_seat=0, deadline_ms=1000,
                   turn_timeout_ms=1000, seed_commitment=None, game_id="g1")


class Lowest:
    def __init__(self) -> None:
        self.calls = 0

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        self.calls += 1
        return {"type": "bid", "trump": "h", "level": legal[0]["min_level"]}


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def make() -> tuple[TableSession, list[Any], Lowest]:
    sent: list[Any] = []

    async def send(msg: Any) -> None:
        sent.append(msg)

    bot = Lowest()
    return TableSession("t1", bot, send, "pfx"), sent, bot


async def test_one_act_per_decision_and_repeats_are_ignored() -> None:
    session, sent, bot = await make()
    session.handle(state(5))
    await settle()
    session.handle(state(5))  # a resync of the same version
    await settle()
    assert bot.calls == 1 and [(m.type, m.version) for m in sent] == [("act", 5)]
    assert sent[0].action == {"type": "bid", "trump": "h", "level": 8}
    session.handle(state(6, turn=False))  # someone else's turn: nothing to do
    await settle()
    assert len(sent) == 1


async def test_resume_resends_the_same_action_id() -> None:
    session, sent, bot = await make()
    session.handle(state(5))
    await settle()
    session.forget_state()  # the connection dropped before the answer came
    session.handle(state(5))  # resumed: the table is still at version 5
    await settle()
    assert bot.calls == 1 and [m.action_id for m in sent] == [sent[0].action_id] * 2


async def test_stale_version_resyncs_only_when_behind() -> None:
    session, sent, _ = await make()
    session.handle(state(5))
    await settle()
    act = sent[-1]
    ref = p.RequestRef(type="act", action_id=act.action_id)
    session.handle(p.Error(code="table.stale_version", message="m", table_id="t1", version=6,
                           request=ref))
    await settle()
    assert sent[-1].type == "resync"
    session.handle(state(7))
    await settle()
    n = len(sent)
    session.handle(p.Error(code="table.stale_version", message="m", table_id="t1", version=7,
                           request=p.RequestRef(type="act", action_id=sent[-1].action_id)))
    await settle()
    assert len(sent) == n  # the newest state is already here: no resync


async def test_game_over_wakes_waiters_and_close_raises() -> None:
    session, _, _ = await make()
    waiter = asyncio.ensure_future(session.next_game_over())
    over = p.GameOver(table_id="t1", version=9, game_id="g1", outcome={"returns": [1]},
                      history={})
    session.handle(over)
    assert await waiter == over and session.games == [over]
    session.handle(p.TableClosed(table_id="t1", version=10, reason="closed"))
    try:
        await session.next_game_over()
    except RuntimeError as exc:
        assert "closed" in str(exc)
    else:
        raise AssertionError("expected TableClosedError")
