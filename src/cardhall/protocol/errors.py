"""The stable error codes of the WebSocket protocol (``docs/protocol.md``, "Errors").

:data:`ProtocolErrorCode` lists the codes the server itself sends; :data:`ErrorCode` adds the
engine's ``engine.*`` codes, which pass through unchanged. Both are ``Literal`` types, so a
mistyped code is a mypy error wherever a message is built. Add codes here, never rename one.
"""

from __future__ import annotations

from typing import Literal

from ..engine.errors import EngineErrorCode

ProtocolErrorCode = Literal[
    "protocol.invalid_json",
    "protocol.invalid_message",
    "protocol.unknown_type",
    "protocol.extra_field",
    "protocol.invalid_field",
    "protocol.frame_too_large",
    "protocol.binary_frame",
    "protocol.rate_limited",
    "auth.required",
    "auth.invalid_token",
    "auth.banned",
    "auth.already_authenticated",
    "table.not_found",
    "table.seat_taken",
    "table.already_seated",
    "table.no_free_seat",
    "table.bad_seat",
    "table.bad_seat_token",
    "table.not_seated",
    "table.not_your_seat",
    "table.not_joined",
    "table.no_game",
    "table.stale_version",
    "table.action_id_reused",
    "table.replaced",
    "table.slow_consumer",
    "server.draining",
    "server.unavailable",
    "quota.sockets",
    "table.moving",
    "chat.flood",
    "table.invite_required",
    "table.not_watchable",
    "chips.bad_buy_in",
    "chips.insufficient",
    "chips.no_rebuy",
    "chips.unavailable",
    "chips.own_bot",
    "table.not_poker",
    "rematch.not_a_player",
    "tournament.not_found",
    "rematch.not_over",
    "quota.tables",
    "table.limit",
    "auth.session_revoked",
    "auth.hello_timeout",
    "quota.address_sockets",
]
"""Every code the server sends in an ``error`` message besides the ``engine.*`` ones."""

ErrorCode = Literal[ProtocolErrorCode, EngineErrorCode]
"""Every code an ``error`` message may carry."""

ERROR_CODES: dict[ProtocolErrorCode, str] = {
    "protocol.invalid_json": "the frame is not valid JSON text",
    "protocol.invalid_message": "the frame is JSON but not an object",
    "protocol.unknown_type": "missing or unknown message 'type'",
    "protocol.extra_field": "the message has a field its type does not define",
    "protocol.invalid_field": "a field is missing or has a wrong type or value",
    "protocol.frame_too_large": "the frame is larger than max_frame_bytes (it was ignored)",
    "protocol.binary_frame": "binary frames are not accepted; send JSON text",
    "protocol.rate_limited": "too many messages; this one was dropped",
    "auth.required": "send hello with a valid token first",
    "auth.invalid_token": "the token belongs to no player (same code as REST)",
    "auth.banned": "the player is banned",
    "auth.already_authenticated": "this connection already belongs to another player",
    "table.not_found": "no live table with this id",
    "table.seat_taken": "the seat belongs to someone else",
    "table.already_seated": "the player already holds another seat at this table",
    "table.no_free_seat": "every seat is taken",
    "table.bad_seat": "no such seat at this table",
    "table.bad_seat_token": "the seat token does not match the seat",
    "table.not_seated": "this connection holds no seat at this table",
    "table.not_your_seat": "the action names a seat this connection does not hold",
    "table.not_joined": "this connection has not joined the table (resync, or leave of a "
                        "table it never joined or already left)",
    "table.no_game": "no game is running at this table",
    "table.stale_version": "the action was made against an older version; resync and retry",
    "table.action_id_reused": "the action_id was accepted before for a different action",
    "table.replaced": "another connection resumed this seat",
    "table.slow_consumer": "the outbound queue overflowed; the connection is closed",
    "table.moving": "cluster mode: the table's node is gone and another node is taking it "
                    "over (within the lease time); retry the request shortly",
    "server.draining": "the server is shutting down: no hello, no join (seat, resume or "
                       "watch); it closes the connection soon (1012)",
    "server.unavailable": "the server failed to serve the request (e.g. its database is down); "
                          "the connection is closed (1011)",
    "chat.flood": "chat messages sent too fast (more than chat_burst in chat_window_seconds); "
                  "this one was dropped",
    "table.invite_required": "the table is private: join needs its invite_code",
    "table.not_watchable": "a duplicate tournament's table with people entrants cannot be "
                           "watched (its board may be live at another table)",
    "chips.bad_buy_in": "join.buy_in is outside the table's min_buy_in..max_buy_in (chips)",
    "chips.insufficient": "the chip balance is below the buy-in asked for (or the table's "
                          "min_buy_in) and no free top-up is due yet",
    "chips.no_rebuy": "a rebuy (join.buy_in on the own seat) only while its stack is below "
                      "the ante and it is not in a hand, up to max_buy_in",
    "chips.unavailable": "the chip balance could not be read (database); retry shortly",
    "chips.own_bot": "an identity and the bot identities it owns never sit at one chip "
                     "table together",
    "table.not_poker": "sit_out is for poker tables (games played with chip stacks)",
    "quota.sockets": "the player already holds max_sockets_per_player authenticated "
                     "connections; this one is closed (4029)",
    "tournament.not_found": "watch_tournament names no tournament",
    "rematch.not_a_player": "rematch: the sender neither holds a seat at the table nor played "
                            "its last game",
    "rematch.not_over": "rematch: the table's match is not over (a Blot match still runs; a "
                        "poker table still deals and the sender's seat has chips)",
    "quota.tables": "rematch: the player already has max_live_tables_per_player live tables "
                    "(same code as REST); no new table was made",
    "table.limit": "rematch: the server runs max_tables tables or its table log is backed up "
                   "(same code as REST); no new table was made",
    "auth.session_revoked": "the session (token) this connection authenticated with was "
                            "revoked (log-out, password change or reset); the connection is "
                            "closed (4001), the seats stay: log in again and resume them",
    "auth.hello_timeout": "no hello answered welcome within hello_timeout_seconds of opening; "
                          "the connection is closed (4009)",
    "quota.address_sockets": "the client address already holds max_sockets_per_address "
                             "connections; this one is closed (4030)",
}
"""What each server-side code means (``engine.*`` codes: :mod:`cardhall.engine.errors`)."""
