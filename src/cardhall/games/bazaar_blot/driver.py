"""The unchecked random driver's draws for Bazaar Blot (``GameState.random_step``, self-play
and its benchmark only), without building legal-action entries.

Each function makes exactly the draws the engine's generic driver makes from the entries of
:func:`.tricks.play_entries`, :func:`.auction.auction_entries` and
:func:`.auction.response_entries`: ``rng.choice`` of an entry (here ``rng.choice(range(n))``
over the same ``n`` entries, the same draw), then :func:`~cardhall.engine.actions.sample` of
it (a bid's level by ``rng.randint``; a declaration through ``sample`` itself). They answer the
JSON action ``sample`` would answer (same keys in the same order) and its parsed form. The
engine tests hold them to the generic driver over random games.
"""

from __future__ import annotations

from typing import Any

from ...engine.actions import RandomSource, sample
from . import auction, declarations, tricks
from .actions import CONTRA, PASS, PLAYS, RECONTRA, Bid, BlotAction, Kapot, parse_action
from .cards import CARD_OF, CODES, SUITS, codes
from .config import BlotConfig
from .model import DealState

Drawn = tuple[dict[str, Any], BlotAction]
"""A drawn action: its JSON and its parsed form."""


def random_play(deal: DealState, cfg: BlotConfig, seat: int, rng: RandomSource) -> Drawn:
    """The turn seat's random play: entry ``i`` of :func:`.tricks.play_entries` (after trick
    1, one plain play per legal card; in trick 1, each legal card's plain play followed by one
    entry per declarable combination)."""
    legal = tricks.legal_now(deal, cfg)
    if deal.tricks_played:
        card = rng.choice(legal)
        return {"type": "play", "card": CODES[card]}, PLAYS[card]
    offered = declarations.declarable(deal, seat)
    per_card = 1 + len(offered)
    i = rng.choice(range(len(legal) * per_card))
    card, j = legal[i // per_card], i % per_card
    if not j:
        return {"type": "play", "card": CODES[card]}, PLAYS[card]
    cs = offered[j - 1]
    action = sample({"type": "play", "card": CODES[card], "declare_from": codes(cs),
                     "min_declare": len(cs), "max_declare": len(cs)}, rng)
    return action, parse_action(action)


def random_call(deal: DealState, cfg: BlotConfig, seat: int, rng: RandomSource) -> Drawn:
    """A random auction call of ``seat`` (a seat of ``to_act``): out of turn the one entry
    contra; on its turn entry ``i`` of :func:`.auction.auction_entries` (a level range per
    numeric-bid suit, kapots, pass, then contra when allowed)."""
    if seat != deal.turn:
        rng.choice(range(1))
        return {"type": "contra"}, CONTRA
    lo, suits, kapots = auction.bid_options(deal.auction, cfg, seat)
    hi = cfg.max_bid
    bids = suits if lo <= hi else ()
    n = len(bids) + len(kapots) + 1 + auction.may_contra(deal.auction, seat)
    i = rng.choice(range(n))
    if i < len(bids):
        trump = bids[i]
        level = rng.randint(lo, hi)
        return {"type": "bid", "trump": SUITS[trump], "level": level}, Bid(level, trump)
    i -= len(bids)
    if i < len(kapots):
        return {"type": "kapot", "trump": SUITS[kapots[i]]}, Kapot(kapots[i])
    return ({"type": "pass"}, PASS) if i == len(kapots) else ({"type": "contra"}, CONTRA)


def random_response(rng: RandomSource) -> Drawn:
    """A random contra response of the turn seat: entry ``i`` of
    :func:`.auction.response_entries` (recontra, pass)."""
    if rng.choice(range(2)):
        return {"type": "pass"}, PASS
    return {"type": "recontra"}, RECONTRA


def parsed_deal(hands: list[list[str]]) -> tuple[tuple[int, ...], ...]:
    """The ``hands`` of a deal the state drew itself (a partition of the 32 codes), as
    :class:`.actions.Deal` holds them (sorted card ints per seat), without re-validating."""
    get = CARD_OF.__getitem__
    return tuple(tuple(sorted(map(get, hand))) for hand in hands)
