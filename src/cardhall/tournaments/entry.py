"""People as entrants: registering, joining, withdrawing and the start of an open tournament
(``docs/tournaments.md``, "People as entrants").

Pure and synchronous (no I/O, no asyncio): the director (:mod:`.director`) calls these on
the document it holds and saves it after each.

* An **open** tournament (``"open": true``) is made ``registering``: its bot entrants are in,
  people join (:func:`join_entrant`) and withdraw (:func:`withdraw_entrant`) until it starts,
  at ``starts_at`` or when its creator starts it; :func:`begin` then checks the count and
  pairs round 1 (or opens the arena's window).
* A person's entrant holds the entrant's first seat at each of its tables; in a partnership
  game (Bazaar Blot) the partner is a built-in ``rule`` bot (the entrant's ``bots`` are
  ``[None, "rule"]``: ``None`` is the person's seat). A table seat held for a person who is
  not there is played by a stand-in from its first timeout (a **no-show**), and what that
  stand-in scores is the entrant's: the tournament's stated rule.
* **Withdrawing** while registering takes the entrant out; once it runs, the entrant is
  ``withdrawn``: a table it is at plays on (a stand-in once the person leaves or times out)
  and counts, it is paired no more, and it stays in the standings, marked ``withdrawn``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from ..engine import get_game
from .spec import TournamentRequest

DEFAULT_START_SECONDS = 300.0
"""An open tournament starts by itself this long after it is made, unless the request says
(``starts_in_seconds``)."""
PARTNER_BOT = "rule"
"""The built-in bot that partners a person in a partnership game."""


class EntryError(Exception):
    """A join, withdrawal or start refused; ``code`` is the REST error code
    (``tournament.closed``, ``tournament.full``, ``tournament.already_entered``,
    ``tournament.not_entered``, ``tournament.not_creator``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def open_entry(doc: dict[str, Any], req: TournamentRequest, now: datetime) -> None:
    """Make a new document ``registering``: it starts at ``starts_at`` (ISO, UTC); the
    request is kept for :func:`begin` (an arena's window and boards come from it)."""
    wait = req.starts_in_seconds if req.starts_in_seconds is not None else DEFAULT_START_SECONDS
    doc["status"] = "registering"
    doc["open"] = True
    doc["max_entrants"] = req.max_entrants
    doc["starts_at"] = (now + timedelta(seconds=wait)).isoformat()
    doc["request"] = req.model_dump(mode="json")


def entrant_of(doc: Mapping[str, Any], player_id: str) -> dict[str, Any] | None:
    """The entrant a person plays as, or ``None``."""
    return next((e for e in doc["entrants"] if e.get("player_id") == player_id), None)


def join_entrant(doc: dict[str, Any], player_id: str, name: str) -> dict[str, Any]:
    """Enter the person ``player_id`` (shown as ``name``) as a new entrant, seeded last;
    returns the entrant ``{"id", "name", "player_id", "bots"}``.

    Raises:
        EntryError: ``tournament.closed`` (not registering), ``tournament.already_entered``,
            ``tournament.full`` (``max_entrants`` are in).
    """
    if doc["status"] != "registering":
        raise EntryError("tournament.closed", f"tournament {doc['id']} is {doc['status']}: "
                         "people join only while it registers")
    if entrant_of(doc, player_id) is not None:
        raise EntryError("tournament.already_entered", "you are already an entrant")
    if len(doc["entrants"]) >= doc["max_entrants"]:
        raise EntryError("tournament.full", f"{doc['max_entrants']} entrants are in already")
    rules = get_game(doc["game"])
    per = rules.max_seats // rules.teams if rules.teams else 1
    number = doc.get("next_entrant") or 1 + max((int(e["id"][1:]) for e in doc["entrants"]),
                                                default=0)
    doc["next_entrant"] = number + 1  # a withdrawn entrant's id is never given again
    entrant = {"id": f"e{number}", "name": name, "player_id": player_id,
               "bots": [None] + [PARTNER_BOT] * (per - 1)}
    doc["entrants"].append(entrant)
    doc["alive"].append(entrant["id"])
    return entrant


def withdraw_entrant(doc: dict[str, Any], player_id: str) -> dict[str, Any]:
    """Withdraw the person's entrant (see the module docstring); returns it.

    Raises:
        EntryError: ``tournament.not_entered``; ``tournament.closed`` (it has ended, or the
            entrant has withdrawn already).
    """
    entrant = entrant_of(doc, player_id)
    if entrant is None:
        raise EntryError("tournament.not_entered", "you are not an entrant")
    if doc["status"] == "registering":
        doc["entrants"].remove(entrant)
        doc["alive"] = [e for e in doc["alive"] if e != entrant["id"]]
        return entrant
    if doc["status"] != "running" or entrant.get("withdrawn"):
        raise EntryError("tournament.closed", "nothing to withdraw from: "
                         + ("you have withdrawn already" if entrant.get("withdrawn")
                            else f"the tournament is {doc['status']}"))
    entrant["withdrawn"] = True
    doc["alive"] = [e for e in doc["alive"] if e != entrant["id"]]
    return entrant


def may_start(doc: Mapping[str, Any], player_id: str | None) -> None:
    """Whether ``player_id`` may start the registering tournament now.

    Raises:
        EntryError: ``tournament.closed`` (not registering), ``tournament.not_creator``.
    """
    if doc["status"] != "registering":
        raise EntryError("tournament.closed", f"tournament {doc['id']} is {doc['status']}")
    if player_id is None or player_id != doc["created_by"]:
        raise EntryError("tournament.not_creator", "only the tournament's creator starts it")


def cancel_entry(doc: dict[str, Any], player_id: str | None, *, admin: bool = False) -> None:
    """Cancel a registering tournament: its creator (or the admin) calls it off before it
    starts; it ends ``cancelled`` with nothing played.

    Raises:
        EntryError: ``tournament.closed`` (not registering), ``tournament.not_creator``.
    """
    if doc["status"] != "registering":
        raise EntryError("tournament.closed", f"tournament {doc['id']} is {doc['status']}: "
                         "only a registering tournament is cancelled")
    if not admin and (player_id is None or player_id != doc["created_by"]):
        raise EntryError("tournament.not_creator", "only the tournament's creator cancels it")
    doc["status"] = "cancelled"
    doc["error"] = "cancelled by the admin" if admin else "cancelled by its creator"


def tables_watchable(doc: Mapping[str, Any]) -> bool:
    """Whether the tournament's tables may be watched: not in a duplicate tournament with a
    person among the entrants (a board may be live at another table while one is watched)."""
    return not (doc["duplicate"] and any(e.get("player_id") for e in doc["entrants"]))


def begin(doc: dict[str, Any], now: datetime, plan: Callable[[dict[str, Any]], None]) -> bool:
    """Start a registering tournament: too few entrants to fill one table make it
    ``cancelled`` (``error`` says why; returns ``False``); else it is ``running``, a Swiss has
    at most the rounds its entrants allow (``rounds_total`` lowered to that), a knockout
    ``ceil(log2(n))`` rounds, and ``plan(doc)`` pairs round 1 or opens the arena's window."""
    if doc["status"] != "registering":  # cancelled meanwhile
        return False
    req = TournamentRequest(**doc["request"])
    n, sides = len(doc["entrants"]), req.sides()
    if n < sides:
        doc["status"] = "cancelled"
        doc["error"] = f"{n} entrants do not fill a table of {sides}"
        return False
    if doc["kind"] == "swiss":
        doc["rounds_total"] = min(doc["rounds_total"], (n - 1) // (sides - 1))
    elif doc["kind"] == "knockout":
        doc["rounds_total"] = math.ceil(math.log2(n))
    doc["status"] = "running"
    doc["started_at"] = now.isoformat()
    plan(doc)
    return True
