"""Running an arena on the director (``docs/tournaments.md``, "Arena"); the decisions are
:mod:`.arena`'s.

One loop per arena: every ``poll_seconds`` (or as soon as a table's result is in) it seats
the waiting entrants while the window is open (:func:`.arena.seat_waiting`, the document
saved before the tables are made), plays each new table like a round's table
(:meth:`Director._board <cardhall.tournaments.director.Director._board>`: made when there is
room, its first game recorded, a gone table's stored game taken), and once the window has
closed and no table runs, scores the arena (:func:`.arena.finish_arena`) and lets its games
be read (they are withheld until then: another table may play the same board later).

**Restart**: the window's ``ends_at`` is in the document, so a resumed arena keeps it; its
tables without a result are waited for (or dealt again, same board seed, when they left no
stored game), exactly as a round's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from .arena import arena_standings, finish_arena, is_open, provisional, seat_waiting

if TYPE_CHECKING:
    from .director import Director

log = logging.getLogger(__name__)


async def run_arena(director: Director, doc: dict[str, Any]) -> None:
    """Run ``doc``'s arena to its end (see the module docstring); the document is saved
    after every step. Cancelled (the director stops): its tables' tasks are cancelled too,
    the document stays ``running``."""
    rnd = doc["rounds"][0]
    for t in rnd["tables"]:
        if t["table_id"] is not None:
            director.withheld.add(t["table_id"])
    tasks: dict[int, asyncio.Task[None]] = {}

    def play(i: int) -> None:
        tasks[i] = asyncio.get_running_loop().create_task(
            director._board(doc, rnd, rnd["tables"][i]))

    try:
        for i, t in enumerate(rnd["tables"]):
            if t["returns"] is None:
                play(i)
        while True:
            if await _collect(tasks) and not doc["duplicate"]:
                doc["standings"] = arena_standings(doc, provisional(doc))
                await director._save(doc)
            if is_open(doc, director.now()):
                new = seat_waiting(doc, director.now())
                if new:
                    await director._save(doc)
                    for t in new:
                        play(rnd["tables"].index(t))
            elif not tasks:
                break
            if tasks:
                await asyncio.wait(tasks.values(), timeout=director.poll_seconds,
                                   return_when=asyncio.FIRST_COMPLETED)
            else:
                await asyncio.sleep(director.poll_seconds)
    finally:
        for task in tasks.values():
            task.cancel()
        for task in tasks.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    await director.stored(doc, rnd)
    finish_arena(doc)
    await director._save(doc)
    director.withheld.difference_update(t["table_id"] for t in rnd["tables"])
    log.info("arena %s: %d tables, scored", doc["id"], len(rnd["tables"]))


async def _collect(tasks: dict[int, asyncio.Task[None]]) -> bool:
    """Drop the finished table tasks (a table's error is the arena's); whether any was."""
    done = [i for i, task in tasks.items() if task.done()]
    for i in done:
        tasks.pop(i).result()
    return bool(done)
