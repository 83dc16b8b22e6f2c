"""Per-seat views and the unredacted snapshot (spec section 4).

A seat sees its own hand; everyone sees the auction, the contract, the current and last trick,
tricks and card points per team, declarations (kind and value during trick 1, cards from
trick 2 on), the match score, target, dealer and deal number, whose turn it is and the phase.
Other hands are never shown, only their sizes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...engine.actions import copy_json
from ...engine.config import config_to_dict
from .auction import call_json
from .cards import SUITS, codes
from .config import BlotConfig

if TYPE_CHECKING:
    from .state import BlotState

TEAMS = [[0, 2], [1, 3]]


def contract_json(st: BlotState) -> dict[str, Any] | None:
    """``{"declarer", "team", "trump", "level" (null for kapot), "kapot", "multiplier"}``,
    or ``None`` before the contract is fixed."""
    if st.declarer < 0:
        return None
    return {"declarer": st.declarer, "team": st.declarer & 1, "trump": SUITS[st.trump],
            "level": st.level, "kapot": st.level is None, "multiplier": st.multiplier}


def _auction_json(st: BlotState) -> dict[str, Any]:
    standing = None
    if st.bid_seat >= 0:
        standing = {"seat": st.bid_seat, "trump": SUITS[st.bid_suit],
                    "level": None if st.bid_kapot else st.bid_level, "kapot": st.bid_kapot}
    return {
        "calls": [{"seat": c[0], **call_json(c[1:])} for c in st.calls],
        "standing": standing,
        "contra_window": st.window,
        "multiplier": st.multiplier,
    }


def _trick_json(leader: int, cards: list[int]) -> list[dict[str, Any]]:
    return [{"seat": (leader + i) & 3, "card": c} for i, c in enumerate(codes(cards))]


def view(st: BlotState, seat: int | None) -> dict[str, Any]:
    """The JSON view of ``seat`` (``None`` = spectator). Shape::

        {"game", "seat", "phase", "dealer", "deal_number", "target_score", "match_score",
         "teams", "turn", "to_act", "hand" (own cards, [] for a spectator), "hand_sizes",
         "auction": {"calls", "standing", "contra_window", "multiplier"}, "contract",
         "trick": {"number", "leader", "cards": [{"seat", "card"}]} | null,
         "last_trick": {"leader", "winner", "cards"} | null, "tricks_won", "card_points",
         "declarations": [{"seat", "kind", "length", "value", "cards" (from trick 2)}],
         "declarations_winner_team" (from trick 2), "deals" (per-deal score records)}
    """
    last = None
    if st.last_trick is not None:
        leader, cards, winner = st.last_trick
        last = {"leader": leader, "winner": winner, "cards": _trick_json(leader, cards)}
    trick = None
    if st.phase == "play":
        trick = {"number": st.trick_no + 1, "leader": st.leader,
                 "cards": _trick_json(st.leader, st.trick)}
    turn = st.timer_seat()
    return {
        "game": "bazaar_blot",
        "seat": seat,
        "phase": st.phase,
        "dealer": st.dealer,
        "deal_number": st.deal_no,
        "target_score": st.config.target_score,
        "match_score": list(st.totals),
        "teams": [list(t) for t in TEAMS],
        "turn": turn,
        "to_act": list(st.to_act()),
        "hand": codes(st.hands[seat]) if seat is not None else [],
        "hand_sizes": [len(h) for h in st.hands],
        "auction": _auction_json(st),
        "contract": contract_json(st),
        "trick": trick,
        "last_trick": last,
        "tricks_won": list(st.tricks_won),
        "card_points": list(st.points),
        "declarations": st.declarations_json(st.revealed),
        "declarations_winner_team": st.decl_winner,
        "deals": copy_json(st.deals),
    }


def snapshot(st: BlotState) -> dict[str, Any]:
    """The full, unredacted state as JSON (admin, equality checks)."""
    cfg: BlotConfig = st.config
    return {
        "config": config_to_dict(cfg),
        "phase": st.phase,
        "dealer": st.dealer,
        "deal_number": st.deal_no,
        "turn": st.turn,
        "hands": [codes(h) for h in st.hands],
        "auction": _auction_json(st),
        "passes": st.passes,
        "kapots": list(st.kapots),
        "responses": st.responses,
        "contract": contract_json(st),
        "leader": st.leader,
        "trick": codes(st.trick),
        "trick_no": st.trick_no,
        "last_trick": None if st.last_trick is None else
        [st.last_trick[0], codes(st.last_trick[1]), st.last_trick[2]],
        "tricks_won": list(st.tricks_won),
        "card_points": list(st.points),
        "declarations": st.declarations_json(True),
        "revealed": st.revealed,
        "declarations_winner_team": st.decl_winner,
        "declarations_awarded": list(st.decl_awarded),
        "totals": list(st.totals),
        "deals": copy_json(st.deals),
        "outcome": None if st.outcome is None else st.outcome.to_json(),
    }
