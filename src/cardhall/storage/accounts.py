"""Records and errors of accounts, sessions and ratings (the :class:`~.interface.Store` parts of
issue 16: ``docs/storage.md``, "Accounts and ratings")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .usernames import username_key

__all__ = ["AccountError", "AlreadyRegisteredError", "PlayerRating", "RatingPoint",
           "SessionRecord", "UsernameConfusableError", "UsernameTakenError", "username_key"]


class AccountError(Exception):
    """A registration the store refuses (the message names the value)."""


class UsernameTakenError(AccountError):
    """Another account already has this username (compared by :func:`username_key`: NFKC
    and case-folded)."""


class UsernameConfusableError(AccountError):
    """Another account's username looks like this one (one confusable skeleton,
    ``storage/usernames.py``)."""


class AlreadyRegisteredError(AccountError):
    """The identity to upgrade already is an account, or is a bot."""


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """One revocable bearer token of an account (never the token itself).

    Attributes:
        id: the session's id (32 hex digits; ``DELETE /api/sessions/{id}``).
        kind: ``login``, ``register`` or ``guest`` (the guest token the account came from).
        created_at: when it was issued (aware UTC).
        current: whether it is the token of the request that listed it.
    """

    id: str
    kind: str
    created_at: datetime
    current: bool = False


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A player's current rating in one game (``ratings`` row, with the player's name).

    Attributes:
        player_id, name, game: who and where.
        mu, sigma: openskill's skill estimate and its uncertainty (points of skill).
        games: rated games played; wins: of which won (``storage/rating.py``, marks).
        is_bot: a bot identity (built-in or owned); listed apart from people.
        updated_at: the end of the last rated game (aware UTC).
    """

    player_id: str
    name: str
    game: str
    mu: float
    sigma: float
    games: int
    wins: int
    is_bot: bool
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after one rated game (``rating_history``): for the profile chart.

    Attributes:
        game_id: the finished game; at: its end (aware UTC).
        mu, sigma: the rating after it; mu_before, sigma_before: before it.
    """

    game_id: str
    at: datetime
    mu: float
    sigma: float
    mu_before: float
    sigma_before: float
