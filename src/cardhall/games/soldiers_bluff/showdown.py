"""End of a hand: uncontested pot (rule 8, SB-23) or showdown (rules 9-10), pot to the winner.

``returns`` are each seat's net chip change: the winner gets the whole pot (antes and every
stake, folded players' included, hard case 7) minus what he put in; every other seat loses its
ante plus stake; seats not dealt in get 0. The returns sum to 0 exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine.events import Event, public
from ...engine.game import Outcome, OutcomeReason
from .ranking import hand_key, hand_sum, is_soldiers_bluff, showdown_winner

if TYPE_CHECKING:
    from .state import SoldiersBluffState


def _returns(st: SoldiersBluffState, winner: int) -> tuple[int, ...]:
    paid = [st.antes[s] + st.stakes[s] for s in range(st.num_seats)]
    return tuple((st.pot if s == winner else 0) - paid[s] for s in range(st.num_seats))


def _finish(st: SoldiersBluffState, reason: str, winner: int) -> list[Event]:
    st.phase = "over"
    st.queue = []
    detail = {"winner": winner, "pot": st.pot,
              "shown": [None if h is None else list(h) for h in st.shown]}
    if reason == "showdown":
        detail["sums"] = [None if h is None else hand_sum(h) for h in st.shown]
        detail["soldiers_bluff"] = is_soldiers_bluff(st.hands[winner])
    st._outcome = Outcome(OutcomeReason(reason), _returns(st, winner), detail)
    return [public("pot_awarded", seat=winner, chips=st.pot, reason=reason)]


def uncontested(st: SoldiersBluffState) -> list[Event]:
    """Rule 8: the last non-folded player takes the pot at once; no cards are shown."""
    (winner,) = st.live()
    return _finish(st, "uncontested", winner)


def showdown(st: SoldiersBluffState) -> list[Event]:
    """Rule 9: every non-folded hand is shown; the best key wins (Soldier's Bluff, then sum,
    then the strongest single card). With ``bluff_only_as_dealt`` (SB-20) a Soldier's Bluff
    completed by an exchange ranks by its sum."""
    only_dealt = st.config.bluff_only_as_dealt
    keys = {s: hand_key(st.hands[s], not only_dealt or st.exchanged[s] == 0) for s in st.live()}
    for s in st.live():
        st.shown[s] = list(st.hands[s])
    winner = showdown_winner(keys)
    shown = {str(s): list(st.hands[s]) for s in st.live()}
    return [public("showdown", hands=shown, winner=winner), *_finish(st, "showdown", winner)]
