"""Per-seat views, hidden cards, the unredacted snapshot and the invariants (spec section 4),
all read from a :class:`.model.Match`.

A seat sees its own hand; everyone sees the auction, the contract, the current and last trick,
tricks and card points per team, declarations (kind and value during trick 1, cards from
trick 2 on), the match score, target, dealer and deal number, whose turn it is and the phase.
Other hands are never shown, only their sizes.
"""

from __future__ import annotations

from typing import Any

from ...engine.actions import copy_json
from ...engine.config import config_to_dict
from ...engine.game import Outcome
from .cards import CODES, SUITS, codes
from .declarations import declarations_json
from .model import Auction, Contract, Match, Phase
from .scoring import DealResult
from .tricks import winner_index

TEAMS = ((0, 2), (1, 3))
"""Seats of team 0 and team 1."""


def contract_json(contract: Contract | None) -> dict[str, Any] | None:
    """``{"declarer", "team", "trump", "level" (null for kapot), "kapot", "multiplier"}``,
    or ``None`` before the contract is fixed."""
    if contract is None:
        return None
    return {"declarer": contract.declarer, "team": contract.team, "trump": SUITS[contract.trump],
            "level": contract.level, "kapot": contract.kapot, "multiplier": contract.multiplier}


def auction_json(auction: Auction) -> dict[str, Any]:
    """``{"calls": [{"seat", "type", ...}], "standing": {"seat", "trump", "level", "kapot"} |
    null, "contra_window", "multiplier"}``."""
    standing = auction.standing
    return {
        "calls": [{"seat": seat, **call.to_json()} for seat, call in auction.calls],
        "standing": None if standing is None else {
            "seat": standing.seat, "trump": SUITS[standing.trump], "level": standing.level,
            "kapot": standing.kapot},
        "contra_window": auction.contra_window,
        "multiplier": auction.multiplier,
    }


def _trick_json(leader: int, cards: list[int]) -> list[dict[str, Any]]:
    return [{"seat": (leader + i) & 3, "card": c} for i, c in enumerate(codes(cards))]


def view(m: Match, seat: int | None, turn: int | None, to_act: tuple[int, ...], *,
         share_deals: bool = False) -> dict[str, Any]:
    """The JSON view of ``seat`` (``None`` = spectator; ``turn`` is the timer seat). Shape::

        {"game", "seat", "phase", "dealer", "deal_number", "target_score", "match_score",
         "teams", "turn", "to_act", "hand" (own cards, [] for a spectator), "hand_sizes",
         "auction": {"calls", "standing", "contra_window", "multiplier"}, "contract",
         "trick": {"number", "leader", "cards": [{"seat", "card"}]} | null,
         "last_trick": {"leader", "winner", "cards"} | null, "tricks_won", "card_points",
         "declarations": [{"seat", "kind", "length", "value", "cards" (from trick 2)}],
         "declarations_winner_team" (from trick 2), "deals" (per-deal score records)}

    Fresh JSON throughout, except ``deals`` with ``share_deals``: then it is
    :attr:`.model.Match.deals` itself, which the state never mutates (a scored deal replaces
    the list), for the public view (:meth:`GameState.public_view`) that callers only read.
    """
    deal = m.deal
    last = deal.last_trick
    trick = None
    if m.phase is Phase.PLAY:
        trick = {"number": deal.tricks_played + 1, "leader": deal.trick.leader,
                 "cards": _trick_json(deal.trick.leader, deal.trick.cards)}
    return {
        "game": "bazaar_blot",
        "seat": seat,
        "phase": m.phase.value,
        "dealer": m.dealer,
        "deal_number": m.deal_number,
        "target_score": m.config.target_score,
        "match_score": list(m.match_score),
        "teams": [list(t) for t in TEAMS],
        "turn": turn,
        "to_act": list(to_act),
        "hand": codes(deal.hands[seat]) if seat is not None else [],
        "hand_sizes": [len(h) for h in deal.hands],
        "auction": auction_json(deal.auction),
        "contract": contract_json(deal.contract),
        "trick": trick,
        "last_trick": None if last is None else {
            "leader": last.leader, "winner": last.winner,
            "cards": _trick_json(last.leader, last.cards)},
        "tricks_won": list(deal.tricks_won),
        "card_points": list(deal.card_points),
        "declarations": declarations_json(deal, m.config, deal.declarations_shown),
        "declarations_winner_team": deal.declarations_winner_team,
        "deals": m.deals if share_deals else copy_json(m.deals),
    }


def private_view(m: Match, seat: int) -> dict[str, Any]:
    """The keys of ``seat``'s view that differ from the spectator's: ``seat``, and ``hand``
    while the seat holds cards (an empty hand is the spectator's ``[]``)."""
    hand = m.deal.hands[seat]
    if hand:
        return {"seat": seat, "hand": codes(hand)}
    return {"seat": seat}


def deal_record(m: Match, result: DealResult) -> dict[str, Any]:
    """The JSON record of the deal just scored (an item of the view's ``deals``): ``deal``,
    ``dealer``, ``contract``, ``tricks``, ``card_points``, ``card_small``, ``combinations``,
    ``made``, ``scores``, the match ``totals`` after it, and ``last_trick_team`` (the team
    that took trick 8 and its ``last_trick_bonus`` card points, BB-3; ``None`` if no trick
    was played)."""
    deal = m.deal
    last = deal.last_trick
    return {
        "last_trick_team": None if last is None else last.winner & 1,
        "last_trick_bonus": m.config.last_trick_bonus,
        "deal": m.deal_number, "dealer": m.dealer, "contract": contract_json(deal.contract),
        "tricks": list(deal.tricks_won), "card_points": list(deal.card_points),
        "card_small": list(result.card_small), "combinations": list(result.combinations),
        "made": result.made, "scores": list(result.scores), "totals": list(m.match_score),
    }


def hidden_from(m: Match, seat: int | None) -> set[str]:
    """Every card ``seat`` cannot see now: while a deal is due (before the first deal and
    between deals, a redeal included) all 32 but the last trick and the declarations the view
    still shows; during a deal the cards in other seats' hands, except declared cards once
    shown at trick 2 (played cards are public).

    The self-play leak check flags a card an event shows only when it was hidden from the
    viewer both before and after the step, so the deal step is judged against (nearly) all 32."""
    deal = m.deal
    shown = ({c for _, cards in deal.declarations for c in cards}
             if deal.declarations_shown else set())
    if m.phase is Phase.DEAL:
        last = deal.last_trick
        seen = shown | (set(last.cards) if last is not None else set())
        return {CODES[c] for c in range(len(CODES)) if c not in seen}
    return {CODES[c] for s in range(4) if s != seat for c in deal.hands[s] if c not in shown}


def snapshot(m: Match, outcome: Outcome | None) -> dict[str, Any]:
    """The full, unredacted match as JSON (admin, equality checks)."""
    deal = m.deal
    last = deal.last_trick
    return {
        "config": config_to_dict(m.config),
        "phase": m.phase.value,
        "dealer": m.dealer,
        "deal_number": m.deal_number,
        "turn": deal.turn,
        "hands": [codes(h) for h in deal.hands],
        "auction": auction_json(deal.auction),
        "passes": deal.auction.passes,
        "kapots": list(deal.auction.kapots),
        "responses": deal.auction.responses,
        "contract": contract_json(deal.contract),
        "leader": deal.trick.leader,
        "trick": codes(deal.trick.cards),
        "trick_no": deal.tricks_played,
        "last_trick": None if last is None else [last.leader, codes(last.cards), last.winner],
        "tricks_won": list(deal.tricks_won),
        "card_points": list(deal.card_points),
        "declarations": declarations_json(deal, m.config, True),
        "revealed": deal.declarations_shown,
        "declarations_winner_team": deal.declarations_winner_team,
        "declarations_awarded": list(deal.declarations_awarded),
        "totals": list(m.match_score),
        "deals": copy_json(m.deals),
        "outcome": None if outcome is None else outcome.to_json(),
    }


def check_invariants(m: Match) -> list[str]:
    """Violations of the match's invariants (empty when all hold): no card in two places,
    32 cards less the finished tricks in hands and trick, the tracked trick winner, the tricks
    won adding up."""
    deal = m.deal
    out = []
    cards = [c for h in deal.hands for c in h] + deal.trick.cards
    if len(set(cards)) != len(cards):
        out.append("a card is in two places")
    if m.phase is not Phase.DEAL and m.phase is not Phase.OVER and (
            len(cards) != 32 - 4 * deal.tricks_played):
        out.append(f"{len(cards)} cards in hands and trick after {deal.tricks_played} tricks")
    if deal.trick.cards and deal.contract is not None and (
            winner_index(deal.trick.cards, deal.contract.trump) != deal.trick.winning_index):
        out.append("tracked trick winner is wrong")
    if sum(deal.tricks_won) != deal.tricks_played:
        out.append("tricks won do not add up")
    return out
