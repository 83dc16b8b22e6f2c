"""The rule-based Bazaar Blot bot (``docs/bots-builtin.md``).

Sees only the seat's view and legal-action entries; it keeps no memory between decisions.

* **Auction** (rule 4): with three or more trumps including the J or the 9, values a suit as
  trump from its own hand — trump big points (J 20, 9 14, A 11, 10 10, ...), side aces, tens
  guarded by their ace, extra length — plus a fixed share for the partner and half its best
  combination, and bids the cheapest allowed level of the best suit if the estimate reaches
  it. It never raises its partner's standing bid, never bids kapot and never recontras.
* **Contra** (rule 4, BB-14; :func:`contra_reason`): only with a reason to expect the
  opponents' contract to fail: the trump J of their suit, at least 34 trump points there
  (J + 9, or J + A + 10, ...) and enough *sure tricks* (the trump J; the trump 9 beside the
  J or with two more trumps; side aces; side tens guarded by their ace): 3 when it has not
  passed yet in this auction, 4 when it has (a pass says "I cannot play a contract"; a
  contra after it must rest on a hand that beats theirs, so it never reads as a
  contradiction, e.g. a short J + 9 with one ace passes twice). The same rule decides an
  out-of-turn contra (:meth:`RulePolicy.acts_out_of_turn`): the table asks a bot out of turn
  only through it.
* **Play** (rules 5, 6): leads the trump Jack (or trumps when long in them) and side aces when
  its team declared, side aces then low plain cards when defending; when following it wins
  with the cheapest card that beats the trick, gives points when its partner wins the trick
  as the last to play, and otherwise throws the weakest legal card. In trick 1 it declares the
  strongest combination the entries offer with the chosen card.

Combinations are found, valued and compared by the game's own :mod:`.declarations` module
under the policy's rules config (``carre_values``, ``carre_rank_order``, ...), which the table
passes to :class:`RulePolicy` (default: the spec's config).
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.actions import Action, minimal
from ..games.bazaar_blot import declarations
from ..games.bazaar_blot.cards import (
    CARD_OF,
    PLAIN_POINTS,
    PLAIN_STRENGTH,
    RANK_OF,
    SUIT_OF,
    TRUMP_POINTS,
    TRUMP_STRENGTH,
    weakest_key,
)
from ..games.bazaar_blot.config import BlotConfig
from ..games.bazaar_blot.tricks import card_key
from .entries import first, of_type, with_amount, with_cards

PARTNER_SHARE = 30
"""Big points the partner is assumed to bring in (its share of the 162)."""
CONTRA_TRUMP_POINTS = 34
"""Trump big points in the opponents' suit needed to call contra (with the J: J + 9 at least,
or J + A + 10)."""
CONTRA_SURE_TRICKS = 3
"""Sure tricks (:func:`sure_tricks`) needed to call contra before the bot's own first pass."""
CONTRA_SURE_TRICKS_AFTER_PASS = 4
"""Sure tricks needed to call contra once the bot has passed in this auction."""


class RulePolicy:
    """Bazaar Blot rule bot: bid on a strong suit, cheapest winning card, weakest discard.

    Args:
        config: the table's rules config, for valuing and comparing combinations (rule 6,
            BB-25, BB-26, BB-42); default :class:`BlotConfig` ``()``.
    """

    name = "rule"

    def __init__(self, config: BlotConfig | None = None) -> None:
        self.config = config if config is not None else BlotConfig()

    def acts_out_of_turn(self, view: dict[str, Any], legal_actions: list[Action]) -> bool:
        """Whether to act though it is not this seat's turn (rule 4, BB-14: contra in or out
        of turn): only to call contra with a reason (:func:`contra_reason`). The table asks
        a bot out of turn only through this (``tables/bots.py``)."""
        return first(legal_actions, "contra") is not None and _wants_contra(view)

    def choose(self, view: dict[str, Any], legal_actions: list[Action], rng: random.Random) -> Action:
        """One concrete action matching an entry of ``legal_actions`` (non-empty)."""
        match view.get("phase"):
            case "auction":
                return auction(view, legal_actions, self.config)
            case "play" if of_type(legal_actions, "play"):
                return play(view, legal_actions, self.config)
        entry = first(legal_actions, "pass")
        return minimal(entry if entry is not None else legal_actions[0])


# ----- auction --------------------------------------------------------------------------------


def suit_strength(hand: list[str], trump: str) -> tuple[int, int]:
    """``(estimated big points of the team with this trump, trump points held)``."""
    trumps = [c for c in hand if c[1] == trump]
    held = sum(TRUMP_POINTS[RANK_OF[c[0]]] for c in trumps)
    side = 0
    for c in hand:
        if c[1] == trump:
            continue
        if c[0] == "A":
            side += 11
        elif c[0] == "T" and f"A{c[1]}" in hand:
            side += 10
    length = 10 * max(0, len(trumps) - 3)
    return held + side + length + PARTNER_SHARE, held


def _team(view: dict[str, Any], seat: int) -> int:
    return next(i for i, t in enumerate(view["teams"]) if seat in t)


def hand_combo(hand: list[str], config: BlotConfig) -> int:
    """Big points of the most valuable combination ``hand`` could declare (rule 6, found and
    valued by the game's :mod:`.declarations` under ``config``); 0 if none."""
    combos = declarations.combinations([CARD_OF[c] for c in hand])
    return max((declarations.describe(cs, -1, config).value for cs in combos), default=0)


def sure_tricks(hand: list[str], trump: str) -> int:
    """Tricks ``hand`` (card codes, ``"Jh"``) expects to take against trump ``trump`` (a suit
    letter) whoever declares: the trump J (the highest trump, rule 5); the trump 9 when the J
    is held too or two more trumps guard it; each side ace; each side ten guarded by its
    ace."""
    trumps = {c[0] for c in hand if c[1] == trump}
    tricks = int("J" in trumps)
    if "9" in trumps and ("J" in trumps or len(trumps) >= 3):
        tricks += 1
    for c in hand:
        if c[1] != trump and (c[0] == "A" or (c[0] == "T" and f"A{c[1]}" in hand)):
            tricks += 1
    return tricks


def contra_reason(hand: list[str], trump: str, *, passed_before: bool) -> bool:
    """Whether the rule bot calls contra on the opponents' standing bid in ``trump`` (rule 4):
    it holds that suit's J, :data:`CONTRA_TRUMP_POINTS` trump points there, and
    :data:`CONTRA_SURE_TRICKS` sure tricks (:func:`sure_tricks`), or
    :data:`CONTRA_SURE_TRICKS_AFTER_PASS` once it has passed in this auction
    (``passed_before``): a contra after its own pass needs a hand that clearly beats the
    contract, not the one it just declined to bid with."""
    _, held = suit_strength(hand, trump)
    if f"J{trump}" not in hand or held < CONTRA_TRUMP_POINTS:
        return False
    need = CONTRA_SURE_TRICKS_AFTER_PASS if passed_before else CONTRA_SURE_TRICKS
    return sure_tricks(hand, trump) >= need


def _wants_contra(view: dict[str, Any]) -> bool:
    """:func:`contra_reason` for the view's standing bid, counting the seat's own passes in
    this auction (``view["auction"]["calls"]``)."""
    auction_view = view.get("auction") or {}
    standing = auction_view.get("standing")
    if not standing or not standing.get("trump"):
        return False
    passed = any(c.get("seat") == view["seat"] and c.get("type") == "pass"
                 for c in auction_view.get("calls") or [])
    return contra_reason(list(view["hand"]), standing["trump"], passed_before=passed)


def auction(view: dict[str, Any], legal: list[Action], config: BlotConfig) -> Action:
    """An auction call (rule 4): contra, a bid on the best suit, or pass."""
    me = view["seat"]
    hand: list[str] = list(view["hand"])
    standing = (view.get("auction") or {}).get("standing")
    if first(legal, "contra") is not None and _wants_contra(view):
        return {"type": "contra"}
    partner_stands = standing is not None and _team(view, standing["seat"]) == _team(view, me)
    best: tuple[int, Action] | None = None
    if not partner_stands:
        for entry in of_type(legal, "bid"):
            trump = entry["trump"]
            trumps = [c for c in hand if c[1] == trump]
            if len(trumps) < 3 or not ({f"J{trump}", f"9{trump}"} & set(trumps)):
                continue
            estimate, _ = suit_strength(hand, trump)
            level = (estimate + hand_combo(hand, config) // 2) // 10
            margin = level - entry["min_level"]
            if margin >= 0 and (best is None or margin > best[0]):
                best = (margin, with_amount(entry, "level", entry["min_level"]))
    if best is not None:
        return best[1]
    passing = first(legal, "pass")
    return minimal(passing if passing is not None else legal[0])


# ----- play -----------------------------------------------------------------------------------


def _points(card: str, trump: str) -> int:
    r = RANK_OF[card[0]]
    return TRUMP_POINTS[r] if card[1] == trump else PLAIN_POINTS[r]


def _strength(card: str, trump: str) -> int:
    r = RANK_OF[card[0]]
    return 100 + TRUMP_STRENGTH[r] if card[1] == trump else PLAIN_STRENGTH[r]


def _weakest(cards: list[str], trump: str) -> str:
    """Cheapest card to give away: non-trump first, fewest points, then rule 9's order."""
    t = SUIT_OF[trump]
    return min(cards, key=lambda c: (c[1] == trump, _points(c, trump), weakest_key(CARD_OF[c], t)))


def lead(view: dict[str, Any], cards: list[str], trump: str) -> str:
    """The card to lead a trick."""
    contract = view.get("contract") or {}
    declaring = contract.get("team") == _team(view, view["seat"])
    trumps = [c for c in cards if c[1] == trump]
    aces = [c for c in cards if c[0] == "A" and c[1] != trump]
    if declaring and f"J{trump}" in trumps:
        return f"J{trump}"
    if declaring and len(trumps) >= 3:
        return max(trumps, key=lambda c: _strength(c, trump))
    if aces:
        return aces[0]
    plain = [c for c in cards if c[1] != trump]
    return _weakest(plain or cards, trump)


def follow(view: dict[str, Any], cards: list[str], trump: str) -> str:
    """The card to play into a started trick."""
    played = view["trick"]["cards"]
    t, led = SUIT_OF[trump], SUIT_OF[played[0]["card"][1]]
    keys = [card_key(CARD_OF[p["card"]], led, t) for p in played]
    best = max(range(len(keys)), key=keys.__getitem__)
    partner = next(s for s in view["teams"][_team(view, view["seat"])] if s != view["seat"])
    last = len(played) == 3
    if played[best]["seat"] == partner:
        if last:
            plain = [c for c in cards if c[1] != trump]
            pool = plain or cards
            return max(pool, key=lambda c: (_points(c, trump), -weakest_key(CARD_OF[c], t)))
        return _weakest(cards, trump)
    winners = [c for c in cards if card_key(CARD_OF[c], led, t) > keys[best]]
    if winners:
        return min(winners, key=lambda c: (card_key(CARD_OF[c], led, t), _points(c, trump)))
    return _weakest(cards, trump)


def play(view: dict[str, Any], legal: list[Action], config: BlotConfig) -> Action:
    """A play (rule 5), with the strongest declaration offered on trick 1 (rule 6)."""
    entries = of_type(legal, "play")
    cards = list(dict.fromkeys(e["card"] for e in entries))
    trump = (view.get("contract") or {}).get("trump") or "c"
    trick = view.get("trick") or {}
    card = follow(view, cards, trump) if trick.get("cards") else lead(view, cards, trump)
    mine = [e for e in entries if e["card"] == card]
    declares = [e for e in mine if "declare_from" in e]
    if declares:
        offered = {tuple(sorted(CARD_OF[c] for c in e["declare_from"])): e for e in declares}
        best = declarations.best(list(offered), SUIT_OF[trump], config)
        assert best is not None  # at least one combination is offered
        top = offered[best]
        return with_cards([top], "declare", top["declare_from"], len(top["declare_from"]))
    return minimal(mine[0])
