"""The end of a hand: the hand-end checks, showdowns and the pot award (rules 11, 12; PP-24,
PP-25, PP-27, PP-30; hard cases 5, 6, 8).

:func:`hand_end` says whether the hand is over (rule 11) and returns the transition for it;
:func:`showdown_winners` compares the hands shown after a quiet orbit; :func:`award` pays the
pot. None of them changes the phase or sets the outcome: :mod:`.state` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.actions import copy_json
from ...engine.events import Event, public
from ...engine.game import Outcome, OutcomeReason
from .battle import compare
from .cards import ids
from .evaluation import strengths, strengths_and_categories
from .explain import best_five, decided
from .model import Hand, HandWon, Phase, ShowdownDue


def hand_end(h: Hand) -> HandWon | ShowdownDue | None:
    """Rule 11: (a) one player left takes the pot; (b) two or three left who all share one
    banner suit split it (PP-27); (c) in the turn phase, once every player left has taken a
    quiet turn since the last Buy or Bet, a showdown (PP-24). ``None`` while the hand goes on.

    The rule says "checked after every action"; :mod:`.state` asks when a turn begins (after
    the palace deal and every ended turn) and after a capture: the only steps that change who
    is left or close an orbit."""
    alive = h.alive()
    if len(alive) == 1:
        return HandWon(tuple(alive), OutcomeReason.LAST_PLAYER)
    if len(alive) <= 3 and len({(h.banners[s] or "")[1] for s in alive}) == 1:
        return HandWon(tuple(alive), OutcomeReason.SAME_BANNER_SPLIT)
    if h.phase == Phase.TURN and all(h.quiet[s] for s in alive):
        return ShowdownDue(tuple(alive))
    return None


def showdown_winners(h: Hand, alive: Sequence[int]) -> tuple[int, ...]:
    """Rule 11c: the winners of a showdown of ``alive``. Exactly two compare under battle
    rules (PP-25, ``two_left_showdown="battle"``; a tie after the own-suit count splits);
    otherwise best hands of all own cards, no exclusions; ties split."""
    if len(alive) == 2 and h.config.two_left_showdown == "battle":
        sign, _ = compare(h, alive[0], alive[1])
        return tuple(alive) if sign == 0 else ((alive[0],) if sign > 0 else (alive[1],))
    values = strengths([ids(h.own_cards(s)) for s in alive], h.config.wheel_allowed)
    best = max(values)
    return tuple(s for s, v in zip(alive, values, strict=True) if v == best)


def explain_showdown(h: Hand, alive: Sequence[int]) -> dict[str, Any]:
    """What the showdown of ``alive`` compared (rule 11c), for the ``hand_end`` event and the
    outcome: ``hands`` (seat -> hand category name, e.g. ``"two_pair"``) and ``rule``
    (``"battle"``: two left compared under battle rules, PP-25, with ``eligible`` (seat ->
    cards that counted) and ``excluded`` (seat -> the opponent's banner suit left out, PP-16,
    or ``None``), and ``own_suit_counts`` when the tie-break was needed; ``"normal"``: best
    five of all own cards); both with each seat's ``best`` five cards and what ``decided``
    between the best hand and the next (:mod:`.explain`)."""
    if len(alive) == 2 and h.config.two_left_showdown == "battle":
        a, d = alive
        _, detail = compare(h, a, d)
        banned = {a: (h.banners[d] or " ")[1], d: (h.banners[a] or " ")[1]}
        excluded = {str(s): banned[s] if h.config.exclude_opponent_banner_suit else None
                    for s in alive}
        return {"rule": "battle", **detail, "excluded": excluded}
    wheel = h.config.wheel_allowed
    own = {s: h.own_cards(s) for s in alive}
    _, names = strengths_and_categories([ids(own[s]) for s in alive], wheel)
    return {"rule": "normal", "hands": {str(s): n for s, n in zip(alive, names, strict=True)},
            "best": {str(s): best_five(own[s], wheel) for s in alive},
            "decided": decided(own, wheel)}


def split_shares(pot: int, winners: Sequence[int], order: Sequence[int]) -> dict[int, int]:
    """Equal shares of ``pot`` (chips); the remainder one chip each to the winners first in
    ``order`` (turn order from the dealer's left, PP-30). Returns seat -> chips, in ``order``."""
    ranked = [s for s in order if s in winners]
    base, rest = divmod(pot, len(ranked))
    return {s: base + (1 if i < rest else 0) for i, s in enumerate(ranked)}


def award(h: Hand, won: HandWon) -> tuple[Outcome, list[Event]]:
    """Pay the pot to ``won.winners`` (rule 11, PP-30) and empty it. Returns the hand's outcome
    (``returns`` = net chip change per seat; ``detail``: winners, pot, shares, and at a
    showdown the hands shown and :func:`explain_showdown`'s ``compared``) and the public
    ``hand_end`` event."""
    pot = h.pot
    shares = split_shares(pot, won.winners, h.order)
    for seat, amount in shares.items():
        h.chips[seat] += amount
    h.committed = [0] * h.num_seats
    returns = tuple(c - s for c, s in zip(h.chips, h.starting_chips, strict=True))
    detail: dict[str, Any] = {"winners": sorted(shares), "pot": pot,
                              "shares": {str(s): v for s, v in shares.items()}}
    if won.reason == OutcomeReason.SHOWDOWN:
        detail["shown"] = {str(s): h.own_cards(s) for s in sorted(h.public_palaces)
                           if h.in_hand[s]}
        detail["compared"] = explain_showdown(h, h.alive())
    outcome = Outcome(won.reason, returns, detail)
    # the event gets its own copy: a caller mutating it must not reach the outcome
    return outcome, [public("hand_end", reason=won.reason.value, **copy_json(detail))]


def refund(h: Hand) -> Outcome:
    """An abandoned hand (engine ``abandon``, a table rule): every seat takes back the chips it
    committed this hand (ante and bets) and the pot is emptied. Returns the outcome (reason
    ``abandoned``, every return 0; ``detail``: ``abandoned``, ``pot`` refunded, ``refunds`` per
    seat index as a string -> chips)."""
    pot = h.pot
    refunds = {str(s): c for s, c in enumerate(h.committed) if c}
    for s, c in enumerate(h.committed):
        h.chips[s] += c
    h.committed = [0] * h.num_seats
    returns = tuple(c - s for c, s in zip(h.chips, h.starting_chips, strict=True))
    return Outcome(OutcomeReason.ABANDONED, returns,
                   {"abandoned": True, "pot": pot, "refunds": refunds})
