"""Mechanical checks shared by every game's invariant tests and by ``cardhall selfplay``.

They use only the public protocol of :class:`GameState`, so they hold any game to the same
contract: legal actions exist until the end and apply, the timeout action is legal, unlisted
actions are rejected without changing anything, and no view or event shows a seat a card that
is hidden from it (judged at the moment it is shown: :class:`LeakChecker`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .actions import Action, is_legal
from .errors import EngineError
from .events import Event
from .game import GameState


def strings_in(obj: Any) -> Iterator[str]:
    """Every string value (not key) anywhere inside a JSON-like object."""
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from strings_in(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from strings_in(v)


HiddenSets = dict[int | None, set[str]]
"""Per viewer (``None`` = spectator, then each seat): the cards hidden from it at one moment."""


def hidden_sets(state: GameState) -> HiddenSets:
    """What is hidden from each viewer now (copies: the state may reuse its sets)."""
    return {seat: set(state.hidden_from(seat)) for seat in [None, *range(state.num_seats)]}


def leaks(state: GameState, events: list[Event] | None = None,
          hidden_before: HiddenSets | None = None) -> list[str]:
    """Violations of hidden information: a card hidden from a seat (or a spectator) that
    appears in its view or in an event it may see.

    A view is judged by what is hidden now. An event was produced by the step that led to
    ``state``, so with ``hidden_before`` (:func:`hidden_sets` taken before that step) a card in
    it is flagged only if it was hidden from the viewer both before and after the step: a
    viewer may be shown what it could see when the event happened, even if the step then hid
    it (a battle reveal shows banners and soldiers that leave the hand in the same step). Without
    ``hidden_before`` events are judged by what is hidden now. :class:`LeakChecker` keeps
    ``hidden_before`` from step to step.
    """
    return _leaks(state, events, hidden_sets(state), hidden_before)


def _leaks(state: GameState, events: list[Event] | None, hidden_now: HiddenSets,
           hidden_before: HiddenSets | None) -> list[str]:
    out = []
    for seat, hidden in hidden_now.items():
        seen = set(strings_in(state.view(seat)))
        bad = hidden & seen
        if bad:
            out.append(f"view of seat {seat} shows hidden cards {sorted(bad)}")
        if hidden_before is not None:
            hidden = hidden & hidden_before[seat]
        for e in events or ():
            if e.visible_to(seat):
                bad = hidden & set(strings_in(e.data))
                if bad:
                    out.append(f"event {e.kind!r} seen by seat {seat} shows hidden {sorted(bad)}")
    return out


class LeakChecker:
    """Checks every step of one game for hidden information shown to the wrong viewer, judging
    each card by what its viewer could see when it was shown (see :func:`leaks`).

    Build it on the state before the first step, then call :meth:`check` after each step.
    """

    def __init__(self, state: GameState) -> None:
        self._hidden = hidden_sets(state)

    def check(self, state: GameState, events: list[Event]) -> list[str]:
        """Violations in ``state``'s views and in ``events``, the events of the step that led
        to ``state``."""
        now = hidden_sets(state)
        out = _leaks(state, events, now, self._hidden)
        self._hidden = now
        return out


def turn_violations(state: GameState) -> list[str]:
    """Violations of the turn contract at a decision point."""
    out = []
    if state.is_over:
        if state.to_act() or state.chance_due():
            out.append("game over but seats still to act or chance due")
        return out
    if state.chance_due() == bool(state.to_act()):
        out.append(f"chance_due={state.chance_due()} but to_act={state.to_act()}")
    for seat in state.to_act():
        if not state.legal_actions(seat):
            out.append(f"seat {seat} is to act but has no legal action")
    for seat in range(state.num_seats):
        if seat not in state.to_act() and state.legal_actions(seat):
            out.append(f"seat {seat} is not to act but has legal actions")
    timer = state.timer_seat()
    if timer is not None:
        ta = state.timeout_action(timer)
        if ta is not None and not is_legal(state.legal_actions(timer), ta):
            out.append(f"timeout action {ta} of seat {timer} is not legal")
    out.extend(state.check_invariants())
    return out


def fingerprint(state: GameState) -> str:
    """A canonical JSON string of the full snapshot (equal states, equal fingerprints)."""
    return json.dumps(state.snapshot(), sort_keys=True, default=str)


def rejection_violations(state: GameState, seat: int | None, action: Action) -> list[str]:
    """Apply an action that must be rejected: it must raise :class:`EngineError` and leave the
    state unchanged."""
    before = fingerprint(state)
    try:
        state.apply(seat, action)
    except EngineError:
        after = fingerprint(state)
        return [] if after == before else [f"rejected {action} by {seat} changed the state"]
    return [f"unlisted action {action} by seat {seat} was accepted"]


def mutations(state: GameState, rng: Any) -> list[tuple[int | None, Action]]:
    """Candidate bad actions: an unknown type, a listed action with an extra field, a listed
    action by a seat that may not act, and listed actions with a field value perturbed. The
    caller keeps only those not legal for their seat."""
    out: list[tuple[int | None, Action]] = []
    seats = list(range(state.num_seats))
    acting = list(state.to_act())
    out.append((rng.choice(seats), {"type": "no_such_action"}))
    for seat in acting:
        for entry in state.legal_actions(seat)[:3]:
            out.append((seat, {**entry, "bogus_field": 1}))
            others = [s for s in seats if s not in acting]
            if others:
                out.append((rng.choice(others), entry))
            for key, value in entry.items():
                if key == "type":
                    continue
                if isinstance(value, int) and not isinstance(value, bool):
                    out.append((seat, {**entry, key: value + 1000}))
                    out.append((seat, {**entry, key: -1}))
                elif isinstance(value, str):
                    out.append((seat, {**entry, key: "Zz"}))
    if acting and state.chance_due() is False:
        out.append((None, {"type": "deal"}))
    return [(s, a) for s, a in out if s is None or not is_legal(state.legal_actions(s), a)]
