"""The synchronous table core (``tables/core.py``) driven with a fake clock and no event loop:
each inbox message returns the step it made (messages per connection, held until the log
entries, outbox games and chip moves of the same step are committed), checked on those
effects alone. The core arms no timer: each step says which table timers to arm or cancel
(``Step.timers``), and a test either reads them or applies them on the fake clock with the
shell's :class:`~cardhall.tables.timers.TimerBoard`, whose timers post to the core's mailbox
as stand-in bots do."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from cardhall.engine import get_game
from cardhall.protocol import messages as p
from cardhall.protocol.frames import Frame
from cardhall.selfplay import sample
from cardhall.storage.interface import PlayerRecord
from cardhall.storage.log import TableLog
from cardhall.storage.memory import MemoryStore
from cardhall.storage.writer import GameWriter
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.core import Step, TableCore
from cardhall.tables.messages import (
    AbandonExpired,
    ClientRequest,
    DeadlineExpired,
    Disconnected,
    NextHand,
    Reap,
)
from cardhall.tables.state import TableSpec
from cardhall.tables.timers import TimerArm, TimerBoard, TimerCancel


def core(**spec: Any) -> tuple[TableCore, FakeClock]:
    """A two-seat Soldier's Bluff core with a (never started) table log: steps carry their
    log entries, and their messages wait for them."""
    rules = get_game("soldiers_bluff")
    clock = FakeClock()
    store = MemoryStore()
    table = TableCore("t1", rules, rules.config({}), TableSpec("soldiers_bluff", num_seats=2,
                      turn_timeout_seconds=5.0, bot_delay_seconds=1.0, starting_stack=1000,
                                                **spec),
                      store=store, writer=GameWriter(store), clock=clock, log=TableLog(store),
                      seed_source=lambda hand: bytes([hand]) * 32)
    return table, clock


def person(name: str) -> RecordingConnection:
    return RecordingConnection(PlayerRecord(f"id-{name}", name))


def join(table: TableCore, conn: RecordingConnection, seat: int) -> Step:
    return table.handle(ClientRequest(conn, p.Join(type="join", table_id=table.id, seat=seat)))


def types(step: Step, conn: Any) -> list[str]:
    """The message types ``step`` sends ``conn``, in order."""
    out = []
    for c, msg in step.frames:
        if c is conn:
            out.append(msg.data["type"] if isinstance(msg, Frame) else msg.type)
    return out


def committed(step: Step) -> Step:
    """Deliver ``step``'s messages as the actor does once its log entries are committed."""
    for conn, msg in step.frames:
        conn.send(msg)
    return step


def arms(step: Step, key: str) -> list[TimerArm]:
    """The ``key`` timers ``step`` arms, in order."""
    return [e for e in step.timers if isinstance(e, TimerArm) and e.key == key]


def act(table: TableCore, conn: RecordingConnection, action_id: str) -> Step:
    """``conn`` plays its first legal action (sampled with a fixed seed)."""
    assert table.recorder is not None
    seat = table.seat_of(conn)
    assert seat is not None
    gs = table.game_seat(seat.index)
    assert gs is not None
    action = sample(table.recorder.state.legal_actions(gs)[0], random.Random(1))
    return table.handle(ClientRequest(conn, p.Act(type="act", table_id=table.id,
                                                  version=table.version, action_id=action_id,
                                                  action=dict(action))))


def to_act(table: TableCore, *conns: RecordingConnection) -> RecordingConnection:
    """Which of ``conns`` (by table seat) is to act."""
    assert table.recorder is not None
    gs = table.recorder.state.to_act()[0]
    return conns[table.seat_map[gs]]


def kinds(step: Step) -> list[str]:
    assert step.log is not None
    return [row.kind for row in step.log.rows]


def test_no_event_loop_is_needed() -> None:
    with pytest.raises(RuntimeError):
        asyncio.get_running_loop()
    table, _ = core()
    step = join(table, person("ana"), 0)
    assert step.frames and not step.stop


def test_a_join_is_held_until_its_snapshot_is_logged() -> None:
    table, _ = core()
    ana = person("ana")
    step = join(table, ana, 0)
    assert types(step, ana) == ["joined", "state"]
    assert ana.frames == []  # nothing is sent before the step's commit
    assert kinds(step) == ["snapshot"]
    assert step.log is not None and step.log.rows[0].data["seats"][0]["player_id"] == "id-ana"


def test_the_second_join_starts_a_game_and_a_move_is_accepted() -> None:
    table, _ = core()
    ana, bob = person("ana"), person("bob")
    join(table, ana, 0)
    step = join(table, bob, 1)
    assert table.status == "playing" and table.hand == 1
    assert kinds(step)[:2] == ["snapshot", "game"] and "act" in kinds(step)  # the deal
    assert step.log is not None and step.log.compact is not None
    assert "state" in types(step, ana) and "state" in types(step, bob)
    assert table.recorder is not None
    gs = table.recorder.state.to_act()[0]
    conn = (ana, bob)[table.seat_map[gs]]
    action = sample(table.recorder.state.legal_actions(gs)[0], random.Random(1))
    before = table.version
    step = table.handle(ClientRequest(conn, p.Act(type="act", table_id=table.id,
                                                  version=before, action_id="m1",
                                                  action=dict(action))))
    assert types(step, conn)[0] == "accepted"
    assert table.version > before
    assert step.log is not None and step.log.rows[0].kind == "act"
    assert not step.log.rows[0].data.get("timeout")
    again = table.handle(ClientRequest(conn, p.Act(type="act", table_id=table.id,
                                                   version=before, action_id="m1",
                                                   action=dict(action))))
    dup = next(msg for c, msg in again.frames if c is conn)
    assert isinstance(dup, Frame) and dup.data["duplicate"] is True  # answered, not re-applied
    assert again.log is None


def test_a_timeout_is_logged_and_a_stand_in_takes_the_seat() -> None:
    table, clock = core(stand_in_after_timeouts=1)
    board = TimerBoard(clock, table.post)  # the shell's part: arm each step's timers
    ana, bob = person("ana"), person("bob")
    board.apply(join(table, ana, 0).timers)
    board.apply(join(table, bob, 1).timers)
    assert table.deadline_ms() == 5000
    clock.advance(5.0)
    expired = [m for m in table.mailbox if isinstance(m, DeadlineExpired)]
    assert len(expired) == 1
    table.mailbox.clear()
    step = table.handle(expired[0])
    assert step.log is not None
    timeouts = [r for r in step.log.rows if r.kind == "act" and r.data.get("timeout")]
    assert len(timeouts) == 1
    seat = table.seats[table.seat_map[timeouts[0].data["seat"]]]
    assert seat.stand_in == "timeouts"  # after one timeout (the spec's limit)
    holder = (ana, bob)[seat.index]
    assert holder.id in table.spectators  # the holder watches meanwhile
    snap = next(r for r in step.log.rows if r.kind == "snapshot")
    assert snap.data["seats"][seat.index]["stand_in"] == "timeouts"


def test_a_finished_game_goes_to_the_outbox_of_its_step() -> None:
    table, clock = core(stand_in_after_timeouts=1)
    board = TimerBoard(clock, table.post)
    ana, bob = person("ana"), person("bob")

    def carried(step: Step) -> Step:  # as the actor does: the timers, then the messages
        board.apply(step.timers)
        return committed(step)

    carried(join(table, ana, 0))
    carried(join(table, bob, 1))
    finished = None
    for _ in range(2000):  # stand-ins play both seats (bot pace) once each timed out
        if not table.mailbox:
            clock.advance(1.0)
            continue
        step = carried(table.handle(table.mailbox.pop(0)))
        if step.log is not None and step.log.outbox:
            finished = step
            break
    assert finished is not None and finished.log is not None
    record = finished.log.outbox[0]
    assert record.game_id == table.game_id and record.table_id == table.id
    assert record.history["seed"] == (bytes([1]) * 32).hex()  # revealed at the end
    assert table.status == "between_hands"  # a poker table deals the next hand after a pause
    assert ana.frames and bob.frames
    overs = {c: msg for c, msg in finished.frames
             if isinstance(msg, Frame) and msg.data["type"] == "game_over"}
    assert len(overs) == 4  # the two stand-ins and the two holders watching them
    for holder in (ana, bob):  # a holder watching its stand-in gets the full copy
        assert overs[holder].data["history"]["seed"] == record.history["seed"]
    assert [e.key for e in finished.timers] == ["deadline", "pause"]  # cancelled, then armed
    assert isinstance(finished.timers[0], TimerCancel)
    assert finished.timers[1] == TimerArm("pause", clock.now() + 3.0, NextHand(1))


def test_a_move_arms_the_next_decisions_deadline_as_an_effect() -> None:
    table, clock = core()
    ana, bob = person("ana"), person("bob")
    join(table, ana, 0)
    step = join(table, bob, 1)  # the deal: the first decision's deadline
    assert arms(step, "deadline") == [TimerArm("deadline", 1005.0,
                                               DeadlineExpired(table.version))]
    clock.advance(2.0)
    before = table.version
    step = act(table, to_act(table, ana, bob), "m1")
    assert table.version > before and table.status == "playing"
    assert arms(step, "deadline") == [TimerArm("deadline", 1007.0,
                                               DeadlineExpired(table.version))]
    assert table.deadline_ms() == 5000
    assert clock.pending() == 0  # the core armed nothing on the clock itself


def test_a_deadline_message_plays_the_timeout_action_and_arms_the_next_deadline() -> None:
    table, _ = core(stand_in_after_timeouts=0)
    ana, bob = person("ana"), person("bob")
    join(table, ana, 0)
    armed = arms(join(table, bob, 1), "deadline")[-1]
    assert isinstance(armed.message, DeadlineExpired)
    assert table.handle(DeadlineExpired(armed.message.version - 1)).timers == []  # stale
    step = table.handle(armed.message)  # no clock moved: the message alone is the timeout
    assert step.log is not None
    timeouts = [r for r in step.log.rows if r.kind == "act" and r.data.get("timeout")]
    assert len(timeouts) == 1
    assert table.status == "playing"
    assert arms(step, "deadline") == [TimerArm("deadline", 1005.0,
                                               DeadlineExpired(table.version))]
    assert table.handle(armed.message).log is None  # spent: the next decision has its own


def test_the_last_person_gone_arms_the_abandon_timer_and_a_return_cancels_it() -> None:
    table, _ = core(abandon_after_seconds=60.0)
    ana, bob = person("ana"), person("bob")
    join(table, ana, 0)
    join(table, bob, 1)
    assert arms(table.handle(Disconnected(ana)), "abandon") == []  # bob is still here
    step = table.handle(ClientRequest(bob, p.Leave(type="leave", table_id=table.id)))
    assert arms(step, "abandon") == [TimerArm("abandon", 1060.0, AbandonExpired(1))]
    assert table.abandon_watch.armed
    back = person("ana")  # ana's new socket resumes her seat
    step = join(table, back, 0)
    assert TimerCancel("abandon") in step.timers and not table.abandon_watch.armed
    assert not table.handle(AbandonExpired(1)).stop  # cancelled: its message changes nothing
    step = table.handle(Disconnected(back))
    assert arms(step, "abandon") == [TimerArm("abandon", 1060.0, AbandonExpired(2))]
    step = table.handle(AbandonExpired(2))
    assert step.stop and table.status == "closed"
    assert TimerCancel("deadline") in step.timers  # the game's timers go with the table


def test_a_waiting_table_nobody_is_connected_to_arms_its_idle_timer() -> None:
    table, clock = core(idle_ttl_seconds=300.0)
    ana = person("ana")
    join(table, ana, 0)
    clock.advance(10.0)
    step = table.handle(Disconnected(ana))
    assert arms(step, "reap") == [TimerArm("reap", 1310.0, Reap(table.version))]
    step = join(table, person("ana"), 0)  # back: not idle any more
    assert TimerCancel("reap") in step.timers and table.idle_since is None


def test_the_shells_board_arms_replaces_and_cancels_timers_by_kind() -> None:
    clock = FakeClock()
    got: list[Any] = []
    board = TimerBoard(clock, got.append)
    board.apply([TimerArm("deadline", 1005.0, DeadlineExpired(1)),
                 TimerArm("pause", 1002.0, NextHand(1)),
                 TimerArm("deadline", 1003.0, DeadlineExpired(2)),  # replaces the first
                 TimerCancel("pause"), TimerCancel("reap")])  # reap: nothing to cancel
    assert clock.pending() == 1
    clock.advance(10.0)
    assert got == [DeadlineExpired(2)]
    board.apply([TimerArm("reap", 1020.0, DeadlineExpired(3))])
    board.close()
    assert clock.pending() == 0
