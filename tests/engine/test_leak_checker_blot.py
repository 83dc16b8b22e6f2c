"""The self-play leak check judges a card an event shows by what the viewer could see before
and after the step. Blot's ``hidden_from`` used to be "cards in other seats' hands", empty while
a deal is due, so a deal step that showed every hand to everyone passed self-play; it is now
every card the seat cannot see (all 32 while a deal is due)."""

from __future__ import annotations

import pytest

from cardhall.engine.events import public
from cardhall.engine.inspect import LeakChecker, leaks
from cardhall.games.bazaar_blot.state import BlotState
from cardhall.selfplay import play_one


def _leaky_deal(original):
    def deal(self, action):
        events = original(self, action)
        # a leak injected on purpose: every hand broadcast publicly in the deal step
        hands = [list(ev.data["cards"]) for ev in events
                 if ev.kind == "dealt" and "cards" in ev.data]
        return [*events, public("dealt_all", hands=hands)]
    return deal


def test_a_blot_deal_that_broadcasts_every_hand_is_caught_by_selfplay(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(BlotState, "_deal", _leaky_deal(BlotState._deal))
    _, violations, _ = play_one("bazaar_blot", 4, seed=1)
    assert violations, "self-play missed every hand broadcast to every seat and spectator"


def test_the_leak_is_caught_by_both_judgements(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardhall.engine import SeededShuffler, get_game
    monkeypatch.setattr(BlotState, "_deal", _leaky_deal(BlotState._deal))
    rules = get_game("bazaar_blot")
    st = rules.new_state(rules.config({}), 4, 0)
    checker = LeakChecker(st)
    events = st.apply(None, st.chance_action(SeededShuffler(bytes(32))))
    assert leaks(st, events), "after-only judgement flags it"
    assert checker.check(st, events), "the before-and-after judgement catches it too"
