"""What a tournament is asked to be (``POST /api/tournaments``, ``docs/tournaments.md``).

A pydantic model (extra fields rejected) checked again against the game: only Bazaar Blot
(fixed partnerships of two, four seats) is run so far; the rules config is the game's own,
checked by the engine. Pure: no I/O.
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

from ..engine import game_names, get_game
from ..protocol.text import plain_line


def _shown_name(name: str) -> str:
    """A tournament's name is shown to everyone (the lobby's label): a plain line
    (``protocol/text.py``: no control or bidi formatting characters) that, when given, shows
    something (not only format or blank characters such as U+200B).

    Raises:
        ValueError: naming the refused character, or that nothing would show.
    """
    plain_line(name)
    if name and all(unicodedata.category(ch) in ("Cf", "Zs", "Mn", "Me") for ch in name):
        raise ValueError("name shows nothing (only blank or invisible characters)")
    return name


TournamentName = Annotated[str, StringConstraints(strip_whitespace=True, max_length=64),
                           AfterValidator(_shown_name)]
"""A tournament's display name: up to 64 characters after trimming, a plain line."""


def tournament_games() -> list[str]:
    """The games a tournament may run: those with a
    :attr:`~cardhall.engine.rules.GameRules.duplicate_board_config` (what makes a table play
    one board) that are either fixed partnerships of two on four seats (team entrants) or
    every seat for itself (single entrants at tables of N, :func:`.groups.table_sides`)."""
    return [name for name in game_names()
            if (rules := get_game(name)).duplicate_board_config is not None
            and ((rules.teams == 2 and rules.max_seats >= 4) or rules.teams == 0)]


def default_table_size(game: str) -> int:
    """The table size of a single-entrant game when the request gives none: 4 seats, within
    the game's seat range."""
    rules = get_game(game)
    return max(rules.min_seats, min(4, rules.max_seats))


BotKind = Literal["rule", "random"]


def _default_kinds() -> list[BotKind]:
    """Entrants alternate rule and random bots (so a demo's results differ)."""
    return ["rule", "random"]


class TournamentRequest(BaseModel):
    """The body of ``POST /api/tournaments``.

    Attributes:
        game: the game (``bazaar_blot``).
        format: ``swiss`` (pairing by score, no repeat opponents while possible),
            ``knockout`` (seeded pairs; the round's winner goes on) or ``arena`` (continuous
            pairing during ``duration_seconds``, :mod:`.arena`).
        rounds: Swiss rounds, at most one fewer than the entrants (so no pairing must
            repeat); a knockout plays until one entrant is left and ignores it.
        boards_per_round: boards (Blot deals) each pairing plays in a round.
        duplicate: every table of a round plays the round's boards with the same cards.
        scoring: ``matchpoints`` (2 per result beaten, 1 per tie, among the sides that held
            the same cards) or ``total_points`` (a side's net points).
        bots: built-in bot entrants (a team of two bots each in a partnership game, one bot
            in a single-entrant game); with ``open``, the people who join come on top.
        open: people may join (``POST /api/tournaments/{id}/join``) until it starts: the
            tournament is ``registering`` until ``starts_in_seconds`` have passed or its
            creator starts it (:mod:`.entry`); the entrant counts are checked then.
        starts_in_seconds: an open tournament starts by itself this long after it is made
            (seconds, 10 s to 24 h; default 300); only with ``open``.
        max_entrants: the most entrants (bots and people) an open tournament takes (2 to 32).
        rated: whether the boards' games count for the players' ratings (``False``: every
            table of it is casual).
        table_size: seats per table of a single-entrant game (``None``: 4 within the game's
            seat range); refused for a partnership game (its tables are two teams).
        duration_seconds: the arena's window (seconds, 10 s to 3 h); only for ``arena``.
        boards: the arena's sequence of duplicate boards (1 to 64, default 16).
        bot_kinds: the bot kinds the entrants take in turn (entrant ``i`` plays
            ``bot_kinds[i % len]``).
        config: the rules config of each board's game, over the game's ``duplicate_board_config``.
        name: a display name.
    """

    model_config = ConfigDict(extra="forbid")

    game: str
    format: Literal["swiss", "knockout", "arena"] = "swiss"
    rounds: int = Field(3, ge=1, le=10)
    boards_per_round: int = Field(2, ge=1, le=6)
    duplicate: bool = True
    scoring: Literal["matchpoints", "total_points"] = "matchpoints"
    bots: int = Field(0, ge=0, le=32)
    open: bool = False
    starts_in_seconds: float | None = Field(None, ge=10, le=24 * 3600)
    max_entrants: int = Field(32, ge=2, le=32)
    rated: bool = True
    bot_kinds: list[BotKind] = Field(default_factory=_default_kinds, min_length=1, max_length=8)
    config: dict[str, Any] = Field(default_factory=dict)
    name: TournamentName = ""
    table_size: int | None = Field(None, ge=2, le=10)
    duration_seconds: float | None = Field(None, ge=10, le=3 * 3600)
    boards: int = Field(16, ge=1, le=64)

    @model_validator(mode="after")
    def _fits(self) -> TournamentRequest:
        if self.game not in tournament_games():
            raise ValueError(f"tournaments run {', '.join(tournament_games())}, "
                             f"not {self.game!r}")
        rules = get_game(self.game)
        if self.table_size is not None:
            if rules.teams:
                raise ValueError("table_size is for single-entrant games; a partnership "
                                 "game's table is two teams")
            if not rules.min_seats <= self.table_size <= rules.max_seats:
                raise ValueError(f"table_size {self.table_size} is outside the game's "
                                 f"{rules.min_seats} to {rules.max_seats} seats")
        if self.format == "knockout" and not rules.teams:
            raise ValueError("a knockout is for partnership games (two teams a table) so far")
        if (self.format == "arena") != (self.duration_seconds is not None):
            raise ValueError("duration_seconds is required by an arena and only by an arena")
        if self.open:
            if self.bots > self.max_entrants:
                raise ValueError(f"{self.bots} bots leave no room under max_entrants "
                                 f"{self.max_entrants}")
            return self  # the entrant counts are checked when it starts (.entry.begin)
        if self.starts_in_seconds is not None or self.max_entrants != 32:
            raise ValueError("starts_in_seconds and max_entrants are for an open tournament")
        return self.check_entrants(self.bots)

    def check_entrants(self, n: int) -> TournamentRequest:
        """Whether ``n`` entrants can play this tournament (raises ``ValueError`` naming why
        not): they fill a table, and a Swiss has at most as many rounds as lets nobody meet
        an opponent twice."""
        sides = self.sides()
        if n < sides:
            raise ValueError(f"{n} entrants do not fill a table of {sides}")
        most = (n - 1) // (sides - 1)
        if self.format == "swiss" and self.rounds > most:
            raise ValueError(f"a Swiss of {n} entrants at tables of {sides} has at "
                             f"most {most} rounds (each meets {sides - 1} opponents a round), "
                             f"not {self.rounds}")
        return self

    def sides(self) -> int:
        """Entrants per table: 2 for a partnership game, else ``table_size`` (or its
        default, :func:`default_table_size`)."""
        if get_game(self.game).teams:
            return 2
        return self.table_size or default_table_size(self.game)

    def board_config(self) -> dict[str, Any]:
        """The partial rules config of every board's game.

        Raises:
            InvalidConfigError: a field the game refuses (names it).
        """
        cfg = {**(get_game(self.game).duplicate_board_config or {}), **self.config}
        get_game(self.game).config(cfg)
        return cfg
