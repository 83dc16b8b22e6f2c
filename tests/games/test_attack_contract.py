"""Adversarial review of the shared engine contract, over every registered game:
nothing a caller receives (views, events, legal entries, timeout actions, outcome JSON) is
shared with the state; ``hidden_from`` is never trivially empty mid-game (so the leak checks
are not vacuous); same history -> same state; ``clone`` and ``after`` are independent."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from cardhall.engine import (
    EngineError,
    GameState,
    History,
    NotYourTurnError,
    SeededShuffler,
    game_names,
    get_game,
    replay,
    sample,
)
from cardhall.engine.inspect import fingerprint, strings_in
from cardhall.selfplay import play_one

GAMES = [(g, min(max(get_game(g).min_seats, 3), get_game(g).max_seats)) for g in game_names()]


def _scribble(obj: Any) -> None:
    """Mutate every dict and list inside ``obj`` (what a careless caller might do)."""
    if isinstance(obj, dict):
        for v in list(obj.values()):
            _scribble(v)
        obj["__scribble"] = 1
    elif isinstance(obj, list):
        for v in list(obj):
            _scribble(v)
        obj.append("__scribble")


def _new(game: str, seats: int, seed: int) -> GameState:
    rules = get_game(game)
    stacks = [40] * seats if rules.uses_stacks else None
    return rules.new_state(rules.config({"target_score": 30} if game == "bazaar_blot" else {}),
                           seats, seed % seats, stacks)


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_design_2_nothing_returned_to_callers_aliases_the_state(game: str, seats: int) -> None:
    for seed in range(2):
        rng = random.Random(seed)
        state = _new(game, seats, seed)
        shuffle = SeededShuffler(bytes([seed]) * 32)
        while not state.is_over:
            if state.chance_due():
                seat, action = None, state.chance_action(shuffle)
            else:
                seat = rng.choice(state.to_act())
                action = sample(rng.choice(state.legal_actions(seat)), rng)
            events = state.apply(seat, action)
            before = fingerprint(state)
            for e in events:
                _scribble(e.data)
            for s in [None, *range(seats)]:
                _scribble(state.view(s))
                if s is not None:
                    _scribble(state.legal_actions(s))
                    _scribble(state.timeout_action(s))
            if state.outcome is not None:
                _scribble(state.outcome.to_json())
            assert fingerprint(state) == before, f"a returned object aliases the state after {action}"
            fresh = [e for s in state.to_act() for e in state.legal_actions(s)]
            assert not any("__scribble" in json.dumps(e) for e in fresh)


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_design_7_hidden_from_is_not_trivial_mid_game(game: str, seats: int) -> None:
    rec, violations, _ = play_one(game, seats, seed=3, check=False)
    assert violations == []
    doc = rec.history
    # once the opening chance actions are done, every seat and the spectator miss cards, none
    # of them in their own view
    upto = 0
    while upto < len(doc.actions) and doc.actions[upto].seat is None:
        upto += 1
    state = replay(doc, upto)
    for seat in [None, *range(seats)]:
        hidden = state.hidden_from(seat)
        assert hidden, f"hidden_from({seat}) empty after the deal"
        assert not hidden & set(strings_in(state.view(seat)))
    if game in ("bazaar_blot", "soldiers_bluff"):
        # right after the deal every seat misses every other hand (Blot: 24 of 32 cards;
        # Bluff: the 34 cards outside its own hand, other hands and the stock included)
        state = replay(doc, 1)
        for seat in range(seats):
            own = set(state.view(seat)["hand"])
            hidden = state.hidden_from(seat)
            assert len(own) in (6, 8) and not own & hidden
            assert len(hidden) == (24 if game == "bazaar_blot" else 40 - 6)
            assert len(state.hidden_from(None)) == (32 if game == "bazaar_blot" else 40)
            other = {c for s in range(seats) if s != seat for c in state.view(s)["hand"]}
            assert other <= hidden
            assert not other & set(strings_in(state.view(seat)))
    # half-way through, still non-empty for every seat and the spectator
    mid = replay(doc, len(doc.actions) // 2)
    if not mid.is_over:
        for seat in [None, *range(seats)]:
            assert mid.hidden_from(seat), f"hidden_from({seat}) empty mid-game"


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_design_2_same_history_same_state_clone_and_after_are_independent(
    game: str, seats: int
) -> None:
    rec, _, _ = play_one(game, seats, seed=7, check=False)
    doc = json.loads(json.dumps(rec.history.to_json()))
    a = replay(History.from_json(doc))
    b = replay(History.from_json(doc))
    assert fingerprint(a) == fingerprint(b) == fingerprint(rec.state)
    n = len(rec.history.actions)
    for upto in (1, n // 3, n // 2, n - 1):
        state = replay(rec.history, upto)
        if state.is_over or state.chance_due():
            continue
        before = fingerprint(state)
        seat = state.to_act()[0]
        action = rec.history.actions[upto].action
        acting = rec.history.actions[upto].seat
        copy_ = state.clone()
        new, _ = state.after(acting, action)
        assert fingerprint(state) == before, "after() changed the original"
        assert fingerprint(copy_) == before
        assert fingerprint(new) == fingerprint(replay(rec.history, upto + 1))
        copy_.apply(seat, sample(copy_.legal_actions(seat)[0], random.Random(0)))
        assert fingerprint(state) == before, "a clone shares state with its original"


@pytest.mark.parametrize(("game", "seats"), GAMES)
@pytest.mark.parametrize("bad", [-1, -2, 9, True, 1.0, "0"])
def test_design_2_a_bad_seat_index_sees_nothing_and_may_do_nothing(
    game: str, seats: int, bad: Any
) -> None:
    # view(-1) used to return the last seat's hand (Python negative indexing); legal_actions
    # (1.0) raised TypeError and Blot's legal_actions(-1) offered contra.
    rec, _, _ = play_one(game, seats, seed=5, check=False)
    h = rec.history
    for upto in (1, 2, 3, len(h.actions) // 2):
        state = replay(h, upto)
        before = fingerprint(state)
        with pytest.raises(NotYourTurnError, match="no seat"):
            state.view(bad)
        assert state.legal_actions(bad) == []
        assert state.timeout_action(bad) is None
        assert fingerprint(state) == before


def _generic_probes(state: GameState, seat: int) -> list[dict[str, Any]]:
    """For any game: every legal action type with each card hidden from ``seat`` as ``card``
    and as ``cards`` (the usual field names), so error messages are probed with hidden cards."""
    kinds = {str(e["type"]) for e in state.legal_actions(seat)}
    hidden = sorted(state.hidden_from(seat))
    return [a for t in sorted(kinds) for c in hidden
            for a in ({"type": t, "card": c}, {"type": t, "cards": [c]})]


def _probes(game: str, state: GameState, seat: int) -> list[dict[str, Any]]:
    return _game_probes(game) + _generic_probes(state, seat)


def _game_probes(game: str) -> list[dict[str, Any]]:
    if game == "palace_poker":
        from cardhall.games.palace_poker.cards import CANONICAL
        return [*({"type": "discard", "cards": [c]} for c in CANONICAL),
                {"type": "battle", "target": 0, "extra": 10**6}, {"type": "raise", "by": 10**6},
                {"type": "call"}, {"type": "buy"}]
    if game == "bazaar_blot":
        from cardhall.games.bazaar_blot.cards import CODES as deck
        out: list[dict[str, Any]] = [{"type": "play", "card": c} for c in deck]
        out += [{"type": "play", "card": c, "declare": [c]} for c in deck]
        out += [{"type": "bid", "level": 20, "trump": "h"}, {"type": "contra"},
                {"type": "recontra"}, {"type": "kapot", "trump": "s"}]
        return out
    if game != "soldiers_bluff":
        return []
    from cardhall.games.soldiers_bluff import CARD_IDS

    return [{"type": "exchange", "cards": [c]} for c in CARD_IDS] + [
        {"type": "exchange", "cards": [c, c]} for c in CARD_IDS] + [
        {"type": "bet", "to": 999}, {"type": "raise", "to": 999}, {"type": "check"}]


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_design_7_error_messages_name_no_hidden_card(game: str, seats: int) -> None:
    # An error goes to the seat that sent the action: it may echo that action but must not
    # name a card hidden from that seat (e.g. "legal: [...]" listing another hand).
    rec, _, _ = play_one(game, seats, seed=11, check=False)
    h = rec.history
    for upto in range(1, min(len(h.actions), 40)):
        state = replay(h, upto)
        for seat in state.to_act():
            hidden = state.hidden_from(seat)
            for action in _probes(game, state, seat):
                try:
                    state.clone().apply(seat, action)
                except EngineError as exc:
                    named = {s for s in hidden if s in exc.message}
                    named -= set(strings_in(action))
                    assert not named, f"{exc.message} names hidden {named}"
