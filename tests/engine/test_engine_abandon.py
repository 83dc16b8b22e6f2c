"""``GameState.abandon`` (the table rule "a game nobody plays ends", ``docs/engine.md``
"Abandoned games"): every game ends at any step with reason ``abandoned``; poker seats get back
what they put in (every return 0), Bazaar Blot keeps the match score so far; nothing is shown;
the step is logged as ``{"seat": null, "action": {"type": "abandon"}}`` and replays."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import pytest

from cardhall.engine import (
    ABANDON,
    GameOverError,
    History,
    OutcomeReason,
    Recorder,
    ReplayError,
    SeatInfo,
    SeededShuffler,
    get_game,
    replay,
    sample,
)
from cardhall.engine.inspect import LeakChecker, fingerprint, turn_violations
from cardhall.evaluators import install as install_evaluators

GAMES = [("bazaar_blot", 4), ("soldiers_bluff", 3), ("palace_poker", 4)]


@pytest.fixture(autouse=True, scope="module")
def _evaluators() -> None:
    install_evaluators()


def start(game: str, seats: int, seed: int) -> tuple[Recorder, random.Random, SeededShuffler]:
    rules = get_game(game)
    rng = random.Random(seed)
    stacks = [rng.randint(20, 200) for _ in range(seats)] if rules.uses_stacks else None
    rec = Recorder(rules, rules.config({}), [SeatInfo(f"p{i}") for i in range(seats)],
                   rng.randrange(seats), stacks)
    shuffler = SeededShuffler(hashlib.sha256(f"abandon:{seed}".encode()).digest())
    return rec, rng, shuffler


def step(rec: Recorder, rng: random.Random, shuffler: SeededShuffler) -> list[Any]:
    state = rec.state
    if state.chance_due():
        return rec.act(None, state.chance_action(shuffler))
    seat = rng.choice(state.to_act())
    return rec.act(seat, sample(rng.choice(state.legal_actions(seat)), rng))


def play_until(rec: Recorder, rng: random.Random, shuffler: SeededShuffler, steps: int) -> None:
    for _ in range(steps):
        if rec.state.is_over:
            return
        step(rec, rng, shuffler)


@pytest.mark.parametrize(("game", "seats"), GAMES)
@pytest.mark.parametrize("cut", [0, 1, 3, 9, 25, 60])
def test_abandon_ends_the_game_at_any_step_and_replays(game: str, seats: int, cut: int) -> None:
    for seed in range(6):
        rec, rng, shuffler = start(game, seats, seed)
        play_until(rec, rng, shuffler, cut)
        state = rec.state
        if state.is_over:
            continue
        checker = LeakChecker(state)
        logged = len(rec.history.actions)
        events = rec.abandon(t_ms=1234)
        out = state.outcome
        assert out is not None and out.reason is OutcomeReason.ABANDONED
        assert out.detail is not None and out.detail["abandoned"] is True
        assert [(e.kind, e.to, e.data) for e in events] == [
            ("abandoned", None, {"returns": list(out.returns)})]
        assert checker.check(state, events) == []  # nothing hidden is shown
        assert state.check_invariants() == [] and turn_violations(state) == []
        assert state.to_act() == () and not state.chance_due() and state.timer_seat() is None
        assert all(state.legal_actions(s) == [] for s in range(seats))
        entry = rec.history.actions[-1]
        assert len(rec.history.actions) == logged + 1
        assert entry.to_json() == {"seat": None, "action": ABANDON, "t_ms": 1234}
        with pytest.raises(GameOverError):
            state.apply(0, {"type": "pass"})
        with pytest.raises(GameOverError):
            rec.abandon()
        assert len(rec.history.actions) == logged + 1  # a refused abandon is not logged
        doc = json.loads(json.dumps(rec.history.to_json()))
        again = replay(History.from_json(doc))
        assert fingerprint(again) == fingerprint(state)
        assert again.outcome == out


@pytest.mark.parametrize(("game", "seats"), [("soldiers_bluff", 3), ("palace_poker", 4)])
def test_poker_seats_get_back_what_they_put_in(game: str, seats: int) -> None:
    """Every return is 0 however much was bet, and each seat's chips in the final view are its
    stack before the ante again (chips neither lost nor made)."""
    for seed in range(12):
        rec, rng, shuffler = start(game, seats, seed)
        stacks = list(rec.history.stacks or [])
        play_until(rec, rng, shuffler, 4 + seed * 3)
        if rec.state.is_over:
            continue
        rec.abandon()
        out = rec.state.outcome
        assert out is not None and out.returns == (0,) * seats
        view = rec.state.view(None)
        if game == "palace_poker":
            assert [s["chips"] for s in view["seats"]] == stacks and view["pot"] == 0
        else:
            assert [rec.state.chips(s) for s in range(seats)] == stacks  # type: ignore[attr-defined]


def test_blot_keeps_the_match_score_so_far() -> None:
    """An abandoned match returns each seat its team's total of the deals scored; the deal in
    progress scores nothing and there is no winning team."""
    checked = 0
    for seed in range(20):
        rec, rng, shuffler = start("bazaar_blot", 4, seed)
        state: Any = rec.state
        while not state.is_over and state.match.deal_number < 2:
            step(rec, rng, shuffler)
        play_until(rec, rng, shuffler, 5)
        if state.is_over:
            continue
        a, b = state.match.match_score
        scored = [dict(d) for d in state.match.deals]
        rec.abandon()
        out = state.outcome
        assert out.returns == (a, b, a, b)
        assert out.detail["winner_team"] is None and out.detail["totals"] == [a, b]
        assert out.detail["deals"] == scored
        assert state.view(0)["phase"] == "over"
        checked += (a, b) != (0, 0)
    assert checked > 0, "no seed scored a deal before the abandon"


def test_replay_refuses_a_step_after_the_abandon() -> None:
    rec, rng, shuffler = start("bazaar_blot", 4, 1)
    play_until(rec, rng, shuffler, 2)
    rec.abandon()
    doc = rec.history.to_json()
    doc["actions"].append({"seat": None, "action": {"type": "abandon"}})
    with pytest.raises(ReplayError) as info:
        replay(History.from_json(doc))
    assert info.value.index == len(doc["actions"]) - 1 and info.value.code == "engine.game_over"


def test_a_seat_cannot_abandon() -> None:
    """Only the logged chance-seat step abandons: the same action from a seat is an ordinary
    action the game rejects."""
    rec, rng, shuffler = start("bazaar_blot", 4, 2)
    play_until(rec, rng, shuffler, 1)
    seat = rec.state.to_act()[0]
    doc = rec.history.to_json()
    doc["actions"].append({"seat": seat, "action": dict(ABANDON)})
    with pytest.raises(ReplayError) as info:
        replay(History.from_json(doc))
    assert info.value.code == "engine.malformed_action"
    assert not replay(History.from_json(doc), upto=len(doc["actions"]) - 1).is_over
