"""The shared random-playout invariant test, run over every available game.

For each game and seat count, random legal games are played with every invariant of
``cardhall.engine.inspect`` checked after each step (legal actions exist exactly for the seats
to act, the timeout action is legal, the game's own invariants, no view or visible event shows
a hidden card), unlisted actions are probed at a share of steps (rejected, state unchanged),
and each finished history round-trips through JSON and replays to the same state.
"""

from __future__ import annotations

import pytest

from cardhall.engine import game_names
from cardhall.selfplay import play_one

# game -> (seat counts, games per seat count)
PLAN: dict[str, tuple[tuple[int, ...], int]] = {
    "bazaar_blot": ((4,), 30),
    "soldiers_bluff": ((2, 3, 4, 5), 60),
    "palace_poker": ((2, 3, 4, 6, 10), 25),
}

CASES = [
    (game, seats)
    for game in game_names()
    for seats in PLAN.get(game, ((2,), 20))[0]
]


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_random_playouts_keep_every_invariant(game: str, seats: int) -> None:
    games = PLAN.get(game, ((2,), 20))[1]
    for i in range(games):
        rec, violations, _ = play_one(game, seats, seed=1000 * seats + i, probe=0.1)
        assert violations == [], violations[:5]
        assert rec.state.is_over
        outcome = rec.state.outcome
        assert outcome is not None and len(outcome.returns) == seats
        if rec.rules.uses_stacks:
            assert sum(outcome.returns) == 0, "chips are conserved exactly"


def test_at_least_one_game_is_available() -> None:
    assert game_names(), "no game is registered"
