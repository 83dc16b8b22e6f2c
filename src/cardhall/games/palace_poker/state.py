"""The state of one Palace Poker hand (rules 4-14) on the shared engine protocol.

Phases (:class:`~.model.Phase`): ``banner_deal`` (chance) -> ``palace_deal`` (chance) ->
``turn`` ⇄ ``battle`` / ``discard`` (after a Buy or a capture) / ``reshuffle`` (chance, a Buy
with an empty stock) -> ``over``. The ante (rule 4) is posted when the state is built; seats
whose stack is below the ante sit the hand out.

This is the only module that changes :attr:`Hand.phase <.model.Hand.phase>` and sets the
outcome: the rule modules (:mod:`.deal`, :mod:`.turns`, :mod:`.battle`, :mod:`.showdown`)
return a transition (:data:`~.model.Transition`) and :meth:`PalaceState._follow` chains them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.actions import Action
from ...engine.errors import NotYourTurnError
from ...engine.events import Event
from ...engine.game import GameState, Outcome, OutcomeReason, Shuffle
from . import battle, deal, showdown, turns
from .actions import (
    Battle,
    Buy,
    Call,
    DealBanners,
    DealPalaces,
    Discard,
    Fold,
    PalaceAction,
    Raise,
    Reshuffle,
    Stay,
    parse_action,
)
from .config import PalacePokerConfig
from .legal import check, entries, timeout_action
from .model import (
    CHANCE_PHASES,
    BattleOpened,
    BetRaised,
    Captured,
    DiscardDue,
    Hand,
    HandWon,
    Phase,
    ReshuffleDue,
    ShowdownDue,
    Transition,
    TurnEnded,
)
from .views import check_invariants, hidden_from, snapshot, view


class PalaceState(GameState):
    """One hand. Its data is :attr:`hand` (a :class:`~.model.Hand`); this class is the engine
    protocol around it and the phase machine.

    Raises (construction):
        InvalidConfigError: fewer than two seats can pay the ante (rule 4).
    """

    config: PalacePokerConfig
    hand: Hand

    def __init__(self, config: PalacePokerConfig, num_seats: int, dealer: int,
                 stacks: Sequence[int]) -> None:
        self.config = config
        self.num_seats = num_seats
        self.hand = deal.start_hand(config, num_seats, dealer, stacks)

    # ----- protocol: queries -------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        """How the hand ended (rules 8, 11): ``returns`` are net chip changes per seat (they sum
        to 0); ``None`` while it runs."""
        return self.hand.outcome

    def to_act(self) -> tuple[int, ...]:
        """The one seat whose decision is due, or ``()`` while a chance action is due or after
        the end."""
        h = self.hand
        if h.outcome is not None or h.to_act is None or h.phase in CHANCE_PHASES:
            return ()
        return (h.to_act,)

    def chance_due(self) -> bool:
        """True in the banner deal, the palace deal and a reshuffle (rules 5, 6, 7)."""
        return self.hand.phase in CHANCE_PHASES

    def _legal_actions(self, seat: int) -> list[Action]:
        return entries(self.hand, seat)

    def _timeout_action(self, seat: int) -> Action | None:
        """Rule 14 (:func:`.legal.timeout_action`)."""
        return timeout_action(self.hand, seat)

    def chance_action(self, shuffle: Shuffle) -> Action:
        """The chance action due, drawn through ``shuffle`` (the orders of :mod:`.deal`).

        Raises:
            NotYourTurnError: no chance action is due.
        """
        h = self.hand
        match h.phase:
            case Phase.BANNER_DEAL:
                return deal.draw_banners(h.order, h.num_seats, shuffle)
            case Phase.PALACE_DEAL:
                return deal.draw_palaces(h.order, h.num_seats, h.banners, shuffle)
            case Phase.RESHUFFLE:
                return deal.draw_reshuffle(h, shuffle)
        raise NotYourTurnError(f"no chance action is due (phase {h.phase.value!r})")

    def _view(self, seat: int | None) -> dict[str, Any]:
        return view(self.hand, seat)

    def hidden_from(self, seat: int | None) -> set[str]:
        """Cards ``seat`` may not see now (:func:`.views.hidden_from`, section 4)."""
        return hidden_from(self.hand, seat)

    def snapshot(self) -> dict[str, Any]:
        """The whole :class:`~.model.Hand` as JSON, unredacted (admin inspection, tests)."""
        return snapshot(self.hand)

    def check_invariants(self) -> list[str]:
        """Chips conserved, every card in one place, the soldier cap
        (:func:`.views.check_invariants`)."""
        return check_invariants(self.hand)

    # ----- protocol: transitions ----------------------------------------------------------
    def _parse(self, seat: int | None, action: Action) -> PalaceAction:
        return parse_action(action, self.num_seats, self.config.structure == "no_limit")

    def _check(self, seat: int | None, parsed: PalaceAction) -> None:
        check(self.hand, seat, parsed)

    def _do(self, seat: int | None, parsed: PalaceAction) -> list[Event]:
        """Apply a checked action: the rule module's work, then its transition chain."""
        if seat is not None:
            return self._decide(seat, parsed)
        h = self.hand
        match parsed:
            case DealBanners():
                events = deal.place_banners(h, parsed)
                h.phase = Phase.PALACE_DEAL
                return events
            case DealPalaces():
                events = deal.place_palaces(h, parsed)
                return events + self._open_turn(h.order[0])
            case Reshuffle():
                events = deal.refill_stock(h, parsed.stock)
                assert h.to_act is not None
                step, drawn = turns.draw(h, h.to_act)
                return events + drawn + self._follow(step)
        raise AssertionError(f"unhandled chance action {parsed!r}")  # pragma: no cover

    def _decide(self, seat: int, parsed: PalaceAction) -> list[Event]:
        """A seat's checked decision (rules 7-9; :func:`.legal.check` has matched the action
        to the phase): the rule module's work, then its transition chain."""
        h = self.hand
        step: Transition
        match parsed:
            case Buy():
                step, events = turns.buy(h, seat)
            case Discard():
                step, events = turns.discard(h, seat, parsed.cards,
                                             quiet=h.phase == Phase.TURN)
            case Battle():
                step, events = battle.open_battle(h, seat, parsed.target, parsed.extra)
            case Stay():
                step, events = turns.stay(h, seat)
            case Fold() if h.phase == Phase.TURN:
                step, events = turns.fold(h, seat)
            case Fold():
                step, events = battle.fold(h, seat)
            case Call():
                step, events = battle.call(h, seat)
            case Raise():
                step, events = battle.raise_bet(h, seat, parsed.by)
            case _:  # pragma: no cover - chance actions never reach here
                raise AssertionError(f"unhandled {parsed!r} in phase {h.phase.value!r}")
        return events + self._follow(step)

    def _follow(self, step: Transition | None) -> list[Event]:
        """Follow transitions until the hand waits for a decision or a chance action, or ends;
        returns the events of the steps taken (a ``hand_end`` event)."""
        h = self.hand
        events: list[Event] = []
        while step is not None:
            match step:
                case TurnEnded():
                    events += self._open_turn(h.next_in_hand(step.seat))
                    step = None
                case DiscardDue():
                    h.phase, h.to_act, step = Phase.DISCARD, step.seat, None
                case BattleOpened():
                    b = step.battle
                    h.battle, h.turn_seat = b, b.attacker
                    h.phase, h.to_act = Phase.BATTLE, b.defender
                    step = None
                case BetRaised():
                    h.to_act, step = step.facing, None
                case Captured():
                    capturer = step.capturer
                    h.battle = None
                    step = showdown.hand_end(h)
                    if step is None:
                        h.phase, h.to_act = Phase.DISCARD, capturer
                case ShowdownDue():
                    alive = step.alive
                    h.public_palaces |= set(alive)
                    step = HandWon(showdown.showdown_winners(h, alive), OutcomeReason.SHOWDOWN)
                case HandWon():
                    events += self._end(step)
                    step = None
                case ReshuffleDue():
                    h.phase, step = Phase.RESHUFFLE, None
        return events

    def _open_turn(self, seat: int) -> list[Event]:
        """Rules 7, 10, 11: the turn phase begins; unless the hand is over (rule 11, checked
        after every action), ``seat`` takes its turn."""
        h = self.hand
        h.battle, h.turn_seat, h.phase = None, None, Phase.TURN
        end = showdown.hand_end(h)
        if end is not None:
            return self._follow(end)
        h.to_act = seat
        return []

    def _abandon(self) -> None:
        """The table ended the hand early (engine ``abandon``, a table rule, not a card rule):
        :func:`.showdown.refund` gives every seat back what it put in the pot this hand, so
        every return is 0."""
        h = self.hand
        h.outcome = showdown.refund(h)
        h.phase, h.to_act, h.battle, h.turn_seat = Phase.OVER, None, None, None

    def _end(self, won: HandWon) -> list[Event]:
        """Rules 8, 11: pay the pot and end the hand."""
        h = self.hand
        h.outcome, events = showdown.award(h, won)
        h.phase, h.to_act, h.battle = Phase.OVER, None, None
        return events
