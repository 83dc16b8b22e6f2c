"""The state of one Palace Poker hand (rules 4-14) on the shared engine protocol.

Phases: ``banner_deal`` (chance) -> ``palace_deal`` (chance) -> ``turn`` ⇄ ``battle`` /
``discard`` (after a Buy or a capture) / ``reshuffle`` (chance, a Buy with an empty stock) ->
``over``. The ante (rule 4) is posted when the state is built; seats whose stack is below the
ante sit the hand out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...engine.actions import Action
from ...engine.errors import InvalidConfigError, NotYourTurnError
from ...engine.events import Event
from ...engine.game import GameState, Outcome, Shuffle
from .cards import canonical_sorted, lowest_first
from .config import PalacePokerConfig
from .deal import draw_banners, draw_palaces
from .flow import do_action
from .legal import MAX_SOLDIERS, check, entries
from .parse import parse_action
from .views import check_invariants, hidden_from, snapshot, view


class PalaceState(GameState):
    """One hand. Seats ``0..n-1``; ``order`` lists the seats dealt in from the dealer's left
    (``p1 … pn``); chips are whole numbers; ``contrib`` is each seat's share of the pot."""

    def __init__(self, config: PalacePokerConfig, num_seats: int, dealer: int,
                 stacks: Sequence[int]) -> None:
        self.config = config
        self.num_seats = num_seats
        self.dealer = dealer
        self.start = tuple(stacks)
        self.chips = list(stacks)
        ante = config.ante_chips
        seats_from_left = [(dealer + 1 + i) % num_seats for i in range(num_seats)]
        self.order = [s for s in seats_from_left if stacks[s] >= ante]
        if len(self.order) < 2:
            raise InvalidConfigError(f"at least 2 seats need the ante of {ante} chips; stacks {stacks}")
        self.in_hand = [s in self.order for s in range(num_seats)]
        self.contrib = [0] * num_seats
        for s in self.order:
            self.chips[s] -= ante
            self.contrib[s] += ante
        self.phase = "banner_deal"
        self.banners: list[str | None] = [None] * num_seats
        self.rejected: list[str] = []
        self.palaces: list[list[str]] = [[] for _ in range(num_seats)]
        self.dealt_palaces: list[list[str]] = [[] for _ in range(num_seats)]
        self.soldiers: list[list[str]] = [[] for _ in range(num_seats)]
        self.stock: list[str] = []
        self.discards: list[str] = []
        self.actor: int | None = None
        self.turn: int | None = None
        self.battle: dict[str, Any] | None = None
        self.quiet = [False] * num_seats
        self.seen: list[set[int]] = [set() for _ in range(num_seats)]
        self.public_palaces: set[int] = set()
        self.last_battle: dict[str, Any] | None = None
        self.result: Outcome | None = None

    # ----- helpers used by the rule modules --------------------------------------------------
    @property
    def pot(self) -> int:
        """Chips in the single main pot."""
        return sum(self.contrib)

    def alive(self) -> list[int]:
        """Seats still in the hand, in order from the dealer's left."""
        return [s for s in self.order if self.in_hand[s]]

    def next_in_hand(self, seat: int) -> int:
        """The next seat still in the hand clockwise after ``seat``."""
        for i in range(1, self.num_seats + 1):
            s = (seat + i) % self.num_seats
            if self.in_hand[s]:
                return s
        raise AssertionError("no seat in the hand")  # pragma: no cover

    def own_cards(self, seat: int) -> list[str]:
        """Palace + soldiers + banner of a seat still in the hand."""
        banner = [self.banners[seat]] if self.banners[seat] and self.in_hand[seat] else []
        return [*self.palaces[seat], *self.soldiers[seat], *banner]  # type: ignore[list-item]

    # ----- protocol ----------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        return self.result

    def to_act(self) -> tuple[int, ...]:
        return () if self.result is not None or self.actor is None or self.chance_due() \
            else (self.actor,)

    def chance_due(self) -> bool:
        return self.phase in ("banner_deal", "palace_deal", "reshuffle")

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.chance_due():
            return []
        return entries(self, seat)

    def _timeout_action(self, seat: int) -> Action | None:
        """Rule 14: own turn -> stay; facing a bet or raise -> fold; pending discard -> the
        lowest-ranked soldiers (ties c<d<h<s) down to five (none if already at most five)."""
        if seat not in self.to_act():
            return None
        match self.phase:
            case "turn":
                return {"type": "stay"}
            case "battle":
                return {"type": "fold"}
            case "discard":
                excess = max(0, len(self.soldiers[seat]) - MAX_SOLDIERS)
                return {"type": "discard", "cards": lowest_first(self.soldiers[seat])[:excess]}
        return None  # pragma: no cover

    def chance_action(self, shuffle: Shuffle) -> Action:
        match self.phase:
            case "banner_deal":
                return draw_banners(self.order, self.num_seats, shuffle)
            case "palace_deal":
                return draw_palaces(self.order, self.num_seats, self.banners, shuffle)
            case "reshuffle":
                return {"type": "reshuffle", "stock": shuffle(canonical_sorted(self.discards))}
        raise NotYourTurnError(f"no chance action is due (phase {self.phase!r})")

    def _view(self, seat: int | None) -> dict[str, Any]:
        return view(self, seat)

    def hidden_from(self, seat: int | None) -> set[str]:
        return hidden_from(self, seat)

    def snapshot(self) -> dict[str, Any]:
        return snapshot(self)

    def check_invariants(self) -> list[str]:
        return check_invariants(self)

    def _parse(self, seat: int | None, action: Action) -> dict[str, Any]:
        return parse_action(action, self.num_seats, self.config.structure == "no_limit")

    def _check(self, seat: int | None, parsed: dict[str, Any]) -> None:
        check(self, seat, parsed)

    def _do(self, seat: int | None, parsed: dict[str, Any]) -> list[Event]:
        return do_action(self, seat, parsed)

