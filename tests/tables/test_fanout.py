"""Protocol 2 fan-out: what a client rebuilds from full states and deltas is exactly what the
engine shows its seat at that moment, for every game, every seat and a spectator; one frame per
recipient per step; spectators share one encoded frame; a gap is refused, never guessed."""

from __future__ import annotations

from typing import Any

import pytest
from tablekit import Harness, entitled_seat

from cardhall.engine import game_names, get_game
from cardhall.protocol.frames import Frame, StateGapError, apply_state, diff_view
from cardhall.tables.actor import Table
from cardhall.tables.connections import RecordingConnection


class MirrorConnection(RecordingConnection):
    """Checks, as each ``state`` frame is sent, that the state rebuilt from the frames so far
    equals the table's own view, legal actions and turn for this connection's seat."""

    def __init__(self, player: Any, table: Table) -> None:
        super().__init__(player)
        self.table = table
        self.mismatches: list[str] = []
        self.deltas = 0
        self.sent: list[Any] = []

    def send(self, msg: Any) -> None:
        self.sent.append(msg)
        super().send(msg)
        frame = self.frames[-1]
        if frame["type"] != "state":
            return
        self.deltas += not frame["full"]
        t = self.table
        held = self.states[t.id]
        seat = t.seat_of(self)
        gs = entitled_seat(t, self)  # a holder watching its stand-in sees its own cards
        if t.recorder is None:
            return
        st = t.recorder.state
        want = {"view": st.view(gs), "version": t.version, "status": t.status,
                "legal_actions": st.legal_actions(gs) if seat is not None and gs is not None
                and t.status == "playing" else [],
                "to_act": [t.seat_map[g] for g in st.to_act()], "seat_map": t.seat_map,
                "game_id": t.game_id, "seed_commitment": t.seed_commitment,
                "seats": [s.public_json(t.in_hand(s.index), t.out_of_chips(s.index))
                          for s in t.seats]}
        for key, value in want.items():
            if held.get(key) != value:
                self.mismatches.append(f"v{t.version} {key}: {held.get(key)!r} != {value!r}")


@pytest.mark.parametrize("game", game_names())
async def test_clients_rebuild_exactly_what_the_engine_shows(h: Harness, game: str) -> None:
    rules = get_game(game)
    n = 4 if rules.min_seats <= 4 <= rules.max_seats else rules.min_seats
    table = await h.manager.create(game, num_seats=n,
                                   bots={s: "random" for s in range(2, n)},
                                   turn_timeout_seconds=5.0)
    watcher = MirrorConnection((await h.player("watcher")).player, table)
    late = MirrorConnection((await h.player("late")).player, table)
    seated = [MirrorConnection((await h.player(f"p{i}")).player, table) for i in range(2)]
    await h.join(table, watcher, spectate=True)
    await h.join(table, seated[0], seat=0)
    await h.join(table, seated[1], seat=1)
    for step in range(400):
        if table.status == "finished" or len(h.store.games) >= 4:
            break
        if step == 20:
            await h.join(table, late, spectate=True)  # joins mid-game: full, then deltas
        await h.advance(table, 1.0)
    for c in (watcher, late, *seated):
        assert c.mismatches == [], c.mismatches[:3]
        assert c.gaps == 0 and c.deltas > 10
    frames = [m for m in watcher.sent if isinstance(m, Frame) and m.type == "state"]
    shared = [m for m in late.sent if any(m is f for f in frames)]
    assert shared, "spectators at the same base share one encoded frame"


async def test_one_state_frame_per_recipient_per_step(h: Harness) -> None:
    table = await h.manager.create("bazaar_blot", num_seats=4,
                                   bots={2: "random", 3: "random"}, turn_timeout_seconds=5.0)
    a, b = await h.player("a"), await h.player("b")
    await h.join(table, a, seat=0)
    await h.join(table, b, seat=1)
    start = len(a.frames)
    v0 = table.version
    await h.advance(table, 6.0)  # the turn seat's timer or a bot acts
    steps = {f["version"] for f in a.frames[start:] if f["type"] == "state"}
    states = [f for f in a.frames[start:] if f["type"] == "state"]
    assert len(states) == len(steps) >= 1 and table.version > v0
    assert not any(f["type"] == "events" for f in a.frames)


def test_a_delta_applies_only_on_its_base() -> None:
    full = {"type": "state", "full": True, "table_id": "t", "version": 3,
            "view": {"a": 1, "b": [1], "c": 0}, "status": "playing", "events": [{"kind": "x"}]}
    held = apply_state(None, full)
    assert "events" not in held and held["view"] == {"a": 1, "b": [1], "c": 0}
    delta = {"type": "state", "full": False, "table_id": "t", "version": 4, "base_version": 3,
             "status": "between_hands", "view_patch": {"b": [1, 2]}, "view_removed": ["c"],
             "events": [], "actor": 0, "timeout": False}
    after = apply_state(held, delta)
    assert after["view"] == {"a": 1, "b": [1, 2]} and after["version"] == 4
    assert after["status"] == "between_hands" and held["view"]["c"] == 0  # held not modified
    with pytest.raises(StateGapError):
        apply_state(held, {**delta, "base_version": 2})
    with pytest.raises(StateGapError):
        apply_state(None, delta)


def test_diff_view_names_changed_appeared_and_removed_keys() -> None:
    assert diff_view(None, {"a": 1}) == ({"a": 1}, [])
    assert diff_view({"a": 1, "b": 2, "c": 3}, {"a": 1, "b": 5, "d": 4}) == (
        {"b": 5, "d": 4}, ["c"])
    assert diff_view({"a": 1}, None) == ({}, [])
