"""Seats of a table (``design.md`` section 5): who holds each seat, and its connection.

A seat is held by a player (a person or a built-in bot) from the moment it is taken until it is
freed (leave outside a game, kick, or the end of the game in which its holder left). A holder
gets a random seat token; a disconnect keeps the seat (``conn`` becomes ``None``, the timer keeps
running and timeouts act for it) and a reconnect with the same player or the token resumes it.
Only the table actor mutates seats.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ..protocol.messages import SeatPublic
from .connections import Connection

RECENT_ACTION_IDS = 64
"""How many answered ``action_id``s a seat remembers for idempotent retries."""


def hash_seat_token(token: str) -> str:
    """SHA-256 hex of a seat token (UTF-8: any string a client sends hashes)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class Seat:
    """One seat. ``stack`` is the seat's chips (poker games) or ``None``."""

    index: int
    player_id: str | None = None
    name: str | None = None
    bot: bool = False
    bot_kind: str | None = None
    token: str | None = None
    """The seat token while this process knows it (not after a restore: only its hash is
    logged; it is learnt again when its holder resumes with it)."""
    token_hash: str | None = None
    """SHA-256 hex of the seat token: what the table log keeps."""
    conn: Connection | None = None
    stack: int | None = None
    leaving: bool = False
    """The holder left during a game: the seat is freed when that game ends."""
    stand_in: str | None = None
    """Why a stand-in bot plays this seat until the running game ends (``"kicked"``,
    ``"banned"``; :mod:`.standin`), or ``None``. The seat is ``leaving`` meanwhile."""
    stand_in_from: int | None = None
    """The index in the running game's action log from which the stand-in played."""
    timeouts: int = 0
    """The seat's timeouts in a row (a move of its own starts again from 0)."""
    client_seed: str | None = None
    """The holder's client seed (``join.client_seed``), mixed into the shuffle seed of each game
    this seat is dealt into (``docs/fairness.md``); ``None``: none given."""
    take_id: str | None = None
    """A fresh id per take of the seat: the key of its chip moves (:mod:`.chips`)."""
    funded: bool = False
    """The stack came from the holder's chip balance (returned to it when the seat is freed)."""
    owner_id: str | None = None
    """The holder's owner when it is a bot identity (``players.owner_id``; :mod:`.chips`)."""
    rebuys: int = 0
    """Rebuys since the seat was taken (numbers the rebuy moves' keys)."""
    sitting_out: bool = False
    """Poker: the holder sits out (``sit_out``): not dealt into the hands that start."""
    answers: OrderedDict[str, tuple[Any, Any]] = field(default_factory=OrderedDict)
    """Recent ``action_id`` -> ``(request, answer)``: what was accepted under that id (the
    version and the action) and the message that answered it (re-sent on a retry)."""

    @property
    def taken(self) -> bool:
        return self.player_id is not None

    def take(self, player_id: str, name: str, *, bot: bool = False, bot_kind: str | None = None,
             stack: int | None = None, client_seed: str | None = None,
             owner_id: str | None = None) -> str:
        """Give the seat to a player (with its client seed and owner, if any); returns the new
        seat token (32 random URL-safe chars)."""
        self.player_id, self.name, self.bot, self.bot_kind = player_id, name, bot, bot_kind
        self.owner_id = owner_id
        self.client_seed = client_seed
        self.new_token()
        self.take_id = uuid.uuid4().hex
        self.funded, self.rebuys, self.sitting_out = False, 0, False
        self.stack = stack
        self.leaving = False
        self.stand_in = self.stand_in_from = None
        self.timeouts = 0
        self.answers.clear()
        assert self.token is not None
        return self.token

    def new_token(self) -> str:
        """Give the seat a fresh random token (32 URL-safe chars); the old one stops working."""
        self.token = secrets.token_urlsafe(24)
        self.token_hash = hash_seat_token(self.token)
        return self.token

    def free(self) -> None:
        """Empty the seat (its connection is detached by the caller)."""
        self.player_id = self.name = self.token = self.token_hash = self.bot_kind = None
        self.owner_id = None
        self.client_seed = self.stand_in = self.stand_in_from = None
        self.bot = self.leaving = False
        self.conn = None
        self.stack = self.take_id = None
        self.funded, self.rebuys, self.sitting_out = False, 0, False
        self.answers.clear()

    def token_matches(self, token: str) -> bool:
        """Constant-time comparison of the token's hash with the seat token's (works after a
        restore, when only the hash is known)."""
        return self.token_hash is not None and hmac.compare_digest(self.token_hash,
                                                                   hash_seat_token(token))

    def remember(self, action_id: str, request: Any, answer: Any) -> None:
        """Keep ``request`` (what was accepted) and its ``answer`` under ``action_id`` (the oldest
        of more than 64 is forgotten)."""
        self.answers[action_id] = (request, answer)
        self.answers.move_to_end(action_id)
        while len(self.answers) > RECENT_ACTION_IDS:
            self.answers.popitem(last=False)

    def public(self, in_hand: bool, out_of_chips: bool = False) -> SeatPublic:
        """:meth:`public_json` as the wire model (lobby and admin answers)."""
        return SeatPublic(**self.public_json(in_hand, out_of_chips))

    def public_json(self, in_hand: bool, out_of_chips: bool = False) -> dict[str, Any]:
        """The public facts of the seat, shaped like
        :class:`~cardhall.protocol.messages.SeatPublic` (no token, no cards)."""
        return {
            "seat": self.index,
            "name": self.name,
            "player_id": self.player_id,
            "bot": self.bot,
            "bot_level": self.bot_kind,
            # the holder's own socket: a stand-in bot's connection is no holder's
            "connected": self.stand_in is None and self.conn is not None and not self.conn.closed,
            "stack": self.stack,
            "in_hand": in_hand,
            "out_of_chips": out_of_chips,
            "sitting_out": self.sitting_out,
            "stand_in": self.stand_in is not None,
        }
