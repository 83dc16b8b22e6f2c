"""What a process does with its own tables for the hall (:mod:`.local`) and, in cluster mode,
for the other nodes (``cluster/ops.py``): create, close, kick, inspect and list them. Every
result is JSON."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from ..tables.actor import Table
from ..tables.errors import TableNotFoundError
from ..tables.standin import RETURNABLE

KICK_FLUSH_SECONDS = 1.0
"""How long a kick waits for the table log to commit the kicks before the caller goes on."""

if TYPE_CHECKING:
    from ..tables.manager import TableManager


def inspect(t: Table) -> dict[str, Any]:
    """A table's full, unredacted state (admin only; runs inside the table's task)."""
    out = t.summary(admin=True)
    out["seat_map"] = list(t.seat_map)
    out["game_id"] = t.game_id
    out["seed_commitment"] = t.seed_commitment
    out["deadline_ms"] = t.deadline_ms()
    out["inbox"] = t.inbox.qsize()
    out["spectators"] = len(t.spectators)
    if t.recorder is not None:
        out["snapshot"] = t.recorder.state.snapshot()
        out["history"] = t.recorder.history.to_json()
    return out


def admin_row(t: Table) -> dict[str, Any]:
    """A table as the admin lists it: the summary plus its queues."""
    return {**t.summary(admin=True), "inbox": t.inbox.qsize(),
            "spectators": len(t.spectators)}


def held_seats(t: Table, player_id: str) -> list[int]:
    """The seats of ``t`` that ``player_id`` holds and may resume: its own (not a built-in
    bot's), including one a stand-in plays while its holder is away (left or timed out),
    never one it was kicked or banned from (reads only, like ``Table.summary``)."""
    return [s.index for s in t.seats
            if s.player_id == player_id and s.bot_kind is None
            and (not s.leaving or s.stand_in in RETURNABLE)]


def seat_tables(manager: TableManager, player_id: str) -> list[dict[str, Any]]:
    """``GET /api/players/me/tables`` for this process: every live table where
    ``player_id`` holds a seat (:func:`held_seats`), private ones included, oldest first. Each
    row is ``{"id", "game", "status", "private", "invite_code", "num_seats", "hand",
    "my_seats", "seats", "created_at"}``; ``invite_code`` is the private table's code (the
    caller holds a seat there, so it may pass it on), ``null`` for a public table."""
    out = []
    for t in manager.list():
        mine = held_seats(t, player_id)
        if not mine or t.stopped or t.status == "closed":
            continue
        summary = t.summary()
        out.append({"id": t.id, "game": summary["game"], "status": summary["status"],
                    "private": t.spec.private,
                    "invite_code": t.spec.invite_code if t.spec.private else None,
                    "num_seats": summary["num_seats"], "hand": summary["hand"],
                    "my_seats": mine, "seats": summary["seats"],
                    "created_at": summary["created_at"]})
    return sorted(out, key=lambda r: (r["created_at"], r["id"]))


def live(manager: TableManager, table_id: str) -> Table:
    """The running table ``table_id``.

    Raises:
        TableNotFoundError: no such live table here.
    """
    table = manager.get(table_id)
    if table is None or table.stopped:
        raise TableNotFoundError(f"no live table {table_id!r}")
    return table


async def create(manager: TableManager, args: dict[str, Any]) -> dict[str, Any]:
    """Create a table here (``args``: ``game``, ``created_by`` and the creation options)."""
    args = dict(args)
    if args.get("bots") is not None:
        args["bots"] = {int(k): v for k, v in args["bots"].items()}
    table = await manager.create(args.pop("game"), **args)
    return table.summary()


async def close(manager: TableManager, table_id: str) -> bool:
    live(manager, table_id)
    return await manager.close(table_id)


async def kick(manager: TableManager, table_id: str, seat: int) -> dict[str, Any]:
    live(manager, table_id)
    return dataclasses.asdict(await manager.kick(table_id, seat))


async def inspect_table(manager: TableManager, table_id: str) -> dict[str, Any]:
    result: dict[str, Any] = await live(manager, table_id).call(inspect)
    return result


async def remove_chat(manager: TableManager, table_id: str, chat_id: int) -> bool:
    """Remove chat line ``chat_id`` at a table of this node (admin)."""
    removed: bool = await live(manager, table_id).call(lambda t: t.chat.remove(chat_id))
    return removed
