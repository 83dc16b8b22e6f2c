"""The registered game: :class:`GameRules` builds :class:`~.game.GameState` objects
(``design.md`` section 2)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from .actions import Action
from .cardcodes import redact
from .config import config_diff, config_from_dict
from .errors import InvalidConfigError
from .game import GameState

if TYPE_CHECKING:
    from .history import History

C = TypeVar("C")


@dataclass(frozen=True, slots=True)
class ReplayUnit:
    """A game's unit of the replay viewer's "step by" (``GET /api/games/{id}/steps``):
    its ``name`` (``trick``, ``round``, ``battle``) and the public event kinds that end one."""

    name: str
    ends_with: frozenset[str]


class GameRules(ABC, Generic[C]):
    """A registered game: its name, config type, seat limits and state factory."""

    name: ClassVar[str]
    title: ClassVar[str]
    config_cls: ClassVar[type]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    uses_stacks: ClassVar[bool]
    """True for the poker games (chip stacks carried from hand to hand)."""
    card_codes: ClassVar[frozenset[str]] = frozenset()
    """Every card code of the game (``design.md`` section 3): the strings of a history that
    are cards, which a table copy hides when the table never saw them
    (:mod:`~cardhall.engine.tablecopy`). Empty: the game has no cards to hide."""

    # -- catalog facts (issue 25): read by the server's catalog, replay viewer and ratings --
    replay_unit: ClassVar[ReplayUnit | None] = None
    """The replay viewer's unit (:class:`ReplayUnit`); ``None``: step by action only."""
    teams: ClassVar[int] = 0
    """Fixed partnerships: the number of teams, the team of seat ``s`` being ``s % teams``
    (rated as teams); ``0``: every seat plays for itself."""
    publish_full_copy_by_default: ClassVar[bool] = False
    """Whether a finished game's full copy is public at once unless the operator says
    otherwise (``CARDHALL_PUBLISH_FULL_AFTER_SECONDS``'s default): for a game whose finished
    games show nearly every card anyway."""
    duplicate_board_config: ClassVar[dict[str, Any] | None] = None
    """The partial rules config of one tournament board (``docs/tournaments.md``): a board is
    a game that ends after one deal or hand dealt from the board's seed; ``None``: the game
    is not played in duplicate tournaments."""

    def config(self, data: dict[str, Any] | None = None) -> C:
        """Build and validate a config from a partial JSON object.

        Raises:
            InvalidConfigError: unknown field, wrong type or invalid value (the message names it).
        """
        return config_from_dict(self.config_cls, data)

    def check_setup(self, config: C, num_seats: int, dealer: int, stacks: Sequence[int] | None) -> None:
        """Raise :class:`InvalidConfigError` unless the seats, dealer and stacks fit this game."""
        if type(num_seats) is not int or not self.min_seats <= num_seats <= self.max_seats:
            need = (f"exactly {self.min_seats}" if self.min_seats == self.max_seats
                    else f"{self.min_seats} to {self.max_seats}")
            raise InvalidConfigError(f"{self.name} needs {need} seats, got {num_seats!r}")
        if type(dealer) is not int or not 0 <= dealer < num_seats:
            raise InvalidConfigError(f"dealer {dealer!r} is not a seat of {num_seats}")
        if self.uses_stacks:
            if stacks is None or len(stacks) != num_seats:
                raise InvalidConfigError(f"{self.name} needs one chip stack per seat, got {stacks!r}")
            if any(type(s) is not int or s < 0 for s in stacks):
                raise InvalidConfigError(f"chip stacks must be whole non-negative chips, got {stacks!r}")
        elif stacks is not None:
            raise InvalidConfigError(f"{self.name} takes no chip stacks, got {stacks!r}")

    def min_stack(self, config: C) -> int:
        """Chips a seat needs to be dealt into a game (poker games: the ante, at least 1 chip);
        ``0`` for games without chip stacks. The table layer sits a seat out below it.

        Subclasses with stacks override it; the base answers ``0``.
        """
        return 0

    def min_players(self, config: C) -> int:
        """The fewest seats that must be dealt in for a game to start with ``config`` (the
        table waits below it). The base answers :attr:`min_seats`."""
        return self.min_seats

    def check_table(self, config: C, num_seats: int, starting_stack: int | None) -> None:
        """Raise :class:`InvalidConfigError` unless a table of ``num_seats`` seats, each with
        ``starting_stack`` chips (``None`` for games without stacks), can deal its first game.

        The table layer calls it when a table is created, so a table that could never deal is
        refused then, not closed with an error once its seats fill. The check builds the first
        state (it draws nothing: the first step is a chance action).
        """
        if self.uses_stacks:
            need = self.min_stack(config)
            if starting_stack is None or starting_stack < need:
                raise InvalidConfigError(
                    f"starting_stack {starting_stack!r} is below the {need} chips a seat needs "
                    f"to be dealt in to {self.name} with this config ({config_diff(config)})")
        stacks = None if starting_stack is None else [starting_stack] * num_seats
        self.new_state(config, num_seats, 0, stacks)

    def table_actions(self, history: History,
                      public_events: list[list[dict[str, Any]]]) -> list[Action]:
        """The actions of the finished full copy ``history`` as the table saw them: one action
        per entry of ``history.actions``, in order, with each card the table never saw *at
        that place* replaced by :data:`~.tablecopy.HIDDEN` (card lists keep their lengths).
        ``public_events[i]`` are the public events (JSON) entry ``i`` produced on replay.

        The engine then hides every card no public event or spectator view ever showed
        (:func:`~.tablecopy.table_copy`). The base hides every card code of every action (a
        game that does not say what was public shows nothing); each game overrides it with
        its rules (``docs/fairness.md`` section 7).
        """
        codes = self.card_codes
        return [redact(e.action, lambda _card: False, codes) for e in history.actions]

    @abstractmethod
    def new_state(
        self, config: C, num_seats: int, dealer: int, stacks: Sequence[int] | None = None
    ) -> GameState:
        """A new game at its first decision (usually a chance deal).

        Raises:
            InvalidConfigError: see :meth:`check_setup`.
        """
