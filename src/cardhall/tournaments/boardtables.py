"""A tournament table, as the director makes and reads it (``docs/tournaments.md``, "A round",
"People as entrants"): the arguments of :meth:`TableManager.create
<cardhall.tables.manager.TableManager.create>` for a table of a round (pure), and the two reads
of a live table's state the director makes."""

from __future__ import annotations

import functools
import secrets
from typing import Any

from ..storage.interface import PlayerRecord
from .entry import tables_watchable


def table_args(doc: dict[str, Any], rnd: dict[str, Any], t: dict[str, Any]) -> dict[str, Any]:
    """The ``create`` arguments of table ``t`` of round ``rnd`` (besides the game, creator and
    id): each seat a built-in bot of its entrant (the entrant's first, second... kind) or held
    for the entrant's person (``held``), the board config, the label (tournament, round,
    board), the board's seed as the first hand's server seed, ``watchable`` and ``rated``
    (a duplicate tournament with people: neither, :func:`.entry.tables_watchable`)."""
    entrants = {e["id"]: e for e in doc["entrants"]}
    kinds = {seat: entrants[entrant]["bots"][t["seats"][:seat].count(entrant)]
             for seat, entrant in enumerate(t["seats"])}  # the entrant's 1st, 2nd.. seat
    board = rnd["boards"][t["board"] - 1] if t["board"] else {"seed": None}
    seed = None if board["seed"] is None else bytes.fromhex(board["seed"])
    watchable = tables_watchable(doc)
    return {
        "config": doc["config"], "num_seats": len(t["seats"]),
        "bots": {seat: kind for seat, kind in kinds.items() if kind is not None},
        "held": {seat: PlayerRecord(entrants[e]["player_id"], entrants[e]["name"])
                 for seat, e in enumerate(t["seats"]) if kinds[seat] is None},
        "label": {"tournament_id": doc["id"], "name": doc["name"], "round": rnd["round"],
                  "board": t["board"]},
        "watchable": watchable, "rated": bool(doc.get("rated", True)) and watchable,
        "seed_source": None if seed is None else functools.partial(board_seed, seed),
    }


def board_seed(seed: bytes, hand: int) -> bytes:
    """A board table's server seed of ``hand``: the board's for the first (the board), a
    fresh one for any later hand (a poker table with a person seated deals on until the
    director closes it: never the board's cards twice)."""
    return seed if hand == 1 else secrets.token_bytes(32)


def ended(table: Any) -> bool:
    """Whether a table's first game is over: ``finished`` (a match), or a stack game's table
    between hands or waiting after one (read only)."""
    return bool(table.status == "finished" or (
        table.status in ("between_hands", "waiting") and table.hand > 0))


def game_result(table: Any) -> tuple[str, list[int]] | None:
    """``(game_id, returns)`` of the game a live table has finished, else ``None``. The one
    place the director reads a table's state (read only, on the table's event loop)."""
    recorder = table.recorder
    if recorder is None or recorder.state.outcome is None or table.game_id is None:
        return None
    return table.game_id, list(recorder.state.outcome.returns)
