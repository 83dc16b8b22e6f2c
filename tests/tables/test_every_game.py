"""Every registered game at a table (fake clock): bots and timer-driven seats play; no seat
and no spectator is ever sent a hidden card; each finished game is saved once and replays to
its outcome. A new game is covered here without any change to the runtime."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tablekit import Harness, LeakCheckingConnection

from cardhall.engine import History, game_names, get_game, replay

jsonschema = pytest.importorskip("jsonschema")
GAMES = game_names()
SERVER_SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "docs" /
                            "protocol.schema.json").read_text(encoding="utf-8"))["server"]


@pytest.mark.parametrize("game", GAMES)
async def test_game_plays_at_a_table_without_leaks(h: Harness, game: str) -> None:
    rules = get_game(game)
    n = 4 if rules.min_seats <= 4 <= rules.max_seats else rules.min_seats
    bots = {s: "rule" if s % 2 else "random" for s in range(2, n)}
    table = await h.manager.create(game, num_seats=n, bots=bots, turn_timeout_seconds=5.0)
    people = [LeakCheckingConnection((await h.player(f"p{i}")).player, table) for i in range(3)]
    await h.join(table, people[2], spectate=True)
    await h.join(table, people[0], seat=0)
    await h.join(table, people[1], seat=1)
    for _ in range(3000):
        if table.status == "finished" or len(h.store.games) >= 12:
            break
        await h.advance(table, 1.0)
    # (after three timeouts in a row a stand-in plays a person's seat and may go broke, so
    # fewer than 12 hands may be dealt before the table waits for chips)
    assert len(h.store.games) >= (6 if rules.uses_stacks else 1), f"{game}: too few games"
    for c in people:
        assert c.violations == [], c.violations[:3]
        assert c.checked > 0
    # every frame (each already passed SERVER_TYPED in RecordingConnection) also conforms to
    # the published JSON Schema, whose `state` is typed per game
    validator = jsonschema.Draft202012Validator(SERVER_SCHEMA)
    frames = [f for c in people for f in c.frames]
    assert sum(f["type"] == "state" and f["game"] == game for f in frames) > 20
    for frame in frames[:: max(1, len(frames) // 80)]:  # a sample: jsonschema is slow
        errors = [e.message[:200] for e in validator.iter_errors(frame)]
        assert errors == [], (frame.get("type"), frame.get("version"), errors[:2])
    for summary, history in h.store.games.values():
        assert len(summary.seats) == len(history["seats"])
        state = replay(History.from_json(history))
        assert state.outcome is not None and state.outcome.to_json() == history["outcome"]
        timeouts = [a for a in history["actions"] if a.get("timeout")]
        assert all(a["seat"] in (0, 1) for a in timeouts)  # only the silent people timed out
