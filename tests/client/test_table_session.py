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


class Watching(Lowest):
    """Records the pause hooks."""

    def __init__(self) -> None:
        super().__init__()
        self.hooks: list[tuple[str, str | None, int]] = []

    def on_pause(self, session: TableSession) -> None:
        self.hooks.append(("pause", session.pause_reason, session.resumes))

    def on_resume(self, session: TableSession) -> None:
        assert session.state is not None  # the resume's full state is in
        self.hooks.append(("resume", session.pause_reason, session.resumes))


def joined(token: str = "tok-1", resumed: bool = False) -> p.Joined:
    return p.Joined(table_id="t1", version=5, role="seat", seat=0, seat_token=token,
                    resumed=resumed)


def refused(code: str) -> p.Error:
    return p.Error(code=code, message="m", table_id="t1", request=p.RequestRef(type="join"))


async def paused_session() -> tuple[TableSession, list[Any], Watching]:
    sent: list[Any] = []

    async def send(msg: Any) -> None:
        sent.append(msg)

    bot = Watching()
    session = TableSession("t1", bot, send, "pfx")
    session.handle(joined())
    session.handle(state(5, turn=False))
    session.handle(p.TableClosed(table_id="t1", version=5, reason="shutdown"))
    session.pause("disconnected")  # the 1012 close that follows
    session.forget_state()
    return session, sent, bot


async def test_shutdown_pauses_keeping_the_seat_token_and_the_resume_ends_the_pause() -> None:
    session, _, bot = await paused_session()
    assert session.closed is None and session.paused and session.pause_reason == "shutdown"
    assert session.seat_token == "tok-1" and bot.hooks == [("pause", "shutdown", 0)]
    assert session.resume_request().seat_token == "tok-1"
    waiter = asyncio.ensure_future(session.next_game_over())
    session.handle(joined("tok-2", resumed=True))  # a restarted server may rotate the token
    session.handle(state(5))
    await settle()
    assert not session.paused and session.resumes == 1 and session.seat_token == "tok-2"
    assert bot.hooks[-1] == ("resume", None, 1) and bot.calls == 1  # and it plays on
    assert not waiter.done()
    over = p.GameOver(table_id="t1", version=9, game_id="g1", outcome={}, history={})
    session.handle(over)
    assert await waiter == over


async def test_a_decision_under_way_is_cancelled_by_the_shutdown() -> None:
    sent: list[Any] = []

    async def send(msg: Any) -> None:
        sent.append(msg)

    gate = asyncio.Event()

    class Slow(Lowest):
        async def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> Any:
            await gate.wait()
            return super().choose(view, legal)

    session = TableSession("t1", Slow(), send, "pfx")
    session.handle(state(5))
    await settle()
    session.handle(p.TableClosed(table_id="t1", version=5, reason="shutdown"))
    gate.set()
    await settle()
    assert sent == [] and session.paused


async def test_a_starting_server_refusing_the_resume_keeps_the_session_waiting() -> None:
    session, _, bot = await paused_session()
    session.handle(refused("server.draining"))
    session.handle(refused("server.unavailable"))
    assert session.closed is None and session.paused and bot.hooks == [("pause", "shutdown", 0)]


async def test_a_refused_seat_token_falls_back_to_the_player_once() -> None:
    session, sent, _ = await paused_session()
    session.handle(refused("table.bad_seat_token"))
    await settle()
    assert session.closed is None
    assert sent[-1].type == "join" and sent[-1].seat == 0 and sent[-1].seat_token is None
    session.handle(refused("table.bad_seat_token"))
    assert session.closed == "rejoin refused: table.bad_seat_token"


async def test_a_table_that_did_not_come_back_ends_the_session() -> None:
    session, _, _ = await paused_session()
    waiter = asyncio.ensure_future(session.next_game_over())
    session.handle(refused("table.not_found"))
    assert session.closed == "rejoin refused: table.not_found" and not session.paused
    try:
        await waiter
    except RuntimeError as exc:
        assert "table.not_found" in str(exc)
    else:
        raise AssertionError("expected TableClosedError")


async def test_without_reconnect_a_shutdown_ends_the_session() -> None:
    async def send(msg: Any) -> None:
        pass

    session = TableSession("t1", Lowest(), send, "pfx", resume_after_shutdown=False)
    session.handle(p.TableClosed(table_id="t1", version=5, reason="shutdown"))
    assert session.closed == "shutdown" and not session.paused


def test_a_starting_or_draining_server_is_retried_a_refused_token_is_not() -> None:
    from cardhall.client import Client, ClientError

    client = Client("ws://127.0.0.1:9/ws", "token", max_attempts=3)
    client.welcome = p.Welcome(player_id="p", name="n", protocol=2, max_frame_bytes=1,
                               rate_per_second=1.0)
    for code in ("server.draining", "server.unavailable"):
        assert client._retry_or_raise(ClientError(code, "m")) is None
    banned = ClientError("auth.banned", "m")
    assert client._retry_or_raise(banned) is banned
    assert client._retry_or_raise(ClientError("server.draining", "m")) is None  # the third
    last = ClientError("server.draining", "m")
    assert client._retry_or_raise(last) is last  # max_attempts is a bound on these too
