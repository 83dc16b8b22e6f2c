"""Helpers for the table-runtime tests: the toy games, a fake clock, a manager, players, and a
connection that checks every message for hidden cards. Fixtures are in ``conftest.py``."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from toygame import register

from cardhall.config import Settings
from cardhall.engine.history import apply_logged, start_state
from cardhall.engine.inspect import strings_in
from cardhall.protocol import messages as p
from cardhall.storage.memory import MemoryStore
from cardhall.tables.actor import Table
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import RecordingConnection
from cardhall.tables.manager import TableManager
from cardhall.tables.messages import ClientRequest


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)


class Harness:
    """A manager on a fake clock with helpers to join, act and wait for the actor (and for the
    game writer to save what the actor handed it)."""

    def __init__(self, manager: TableManager, clock: FakeClock, store: MemoryStore) -> None:
        self.manager, self.clock, self.store = manager, clock, store

    async def player(self, name: str) -> RecordingConnection:
        rec, _ = await self.store.create_player(name)
        return RecordingConnection(rec)

    async def settle(self, table: Table) -> None:
        await table.inbox.join()
        await self.manager.writer.flush()

    async def advance(self, table: Table, seconds: float) -> None:
        self.clock.advance(seconds)
        await self.settle(table)

    async def join(self, table: Table, conn: RecordingConnection, **kw: Any) -> None:
        table.post(ClientRequest(conn, p.Join(type="join", table_id=table.id, **kw)))
        await self.settle(table)

    async def act(self, table: Table, conn: RecordingConnection, action: dict[str, Any], *,
                  version: int | None = None, action_id: str = "a1", **kw: Any) -> None:
        v = table.version if version is None else version
        table.post(ClientRequest(conn, p.Act(type="act", table_id=table.id, version=v,
                                             action_id=action_id, action=action, **kw)))
        await self.settle(table)


@pytest.fixture
async def h(toy: None) -> AsyncIterator[Harness]:
    clock = FakeClock()
    store = MemoryStore()
    settings = Settings(database_url="memory://", bot_delay_seconds=1.0,
                        next_hand_pause_seconds=2.0, turn_timeout_seconds=10.0,
                        abandon_after_seconds=60.0)
    manager = TableManager(settings, store, clock)
    await manager.start()
    yield Harness(manager, clock, store)
    await manager.stop()


def _step_events(table: Table) -> list[Any]:
    """The events of the step being broadcast (the fan-out's queue; watched by wrapping
    :meth:`Fanout.broadcast` so that the list survives until every frame of the step is sent)."""
    return getattr(table.fanout, "_test_step", [])


def _watch(table: Table) -> None:
    fanout = table.fanout
    if getattr(fanout, "_test_watched", False):
        return
    fanout._test_watched = True  # type: ignore[attr-defined]
    broadcast = fanout.broadcast

    def watched() -> None:
        fanout._test_step = list(fanout._events)  # type: ignore[attr-defined]
        broadcast()

    fanout.broadcast = watched  # type: ignore[method-assign]


def hand_log_problems(t: Table, gs: int | None, frame: dict[str, Any]) -> list[str]:
    """A ``hand_log`` may carry only what the seat's live frames carried, and the live frames
    are judged by :class:`LeakCheckingConnection` step by step: so its events must be exactly
    the events of the game that game seat ``gs`` may see (``Event.visible_to``), in order,
    from an independent replay of the table's history (the latest ones when ``truncated``)."""
    assert t.recorder is not None
    if gs is None:
        return [f"hand_log v{frame.get('version')} to a connection holding no game seat"]
    _, state = start_state(t.recorder.history)
    visible: list[Any] = []
    for entry in t.recorder.history.actions:
        visible.extend(e.to_json() for e in apply_logged(state, entry.seat, entry.action)
                       if e.visible_to(gs))
    steps = frame["steps"]
    sent = [e for step in steps for e in step["events"]]
    if not sent or sent[0].get("kind") != "game_started":
        return [f"hand_log v{frame.get('version')} does not start with game_started"]
    sent = sent[1:] if not frame.get("truncated") else [
        e for e in sent if e.get("kind") != "game_started"]
    expected = visible if not frame.get("truncated") else visible[len(visible) - len(sent):]
    if sent != expected:
        return [f"hand_log v{frame.get('version')} differs from the events seat {gs} may see"]
    return []


def entitled_seat(t: Table, conn: Any) -> int | None:
    """The game seat whose cards ``conn`` may see (``docs/protocol.md``): the seat it holds,
    or the one its person holds while a stand-in plays it for a leave or timeouts (the holder
    watches with its own cards in sight); ``None``: a spectator's public view only."""
    seat = t.seat_of(conn)
    if seat is not None:
        return t.game_seat(seat.index)
    for s in t.seats:
        if s.stand_in in ("left", "timeouts") and s.player_id == conn.player.id:
            return t.game_seat(s.index)
    return None


class LeakCheckingConnection(RecordingConnection):
    """Checks every message at the moment it is sent against the table's state then: no card
    in ``hidden_from(its game seat)`` and never the seed before ``game_over``."""

    def __init__(self, player: Any, table: Table) -> None:
        super().__init__(player)
        self.table = table
        self.violations: list[str] = []
        self.checked = 0
        self._hidden_before: set[str] | None = None
        _watch(table)

    def send(self, msg: Any) -> None:
        super().send(msg)
        t = self.table
        frame = self.frames[-1]  # exactly what a socket would carry
        if t.recorder is None or frame["type"] == "game_over":
            return
        gs = entitled_seat(t, self)
        if frame["type"] == "hand_log":  # a re-send of the game's steps: judged step by step
            self.violations.extend(hand_log_problems(t, gs, frame))
            return
        hidden = t.recorder.state.hidden_from(gs)
        # One frame reports a whole step, which may show a card publicly and hide it again
        # (Blot: the last trick is played, then the next deal deals it): each event must be one
        # of the step's events its game seat may see (Event.visible_to), and a card in an event
        # counts as leaked when it was hidden before and after the step and no public event of
        # the step showed it (what each event shows is judged per action by the engine's
        # LeakChecker in self-play); the rest of the frame is judged by what is hidden now.
        before, self._hidden_before = self._hidden_before, hidden
        events = frame.get("events") or []
        step = _step_events(t)
        allowed = [e.to_json() for e in step if e.visible_to(gs)]
        public = set(strings_in([e.to_json() for e in step if e.visible_to(None)]))
        for ev in events:
            if ev not in allowed:
                self.violations.append(f"v{frame.get('version')}: event {ev} not for {gs}")
        seen = set(strings_in({k: v for k, v in frame.items() if k != "events"}))
        in_events = set(strings_in(events)) - public
        leaked = (hidden & seen) | (hidden & (before or hidden) & in_events)
        self.checked += 1
        if leaked:
            self.violations.append(f"{frame['type']} v{frame.get('version')} shows "
                                   f"{sorted(leaked)}")
        seen |= set(strings_in(events))
        if t.seed is not None and t.seed.hex() in seen:
            self.violations.append(f"{msg.type} shows the seed")


