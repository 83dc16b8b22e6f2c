"""The records of a hand history ``cardhall-history/1`` (``design.md`` section 4): the
:class:`History` document, its :class:`SeatInfo` seats and :class:`LoggedAction` entries.

Plain data and its JSON codec, importing nothing of the registry or the rules, so the rules
(:meth:`~.rules.GameRules.table_actions`) and replay (:mod:`~.history`) can both use it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import Action
from .errors import InvalidHistoryError

FORMAT = "cardhall-history/1"

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
