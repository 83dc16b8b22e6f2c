"""The hand-history format ``cardhall-history/1`` and replay (``design.md`` section 4).

A history is the one stored and exported form of a game: what the database stores, what a
replay viewer plays, what ``cardhall replay`` re-runs and what test scenarios are written in.
``config + seats + dealer + stacks + actions`` rebuild the exact state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Action, copy_json
from .config import config_diff
from .errors import EngineError
from .events import Event
from .game import GameState
from .record import FORMAT as FORMAT
from .record import History as History
from .record import LoggedAction as LoggedAction
from .record import SeatInfo as SeatInfo
from .registry import get_game
from .rules import GameRules

ABANDON: Action = {"type": "abandon"}
"""The logged form of :meth:`GameState.abandon`: the last entry of an abandoned game's
``actions`` is ``{"seat": null, "action": {"type": "abandon"}}``. The engine reserves this
chance-action type (no game may use it); :func:`apply_logged` answers it with ``abandon()``."""


class ReplayError(EngineError):
    """An action of a history was rejected while replaying. ``index`` is its position in
    ``actions``; ``cause`` the engine error (its ``code`` is kept)."""

    def __init__(self, index: int, cause: EngineError) -> None:
        super().__init__(f"action {index} rejected: {cause.message}")
        self.index = index
        self.cause = cause
        self.code = cause.code


def start_state(history: History) -> tuple[GameRules[Any], GameState]:
    """The rules and the initial state a history describes.

    Raises:
        UnknownGameError, InvalidConfigError: bad game name, config, seats, dealer or stacks.
    """
    rules = get_game(history.game)
    config = rules.config(history.config)
    state = rules.new_state(config, len(history.seats), history.dealer, history.stacks)
    return rules, state


def apply_logged(state: GameState, seat: int | None, action: Action) -> list[Event]:
    """Apply one logged entry of ``actions`` to ``state``: the :data:`ABANDON` step (seat
    ``None``) ends the game with :meth:`GameState.abandon`, anything else goes through
    :meth:`GameState.apply`. Returns the events; raises what those raise."""
    if seat is None and action == ABANDON:
        return state.abandon()
    return state.apply(seat, action)


def replay(history: History, upto: int | None = None) -> GameState:
    """Re-run the first ``upto`` actions (all by default) and return the state.

    Raises:
        ReplayError: an action was rejected (names its index and keeps the error code).
    """
    _, state = start_state(history)
    for i, entry in enumerate(history.actions[:upto]):
        try:
            apply_logged(state, entry.seat, entry.action)
        except EngineError as exc:
            raise ReplayError(i, exc) from exc
    return state


class Recorder:
    """A game with its history kept in step: the object a table or a simulation drives.

    ``act`` applies an action and logs it only if it was accepted.
    """

    def __init__(
        self,
        rules: GameRules[Any],
        config: Any,
        seats: Sequence[SeatInfo],
        dealer: int,
        stacks: Sequence[int] | None = None,
    ) -> None:
        self.rules = rules
        self.state = rules.new_state(config, len(seats), dealer, stacks)
        self.history = History(
            game=rules.name,
            seats=list(seats),
            dealer=dealer,
            config=config_diff(config),
            stacks=None if stacks is None else list(stacks),
        )

    def act(
        self, seat: int | None, action: Action, *, timeout: bool = False, t_ms: int | None = None,
        copy: bool = True,
    ) -> list[Event]:
        """Apply and log ``action``: a copy of it, so the caller may reuse its dict; with
        ``copy=False`` the action itself, which the caller hands over and never changes again
        (self-play, whose actions are built fresh for each step). Raises what
        :meth:`GameState.apply` raises (nothing logged)."""
        events = self.state.apply(seat, action)
        self.history.actions.append(LoggedAction(seat, copy_json(action) if copy else action,
                                                 timeout, t_ms))
        return events

    def abandon(self, *, t_ms: int | None = None) -> list[Event]:
        """End the game early (:meth:`GameState.abandon`) and log it as the :data:`ABANDON`
        step, so :func:`replay` reaches the same outcome. Returns the events.

        Raises:
            GameOverError: the game has already ended (nothing logged).
        """
        events = self.state.abandon()
        self.history.actions.append(LoggedAction(None, dict(ABANDON), False, t_ms))
        return events
