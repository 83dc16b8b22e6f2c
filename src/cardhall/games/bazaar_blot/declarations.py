"""Trick-1 declarations: finding, describing and comparing combinations (rule 6, BB-21..BB-28).

A combination is a tuple of card ints in canonical order. A player may declare one of the
combinations :func:`combinations` offers from the hand: each **maximal** run of 3 or more
consecutive cards of one suit in natural order 7-8-9-10-J-Q-K-A (the whole run, so a run of
6-8 is one 100), and each scoring four of a kind (J, 9, A, K, Q, 10; four 8s or 7s score
nothing and are not offered).

The pure functions (:func:`combinations`, :func:`describe`, :func:`award`) are what the rule
bot uses too; the others declare and show the combinations of a :class:`.model.DealState`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from ...engine.errors import IllegalActionError
from ...engine.events import Event, public
from .cards import RANK_OF, codes
from .config import BlotConfig
from .model import DealState, Declaration

SEQUENCE_VALUES = {3: 20, 4: 50}
"""Rule 6: big points of a sequence of 3 / 4 cards; 5 or more are 100."""
CARRE_VALUES = {
    "source": {RANK_OF["J"]: 200, RANK_OF["9"]: 150, RANK_OF["A"]: 100,
               RANK_OF["K"]: 100, RANK_OF["Q"]: 100, RANK_OF["T"]: 100},
    "blot_star": {RANK_OF["J"]: 200, RANK_OF["9"]: 140, RANK_OF["A"]: 110,
                  RANK_OF["K"]: 100, RANK_OF["Q"]: 100, RANK_OF["T"]: 100},
}
"""BB-42: big points of a carré by rank, per ``carre_values``."""
CARRE_TOP = {
    "A>10>K>Q": {RANK_OF["A"]: 3, RANK_OF["T"]: 2, RANK_OF["K"]: 1, RANK_OF["Q"]: 0},
    "A>K>Q>10": {RANK_OF["A"]: 3, RANK_OF["K"]: 2, RANK_OF["Q"]: 1, RANK_OF["T"]: 0},
}
"""BB-25: top-card rank of 100-point carrés when compared."""


class Described(NamedTuple):
    """A combination's public description and its comparison key (rule 6)."""

    kind: str  # "sequence" or "carre"
    length: int
    value: int  # big points
    key: tuple[int, int, int, int, int]


def _runs(bits: int) -> tuple[tuple[int, int], ...]:
    """The maximal runs of 3 or more set bits of an 8-bit rank pattern, as (start, end)."""
    out = []
    r = 0
    while bits >> r:
        if not (bits >> r) & 1:
            r += 1
            continue
        start = r
        while (bits >> r) & 1:
            r += 1
        if r - start >= 3:
            out.append((start, r))
    return tuple(out)


_SUIT_RUNS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(tuple(tuple(range(8 * s + a, 8 * s + b)) for a, b in _runs(bits)) for bits in range(256))
    for s in range(4))
"""``_SUIT_RUNS[suit][rank pattern]``: the sequences (card-int tuples) of that suit's cards."""
_QUADS = tuple((0x01010101 << r, (r, 8 + r, 16 + r, 24 + r)) for r in (2, 3, 4, 5, 6, 7))
"""Each scoring rank's four-of-a-kind mask and cards (9, T, J, Q, K, A)."""


def combinations(hand: list[int]) -> list[tuple[int, ...]]:
    """The combinations a hand may declare (see module docstring), runs first (by suit), then
    carrés (by rank)."""
    mask = 0
    for c in hand:
        mask |= 1 << c
    out: list[tuple[int, ...]] = []
    for s in range(4):
        out += _SUIT_RUNS[s][(mask >> (8 * s)) & 0xFF]
    for quad, cards in _QUADS:
        if mask & quad == quad:
            out.append(cards)
    return out


def is_carre(cards: tuple[int, ...]) -> bool:
    """True for four of a kind (all one rank)."""
    return len(cards) == 4 and len({c & 7 for c in cards}) == 1


def describe(cards: tuple[int, ...], trump: int, cfg: BlotConfig) -> Described:
    """Kind, length, value and comparison key of a combination offered by :func:`combinations`.

    The key compares value -> (carré first, only with ``carre_beats_equal_value_sequence``) ->
    length (carré = 4) -> top card -> trump (rule 6, BB-25, BB-26).
    """
    if is_carre(cards):
        r = cards[0] & 7
        value = CARRE_VALUES[cfg.carre_values][r]
        top = CARRE_TOP[cfg.carre_rank_order].get(r, r)
        first = 1 if cfg.carre_beats_equal_value_sequence else 0
        return Described("carre", 4, value, (value, first, 4, top, 0))
    n = len(cards)
    value = SEQUENCE_VALUES.get(n, 100)
    is_trump = 1 if cards[0] >> 3 == trump else 0
    return Described("sequence", n, value, (value, 0, n, max(c & 7 for c in cards), is_trump))


def best(candidates: Sequence[tuple[int, ...]], trump: int,
         cfg: BlotConfig) -> tuple[int, ...] | None:
    """The strongest of the combinations ``candidates`` by the rule-6 comparison
    (:func:`describe`'s key; the first of equals), or ``None`` if there is none: what a player
    declares to win the comparison (BB-25, BB-26, BB-42 through ``cfg``)."""
    if not candidates:
        return None
    return max(candidates, key=lambda cards: describe(cards, trump, cfg).key)


def award(
    declared: Sequence[tuple[int, tuple[int, ...]]], trump: int, cfg: BlotConfig
) -> tuple[int | None, list[int]]:
    """Which team's combinations count, and the big points awarded per team (rule 6).

    Args:
        declared: ``(seat, cards)`` per declaration (e.g. :class:`.model.Declaration`), in
            trick-1 order (elder hand first).
    Returns:
        ``(team or None, [points team 0, points team 1])``: the team with the strongest single
        combination scores all its declared combinations; the other none. A complete tie goes
        to the elder hand (``combination_tie="elder_hand"``) or to nobody (``"none"``).
        Before voiding for trickless teams (that is scoring's job, BB-31).
    """
    strongest: list[tuple[tuple[int, ...], int] | None] = [None, None]
    total = [0, 0]
    for order, (seat, cards) in enumerate(declared):
        d = describe(cards, trump, cfg)
        team = seat & 1
        total[team] += d.value
        entry = strongest[team]
        if entry is None or d.key > entry[0]:
            strongest[team] = (d.key, order)
    a, b = strongest
    if a is None and b is None:
        return None, [0, 0]
    if a is None or b is None:
        winner = 0 if b is None else 1
    elif a[0] != b[0]:
        winner = 0 if a[0] > b[0] else 1
    elif cfg.combination_tie == "none":
        return None, [0, 0]
    else:
        winner = 0 if a[1] < b[1] else 1
    points = [0, 0]
    points[winner] = total[winner]
    return winner, points


# ----- declaring in a deal ----------------------------------------------------------------------


def declarable(deal: DealState, seat: int) -> list[tuple[int, ...]]:
    """The combinations ``seat`` may declare in trick 1 (its hand then is its initial hand);
    cached per deal (callers must not mutate the list)."""
    cached = deal.combinations_cache[seat]
    if cached is None:
        cached = deal.combinations_cache[seat] = combinations(deal.hands[seat])
    return cached


def check_declaration(deal: DealState, seat: int, cards: tuple[int, ...]) -> None:
    """Raise unless ``seat`` may declare ``cards`` with its card now (rule 6, BB-21).

    Raises:
        IllegalActionError: not trick 1, or not one of the hand's combinations.
    """
    if deal.tricks_played:
        raise IllegalActionError(f"declaration {codes(cards)} only allowed in trick 1")
    if cards not in declarable(deal, seat):
        raise IllegalActionError(f"declaration {codes(cards)} is not a combination of "
                                 f"seat {seat}'s hand")


def declare(deal: DealState, cfg: BlotConfig, seat: int, cards: tuple[int, ...]) -> Event:
    """Record a checked declaration; returns the public ``declared`` event (kind, length and
    value; the cards stay hidden until trick 2, BB-28)."""
    deal.declarations.append(Declaration(seat, cards))
    trump = deal.contract.trump if deal.contract is not None else -1
    d = describe(cards, trump, cfg)
    return public("declared", seat=seat, combination=d.kind, length=d.length, value=d.value)


def reveal(deal: DealState, cfg: BlotConfig, quiet: bool = False) -> Event | None:
    """Rule 6: after trick 1 all declared cards are shown and the best combination decides;
    returns the public ``declarations_shown`` event (``None`` when ``quiet``)."""
    trump = deal.contract.trump if deal.contract is not None else -1
    deal.declarations_winner_team, deal.declarations_awarded = award(deal.declarations, trump, cfg)
    deal.declarations_shown = True
    if quiet:
        return None
    return public("declarations_shown", declarations=declarations_json(deal, cfg, True),
                  winner_team=deal.declarations_winner_team)


def declarations_json(deal: DealState, cfg: BlotConfig, with_cards: bool) -> list[dict[str, Any]]:
    """Declarations in trick-1 order: ``{"seat", "kind", "length", "value"}`` (+ ``"cards"``
    once shown)."""
    trump = deal.contract.trump if deal.contract is not None else -1
    out = []
    for seat, cards in deal.declarations:
        d = describe(cards, trump, cfg)
        item: dict[str, Any] = {"seat": seat, "kind": d.kind, "length": d.length,
                                "value": d.value}
        if with_cards:
            item["cards"] = codes(cards)
        out.append(item)
    return out
