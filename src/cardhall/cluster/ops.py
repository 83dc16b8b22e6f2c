"""What a node does for the others (:mod:`.rpc`): its own tables' operations
(``hall/ops.py``) served by name, some with a cluster step added (the registry, the node's
sockets). Every result is JSON."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

from ..hall.ops import (
    KICK_FLUSH_SECONDS,
    admin_row,
    close,
    create,
    inspect,
    inspect_table,
    kick,
    remove_chat,
    seat_tables,
)
from .rpc import Op

if TYPE_CHECKING:
    from ..tables.manager import TableManager

__all__ = ["KICK_FLUSH_SECONDS", "OpsNode", "admin_row", "inspect", "node_ops", "seat_tables"]


class OpsNode(Protocol):
    """What :func:`node_ops` needs of its node (:class:`~.node.ClusterNode`)."""

    id: str
    manager: TableManager
    on_sockets: Callable[[set[str], str], Awaitable[int]] | None

    async def publish_summaries(self, only: str | None = None) -> None:
        """Write this node's changed table summaries to the registry (or ``only``'s)."""


def node_ops(node: OpsNode) -> dict[str, Op]:
    """The operations a node serves to the others."""
    m = node.manager

    async def _create(a: dict[str, Any]) -> Any:
        out = await create(m, a)
        await node.publish_summaries(only=out["id"])
        return out

    async def _kick_player(a: dict[str, Any]) -> Any:
        kicked = await m.kick_player(a["player_id"], reason=a.get("reason", "kicked"))
        if kicked and m.log is not None:
            await m.log.flush(KICK_FLUSH_SECONDS)  # table_closed first, then the sockets
        if a.get("close_sockets") and node.on_sockets is not None:
            await node.on_sockets({a["player_id"]}, "banned")
        return kicked

    async def _close_sockets(a: dict[str, Any]) -> Any:
        if node.on_sockets is None:
            return 0
        return await node.on_sockets(set(a["player_ids"]), a["why"])

    async def _admin_list(_a: dict[str, Any]) -> Any:
        return [{**admin_row(t), "node": node.id} for t in m.list()]

    async def _my_tables(a: dict[str, Any]) -> Any:
        return seat_tables(m, a["player_id"])

    async def _stats(_a: dict[str, Any]) -> Any:
        return {**m.stats(), "tables_by_node": {node.id: len(m.tables)}}

    async def _close(a: dict[str, Any]) -> Any:
        return await close(m, a["table_id"])

    async def _kick(a: dict[str, Any]) -> Any:
        return await kick(m, a["table_id"], a["seat"])

    async def _inspect(a: dict[str, Any]) -> Any:
        return {**await inspect_table(m, a["table_id"]), "node": node.id}

    async def _remove_chat(a: dict[str, Any]) -> Any:
        return await remove_chat(m, a["table_id"], a["chat_id"])

    return {"create": _create, "close": _close, "kick": _kick, "kick_player": _kick_player,
            "inspect": _inspect, "admin_list": _admin_list, "stats": _stats,
            "my_tables": _my_tables,
            "remove_chat": _remove_chat, "close_sockets": _close_sockets}
