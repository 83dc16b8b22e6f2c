"""The state of one hand of Soldier's Bluff (spec section 2) and its phase dispatch.

Phases: ``deal`` (the chance action; antes are posted when the state is built) -> ``exchange``
-> ``betting`` -> ``over`` (showdown or uncontested pot). The rules of each phase live in
:mod:`.dealing` (deal and exchange, rules 5-6), :mod:`.betting` (rule 7) and :mod:`.showdown`
(rules 8-10); views and the hidden-card sets in :mod:`.views`.

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
from ...engine.game import GameState, Outcome, Shuffle
from . import betting, dealing, views
from .actions import BETTING_TYPES, Parsed, parse
from .config import SoldiersBluffConfig


class SoldiersBluffState(GameState):
    """One hand from ante to pot award. Built by ``RULES.new_state`` (antes already posted).

    Chip amounts are whole chips. Per-seat lists are indexed by seat; seats not dealt in keep
    empty hands and zero amounts.
    """

    def __init__(
        self, config: SoldiersBluffConfig, num_seats: int, dealer: int, stacks: Sequence[int]
    ) -> None:
        self.config = config
        self.num_seats = num_seats
        self.dealer = dealer
        self.start_stacks: list[int] = list(stacks)
        self.dealt_in: list[bool] = [s >= config.ante for s in stacks]
        self.antes: list[int] = [config.ante if d else 0 for d in self.dealt_in]
        self.order: list[int] = [
            (dealer + 1 + i) % num_seats
            for i in range(num_seats)
            if self.dealt_in[(dealer + 1 + i) % num_seats]
        ]
        self.cap: int = min(stacks[s] - config.ante for s in self.order)
        self.pot: int = sum(self.antes)
        self.phase: str = "deal"
        self.hands: list[list[str]] = [[] for _ in range(num_seats)]
        self.stock: list[str] = []
        self.discards: list[list[str]] = [[] for _ in range(num_seats)]
        self.exchanged: list[int | None] = [None] * num_seats
        self.stakes: list[int] = [0] * num_seats
        self.folded: list[bool] = [False] * num_seats
        self.round: int = 0
        self.raised: bool = False
        self.queue: list[int] = []
        self.shown: list[list[str] | None] = [None] * num_seats
        self._outcome: Outcome | None = None

    # ----- queries -------------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        if self.phase in ("exchange", "betting") and self.queue:
            return (self.queue[0],)
        return ()

    def chance_due(self) -> bool:
        return self.phase == "deal"

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def live(self) -> list[int]:
        """Non-folded seats dealt in, in turn order from the dealer's left."""
        return [s for s in self.order if not self.folded[s]]

    def highest(self) -> int:
        """``H``: the highest stake among non-folded players (rule 7), chips."""
        return max((self.stakes[s] for s in self.live()), default=0)

    def chips(self, seat: int) -> int:
        """Chips ``seat`` holds behind now: start stack minus ante and stake; once the hand is
        over, start stack plus the seat's return (the pot awarded)."""
        if self._outcome is not None:
            return self.start_stacks[seat] + self._outcome.returns[seat]
        return self.start_stacks[seat] - self.antes[seat] - self.stakes[seat]

    def _legal_actions(self, seat: int) -> list[Action]:
        if not self.is_seat(seat) or seat not in self.to_act():
            return []
        match self.phase:
            case "exchange":
                return dealing.exchange_entries(self, seat)
            case "betting":
                return betting.entries(self, seat)
        return []  # pragma: no cover - to_act() is empty in other phases

    def _timeout_action(self, seat: int) -> Action | None:
        """Rule 12 / SB-25: exchange nothing; in betting ``pass``/``check`` if legal, else
        ``fold``. ``None`` unless ``seat`` is to act."""
        if not self.is_seat(seat) or seat not in self.to_act():
            return None
        match self.phase:
            case "exchange":
                return {"type": "exchange", "cards": []}
            case _:
                return betting.timeout(self, seat)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return views.view(self, seat)

    def hidden_from(self, seat: int | None) -> set[str]:
        return views.hidden_from(self, seat)

    def snapshot(self) -> dict[str, Any]:
        return views.snapshot(self)

    def chance_action(self, shuffle: Shuffle) -> Action:
        if not self.chance_due():
            raise NotYourTurnError("no chance action is due")
        return dealing.deal_action(self, shuffle)

    def check_invariants(self) -> list[str]:
        return views.invariant_violations(self)

    # ----- transitions ---------------------------------------------------------------------
    def _parse(self, seat: int | None, action: Action) -> Parsed:
        parsed = parse(action)
        if (parsed.type == "deal") != (seat is None):
            who = "a chance action (seat=None)" if parsed.type == "deal" else "a seat's action"
            raise NotYourTurnError(f"{parsed.type!r} must be {who}; got seat {seat!r}")
        return parsed

    def _check(self, seat: int | None, parsed: Parsed) -> None:
        match self.phase:
            case "deal":
                dealing.check_deal(self, parsed)
            case "exchange" if parsed.type == "exchange" and seat is not None:
                dealing.check_exchange(self, seat, parsed)
            case "betting" if parsed.type in BETTING_TYPES and seat is not None:
                betting.check(self, seat, parsed)
            case _:
                raise IllegalActionError(f"{parsed.type!r} is not allowed in the {self.phase} phase")

    def _do(self, seat: int | None, parsed: Parsed) -> list[Event]:
        match self.phase:
            case "deal":
                return dealing.do_deal(self, parsed)
            case "exchange":
                assert seat is not None
                return dealing.do_exchange(self, seat, parsed)
            case _:
                assert seat is not None
                return betting.do(self, seat, parsed)
