"""Scenario helpers for the Bazaar Blot tests: chosen hands, calls and plays by card code."""

from __future__ import annotations

from typing import Any

from cardhall.engine import get_game
from cardhall.games.bazaar_blot.cards import CARD_OF, CODES, SUIT_OF
from cardhall.games.bazaar_blot.state import BlotState

RULES = get_game("bazaar_blot")


def cards(text: str) -> list[int]:
    """Card ints of space-separated codes, e.g. ``cards("Ah 8h Ks")``."""
    return [CARD_OF[c] for c in text.split()]


def fill_hands(partial: dict[int, str]) -> list[list[str]]:
    """Four 8-card hands: the given cards per seat, the rest filled in canonical order."""
    hands = {s: partial.get(s, "").split() for s in range(4)}
    used = {c for h in hands.values() for c in h}
    rest = [c for c in CODES if c not in used]
    for s in range(4):
        while len(hands[s]) < 8:
            hands[s].append(rest.pop(0))
    assert not rest
    return [hands[s] for s in range(4)]


def new_match(config: dict[str, Any] | None = None, dealer: int = 0) -> BlotState:
    """A fresh 4-seat match (a deal is due)."""
    state = RULES.new_state(RULES.config(config or {}), 4, dealer)
    assert isinstance(state, BlotState)
    return state


def dealt(partial: dict[int, str], config: dict[str, Any] | None = None,
          dealer: int = 0) -> BlotState:
    """A match after a deal of the chosen cards (auction starts left of ``dealer``)."""
    state = new_match(config, dealer)
    state.apply(None, {"type": "deal", "hands": fill_hands(partial)})
    return state


def call(state: BlotState, seat: int, text: str) -> None:
    """Apply a call written ``"pass"``, ``"contra"``, ``"recontra"``, ``"9h"`` or ``"kapot:d"``."""
    if text in ("pass", "contra", "recontra"):
        state.apply(seat, {"type": text})
    elif text.startswith("kapot:"):
        state.apply(seat, {"type": "kapot", "trump": text[6:]})
    else:
        state.apply(seat, {"type": "bid", "level": int(text[:-1]), "trump": text[-1]})


def contract(partial: dict[int, str], bid: str = "8h", by: int = 1,
             config: dict[str, Any] | None = None, dealer: int = 0) -> BlotState:
    """A match in play: the chosen deal, then ``by`` (the first to speak) bids ``bid`` and the
    three others pass."""
    state = dealt(partial, config, dealer)
    assert state.match.deal.turn == by
    call(state, by, bid)
    for i in (1, 2, 3):
        call(state, (by + i) % 4, "pass")
    assert state.match.phase == "play"
    return state


def play(state: BlotState, *codes: str) -> None:
    """The turn seats play these cards in order."""
    for code in codes:
        state.apply(state.match.deal.turn, {"type": "play", "card": code})


def legal_codes(state: BlotState, seat: int) -> set[str]:
    """Cards offered to ``seat`` as plain plays."""
    return {e["card"] for e in state.legal_actions(seat) if e["type"] == "play"}


def trump_of(letter: str) -> int:
    """Suit number of a suit letter."""
    return SUIT_OF[letter]
