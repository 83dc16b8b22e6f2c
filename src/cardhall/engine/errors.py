r"""The engine's error family (``design.md`` section 2).

Every error carries a stable, namespaced ``code`` that the server maps onto the wire unchanged.
The errors a caller's input can cause (every class here but the base) are also
:class:`ValueError`\ s, so code that knows nothing of the engine can still catch them.
An error is always raised *before* any state is changed: a rejected action leaves the state
exactly as it was.
"""

from __future__ import annotations

from typing import Literal

EngineErrorCode = Literal[
    "engine.error",
    "engine.invalid_config",
    "engine.unknown_game",
    "engine.malformed_action",
    "engine.not_your_turn",
    "engine.illegal_action",
    "engine.game_over",
    "engine.invalid_history",
]
"""Every engine error code (a test checks it matches :data:`ERROR_CODES`)."""


class EngineError(Exception):
    """Base of all rules-engine errors.

    Attributes:
        code: stable namespaced string, e.g. ``"engine.illegal_action"``.
        message: human-readable text naming the offending value.
    """

    code: EngineErrorCode = "engine.error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return f"[{self.code}] {self.message}"


class InvalidConfigError(EngineError, ValueError):
    """A rules config has an unknown field, a value of the wrong type, or an invalid value."""

    code: EngineErrorCode = "engine.invalid_config"


class UnknownGameError(EngineError, ValueError):
    """No game is registered under the requested name."""

    code: EngineErrorCode = "engine.unknown_game"


class MalformedActionError(EngineError, ValueError):
    """The action is not a well-formed action of this game (unknown ``type``, missing or extra
    fields, wrong field types, unknown card codes)."""

    code: EngineErrorCode = "engine.malformed_action"


class NotYourTurnError(EngineError, ValueError):
    """The seat may not act now (another seat's turn, a chance action is due, or a chance action
    was sent by a seat)."""

    code: EngineErrorCode = "engine.not_your_turn"


class IllegalActionError(EngineError, ValueError):
    """The action is well formed and the seat may act, but the rules forbid this action now."""

    code: EngineErrorCode = "engine.illegal_action"


class GameOverError(EngineError, ValueError):
    """The game has ended; no further action is accepted."""

    code: EngineErrorCode = "engine.game_over"


class InvalidHistoryError(EngineError, ValueError):
    """A hand-history document is not valid ``cardhall-history/1``."""

    code: EngineErrorCode = "engine.invalid_history"


ERROR_CODES: dict[EngineErrorCode, type[EngineError]] = {
    cls.code: cls
    for cls in (
        EngineError,
        InvalidConfigError,
        UnknownGameError,
        MalformedActionError,
        NotYourTurnError,
        IllegalActionError,
        GameOverError,
        InvalidHistoryError,
    )
}
