"""Following a tournament over the WebSocket (``watch_tournament``; ``docs/protocol.md``,
"Tournaments"): one tournament per connection, its public document pushed after every save
(:meth:`~cardhall.tournaments.director.Director.watch`), the same document as
``GET /api/tournaments/{id}``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..protocol import messages as p
from ..tables.connections import Connection
from ..tournaments import Director, TournamentNotFoundError


class TournamentFollow:
    """The tournament a connection follows (at most one).

    Args:
        conn: the connection the ``tournament`` messages go to.
    """

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._stop: Callable[[], None] | None = None

    async def watch(self, director: Director | None, msg: p.WatchTournament,
                    error: Callable[[Any, str, Any], None]) -> None:
        """Handle ``watch_tournament``: stop following the last one; follow
        ``msg.tournament_id`` (answering its document at once), or nothing when it is
        ``null``. An unknown id is answered ``error("tournament.not_found", ...)``."""
        self.stop()
        tid = msg.tournament_id
        if tid is None:
            return
        try:
            if director is None:
                raise TournamentNotFoundError(f"no tournament {tid!r}")
            doc = await director.get(tid)
        except TournamentNotFoundError as exc:
            error("tournament.not_found", str(exc), msg)
            return
        self.conn.send(p.TournamentUpdate(tournament_id=tid, document=doc, rid=msg.rid))
        self._stop = director.watch(tid, self._push(tid))

    def _push(self, tid: str) -> Callable[[dict[str, Any]], None]:
        def push(doc: dict[str, Any]) -> None:
            if self.conn.closed:
                self.stop()
            else:
                self.conn.send(p.TournamentUpdate(tournament_id=tid, document=doc))
        return push

    def stop(self) -> None:
        """Stop following (idempotent; the connection ends)."""
        stop, self._stop = self._stop, None
        if stop is not None:
            stop()
