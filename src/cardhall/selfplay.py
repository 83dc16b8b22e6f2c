"""Random self-play with invariant checks: ``cardhall selfplay`` and the invariant tests.

Plays complete games with uniformly random legal actions (chance drawn through the documented
seeded shuffle), checking the shared invariants of :mod:`cardhall.engine.inspect` after every
step, and at the end that the history round-trips through JSON and replays to the same state.
"""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .engine import (
    History,
    LoggedAction,
    Recorder,
    SeatInfo,
    SeededShuffler,
    get_game,
    replay,
    sample,
)
from .engine.actions import Action
from .engine.game import Shuffle
from .engine.inspect import (
    LeakChecker,
    fingerprint,
    mutations,
    rejection_violations,
    turn_violations,
)
from .evaluators import install as install_evaluators


@dataclass
class SelfplayReport:
    """Totals of a self-play run. ``units`` counts the game's natural unit (Blot deals)."""

    game: str
    seats: int
    games: int = 0
    steps: int = 0
    units: int = 0
    violations: list[str] = field(default_factory=list)
    longest_game_steps: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        sps = self.steps / self.seconds if self.seconds else 0.0
        return {
            "game": self.game,
            "seats": self.seats,
            "games": self.games,
            "steps": self.steps,
            "deals_or_hands": self.units,
            "longest_game_steps": self.longest_game_steps,
            "seconds": round(self.seconds, 3),
            "steps_per_second": round(sps, 1),
            "violations": len(self.violations),
            "first_violations": self.violations[:10],
        }


def default_stacks(rules: Any, seats: int, rng: random.Random) -> list[int] | None:
    """Random starting stacks for the poker games (20 to 200 chips), ``None`` for Blot."""
    return [rng.randint(20, 200) for _ in range(seats)] if rules.uses_stacks else None


def play_one(
    game: str,
    seats: int,
    seed: int,
    *,
    check: bool = True,
    probe: float = 0.0,
    config: dict[str, Any] | None = None,
    max_steps: int = 100_000,
) -> tuple[Recorder, list[str], int]:
    """Play one random game. Returns ``(recorder, violations, steps)``.

    ``check`` runs the per-step invariants; ``probe`` is the share of steps at which unlisted
    actions are also tried and must be rejected without changing the state. Play stops at the
    first step with a violation, and only that step's violations are reported; a game that
    runs ``max_steps`` steps without a violation and without ending is one.
    """
    rules = get_game(game)
    rng = random.Random(seed)
    cfg = rules.config(config or {})
    dealer = rng.randrange(seats)
    stacks = default_stacks(rules, seats, rng)
    shuffler = SeededShuffler(hashlib.sha256(f"selfplay:{seed}".encode()).digest())
    seat_infos = [SeatInfo(f"p{i}", bot=True) for i in range(seats)]
    rec = Recorder(rules, cfg, seat_infos, dealer, stacks)
    state = rec.state
    violations: list[str] = []
    if not check:
        steps = random_steps(rec, rng, shuffler, max_steps)
        if not state.is_over:
            violations.append(f"game did not end within {max_steps} steps")
        return rec, [f"seed {seed}: {v}" for v in violations], steps
    leak_checker = LeakChecker(state)
    steps = 0
    while not state.is_over and steps < max_steps:
        violations += turn_violations(state)
        if probe and rng.random() < probe:
            for s, bad in mutations(state, rng):
                violations += rejection_violations(state, s, bad)
        if state.chance_due():
            seat, action = None, state.chance_action(shuffler)
        else:
            seat = rng.choice(state.to_act())
            action = sample(rng.choice(state.legal_actions(seat)), rng)
        events = rec.act(seat, action, copy=False)
        steps += 1
        violations += leak_checker.check(state, events)
        if violations:
            break
    if not violations and not state.is_over:
        violations.append(f"game did not end within {max_steps} steps")
    if not violations:
        violations += final_violations(rec)
    return rec, [f"seed {seed}: {v}" for v in violations], steps


def random_steps(rec: Recorder, rng: random.Random, shuffle: Shuffle, max_steps: int) -> int:
    """Play ``rec``'s game on with uniformly random legal actions, unchecked, until it ends or
    ``max_steps`` steps were taken; returns the steps taken. The same draws from ``rng`` as the
    checked loop of :func:`play_one` without ``probe`` (a seat of ``to_act``, an entry, then
    :func:`sample`), so a seed plays the same game either way; the benchmarks' hot loop (``make
    bench``). The game plays itself on (:meth:`GameState.play_random`: each step drawn
    already parsed, applied without checks or events); each step is logged as
    :meth:`Recorder.act` logs it."""
    actions = rec.history.actions

    def log(seat: int | None, action: Action) -> None:
        actions.append(LoggedAction(seat, action))

    return rec.state.play_random(rng, shuffle, max_steps, log)


def final_violations(rec: Recorder) -> list[str]:
    """End-of-game checks: the turn contract at the end, and the history round-trips through
    JSON and replays to the same state."""
    out = turn_violations(rec.state)
    doc = json.loads(json.dumps(rec.history.to_json()))
    again = replay(History.from_json(doc))
    if fingerprint(again) != fingerprint(rec.state):
        out.append("replayed history does not reach the same state")
    return out


def run(game: str, games: int, seed: int, seats: int | None = None, *, check: bool = True,
        probe: float = 0.0, on_game: Callable[[], None] | None = None) -> SelfplayReport:
    """Play ``games`` random games from ``seed`` and total them up; ``on_game`` (if given) is
    called after each game (the command's progress bar)."""
    rules = get_game(game)
    install_evaluators()
    n = seats if seats is not None else rules.min_seats
    report = SelfplayReport(game, n)
    start = time.perf_counter()
    for i in range(games):
        rec, violations, steps = play_one(game, n, seed * 1_000_003 + i, check=check, probe=probe)
        report.games += 1
        report.steps += steps
        report.units += units_played(rec)
        report.longest_game_steps = max(report.longest_game_steps, steps)
        report.violations += violations
        if on_game is not None:
            on_game()
    report.seconds = time.perf_counter() - start
    return report


def units_played(rec: Recorder) -> int:
    """Deals played: the chance actions of the type that opened the game (Blot: every deal
    of the match; the poker games: one per game, their hand's opening deal)."""
    actions = rec.history.actions
    if not actions or actions[0].seat is not None:
        return 1
    first = actions[0].action.get("type")
    return sum(1 for a in actions if a.seat is None and a.action.get("type") == first)
