"""The leak check of ``cardhall.engine.inspect`` judges a card by what its viewer could see when
it was shown, and still catches real leaks (toy games that leak on purpose); ``cardhall
selfplay`` reports exactly the violations it stopped on."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

import cardhall.selfplay as selfplay
from cardhall.cli import main
from cardhall.engine.actions import Action
from cardhall.engine.errors import MalformedActionError
from cardhall.engine.events import Event, private, public
from cardhall.engine.game import GameState, Outcome, OutcomeReason, Shuffle
from cardhall.engine.history import start_state
from cardhall.engine.inspect import LeakChecker, hidden_sets, leaks
from cardhall.engine.rules import GameRules
from cardhall.selfplay import play_one


@dataclass(frozen=True)
class ToyConfig:
    """No rules to choose."""


class ToyState(GameState):
    """Two seats, one private card each (seat 0: ``Ac``, seat 1: ``Kd``) and one public card
    ``Qh`` on the table. Seat 0 acts with ``{"type": "step"}``; what the step does is
    ``behaviour``:

    * ``"leak_event"``: an event to seat 1 shows seat 0's private card (a real leak);
    * ``"leak_view"``: seat 1's view shows seat 0's private card from then on (a real leak);
    * ``"bury_public"``: an event shows the public card, which the same step buries face down
      (not a leak: everyone saw it when the event happened; later steps do nothing);
    * ``"reveal"``: seat 0's card becomes public and an event shows it (not a leak);
    * ``"quiet"``: nothing.

    The game ends after ``steps`` steps (``0``: never).
    """

    def __init__(self, behaviour: str, steps: int) -> None:
        self.config = ToyConfig()
        self.num_seats = 2
        self.behaviour = behaviour
        self.steps_left = steps
        self.public = {"Qh"}
        self.view_leaks = False
        self.done: Outcome | None = None

    @property
    def outcome(self) -> Outcome | None:
        return self.done

    def to_act(self) -> tuple[int, ...]:
        return () if self.done else (0,)

    def chance_due(self) -> bool:
        return False

    def _legal_actions(self, seat: int) -> list[Action]:
        return [{"type": "step"}] if seat in self.to_act() else []

    def _timeout_action(self, seat: int) -> Action | None:
        return {"type": "step"}

    def _view(self, seat: int | None) -> dict[str, Any]:
        own = {0: ["Ac"], 1: ["Kd"]}.get(seat, []) if seat is not None else []
        shown = ["Ac"] if self.view_leaks and seat == 1 else []
        return {"hand": own, "table": sorted(self.public), "peek": shown}

    def hidden_from(self, seat: int | None) -> set[str]:
        private_cards = {0: "Ac", 1: "Kd"}
        return {c for s, c in private_cards.items() if s != seat and c not in self.public} | (
            {"Qh"} if "Qh" not in self.public else set())

    def snapshot(self) -> dict[str, Any]:
        return {"public": sorted(self.public), "left": self.steps_left, "leaks": self.view_leaks}

    def chance_action(self, shuffle: Shuffle) -> Action:
        raise AssertionError("no chance in the toy game")

    def _abandon(self) -> None:
        self.done = Outcome(OutcomeReason.ABANDONED, (0, 0), {"abandoned": True})

    def _parse(self, seat: int | None, action: Action) -> Any:
        if set(action) != {"type"} or action["type"] != "step":
            raise MalformedActionError(f"unknown toy action {action!r}")
        return action

    def _check(self, seat: int | None, parsed: Any) -> None:
        return None

    def _do(self, seat: int | None, parsed: Any) -> list[Event]:
        events: list[Event] = []
        match self.behaviour:
            case "leak_event":
                events.append(private(1, "peek", card="Ac"))
            case "leak_view":
                self.view_leaks = True
            case "bury_public" if "Qh" in self.public:
                events.append(public("buried", card="Qh"))
                self.public.discard("Qh")
            case "reveal":
                self.public.add("Ac")
                events.append(public("revealed", card="Ac"))
        self.steps_left -= 1
        if self.steps_left == 0:
            self.done = Outcome(OutcomeReason.SHOWDOWN, (0, 0))
        return events


class ToyRules(GameRules[ToyConfig]):
    name: ClassVar[str] = "toy"
    title: ClassVar[str] = "Toy"
    config_cls: ClassVar[type] = ToyConfig
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 2
    uses_stacks: ClassVar[bool] = False

    def __init__(self, behaviour: str, steps: int = 3) -> None:
        self.behaviour = behaviour
        self.steps = steps

    def new_state(self, config: ToyConfig, num_seats: int, dealer: int,
                  stacks: Sequence[int] | None = None) -> ToyState:
        return ToyState(self.behaviour, self.steps)


def _step(behaviour: str) -> tuple[ToyState, list[Event], list[str]]:
    """One step of a toy game under a :class:`LeakChecker`."""
    state = ToyState(behaviour, 3)
    checker = LeakChecker(state)
    events = state.apply(0, {"type": "step"})
    return state, events, checker.check(state, events)


def test_an_event_showing_a_card_hidden_before_and_after_its_step_is_caught() -> None:
    _, _, found = _step("leak_event")
    assert found == ["event 'peek' seen by seat 1 shows hidden ['Ac']"]


def test_a_view_showing_a_hidden_card_is_caught() -> None:
    _, _, found = _step("leak_view")
    assert found == ["view of seat 1 shows hidden cards ['Ac']"]


def test_a_card_shown_while_visible_and_hidden_in_the_same_step_is_no_leak() -> None:
    state, events, found = _step("bury_public")
    assert found == []
    # judged by the state after the step alone it would look like a leak to every viewer
    assert len(leaks(state, events)) == 3


def test_a_card_hidden_before_and_shown_as_it_becomes_visible_is_no_leak() -> None:
    state, events, found = _step("reveal")
    assert found == []
    assert leaks(state, events) == []


def test_leaks_with_the_hidden_sets_from_before_the_step_matches_the_checker() -> None:
    state = ToyState("bury_public", 3)
    before = hidden_sets(state)
    events = state.apply(0, {"type": "step"})
    assert leaks(state, events, before) == []
    state = ToyState("leak_event", 3)
    before = hidden_sets(state)
    events = state.apply(0, {"type": "step"})
    assert leaks(state, events, before) == ["event 'peek' seen by seat 1 shows hidden ['Ac']"]


# ----- cardhall selfplay ---------------------------------------------------------------------
LEAKY_SEED = 11 * 1_000_003 + 53
"""Game 53 of ``cardhall selfplay --game palace_poker --seats 6 --games 200 --seed 11 --probe
0.2``: a private battle reveal whose two battlers tie and both leave the hand."""


def test_a_leak_stops_the_game_and_is_the_only_violation_reported(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selfplay, "get_game", lambda name: ToyRules("leak_event"))
    _, violations, steps = play_one("toy", 2, seed=5)
    assert violations == ["seed 5: event 'peek' seen by seat 1 shows hidden ['Ac']"]
    assert steps == 1


def test_a_game_that_never_ends_is_reported_as_such(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selfplay, "get_game", lambda name: ToyRules("quiet", steps=0))
    _, violations, steps = play_one("toy", 2, seed=5, max_steps=10)
    assert violations == ["seed 5: game did not end within 10 steps"]
    assert steps == 10


def test_a_toy_game_that_shows_cards_only_while_visible_plays_clean(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(selfplay, "get_game", lambda name: ToyRules("bury_public"))
    monkeypatch.setattr(selfplay, "final_violations", lambda rec: [])  # no toy in the registry
    rec, violations, steps = play_one("toy", 2, seed=5)
    assert (violations, steps, rec.state.is_over) == ([], 3, True)


def test_palace_battle_reveal_of_two_battlers_who_then_leave_is_no_leak() -> None:
    rec, violations, _ = play_one("palace_poker", 6, LEAKY_SEED, probe=0.2)
    assert violations == []
    # the game holds the case: judged by the state after the step alone, it looks like a leak
    _, state = start_state(rec.history)
    checker = LeakChecker(state)
    flagged = []
    for entry in rec.history.actions:
        events = state.apply(entry.seat, entry.action)
        assert checker.check(state, events) == []
        if leaks(state, events):
            flagged.append((leaks(state, events), state.view(None)["last_battle"]))
    [(strict, last_battle)] = flagged
    assert all("'battle_reveal'" in v for v in strict)
    assert last_battle["called"] and last_battle["winner"] is None, "a tie: both battlers out"


@pytest.mark.slow
def test_the_palace_selfplay_command_of_issue_10_is_clean(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["selfplay", "--game", "palace_poker", "--seats", "6", "--games", "200",
                   "--seed", "11", "--probe", "0.2", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert (status, report["violations"], report["first_violations"]) == (0, 0, [])


@pytest.mark.parametrize(("game", "seats"), [("bazaar_blot", 4), ("soldiers_bluff", 3),
                                             ("palace_poker", 4)])
def test_unchecked_selfplay_plays_the_same_game_as_the_checked_loop(game: str, seats: int) -> None:
    # the benchmarks' fast loop (selfplay.random_steps) must draw exactly what the checked
    # loop draws, so a seed names one game whether or not it is checked
    for seed in range(3):
        checked, violations, steps = play_one(game, seats, seed)
        fast, fast_violations, fast_steps = play_one(game, seats, seed, check=False)
        assert violations == fast_violations == []
        assert steps == fast_steps
        assert checked.history.to_json() == fast.history.to_json()
