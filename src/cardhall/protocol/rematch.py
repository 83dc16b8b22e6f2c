"""The "play again" messages of the wire protocol (``docs/protocol.md``, "Play again").

A player of a table whose match is over sends :class:`Rematch`; the server makes one new table
like it (game, config, seats, timeout, stack, built-in bots, privacy) and seats the player
there at once, answering :class:`RematchReady` (then ``joined`` and ``state`` of the new
table). Every other person who played at the old table and is still connected to it gets one
:class:`RematchOffer` and accepts by joining the new table. Repeated requests for one table
lead to the same new table. :mod:`.messages` puts these models into its unions.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

_TableId = Annotated[str, Field(min_length=1, max_length=64)]
_RequestId = Annotated[str, Field(min_length=1, max_length=64)]


class Rematch(BaseModel):
    """Play again: a new table like ``table_id`` with the same people and bots. Allowed to a
    player of the table (a seat holder, or a player of its last game) once its match is over:
    a Bazaar Blot table ``finished``; a poker table (Soldier's Bluff, Palace Poker) that
    stopped dealing (``waiting`` after a hand: fewer seats with chips than the game needs),
    or whose sender's own seat is out of chips and not in a running hand. Answered by
    ``rematch_ready`` and the new table's ``joined`` and ``state``; refused
    ``rematch.not_a_player``, ``rematch.not_over``, ``table.not_found``, ``quota.tables``,
    ``table.limit``."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    type: Literal["rematch"]
    table_id: _TableId
    """The table whose match is over."""
    rid: _RequestId | None = None


class RematchReady(BaseModel):
    """The answer to ``rematch``: the new table, where the server is seating the sender (its
    ``joined`` and ``state`` follow, for ``rematch_table_id``). ``created``: this request made
    the table (``false``: an earlier request for the same table did; same new table).
    ``invite_code``: the new table's, when it is private (a private table's rematch is
    private, with a new code)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["rematch_ready"] = "rematch_ready"
    table_id: str
    """The old table (the one the request named)."""
    version: int
    """The old table's version."""
    rematch_table_id: str
    game: str
    invite_code: str | None = None
    created: bool
    rid: str | None = None


class RematchOffer(BaseModel):
    """``by_name`` (player ``by_player_id``) made a rematch of the table: take a seat at the new
    table ``rematch_table_id`` with a ``join`` (with ``invite_code`` when it is private), or
    send ``rematch`` for the old table (the same new table). Sent once, to each connection at
    the old table of another person who played there (not to bots)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["rematch_offer"] = "rematch_offer"
    table_id: str
    """The old table."""
    version: int
    rematch_table_id: str
    game: str
    invite_code: str | None = None
    by_player_id: str
    by_name: str

