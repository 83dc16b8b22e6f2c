"""Builders for Palace Poker scenarios with chosen banners, palaces and stock."""

from __future__ import annotations

from typing import Any

from cardhall.engine.inspect import fingerprint
from cardhall.games.palace_poker import RULES, PalaceState
from cardhall.games.palace_poker.cards import CANONICAL


def make(
    banners: list[str],
    palaces: list[list[str]],
    *,
    stock_top: list[str] | None = None,
    rejected: list[str] | None = None,
    stacks: list[int] | None = None,
    config: dict[str, Any] | None = None,
) -> PalaceState:
    """A hand at its first turn. The dealer is the last seat, so p1 = seat 0 and seat order is
    turn order. The stock is ``stock_top`` then every other card in canonical order."""
    n = len(banners)
    state = RULES.new_state(RULES.config(config or {}), n, n - 1, stacks or [100] * n)
    state.apply(None, {"type": "deal_banners", "banners": list(banners),
                       "rejected": list(rejected or [])})
    used = set(banners) | {c for p in palaces for c in p} | set(stock_top or [])
    stock = list(stock_top or []) + [c for c in CANONICAL if c not in used]
    state.apply(None, {"type": "deal_palaces", "palaces": [list(p) for p in palaces],
                       "stock": stock})
    return state


def play(state: PalaceState, *moves: tuple[int, dict[str, Any]]) -> list[Any]:
    """Apply ``(seat, action)`` pairs; returns all events."""
    events: list[Any] = []
    for seat, action in moves:
        events += state.apply(seat, action)
    return events


def rejected_unchanged(state: PalaceState, seat: int | None, action: dict[str, Any],
                       error: type[Exception]) -> str:
    """Apply an action that must fail with ``error``; assert the state is unchanged and return
    the error message."""
    before = fingerprint(state)
    try:
        state.apply(seat, action)
    except error as exc:
        assert fingerprint(state) == before
        return str(exc)
    raise AssertionError(f"{action} was accepted")


BUY = {"type": "buy"}
STAY = {"type": "stay"}
FOLD = {"type": "fold"}
CALL = {"type": "call"}
RAISE = {"type": "raise"}


def discard(*cards: str) -> dict[str, Any]:
    return {"type": "discard", "cards": list(cards)}


def battle(target: int) -> dict[str, Any]:
    return {"type": "battle", "target": target}
