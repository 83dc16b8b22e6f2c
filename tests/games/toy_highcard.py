"""``toy_highcard``: a tiny 2-6 player game defined under ``tests/`` only, the test that a new
game needs nothing outside its own module but its registry line (``docs/design.md`` section 12).

A chance ``deal`` gives each seat one card of the 52 French cards (private; the rest is the
stock). Then each seat from the dealer's left in turn ``stay``s or ``fold``s; a seat left alone
wins at once. When every seat has decided, the stayers show and the highest card wins (rank
``2``..``A``, then suit ``c d h s``): the winner +``n - 1``, every other seat -1. The timeout
action is ``fold``. ``register(monkeypatch)`` registers it for one test.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from cardhall.engine import Event, GameRules, GameState, Outcome
from cardhall.engine.errors import MalformedActionError, NotYourTurnError
from cardhall.engine.game import OutcomeReason
from cardhall.engine.wire import FrenchCard, OneOf, WireShapes
from cardhall.engine.wire import Outcome as OutcomeShape

RANKS = "23456789TJQKA"
DECK = tuple(r + s for s in "cdhs" for r in RANKS)
NAME = "toy_highcard"


def strength(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), "cdhs".index(card[1])


@dataclass(frozen=True)
class HighCardConfig:
    """No options: the defaults are the game."""


# ----- wire shapes ----------------------------------------------------------------------------
class HCView(TypedDict):
    """``view(seat)`` of a high-card game."""

    game: Literal["toy_highcard"]
    viewer: int | None
    dealer: int
    card: FrenchCard | None
    decided: list[Literal["stay", "fold"] | None]
    to_act: int | None
    shown: dict[str, FrenchCard] | None
    outcome: OutcomeShape | None


class HCEntry(TypedDict):
    type: Literal["stay", "fold"]


class HCDeal(TypedDict):
    kind: Literal["deal"]
    seats: int


class HCDealt(TypedDict):
    """Private to ``seat``: its card."""

    kind: Literal["dealt"]
    seat: int
    card: FrenchCard


class HCDecision(TypedDict):
    kind: Literal["stay", "fold"]
    seat: int


class HCShowdown(TypedDict):
    kind: Literal["showdown"]
    winner: int
    shown: NotRequired[dict[str, FrenchCard] | None]


WIRE = WireShapes(view=HCView, entry=HCEntry,
                  event=Annotated[HCDeal | HCDealt | HCDecision | HCShowdown, OneOf("kind")])


class HighCardState(GameState):
    def __init__(self, num_seats: int, dealer: int) -> None:
        self.num_seats = num_seats
        self.dealer = dealer
        self.cards: list[str] | None = None
        self.stock: list[str] = []
        self.decided: list[str | None] = [None] * num_seats
        self.turn = (dealer + 1) % num_seats
        self.shown: dict[str, str] | None = None
        self._outcome: Outcome | None = None

    def to_act(self) -> tuple[int, ...]:
        return () if self.cards is None or self._outcome is not None else (self.turn,)

    def chance_due(self) -> bool:
        return self.cards is None and self._outcome is None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def chance_action(self, shuffle: Any) -> dict[str, Any]:
        if not self.chance_due():
            raise NotYourTurnError("no chance action is due")
        deck = shuffle(list(DECK))
        return {"type": "deal", "cards": deck[:self.num_seats], "stock": deck[self.num_seats:]}

    def _legal_actions(self, seat: int) -> list[dict[str, Any]]:
        return [{"type": "stay"}, {"type": "fold"}] if seat in self.to_act() else []

    def _timeout_action(self, seat: int) -> dict[str, Any] | None:
        return {"type": "fold"} if seat == self.timer_seat() else None

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"game": NAME, "viewer": seat, "dealer": self.dealer,
                "card": None if seat is None or self.cards is None else self.cards[seat],
                "decided": list(self.decided), "to_act": self.to_act()[0] if self.to_act() else None,
                "shown": None if self.shown is None else dict(self.shown),
                "outcome": None if self._outcome is None else self._outcome.to_json()}

    def hidden_from(self, seat: int | None) -> set[str]:
        shown = set((self.shown or {}).values())
        return {c for i, c in enumerate(self.cards or []) if i != seat and c not in shown} | set(
            self.stock)

    def snapshot(self) -> dict[str, Any]:
        return {"cards": self.cards, "stock": list(self.stock), "decided": list(self.decided),
                "turn": self.turn, "shown": self.shown,
                "outcome": None if self._outcome is None else self._outcome.to_json()}

    def _parse(self, seat: int | None, action: dict[str, Any]) -> Any:
        if seat is None:
            if action.get("type") != "deal" or set(action) != {"type", "cards", "stock"}:
                raise MalformedActionError(f"bad chance action {action!r}")
            return action
        if action.get("type") not in ("stay", "fold") or set(action) != {"type"}:
            raise MalformedActionError(f"unknown action {action!r}")
        return action

    def _check(self, seat: int | None, parsed: Any) -> None:
        return None

    def _do(self, seat: int | None, parsed: Any) -> list[Event]:
        if seat is None:
            self.cards, self.stock = list(parsed["cards"]), list(parsed["stock"])
            return [Event("dealt", {"seat": i, "card": c}, frozenset({i}))
                    for i, c in enumerate(self.cards)] + [Event("deal", {"seats": self.num_seats})]
        self.decided[seat] = parsed["type"]
        events = [Event(parsed["type"], {"seat": seat})]
        left = [i for i, d in enumerate(self.decided) if d != "fold"]
        if len(left) == 1:
            return events + self._finish(left[0], show=False)
        if all(d is not None for d in self.decided):
            assert self.cards is not None
            winner = max(left, key=lambda i: strength(self.cards[i]))  # type: ignore[index]
            self.shown = {str(i): self.cards[i] for i in left}
            return events + self._finish(winner, show=True)
        self.turn = (self.turn + 1) % self.num_seats
        return events

    def _finish(self, winner: int, show: bool) -> list[Event]:
        n = self.num_seats
        returns = tuple(n - 1 if i == winner else -1 for i in range(n))
        reason = OutcomeReason.SHOWDOWN if show else OutcomeReason.LAST_PLAYER
        self._outcome = Outcome(reason, returns, {"winner": winner})
        return [Event("showdown", {"winner": winner,
                                   "shown": None if self.shown is None else dict(self.shown)})]

    def _abandon(self) -> None:
        self._outcome = Outcome(OutcomeReason.ABANDONED, (0,) * self.num_seats, {})


class HighCardRules(GameRules[HighCardConfig]):
    name = NAME
    title = "High card (toy)"
    config_cls = HighCardConfig
    min_seats = 2
    max_seats = 6
    uses_stacks = False
    card_codes = frozenset(DECK)

    def new_state(self, config: HighCardConfig, num_seats: int, dealer: int,
                  stacks: Any = None) -> HighCardState:
        self.check_setup(config, num_seats, dealer, stacks)
        return HighCardState(num_seats, dealer)

    # ----- wire shapes and documented deal order ---------------------------------------------
    wire = WIRE
    deal_deck = DECK

    def deals_from(self, deck: list[str], action: dict[str, Any]) -> bool | None:
        """Card ``i`` of the shuffled deck to seat ``i``; the rest is the stock."""
        if action.get("type") != "deal":
            return None
        n = len(action["cards"])
        return action["cards"] == deck[:n] and action["stock"] == deck[n:]


RULES = HighCardRules()


def register(monkeypatch: Any) -> None:
    """Register ``toy_highcard`` for one test (``monkeypatch`` restores the registry)."""
    import sys
    import types

    from cardhall.bots import base
    from cardhall.engine import registry

    mod = types.ModuleType(f"cardhall_test_{NAME}")
    mod.RULES = RULES  # type: ignore[attr-defined]
    mod.RulePolicy = lambda config=None: base.RandomPolicy()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, mod.__name__, mod)
    monkeypatch.setitem(registry.GAME_MODULES, NAME, mod.__name__)
    monkeypatch.setitem(base.RULE_POLICIES, NAME, mod.__name__)
    registry.get_game.cache_clear()
