"""The state of one hand of Soldier's Bluff (spec section 2): the engine protocol over the
hand's data (:class:`.model.HandModel`) and the phase machine.

Phases (:class:`.model.Phase`): ``deal`` (the chance action; antes are posted when the state
is built) -> ``exchange`` -> ``betting`` -> ``over`` (showdown or uncontested pot). The rules
of each phase live in :mod:`.dealing` (antes, deal and exchange, rules 4-6), :mod:`.betting`
(rule 7) and :mod:`.showdown` (rules 8-10); they return transitions and this module, the only
one that changes ``phase`` or sets ``outcome``, chains them:

* ``ExchangeDue`` -> phase ``exchange``;
* ``ExchangeDone`` -> phase ``betting``, round 1 opens;
* ``RoundClosed`` -> the next betting round opens;
* ``ShowdownDue`` -> the live hands are shown and ranked (``PotAwarded``);
* ``PotUncontested(seat)`` -> ``seat`` takes the pot unseen (``PotAwarded``);
* ``PotAwarded`` -> phase ``over``, the outcome is set.

Chance (rule 5, SB-3): :meth:`SoldiersBluffState.chance_action` hands the 40 card ids **in
strength order** (``cards.CARD_IDS``) to the shuffle and deals the result one card at a time,
starting with the seat left of the dealer and going clockwise over the seats dealt in, six
rounds; the rest, in the shuffled order, is the stock (top first).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.actions import Action
from ...engine.errors import IllegalActionError, NotYourTurnError
from ...engine.events import Event
from ...engine.game import GameState, Outcome, OutcomeReason, Shuffle
from . import betting, dealing, showdown, views
from .actions import (
    Bet,
    Call,
    Check,
    Deal,
    Exchange,
    Fold,
    Pass,
    Raise,
    SoldiersBluffAction,
    parse_action,
)
from .betting import PotUncontested, RoundClosed, ShowdownDue
from .config import SoldiersBluffConfig
from .dealing import ExchangeDone, ExchangeDue
from .model import HandModel, Phase
from .showdown import PotAwarded

Transition = ExchangeDue | ExchangeDone | RoundClosed | ShowdownDue | PotUncontested | PotAwarded
"""What a rule module reports after changing the hand (``None``: play goes on as it is)."""


class SoldiersBluffState(HandModel, GameState):
    """One hand from ante to pot award. Built by ``RULES.new_state`` (antes already posted).

    The data are :class:`.model.HandModel`'s fields (chips are whole chips; per-seat data in
    ``seats``, indexed by seat; seats not dealt in keep empty hands and zero amounts).
    """

    def __init__(
        self, config: SoldiersBluffConfig, num_seats: int, dealer: int, stacks: Sequence[int]
    ) -> None:
        seats = dealing.post_antes(config, stacks)
        order = dealing.turn_order(seats, dealer)
        super().__init__(
            config=config, num_seats=num_seats, dealer=dealer, seats=seats, order=order,
            cap=betting.stake_cap(seats, order), pot=sum(p.ante for p in seats),
        )

    # ----- queries -------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        """``(seat,)`` for the seat to exchange or bet now (one at a time, from the dealer's
        left, rules 6-7); ``()`` while the deal is due and once the hand is over."""
        seat = self.turn_seat()
        return () if seat is None else (seat,)

    def chance_due(self) -> bool:
        """True in the ``deal`` phase: the deal (rule 5) is the one chance action."""
        return self.phase is Phase.DEAL

    def _legal_actions(self, seat: int) -> list[Action]:
        if seat != self.turn_seat():  # one seat at a time (rules 6-7); none outside them
            return []
        if self.phase is Phase.EXCHANGE:
            return dealing.exchange_entries(self, seat)
        return betting.entries(self, seat)

    def _timeout_action(self, seat: int) -> Action | None:
        """Rule 12 / SB-25: exchange nothing; in betting ``pass``/``check`` if legal, else
        ``fold``."""
        if self.phase is Phase.EXCHANGE:
            return dealing.timeout_exchange()
        return betting.timeout(self, seat)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return views.view(self, seat)

    def hidden_from(self, seat: int | None) -> set[str]:
        """See :func:`.views.hidden_from`."""
        return views.hidden_from(self, seat)

    def snapshot(self) -> dict[str, Any]:
        """See :func:`.views.snapshot`."""
        return views.snapshot(self)

    def chance_action(self, shuffle: Shuffle) -> Action:
        """The deal drawn through ``shuffle`` (see the module docstring and
        :func:`.dealing.deal_action`).

        Raises:
            NotYourTurnError: the deal is not due (it happens once, first).
        """
        if not self.chance_due():
            raise NotYourTurnError("no chance action is due")
        return dealing.deal_action(self, shuffle)

    def check_invariants(self) -> list[str]:
        """See :func:`.views.invariant_violations`."""
        return views.invariant_violations(self)

    # ----- transitions ---------------------------------------------------------------------
    def _parse(self, seat: int | None, action: Action) -> SoldiersBluffAction:
        parsed = parse_action(action)
        is_deal = isinstance(parsed, Deal)
        if is_deal != (seat is None):
            who = "a chance action (seat=None)" if is_deal else "a seat's action"
            raise NotYourTurnError(f"{parsed.type!r} must be {who}; got seat {seat!r}")
        return parsed

    def _check(self, seat: int | None, parsed: SoldiersBluffAction) -> None:
        phase = self.phase
        match parsed:
            case Deal() if phase is Phase.DEAL:
                dealing.check_deal(self, parsed)
            case Exchange() if phase is Phase.EXCHANGE and seat is not None:
                dealing.check_exchange(self, seat, parsed)
            case Pass() | Bet() | Check() | Call() | Raise() | Fold() if (
                phase is Phase.BETTING and seat is not None
            ):
                betting.check(self, seat, parsed)
            case _:
                raise IllegalActionError(f"{parsed.type!r} is not allowed in the {phase} phase")

    def _do(self, seat: int | None, parsed: SoldiersBluffAction) -> list[Event]:
        step: Transition | None
        match parsed:
            case Deal():
                events, step = dealing.do_deal(self, parsed)
            case Exchange():
                assert seat is not None
                events, step = dealing.do_exchange(self, seat, parsed)
            case _:
                assert seat is not None
                events, step = betting.do(self, seat, parsed)
        while step is not None:
            step = self._advance(step, events)
        return events

    def _abandon(self) -> None:
        """The table ended the hand early (engine ``abandon``, a table rule, not a card rule):
        every seat takes back its ante and stake, so every return is 0 (``chips`` are the start
        stacks again). The pot, antes and stakes stay as they were for the record; ``detail``:
        ``abandoned`` (true), ``pot`` (the chips refunded), ``dealt`` (whether the deal had
        happened)."""
        dealt = self.phase is not Phase.DEAL
        self.phase = Phase.OVER
        self.queue = []
        self.outcome = Outcome(OutcomeReason.ABANDONED, (0,) * self.num_seats,
                               {"abandoned": True, "pot": self.pot, "dealt": dealt})

    def _advance(self, step: Transition, events: list[Event]) -> Transition | None:
        """Follow one transition: change the phase, open what comes next (appending its
        events to ``events``), and return the transition that follows, if any."""
        more: list[Event] = []
        follow: Transition | None = None
        match step:
            case ExchangeDue():
                self.phase = Phase.EXCHANGE
            case ExchangeDone():
                self.phase = Phase.BETTING
                more = betting.open_round(self, 1)
            case RoundClosed():
                more = betting.open_round(self, self.round + 1)
            case ShowdownDue():
                more, follow = showdown.showdown(self)
            case PotUncontested(seat=winner):
                more, follow = showdown.uncontested(self, winner)
            case PotAwarded():
                self.phase = Phase.OVER
                self.queue = []
                self.outcome = Outcome(step.reason, step.returns, step.detail)
        events += more
        return follow
