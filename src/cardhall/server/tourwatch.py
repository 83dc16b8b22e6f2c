"""Following a tournament over the WebSocket (``watch_tournament``; ``docs/protocol.md``,
"Tournaments"): one tournament per connection, its public document pushed after every save
(:meth:`~cardhall.tournaments.director.Director.watch`), the same document as
``GET /api/tournaments/{id}``. The director hands every watcher the one public document of a
save: it is encoded once (:func:`push_frame`) and the frame shared, since a big tournament's
document is hundreds of KB and is saved after every table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..protocol import messages as p
from ..protocol.frames import Frame
from ..tables.connections import Connection
from ..tournaments import Director, TournamentNotFoundError

_last: tuple[dict[str, Any], str, Frame] | None = None
"""The last push encoded: its document (by identity), tournament id and frame."""


def push_frame(tid: str, doc: dict[str, Any]) -> Frame:
    """The ``tournament`` message (:class:`~cardhall.protocol.messages.TournamentUpdate`, no
    ``rid``) of ``doc``, encoded once for every watcher it is pushed to: the frame of the last
    push is kept while the same document object is pushed again."""
    global _last
    if _last is not None and _last[0] is doc and _last[1] == tid:
        return _last[2]
    frame = Frame({"type": "tournament", "tournament_id": tid, "document": doc, "rid": None})
    _last = (doc, tid, frame)
    return frame


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
                self.conn.send(push_frame(tid, doc))
        return push

    def stop(self) -> None:
        """Stop following (idempotent; the connection ends)."""
        stop, self._stop = self._stop, None
        if stop is not None:
            stop()
