"""A bot enters a tournament (``docs/bots.md``, "Tournaments"; ``docs/tournaments.md``,
"People as entrants"): the SDK joins it over REST, follows it over the socket
(``watch_tournament``) and takes, with a fresh bot each, every seat the director holds for it
at the tables of each round, until the tournament ends."""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

from ..protocol import messages as p
from .connection import Client, ClientError

log = logging.getLogger(__name__)


def _post(client: Client, path: str) -> dict[str, Any]:
    """``POST`` ``path`` on the client's server with its token; the JSON answer.

    Raises:
        ClientError: the server refused it (its error code and message).
    """
    base = client.url.replace("ws", "http", 1).removesuffix("/ws")
    req = urllib.request.Request(base + path, method="POST", data=b"",
                                 headers={"Authorization": f"Bearer {client.token}",
                                          "Accept": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=client.timeout) as resp:
            doc: dict[str, Any] = json.loads(resp.read())
            return doc
    except urllib.error.HTTPError as exc:
        err = json.loads(exc.read() or b"{}").get("error", {})
        raise ClientError(err.get("code", "request.error"), err.get("message", str(exc))) from exc


async def enter_tournament(client: Client, tournament_id: str, make_bot: Callable[[], Any],
                           *, join: bool = True) -> dict[str, Any]:
    """Enter ``tournament_id`` (``POST /api/tournaments/{id}/join`` unless ``join`` is false:
    already entered) and play it: each table the director makes with a seat held for this
    player is joined with ``make_bot()``; returns the last document (``finished``,
    ``cancelled`` or ``failed``). A table it cannot join (gone before the join reached it:
    ``table.not_found``) is logged and skipped; its seat's stand-in plays, or the director
    deals the board again at a new table, which it joins.

    Raises:
        ClientError: the join was refused (``tournament.closed``, ``tournament.full``,
            ``tournament.already_entered``, ``tournament.not_found``), or the watch was.
    """
    tid = urllib.parse.quote(tournament_id, safe="")
    if join:
        await asyncio.to_thread(_post, client, f"/api/tournaments/{tid}/join")
    me = client.welcome.player_id if client.welcome else None
    await client.send(p.WatchTournament(type="watch_tournament", tournament_id=tournament_id))
    seated: set[str] = set()
    while True:
        update = await client.tournament_updates.get()
        doc = update.document
        if doc.get("status") in ("finished", "cancelled", "failed"):
            return doc
        mine = {e["id"] for e in doc.get("entrants", []) if e.get("player_id") == me}
        for rnd in doc.get("rounds", []):
            for t in rnd.get("tables", []):
                table_id = t.get("table_id")
                if table_id and table_id not in seated and t.get("status") == "playing" \
                        and mine & set(t.get("seats", [])):
                    seated.add(table_id)
                    try:
                        await client.join(table_id, make_bot())
                    except ClientError as exc:  # gone before the join reached it: play on
                        log.warning("tournament %s: table %s not joined: %s", tournament_id,
                                    table_id, exc)


__all__ = ["enter_tournament"]
