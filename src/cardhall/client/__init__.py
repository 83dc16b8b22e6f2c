"""``cardhall.client``: the Python SDK for cardhall bots (``docs/bots.md``).

An async client over the WebSocket protocol (``docs/protocol.md``): :class:`Client` connects,
authenticates, joins tables (seat or spectate) and calls a bot's ``choose(view,
legal_actions)`` for each decision; it reconnects and resumes by itself, and one connection may
play many tables at once. It uses ``websockets`` and the protocol's pydantic models only, never
the server runtime::

    from cardhall.client import BuiltinBot, Client

    async with Client("ws://127.0.0.1:8000/ws", token) as client:
        table = await client.join(table_id, BuiltinBot("bazaar_blot", "rule"))
        result = await table.next_game_over()
        print(result.outcome)
"""

from __future__ import annotations

import contextlib
from typing import Any

from ..protocol.messages import GameOver
from .bots import Bot, BuiltinBot, load_bot
from .connection import Client, ClientError
from .table import TableClosedError, TableSession
from .tournament import enter_tournament

__all__ = ["Bot", "BuiltinBot", "Client", "ClientError", "TableClosedError", "TableSession",
           "enter_tournament", "load_bot", "play"]


async def play(url: str, token: str, table_id: str, bot: Any, *, seat: int | None = None,
               games: int = 1) -> list[GameOver]:
    """Connect, sit ``bot`` at ``table_id`` and play ``games`` games; then leave and close.

    Returns:
        The ``game_over`` messages, in order.

    Raises:
        ClientError: authentication or the join was refused.
        TableClosedError: the table closed (or, poker, the seat ran out of chips) before
            ``games`` games ended; the seat is left all the same.
    """
    async with Client(url, token) as client:
        table = await client.join(table_id, bot, seat=seat)
        try:
            results = [await table.next_game_over() for _ in range(games)]
        except TableClosedError:
            if table.closed is not None and "out of chips" in table.closed:
                with contextlib.suppress(ClientError, TimeoutError):
                    await client.leave(table_id)
            raise
        await client.leave(table_id)
        return results
