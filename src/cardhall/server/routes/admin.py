"""Admin REST for tables under ``/api/admin`` (``design.md`` section 6).

Guarded by :func:`cardhall.server.deps.require_admin` (``Authorization: Bearer <admin token>``,
constant-time compare; 503 ``admin.disabled`` while unset, 401 ``admin.invalid_token``).
Players' admin routes (list, ban) are in ``admin_players.py``.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Response
from pydantic import BaseModel, ConfigDict

from ..audit import AuditDep
from ..deps import HallDep, require_admin
from ..errors import responses
from .lobby import TablePublic

router = APIRouter(prefix="/api/admin", tags=["admin"], dependencies=[Depends(require_admin)],
                   responses=responses("admin.disabled", "admin.invalid_token"))


class Kick(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    seat: int


class TableAdminSummary(TablePublic):
    """A live table as the admin lists it: the lobby summary plus its queues."""

    inbox: int
    """Messages waiting in the table's inbox."""
    spectators: int
    node: str | None = None
    """Cluster mode: the node that runs the table (``null`` in one process)."""


class TableInspect(TablePublic):
    """A live table's full, unredacted state (fields absent before the first game are left
    out: ``snapshot`` and ``history``)."""

    seat_map: list[int]
    """``seat_map[game_seat]`` is the table seat."""
    game_id: str | None
    seed_commitment: str | None
    deadline_ms: int | None
    inbox: int
    spectators: int
    snapshot: dict[str, Any] | None = None
    """The engine state's ``snapshot()``: every hand and the stock order (no seed)."""
    history: dict[str, Any] | None = None
    """The ``cardhall-history/1`` document so far (no seed)."""
    node: str | None = None
    """Cluster mode: the node that runs the table (left out in one process)."""


class ServerStats(BaseModel):
    """Server figures (``TableManager.stats()``)."""

    tables: int
    tables_by_status: dict[str, int]
    tables_closed: int
    seats_taken: int
    connections: int
    games_saved: int
    inbox_backlog: int
    tables_restored: int
    tables_aborted: int
    nodes: int = 1
    """Processes serving the hall (1 without cluster mode)."""
    tables_by_node: dict[str, int] | None = None
    """Cluster mode: live tables per node (``null`` in one process)."""
    unreachable: list[str] = []
    """Cluster mode: nodes that did not answer within a second (their figures left out)."""


@router.get("/tables", response_model=list[TableAdminSummary])
async def admin_list_tables(hall: HallDep, response: Response) -> list[dict[str, Any]]:
    """Every live table with its version and inbox backlog (every node's, in cluster mode).
    In cluster mode a node that does not answer within a second is left out and named in the
    header ``X-Cardhall-Unreachable`` (node ids, comma-separated)."""
    rows, missing = await hall.admin_tables()
    if missing:
        response.headers["X-Cardhall-Unreachable"] = ",".join(missing)
    return rows


@router.get("/tables/{table_id}", response_model=TableInspect,
            response_model_exclude_unset=True, responses=responses("table.not_found"))
async def admin_inspect_table(table_id: str, hall: HallDep) -> dict[str, Any]:
    """The full, unredacted state (``snapshot()``) and the history so far (no seed); asked
    of the table's owner in cluster mode."""
    return await hall.inspect(table_id)  # TableNotFoundError/TableClosedError: 404


class CloseResult(BaseModel):
    """What a close did: ``closed`` (this call closed it) and, when not, ``reason``."""

    closed: bool
    changed: bool
    reason: str | None = None


class KickResult(BaseModel):
    """What a kick did: ``kicked`` (this call removed the holder), ``changed`` (the same, for
    every moderation answer), ``stand_in`` (a stand-in bot plays the seat until the game ends)
    and, when nothing was done, ``reason`` (``"seat empty"``, ``"already kicked: ..."``)."""

    kicked: bool
    changed: bool
    stand_in: bool = False
    reason: str | None = None


@router.post("/tables/{table_id}/close", responses=responses("table.not_found"))
async def admin_close_table(table_id: str, hall: HallDep, audit: AuditDep) -> CloseResult:
    """Close a table: everyone gets ``table_closed``; a running game is abandoned (not saved).
    404 ``table.not_found`` for an id that names no live table; a table already closing is
    answered ``closed: false``."""
    closed = await hall.close(table_id)  # TableNotFoundError: 404
    result = CloseResult(closed=closed, changed=closed,
                         reason=None if closed else "already closing")
    if closed:
        await audit.record("table.close", table_id, closed=closed)
    return result


@router.post("/tables/{table_id}/kick", responses=responses("table.not_found", "table.bad_seat"))
async def admin_kick_seat(table_id: str, body: Kick, hall: HallDep,
                          audit: AuditDep) -> KickResult:
    """Remove a seat's holder (told ``table_closed``/``kicked``). During a game the seat is
    dealt into, a stand-in bot plays it until that game ends, then it is freed; otherwise it is
    freed now. Idempotent: a second kick answers ``kicked: false`` with the reason."""
    done = await hall.kick(table_id, body.seat)  # TableError: its own code
    result = KickResult(kicked=done["kicked"], changed=done["kicked"],
                        stand_in=done["stand_in"], reason=done["reason"])
    await audit.record("table.kick", table_id, seat=body.seat, kicked=result.kicked,
                       stand_in=result.stand_in, reason=result.reason)
    return result


class ChatRemoveResult(BaseModel):
    """Whether the chat line was still kept (it is announced removed either way)."""

    removed: bool


@router.post("/tables/{table_id}/chat/{chat_id}/remove", responses=responses("table.not_found"))
async def admin_remove_chat(table_id: str, chat_id: int, hall: HallDep,
                            audit: AuditDep) -> ChatRemoveResult:
    """Remove chat line ``chat_id`` of a live table: everyone there gets ``chat_removed`` and
    later joiners do not get it. 404 ``table.not_found``."""
    removed = await hall.remove_chat(table_id, chat_id)
    await audit.record("table.chat_remove", table_id, chat_id=chat_id, removed=removed)
    return ChatRemoveResult(removed=removed)


@router.get("/stats", response_model=ServerStats)
async def admin_stats(hall: HallDep) -> dict[str, Any]:
    """Tables by status, seats taken, connections, games saved, inbox backlog (summed over
    the nodes in cluster mode)."""
    return await hall.stats()
