"""The engine owns the seat guards of ``legal_actions``, ``timeout_action`` and ``view``
(``docs/engine.md``): every registered game is held to them, including one added later."""

from __future__ import annotations

from typing import Any

import pytest

from cardhall.engine import NotYourTurnError, game_names, get_game, replay
from cardhall.engine.inspect import fingerprint
from cardhall.selfplay import play_one

CASES = [(game, seats) for game in game_names()
         for seats in sorted({get_game(game).min_seats, get_game(game).max_seats})]


def test_every_registered_game_is_covered() -> None:
    assert {"bazaar_blot", "palace_poker", "soldiers_bluff"} <= {g for g, _ in CASES}


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_a_bad_seat_index_sees_nothing_and_may_do_nothing(game: str, seats: int) -> None:
    # Palace Poker's view(-1) showed the last seat's palace, view(True) answered, view(2) at a
    # 2-seat table raised IndexError and legal_actions(1.0) raised TypeError.
    bad: list[Any] = [-1, -2, seats, seats + 7, True, False, 1.0, 0.0, "0", None, (0,)]
    rec, _, _ = play_one(game, seats, seed=5, check=False)
    history = rec.history
    for upto in sorted({0, 1, 2, 3, len(history.actions) // 2, len(history.actions)}):
        state = replay(history, upto)
        before = fingerprint(state)
        for seat in bad:
            if seat is not None:
                with pytest.raises(NotYourTurnError, match="no seat"):
                    state.view(seat)
            assert state.legal_actions(seat) == [], (game, upto, seat)
            assert state.timeout_action(seat) is None, (game, upto, seat)
        assert fingerprint(state) == before
        state.view(None)  # the spectator's view is always allowed


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_only_seats_to_act_get_legal_actions_or_a_timeout(game: str, seats: int) -> None:
    rec, _, _ = play_one(game, seats, seed=9, check=False)
    history = rec.history
    for upto in range(0, len(history.actions) + 1, max(1, len(history.actions) // 25)):
        state = replay(history, upto)
        for seat in range(seats):
            if seat not in state.to_act():
                assert state.legal_actions(seat) == []
                assert state.timeout_action(seat) is None
            state.view(seat)  # every real seat may look


@pytest.mark.parametrize("game", game_names())
def test_min_stack_deals(game: str) -> None:
    # A table whose seats hold exactly min_stack chips can deal its first game; one chip less
    # is refused by check_table (the table layer calls it when a table is created).
    rules = get_game(game)
    config = rules.config({"small_bet": 10} if game == "palace_poker" else {})
    n = rules.min_seats
    if not rules.uses_stacks:
        assert rules.min_stack(config) == 0
        rules.check_table(config, n, None)
        return
    need = rules.min_stack(config)
    assert need >= 1
    rules.check_table(config, n, need)
    with pytest.raises(ValueError, match="starting_stack"):
        rules.check_table(config, n, need - 1)
