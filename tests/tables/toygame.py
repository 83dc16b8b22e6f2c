"""Two tiny games for the table-runtime tests (registered by monkeypatching the registry).

``toy_duel``: a chance ``deal`` gives each of 2-4 seats ``cards_each`` cards from the
sixteen cards ``2..9`` of clubs and diamonds (private); then seats play one card each in turn
(public) until hands are empty; the highest total of ranks wins +1, the others -1 (ties 0).
The timeout action plays the lowest card. ``toy_stacks`` is the same game with chip stacks:
the winner takes ``stake`` chips from each loser (capped by the loser's stack).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardhall.engine import Event, GameRules, GameState, Outcome
from cardhall.engine.config import require
from cardhall.engine.errors import IllegalActionError, MalformedActionError, NotYourTurnError
from cardhall.engine.game import OutcomeReason

DECK = [f"{r}{s}" for s in "cd" for r in "23456789"]


def rank(card: str) -> int:
    return int(card[0])


@dataclass(frozen=True)
class ToyConfig:
    cards_each: int = 2
    """cards dealt to each seat"""
    stake: int = 1
    """chips moved per loser (toy_stacks)"""

    def __post_init__(self) -> None:
        require(1 <= self.cards_each <= 4, "cards_each", self.cards_each, "1 to 4")
        require(self.stake >= 1, "stake", self.stake, "at least 1")


class ToyState(GameState):
    def __init__(self, config: ToyConfig, num_seats: int, dealer: int,
                 stacks: list[int] | None) -> None:
        self.config = config
        self.num_seats = num_seats
        self.dealer = dealer
        self.stacks = stacks
        self.hands: list[list[str]] | None = None
        self.stock: list[str] = []
        self.played: list[list[str]] = [[] for _ in range(num_seats)]
        self.turn = (dealer + 1) % num_seats
        self._outcome: Outcome | None = None

    def to_act(self) -> tuple[int, ...]:
        if self.hands is None or self._outcome is not None:
            return ()
        return (self.turn,)

    def chance_due(self) -> bool:
        return self.hands is None and self._outcome is None

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def _legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act():
            return []
        assert self.hands is not None
        return [{"type": "play", "card": c} for c in sorted(self.hands[seat])]

    def _timeout_action(self, seat: int) -> dict[str, Any] | None:
        if seat != self.timer_seat():
            return None
        assert self.hands is not None
        return {"type": "play", "card": min(self.hands[seat], key=lambda c: (rank(c), c))}

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "hand": None if seat is None or self.hands is None else sorted(self.hands[seat]),
            "hand_sizes": [0 if self.hands is None else len(h) for h in self.hands or []],
            "played": [list(p) for p in self.played],
            "turn": None if not self.to_act() else self.turn,
            "stacks": self.stacks,
        }

    def hidden_from(self, seat: int | None) -> set[str]:
        hidden = set(self.stock)
        for i, h in enumerate(self.hands or []):
            if i != seat:
                hidden |= set(h)
        return hidden

    def snapshot(self) -> dict[str, Any]:
        return {"hands": self.hands, "stock": list(self.stock), "played": self.played,
                "turn": self.turn, "outcome": None if self._outcome is None else
                self._outcome.to_json()}

    def chance_action(self, shuffle: Any) -> dict[str, Any]:
        if not self.chance_due():
            raise NotYourTurnError("no chance action is due")
        cards = shuffle(list(DECK))
        k = self.config.cards_each
        hands = [cards[i * k:(i + 1) * k] for i in range(self.num_seats)]
        return {"type": "deal", "hands": hands, "stock": cards[self.num_seats * k:]}

    def _parse(self, seat: int | None, action: dict[str, Any]) -> Any:
        if seat is None:
            if action.get("type") != "deal" or set(action) != {"type", "hands", "stock"}:
                raise MalformedActionError(f"bad chance action {action!r}")
            return action
        if action.get("type") != "play" or set(action) != {"type", "card"}:
            raise MalformedActionError(f"unknown action {action!r}")
        if action["card"] not in DECK:
            raise MalformedActionError(f"unknown card {action['card']!r}")
        return action

    def _check(self, seat: int | None, parsed: Any) -> None:
        if seat is not None:
            assert self.hands is not None
            if parsed["card"] not in self.hands[seat]:
                raise IllegalActionError(f"card {parsed['card']!r} is not in seat {seat}'s hand")

    def _do(self, seat: int | None, parsed: Any) -> list[Event]:
        if seat is None:
            self.hands = [list(h) for h in parsed["hands"]]
            self.stock = list(parsed["stock"])
            return [Event("dealt", {"cards": list(h)}, frozenset({i}))
                    for i, h in enumerate(self.hands)] + [Event("deal", {"sizes": [
                        len(h) for h in self.hands]})]
        assert self.hands is not None
        self.hands[seat].remove(parsed["card"])
        self.played[seat].append(parsed["card"])
        events = [Event("played", {"seat": seat, "card": parsed["card"]})]
        self.turn = (self.turn + 1) % self.num_seats
        if not any(self.hands):
            self._finish()
            events.append(Event("game_end", self._outcome.to_json()))  # type: ignore[union-attr]
        return events

    def _abandon(self) -> None:
        """Ended early: nobody wins or loses anything (every return 0)."""
        self._outcome = Outcome(OutcomeReason.ABANDONED, (0,) * self.num_seats,
                                {"abandoned": True})

    def _finish(self) -> None:
        totals = [sum(rank(c) for c in p) for p in self.played]
        best = max(totals)
        winners = [i for i, t in enumerate(totals) if t == best]
        n = self.num_seats
        if self.stacks is None:
            one = len(winners) == 1
            returns = tuple((1 if i in winners else -1) if one else 0 for i in range(n))
        else:
            moved = [0] * n
            if len(winners) == 1:
                w = winners[0]
                for i in range(n):
                    if i != w:
                        take = min(self.config.stake, self.stacks[i])
                        moved[i] -= take
                        moved[w] += take
            returns = tuple(moved)
        self._outcome = Outcome("all_played", returns, {"totals": totals})


class ToyRules(GameRules[ToyConfig]):
    name = "toy_duel"
    title = "Toy duel"
    config_cls = ToyConfig
    min_seats = 2
    max_seats = 4
    uses_stacks = False

    def new_state(self, config: ToyConfig, num_seats: int, dealer: int,
                  stacks: Any = None) -> ToyState:
        self.check_setup(config, num_seats, dealer, stacks)
        return ToyState(config, num_seats, dealer, None if stacks is None else list(stacks))


class ToyStackRules(ToyRules):
    name = "toy_stacks"
    title = "Toy duel with chips"
    uses_stacks = True

    def min_stack(self, config: ToyConfig) -> int:
        """A seat needs one chip to be dealt in."""
        return 1


RULES = ToyRules()
STACK_RULES = ToyStackRules()


def register(monkeypatch: Any) -> None:
    """Register both toy games for one test (``monkeypatch`` restores the registry)."""
    import sys
    import types

    from cardhall.bots import base
    from cardhall.engine import registry

    for name, rules in (("toy_duel", RULES), ("toy_stacks", STACK_RULES)):
        mod = types.ModuleType(f"cardhall_test_{name}")
        mod.RULES = rules  # type: ignore[attr-defined]
        # the toy's "rule" bot: the random one, built like every RulePolicy (with a config)
        mod.RulePolicy = lambda config=None: base.RandomPolicy()  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, mod.__name__, mod)
        monkeypatch.setitem(registry.GAME_MODULES, name, mod.__name__)
        monkeypatch.setitem(base.RULE_POLICIES, name, mod.__name__)
    registry.get_game.cache_clear()
