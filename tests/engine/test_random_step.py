"""The unchecked random driver (``GameState.random_step`` + ``apply_drawn``), over random games of
every registered game: each step draws exactly what the checked self-play loop draws (a seat of
``to_act``, an entry of ``legal_actions``, then ``sample``; chance through the shuffle), answers a
legal action and its parsed form, and applying the parsed form leaves the state that applying
the JSON action through ``apply`` leaves. Games that override the hooks are held to the
engine's generic versions."""

from __future__ import annotations

import copy
import hashlib
import random

import pytest

from cardhall.engine import SeededShuffler, game_names, get_game, is_legal, sample
from cardhall.engine.actions import Action
from cardhall.engine.game import GameState
from cardhall.engine.inspect import fingerprint
from cardhall.evaluators import install as install_evaluators
from cardhall.selfplay import default_stacks

GAMES = sorted(game_names())


def new_game(game: str, seed: int) -> tuple[GameState, random.Random, SeededShuffler]:
    """A fresh state of ``game`` with its driver's rng and shuffle (as ``selfplay.play_one``)."""
    install_evaluators()
    rules = get_game(game)
    rng = random.Random(seed)
    seats = rules.min_seats + seed % (min(rules.max_seats, 6) - rules.min_seats + 1)
    stacks = default_stacks(rules, seats, rng)
    state = rules.new_state(rules.config({}), seats, rng.randrange(seats), stacks)
    return state, rng, SeededShuffler(hashlib.sha256(f"t:{seed}".encode()).digest())


def public_api_step(state: GameState, rng: random.Random,
                    shuffle: SeededShuffler) -> tuple[int | None, Action]:
    """The checked self-play loop's draws, through the public API only."""
    if state.chance_due():
        return None, state.chance_action(shuffle)
    seat = rng.choice(state.to_act())
    return seat, sample(rng.choice(state.legal_actions(seat)), rng)


@pytest.mark.parametrize("game", GAMES)
def test_random_step_draws_and_applies_what_the_public_api_does(game: str) -> None:
    for seed in range(6):
        state, rng, shuffle = new_game(game, seed)
        steps = 0
        while state.outcome is None:
            before = fingerprint(state)
            twin_rng, twin_shuffle = copy.deepcopy(rng), copy.deepcopy(shuffle)
            base_rng, base_shuffle = copy.deepcopy(rng), copy.deepcopy(shuffle)
            seat, action, parsed = state.random_step(rng, shuffle)
            assert fingerprint(state) == before, "drawing a step changed the state"
            # the same draws as the public API, the same action, equal rng/shuffle positions
            assert (seat, action) == public_api_step(state, twin_rng, twin_shuffle)
            assert rng.getstate() == twin_rng.getstate()
            assert shuffle.count == twin_shuffle.count
            # the game's override answers what the engine's generic version answers
            assert GameState.random_step(state, base_rng, base_shuffle) == (seat, action, parsed)
            assert rng.getstate() == base_rng.getstate()
            # a legal action, parsed as apply parses it
            if seat is not None:
                assert is_legal(state.legal_actions(seat), action)
            assert parsed == state._parse(seat, action)
            # applying the parsed form unchecked = applying the JSON action
            other = state.clone()
            other.apply(seat, copy.deepcopy(action))
            state.apply_drawn(seat, parsed)
            assert fingerprint(state) == fingerprint(other)
            assert state.to_act() == other.to_act() and state.chance_due() == other.chance_due()
            steps += 1
        end, other_end = state.outcome, other.outcome
        assert end is not None and other_end is not None and end.to_json() == other_end.to_json()
        assert steps >= 2  # a chance deal and a seat's action at least, in every game



def run_random(state: GameState, rng: random.Random, shuffle: SeededShuffler, max_steps: int,
               *, generic: bool) -> tuple[int, list[tuple[int | None, Action]]]:
    """``play_random`` of the game (or the engine's base loop): steps taken and the log."""
    log: list[tuple[int | None, Action]] = []
    play = GameState.play_random if generic else type(state).play_random
    steps = play(state, rng, shuffle, max_steps, lambda seat, action: log.append((seat, action)))
    return steps, log


@pytest.mark.parametrize("game", GAMES)
def test_play_random_plays_what_the_engine_loop_plays(game: str) -> None:
    # whole games, and games cut after every few steps (a game's tight inner loop must stop at
    # max_steps and go on from there exactly as the base loop does)
    for seed in range(4):
        for cut in (100_000, 1, 7, 33):
            state, rng, shuffle = new_game(game, seed)
            base, base_rng, base_shuffle = new_game(game, seed)
            played: list[tuple[int | None, Action]] = []
            while base.outcome is None:
                steps, log = run_random(state, rng, shuffle, cut, generic=False)
                base_steps, base_log = run_random(base, base_rng, base_shuffle, cut, generic=True)
                assert (steps, log) == (base_steps, base_log)
                assert steps == cut or state.outcome is not None
                assert fingerprint(state) == fingerprint(base)
                assert rng.getstate() == base_rng.getstate()
                assert shuffle.count == base_shuffle.count
                played += log
            assert state.outcome is not None
            # the logged actions replay through the checked apply to the same state
            again, _, _ = new_game(game, seed)
            for seat, action in played:
                again.apply(seat, action)
            assert fingerprint(again) == fingerprint(state)
