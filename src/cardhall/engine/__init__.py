"""The rules engine: the protocol all games share (``design.md`` section 2).

Standard library only: no server, database, asyncio, time or third-party imports (a test
enforces it).
"""

from .actions import Action, is_legal, matches, minimal, sample
from .cardcodes import HIDDEN
from .config import config_from_dict, config_to_dict
from .errors import (
    ERROR_CODES,
    EngineError,
    GameOverError,
    IllegalActionError,
    InvalidConfigError,
    InvalidHistoryError,
    MalformedActionError,
    NotYourTurnError,
    UnknownGameError,
)
from .events import Event, filter_events
from .game import GameState, Shuffle
from .history import (
    ABANDON,
    History,
    LoggedAction,
    Recorder,
    ReplayError,
    SeatInfo,
    apply_logged,
    replay,
    start_state,
)
from .outcome import Outcome, OutcomeReason
from .registry import game_names, get_game
from .rules import GameRules
from .shuffle import (
    SHUFFLE,
    SeededShuffler,
    commitment,
    game_seed,
    seeded_shuffle,
    shuffle_seed,
    valid_client_seed,
)
from .tablecheck import check_table_copy
from .tablecopy import TABLE_COPY, is_table_copy, table_copy
from .verify import Mismatch, Verification, verify_history

__all__ = [
    "ABANDON",
    "ERROR_CODES",
    "HIDDEN",
    "SHUFFLE",
    "TABLE_COPY",
    "Action",
    "EngineError",
    "Event",
    "GameOverError",
    "GameRules",
    "GameState",
    "History",
    "IllegalActionError",
    "InvalidConfigError",
    "InvalidHistoryError",
    "LoggedAction",
    "MalformedActionError",
    "Mismatch",
    "NotYourTurnError",
    "Outcome",
    "OutcomeReason",
    "Recorder",
    "ReplayError",
    "SeatInfo",
    "SeededShuffler",
    "Shuffle",
    "UnknownGameError",
    "Verification",
    "apply_logged",
    "check_table_copy",
    "commitment",
    "config_from_dict",
    "config_to_dict",
    "filter_events",
    "game_names",
    "game_seed",
    "get_game",
    "is_legal",
    "is_table_copy",
    "matches",
    "minimal",
    "replay",
    "sample",
    "seeded_shuffle",
    "shuffle_seed",
    "start_state",
    "table_copy",
    "valid_client_seed",
    "verify_history",
]
