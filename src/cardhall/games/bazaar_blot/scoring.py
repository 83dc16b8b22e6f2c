"""Deal scoring (rule 7, BB-30..BB-38): pair rounding, contract test, payouts, multipliers.

Teams are indexed 0 (seats 0, 2) and 1 (seats 1, 3). All points here are whole numbers:
"big" points are card/combination points, "small" points are what the match counts.
"""

from __future__ import annotations

from dataclasses import dataclass

from .config import BlotConfig
from .model import DealState


def small(x: int) -> int:
    """Rule 7: ``(x + 4) // 10`` (last digit 0-5 rounds down, 6-9 up).

    >>> small(85), small(86)
    (8, 9)
    """
    return (x + 4) // 10


def pair_round(a: int, b: int) -> tuple[int, int]:
    """Card small points of a split ``a`` / ``b`` of card points (rule 7, BB-32): round each
    with :func:`small`; if both end in 6, the side with more points rounds down instead.
    For ``a + b = 162`` the total is always 16.

    >>> pair_round(81, 81), pair_round(95, 67), pair_round(100, 62), pair_round(86, 76)
    ((8, 8), (9, 7), (10, 6), (8, 8))
    """
    sa, sb = small(a), small(b)
    if a % 10 == 6 and b % 10 == 6 and a != b:
        if a > b:
            sa -= 1
        else:
            sb -= 1
    return sa, sb


@dataclass(frozen=True, slots=True)
class DealResult:
    """One scored deal (rule 7).

    Attributes:
        made: the contract was made.
        card_small: card small points per team (pair rounding, or 25/0 for all eight tricks).
        combinations: awarded combination big points per team, after voiding trickless teams.
        scores: the deal's small points per team, multiplier included.
    """

    made: bool
    card_small: tuple[int, int]
    combinations: tuple[int, int]
    scores: tuple[int, int]


@dataclass(frozen=True, slots=True)
class DealScored:
    """Transition: the eighth trick is over and the deal scored ``result``; the match score,
    the deal record and the match end are :mod:`.state`'s part (rule 8)."""

    result: DealResult


def score_deal(
    cfg: BlotConfig,
    declarers: int,
    level: int | None,
    tricks: tuple[int, int] | list[int],
    points: tuple[int, int] | list[int],
    awarded: tuple[int, int] | list[int],
    multiplier: int,
) -> DealResult:
    """Score a finished deal (rule 7).

    Args:
        cfg: the rules config.
        declarers: the declaring team (0 or 1).
        level: the numeric bid, or ``None`` for a kapot contract.
        tricks: tricks taken per team (sum 8).
        points: card big points per team, last trick included (sum 162 by default).
        awarded: combination big points per team as awarded by the trick-1 comparison.
        multiplier: 1, 2 (contra) or 4 (recontra); applied to both teams (BB-38).
    Returns:
        The :class:`DealResult`.
    """
    counted = [awarded[t] if tricks[t] > 0 or not cfg.combinations_require_trick else 0
               for t in (0, 1)]
    all8 = cfg.all_tricks_card_points
    if tricks[0] == 8:
        card = [all8, 0]
    elif tricks[1] == 8:
        card = [0, all8]
    else:
        card = list(pair_round(points[0], points[1]))
    own = [card[t] + counted[t] // 10 for t in (0, 1)]
    d, o = declarers, 1 - declarers
    if level is None:
        made = tricks[d] == 8
    elif cfg.made_test == "small":
        made = own[d] >= level
    else:
        made = points[d] + counted[d] >= 10 * level
    if made:
        scores = own
    else:
        scores = [0, 0]
        # 16 (pair rounding), even when the declarers took all eight tricks (a bid above 25)
        base = all8 if level is None or tricks[o] == 8 else sum(pair_round(*points))
        extra = {"defenders": counted[0] + counted[1], "own": counted[o], "none": 0}
        scores[o] = base + extra[cfg.failed_combinations_to] // 10
    return DealResult(
        made,
        (card[0], card[1]),
        (counted[0], counted[1]),
        (scores[0] * multiplier, scores[1] * multiplier),
    )


def score(deal: DealState, cfg: BlotConfig) -> DealScored:
    """Score the finished ``deal`` (after trick 8, under its contract) with :func:`score_deal`.
    Changes nothing."""
    contract = deal.contract
    assert contract is not None  # a deal is scored only after its eight tricks
    return DealScored(score_deal(cfg, contract.team, contract.level, deal.tricks_won,
                                 deal.card_points, deal.declarations_awarded,
                                 contract.multiplier))


def match_winner(totals: tuple[int, int] | list[int], target: int) -> int | None:
    """Rule 8 / BB-39: the team that wins the match after a deal, or ``None`` to play on.
    A team at or over ``target`` wins; if both are, the higher total; exactly equal: another
    deal.

    >>> match_winner((101, 90), 101), match_winner((105, 110), 101), match_winner((101, 101), 101)
    (0, 1, None)
    """
    a, b = totals
    if max(a, b) >= target and a != b:
        return 0 if a > b else 1
    return None
