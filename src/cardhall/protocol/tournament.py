"""The tournament messages of the wire protocol (``docs/protocol.md``, "Tournaments").

A client that sent ``hello`` may follow one tournament: :class:`WatchTournament` names it and
the server answers :class:`TournamentUpdate` with its public document at once, then again
after every change (a join, a withdrawal, the start, a table made or finished, a round
scored, its end): the same document as ``GET /api/tournaments/{id}``, so it never holds more
than that does (a board's seeds only once its round is scored). ``tournament_id: null`` stops
following. :mod:`.messages` puts these models into its unions.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

_TournamentId = Annotated[str, Field(min_length=1, max_length=64)]
_RequestId = Annotated[str, Field(min_length=1, max_length=64)]


class WatchTournament(BaseModel):
    """Follow tournament ``tournament_id`` (one per connection: a new watch replaces the
    last; ``null`` stops). Answered by ``tournament``; refused ``tournament.not_found``."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    type: Literal["watch_tournament"]
    tournament_id: _TournamentId | None
    rid: _RequestId | None = None


class TournamentUpdate(BaseModel):
    """A followed tournament's public document (``docs/rest.md``, "Tournaments"): sent in
    answer to ``watch_tournament`` (with its ``rid``) and after every change of it."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    type: Literal["tournament"] = "tournament"
    tournament_id: str
    document: dict[str, Any]
    rid: str | None = None
