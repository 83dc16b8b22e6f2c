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
    """The games a tournament may run: fixed partnerships of two on four seats with a
    :attr:`~cardhall.engine.rules.GameRules.duplicate_board_config` (Bazaar Blot so far)."""
    return [name for name in game_names()
            if (rules := get_game(name)).teams == 2 and rules.max_seats >= 4
            and rules.duplicate_board_config is not None]


BotKind = Literal["rule", "random"]


def _default_kinds() -> list[BotKind]:
    """Entrants alternate rule and random bots (so a demo's results differ)."""
    return ["rule", "random"]


class TournamentRequest(BaseModel):
    """The body of ``POST /api/tournaments``.

    Attributes:
        game: the game (``bazaar_blot``).
        format: ``swiss`` (pairing by score, no repeat opponents while possible) or
            ``knockout`` (seeded pairs; the round's winner goes on).
        rounds: Swiss rounds, at most one fewer than the entrants (so no pairing must
            repeat); a knockout plays until one entrant is left and ignores it.
        boards_per_round: boards (Blot deals) each pairing plays in a round.
        duplicate: every table of a round plays the round's boards with the same cards.
        scoring: ``matchpoints`` (2 per result beaten, 1 per tie, among the sides that held
            the same cards) or ``total_points`` (a side's net points).
        bots: built-in bot entrants (a team of two bots each in Bazaar Blot).
        bot_kinds: the bot kinds the entrants take in turn (entrant ``i`` plays
            ``bot_kinds[i % len]``).
        config: the rules config of each board's game, over the game's ``duplicate_board_config``.
        name: a display name.
    """

    model_config = ConfigDict(extra="forbid")

    game: str
    format: Literal["swiss", "knockout"] = "swiss"
    rounds: int = Field(3, ge=1, le=10)
    boards_per_round: int = Field(2, ge=1, le=4)
    duplicate: bool = True
    scoring: Literal["matchpoints", "total_points"] = "matchpoints"
    bots: int = Field(ge=2, le=32)
    bot_kinds: list[BotKind] = Field(default_factory=_default_kinds, min_length=1, max_length=8)
    config: dict[str, Any] = Field(default_factory=dict)
    name: TournamentName = ""

    @model_validator(mode="after")
    def _fits(self) -> TournamentRequest:
        if self.game not in tournament_games():
            raise ValueError(f"tournaments run {', '.join(tournament_games())}, "
                             f"not {self.game!r}")
        if self.format == "swiss" and self.rounds > self.bots - 1:
            raise ValueError(f"a Swiss of {self.bots} entrants has at most {self.bots - 1} "
                             f"rounds without a repeat pairing, not {self.rounds}")
        return self

    def board_config(self) -> dict[str, Any]:
        """The partial rules config of every board's game.

        Raises:
            InvalidConfigError: a field the game refuses (names it).
        """
        cfg = {**(get_game(self.game).duplicate_board_config or {}), **self.config}
        get_game(self.game).config(cfg)
        return cfg
