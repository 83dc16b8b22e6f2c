"""The hand-history format ``cardhall-history/1`` and replay (``design.md`` section 4).

A history is the one stored and exported form of a game: what the database stores, what a
replay viewer plays, what ``cardhall replay`` re-runs and what test scenarios are written in.
``config + seats + dealer + stacks + actions`` rebuild the exact state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .actions import Action, copy_json
from .config import config_diff
from .errors import EngineError, InvalidHistoryError
from .events import Event
from .game import GameState
from .registry import get_game
from .rules import GameRules

FORMAT = "cardhall-history/1"

ABANDON: Action = {"type": "abandon"}
"""The logged form of :meth:`GameState.abandon`: the last entry of an abandoned game's
``actions`` is ``{"seat": null, "action": {"type": "abandon"}}``. The engine reserves this
chance-action type (no game may use it); :func:`apply_logged` answers it with ``abandon()``."""


@dataclass(slots=True)
class SeatInfo:
    """A seat's public identity in a history."""

    name: str
    bot: bool = False
    player_id: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name}
        if self.bot:
            out["bot"] = True
        if self.player_id is not None:
            out["player_id"] = self.player_id
        return out


@dataclass(slots=True)
class LoggedAction:
    """One entry of ``actions``: who (``None`` = chance), what, and whether the timer did it."""

    seat: int | None
    action: Action
    timeout: bool = False
    t_ms: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "action": self.action}
        if self.timeout:
            out["timeout"] = True
        if self.t_ms is not None:
            out["t_ms"] = self.t_ms
        return out


@dataclass(slots=True)
class History:
    """A game's history. ``extra`` holds what a stored game adds (ids, times, outcome,
    fairness fields) and is written back unchanged."""

    game: str
    seats: list[SeatInfo]
    dealer: int = 0
    config: dict[str, Any] = field(default_factory=dict)
    stacks: list[int] | None = None
    actions: list[LoggedAction] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON document (``format`` first)."""
        out: dict[str, Any] = {
            "format": FORMAT,
            "game": self.game,
            "config": dict(self.config),
            "seats": [s.to_json() for s in self.seats],
            "dealer": self.dealer,
            "stacks": None if self.stacks is None else list(self.stacks),
            "actions": [a.to_json() for a in self.actions],
        }
        out.update(self.extra)
        return out

    @classmethod
    def from_json(cls, doc: Any) -> History:
        """Parse a history document.

        Raises:
            InvalidHistoryError: wrong format tag, missing or mistyped fields (message names them).
        """
        if not isinstance(doc, dict):
            raise InvalidHistoryError(f"a history must be a JSON object, got {type(doc).__name__}")
        if doc.get("format", FORMAT) != FORMAT:
            raise InvalidHistoryError(f"unsupported format {doc.get('format')!r}; expected {FORMAT!r}")
        game = doc.get("game")
        if not isinstance(game, str):
            raise InvalidHistoryError(f"'game' must be a string, got {game!r}")
        seats_raw = doc.get("seats")
        if not isinstance(seats_raw, list) or not seats_raw:
            raise InvalidHistoryError(f"'seats' must be a non-empty list, got {seats_raw!r}")
        seats = [_seat(i, s) for i, s in enumerate(seats_raw)]
        config = doc.get("config")
        if config is None:
            config = {}
        if not isinstance(config, dict):
            raise InvalidHistoryError(f"'config' must be an object, got {config!r}")
        dealer = doc.get("dealer", 0)
        if type(dealer) is not int:
            raise InvalidHistoryError(f"'dealer' must be a seat index, got {dealer!r}")
        stacks = doc.get("stacks")
        if stacks is not None and (
            not isinstance(stacks, list) or any(type(x) is not int for x in stacks)
        ):
            raise InvalidHistoryError(f"'stacks' must be null or a list of whole chips, got {stacks!r}")
        actions_raw = doc.get("actions")
        if actions_raw is None:
            actions_raw = []
        if not isinstance(actions_raw, list):
            raise InvalidHistoryError(f"'actions' must be a list, got {actions_raw!r}")
        actions = [_logged(i, a) for i, a in enumerate(actions_raw)]
        known = {"format", "game", "config", "seats", "dealer", "stacks", "actions"}
        extra = {k: v for k, v in doc.items() if k not in known}
        return cls(game, seats, dealer, config, stacks, actions, extra)


def _seat(i: int, s: Any) -> SeatInfo:
    """Parse ``seats[i]``: ``{"name": str, "bot"?: bool, "player_id"?: str | null}``."""
    if not isinstance(s, dict) or not isinstance(s.get("name", ""), str):
        raise InvalidHistoryError(f"seat {i} must be an object with a 'name', got {s!r}")
    bot, player_id = s.get("bot", False), s.get("player_id")
    if type(bot) is not bool:
        raise InvalidHistoryError(f"seat {i} has invalid 'bot' {bot!r}; expected true or false")
    if player_id is not None and not isinstance(player_id, str):
        raise InvalidHistoryError(f"seat {i} has invalid 'player_id' {player_id!r}")
    return SeatInfo(s.get("name", f"seat {i}"), bot, player_id)


def _logged(i: int, a: Any) -> LoggedAction:
    """Parse ``actions[i]``: ``{"seat": int | null, "action": {...}, "timeout"?: bool,
    "t_ms"?: int >= 0}``."""
    if not isinstance(a, dict) or not isinstance(a.get("action"), dict):
        raise InvalidHistoryError(f"action {i} must be an object with an 'action' object, got {a!r}")
    seat, timeout, t_ms = a.get("seat"), a.get("timeout", False), a.get("t_ms")
    if seat is not None and type(seat) is not int:
        raise InvalidHistoryError(f"action {i} has invalid seat {seat!r}")
    if type(timeout) is not bool:
        raise InvalidHistoryError(f"action {i} has invalid 'timeout' {timeout!r}; expected true or false")
    if t_ms is not None and (type(t_ms) is not int or t_ms < 0):
        raise InvalidHistoryError(f"action {i} has invalid 't_ms' {t_ms!r}; expected whole ms >= 0")
    return LoggedAction(seat, a["action"], timeout, t_ms)


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
