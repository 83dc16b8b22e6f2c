"""An open tournament's registration on the director (``docs/tournaments.md``, "People as
entrants"); the decisions are :mod:`.entry`'s.

The director holds the document of every tournament it runs (``Director.live``): a join, a
withdrawal or a start changes that very document (the one its task plays on) and saves it,
one change at a time (``Director._saving``). The task of a ``registering`` tournament waits
here (:func:`wait_for_start`) until ``starts_at`` or its creator's start, then
:func:`.entry.begin` pairs round 1 (or opens the arena's window), and the rounds run as any
tournament's. **Restart**: a ``registering`` tournament is resumed like a running one, its
``starts_at`` kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..storage.interface import PlayerRecord
from .arena import start_arena
from .entry import EntryError, begin, cancel_entry, join_entrant, may_start, withdraw_entrant
from .rounds import plan_round, public
from .spec import TournamentRequest

if TYPE_CHECKING:
    from .director import Director


def _live(director: Director, doc: dict[str, Any] | None, tournament_id: str) -> dict[str, Any]:
    """The document the director runs for ``tournament_id``.

    Raises:
        EntryError: ``tournament.closed``: it exists but is not running here (it ended).
    """
    live = director.live.get(tournament_id)
    if live is None:
        status = "over" if doc is None else doc["status"]
        raise EntryError("tournament.closed", f"tournament {tournament_id} is {status}")
    return live


ENTRY_FIELDS = ("entrants", "alive", "next_entrant", "status", "error")
"""What a join, a withdrawal or a cancel changes in the document (put back when its save fails)."""


async def _change(director: Director, doc: dict[str, Any], step: Callable[[], object]) -> None:
    """Apply ``step`` to the live document and save it; when the save fails the document is
    put back as it was (the caller gets the store's error, and memory and store agree)."""
    before = copy.deepcopy({k: doc[k] for k in ENTRY_FIELDS if k in doc})
    step()
    try:
        await director._save(doc)
    except BaseException:
        for k in ENTRY_FIELDS:
            doc.pop(k, None)
        doc.update(before)
        raise


async def join(director: Director, tournament_id: str, player: PlayerRecord) -> dict[str, Any]:
    """Enter ``player``; answers the public document (:func:`.entry.join_entrant`'s errors,
    and ``TournamentNotFoundError``)."""
    doc = _live(director, await director._doc(tournament_id), tournament_id)
    await _change(director, doc, lambda: join_entrant(doc, player.id, player.name))
    return public(doc)


async def withdraw(director: Director, tournament_id: str,
                   player: PlayerRecord) -> dict[str, Any]:
    """Withdraw ``player``'s entrant; answers the public document
    (:func:`.entry.withdraw_entrant`'s errors, and ``TournamentNotFoundError``)."""
    doc = _live(director, await director._doc(tournament_id), tournament_id)
    await _change(director, doc, lambda: withdraw_entrant(doc, player.id))
    return public(doc)


async def cancel(director: Director, tournament_id: str, player: PlayerRecord | None, *,
                 admin: bool = False) -> dict[str, Any]:
    """Call off a registering tournament (its creator, or the admin); its task ends at once.
    Answers the public document (:func:`.entry.cancel_entry`'s errors, and
    ``TournamentNotFoundError``)."""
    doc = _live(director, await director._doc(tournament_id), tournament_id)
    await _change(director, doc, lambda: cancel_entry(
        doc, None if player is None else player.id, admin=admin))
    director.start_events.setdefault(tournament_id, asyncio.Event()).set()  # the task ends
    return public(doc)


async def start_now(director: Director, tournament_id: str,
                    player: PlayerRecord) -> dict[str, Any]:
    """The creator starts the registering tournament now: its task begins it at once;
    answers the document as it is (``registering`` until the task has begun it).

    Raises:
        EntryError: see :func:`.entry.may_start`. TournamentNotFoundError.
    """
    doc = _live(director, await director._doc(tournament_id), tournament_id)
    may_start(doc, player.id)
    director.start_events.setdefault(tournament_id, asyncio.Event()).set()
    return public(doc)


async def wait_for_start(director: Director, doc: dict[str, Any]) -> None:
    """Wait (looking at the clock every second at most) until ``starts_at`` or the creator's start, then
    begin the tournament (:func:`.entry.begin`) and save it; a tournament with too few
    entrants ends ``cancelled``."""
    event = director.start_events.setdefault(doc["id"], asyncio.Event())
    while not event.is_set():
        left = (datetime.fromisoformat(doc["starts_at"]) - director.now()).total_seconds()
        if left <= 0:
            break
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout=min(left, 1.0))
    director.start_events.pop(doc["id"], None)

    def plan(d: dict[str, Any]) -> None:
        if d["kind"] == "arena":
            start_arena(d, TournamentRequest(**d["request"]), director.new_seed, director.now())
        else:
            plan_round(d, director.new_seed)["started_at"] = director.now().isoformat()

    if doc["status"] != "registering":  # cancelled by its creator or the admin: saved then
        director.log_cancelled(doc)
        return
    began = begin(doc, director.now(), plan)  # a join after this finds it running: refused
    await director._save(doc)
    if not began:
        director.log_cancelled(doc)


__all__ = ["EntryError", "cancel", "join", "start_now", "wait_for_start", "withdraw"]
