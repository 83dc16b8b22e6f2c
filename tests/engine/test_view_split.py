"""The public/private split of views (``docs/engine.md``, "Views: public and private parts"),
over every registered game: at every step of random games, for every seat,
``{**public_view(), **private_view(s)} == view(s)`` with the same key order, ``private_view``
holds exactly the keys whose value differs from the spectator's, ``public_view() == view(None)``,
and a public view is never mutated by later steps (the server diffs against the previous one)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardhall.engine import (
    GameState,
    NotYourTurnError,
    SeededShuffler,
    game_names,
    get_game,
    sample,
)

CASES = [(game, seats) for game in game_names()
         for seats in sorted({get_game(game).min_seats, get_game(game).max_seats})]


def _check_split(state: GameState) -> dict[str, Any]:
    """Assert the contract for every seat now; return the public view."""
    public = state.public_view()
    spectator = state.view(None)
    assert public == spectator and list(public) == list(spectator)
    for seat in range(state.num_seats):
        full = state.view(seat)
        private = state.private_view(seat)
        merged = {**public, **private}
        assert merged == full, (seat, private)
        assert list(merged) == list(full), seat
        differing = {k: v for k, v in full.items() if k not in public or public[k] != v}
        assert private == differing, (seat, private, differing)
        # the game's cheap hook agrees with the engine's generic one
        assert private == GameState._private_view(state, seat)
    return public


def _play(game: str, seats: int, seed: int, *, steps: int | None = None) -> None:
    rules = get_game(game)
    rng = random.Random(seed)
    stacks = [rng.randint(20, 200) for _ in range(seats)] if rules.uses_stacks else None
    cfg = rules.config({"target_score": 60} if game == "bazaar_blot" else {})
    state = rules.new_state(cfg, seats, seed % seats, stacks)
    shuffle = SeededShuffler(bytes([seed]) * 32)
    previous: list[tuple[dict[str, Any], str]] = []
    n = 0
    while True:
        public = _check_split(state)
        previous.append((public, json.dumps(public)))
        for old, dumped in previous:
            assert json.dumps(old) == dumped, "a step mutated an earlier public view"
        if state.is_over or (steps is not None and n >= steps):
            break
        if state.chance_due():
            seat, action = None, state.chance_action(shuffle)
        else:
            seat = rng.choice(state.to_act())
            action = sample(rng.choice(state.legal_actions(seat)), rng)
        state.apply(seat, action)
        n += 1
    assert state.is_over or steps is not None


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_public_and_private_views_rebuild_every_seats_view(game: str, seats: int) -> None:
    for seed in range(3):
        _play(game, seats, seed)


@pytest.mark.parametrize(("game", "seats"), CASES)
def test_private_view_of_a_bad_seat_raises_like_view(game: str, seats: int) -> None:
    rules = get_game(game)
    stacks = [50] * seats if rules.uses_stacks else None
    state = rules.new_state(rules.config({}), seats, 0, stacks)
    for bad in [None, -1, seats, True, 1.0, "0"]:
        with pytest.raises(NotYourTurnError, match="no seat"):
            state.private_view(bad)  # type: ignore[arg-type]
        if bad is not None:
            with pytest.raises(NotYourTurnError, match="no seat"):
                state.view(bad)  # type: ignore[arg-type]
