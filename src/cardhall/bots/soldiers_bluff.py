"""The rule-based Soldier's Bluff bot (``docs/bots-builtin.md``).

Sees only the seat's view and legal-action entries. It estimates its chance to win the
showdown from its hand sum (rule 9.2; the Soldier's Bluff, rule 9.1, always wins) against a
normal approximation of each live opponent's hand, then:

* **exchange** (rule 6): keeps four or more Soldier's Bluff pieces and draws for the rest;
  otherwise swaps the cards worth less than the average unseen card, lowest first;
* **betting** (rule 7): bets or raises towards a stake target that grows with its win chance
  (a few antes, never the whole cap unless nearly certain), calls when the pot odds pay,
  passes (free in round 1) or checks otherwise, and folds only when facing a bet it should not
  pay. Assumes ``pass_is_fold`` is off (the default), which the view does not show.
"""

from __future__ import annotations

import random
from statistics import NormalDist
from typing import Any

from ..engine.actions import Action, minimal
from ..games.soldiers_bluff.cards import SOLDIERS_BLUFF, VALUE
from ..games.soldiers_bluff.config import SoldiersBluffConfig
from ..games.soldiers_bluff.ranking import hand_sum, is_soldiers_bluff
from .entries import first, of_type, with_amount, with_cards

DECK_TOTAL = sum(VALUE.values())
"""190 points in the 40-card deck (spec section 1)."""
HAND_SD = 6.3
"""Standard deviation of a random six-card hand sum (sampling without replacement)."""
EXCHANGE_GAIN = 1.5
"""Assumed points an opponent gains per card it exchanged."""
STAKE_STEPS = ((0.93, 1000), (0.8, 8), (0.65, 4), (0.55, 2))
"""(win chance, target stake in antes-in-the-pot); the first row means "up to the cap"."""
BLUFF_RATE = 0.04
"""Chance of a small opening bet with a hand it would otherwise only pass."""


class RulePolicy:
    """Soldier's Bluff rule bot: exchange the weak cards, bet by estimated win chance."""

    name = "rule"

    def __init__(self, config: SoldiersBluffConfig | None = None) -> None:
        """``config``: the table's rules config (the defaults when ``None``); everything this
        bot weighs is in the view, so it only keeps it."""
        self.config = config or SoldiersBluffConfig()

    def choose(self, view: dict[str, Any], legal_actions: list[Action], rng: random.Random) -> Action:
        """One concrete action matching an entry of ``legal_actions`` (non-empty)."""
        match view.get("phase"):
            case "exchange" if of_type(legal_actions, "exchange"):
                return exchange(view, legal_actions)
            case "betting":
                return betting(view, legal_actions, rng)
        return _fallback(legal_actions)


def exchange(view: dict[str, Any], legal: list[Action]) -> Action:
    """The exchange (rule 6): which cards to give up, best-to-discard first."""
    entries = of_type(legal, "exchange")
    hand: list[str] = list(view["hand"])
    most = max(e.get("max_cards", len(e.get("cards", []))) for e in entries)
    pieces = [c for c in hand if c in SOLDIERS_BLUFF]
    others = sorted((c for c in hand if c not in SOLDIERS_BLUFF), key=VALUE.__getitem__)
    if len(pieces) >= 4 and len(others) <= most:
        return with_cards(entries, "cards", others, len(others))
    unseen_mean = (DECK_TOTAL - hand_sum(hand)) / (40 - len(hand))
    ranked = sorted(hand, key=VALUE.__getitem__)
    weak = [c for c in ranked if VALUE[c] < unseen_mean]
    return with_cards(entries, "cards", ranked, min(len(weak), most))


def win_chance(view: dict[str, Any]) -> float:
    """Estimated chance that the own hand wins the showdown against the live opponents."""
    hand: list[str] = list(view["hand"])
    if is_soldiers_bluff(hand):
        return 1.0
    me = view.get("viewer")
    own = hand_sum(hand)
    card_mean = (DECK_TOTAL - own) / (40 - len(hand))
    chance = 1.0
    for seat in view["seats"]:
        if seat["seat"] == me or not seat["in_hand"] or seat["folded"]:
            continue
        mean = 6 * card_mean + EXCHANGE_GAIN * (seat.get("exchanged") or 0)
        chance *= NormalDist(mean, HAND_SD).cdf(own + 0.5)
    return chance


def _target_stake(view: dict[str, Any], chance: float) -> int:
    """The stake the bot is happy to put in with this win chance (0 = none)."""
    antes = sum(s.get("ante", 0) for s in view["seats"] if s["in_hand"]) or 1
    for threshold, mult in STAKE_STEPS:
        if chance >= threshold:
            return min(int(view["cap"]), mult * antes)
    return 0


def betting(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """A betting action (rule 7): raise towards the target, call on pot odds, else pass/check
    or fold."""
    me = view.get("viewer")
    stake = next(s["stake"] for s in view["seats"] if s["seat"] == me)
    high = int(view["highest"])
    chance = win_chance(view)
    target = _target_stake(view, chance)
    if target == 0 and high == 0 and view.get("round") == 1 and rng.random() < BLUFF_RATE:
        target = 2 * max(1, int(view.get("min_bet", 1)))
    grow = first(legal, "raise") or first(legal, "bet")
    if grow is not None and target > high:
        return with_amount(grow, "to", target)
    to_call = high - stake
    if to_call > 0:
        price = to_call / (int(view["pot"]) + to_call)
        if chance >= price + 0.05:
            for kind in ("call", "pass"):
                if (entry := first(legal, kind)) is not None:
                    return dict(entry)
            bet = first(legal, "bet")
            if bet is not None:
                return with_amount(bet, "to", high)
        for kind in ("pass", "fold"):
            if (entry := first(legal, kind)) is not None:
                return dict(entry)
    for kind in ("check", "pass", "call"):
        if (entry := first(legal, kind)) is not None:
            return dict(entry)
    return _fallback(legal)


def _fallback(legal: list[Action]) -> Action:
    """The least committal action: stay-like entries first, else the first entry at minimum."""
    for kind in ("check", "pass", "stay", "call"):
        if (entry := first(legal, kind)) is not None:
            return minimal(entry)
    return minimal(legal[0])
