"""Chat refuses control and bidi formatting characters (``docs/protocol.md``, "Chat";
``docs/security.md``, "Sessions, sockets and proxies"), over a real socket: U+0000, U+202E
(right-to-left override) and the like are ``protocol.invalid_field`` naming the character,
and nobody at the table gets the line; emoji sequences and right-to-left text go through."""

from __future__ import annotations

import pytest
from livesrv import client, live_server

REFUSED = ["nul \u0000 here", "invoice_\u202egpj.exe", "tab\tbed", "two\nlines",
           "sep\u2028arated", "iso\u2066late\u2069", "c1 \u0085", "del \u007f"]
ALLOWED = ["hello", "👨‍👩‍👧 family", "🏴󠁧󠁢󠁳󠁣󠁴󠁿 flag", "שלום\u200f עולם", "Բարև", "Здравей"]


@pytest.mark.parametrize("text", REFUSED)
def test_a_refused_character_is_named(text: str) -> None:
    from cardhall.protocol.text import refused

    assert refused(text)


@pytest.mark.parametrize("text", ALLOWED)
def test_emoji_and_right_to_left_text_are_plain(text: str) -> None:
    from cardhall.protocol.text import refused

    assert refused(text) == []


async def test_chat_with_a_control_or_bidi_override_character_reaches_nobody() -> None:
    async with live_server() as live:
        (_, ta), (_, tb) = await live.player("ana"), await live.player("bob")
        table = await live.tables.create("soldiers_bluff", num_seats=3)
        async with client(live, ta) as ana, client(live, tb) as bob:
            for c, seat in ((ana, 0), (bob, 1)):
                await c.send({"type": "join", "table_id": table.id, "seat": seat})
                await c.expect("joined")
            for text, named in (("a\u0000b", "U+0000"), ("invoice_\u202egpj.exe", "U+202E")):
                await ana.send({"type": "chat", "table_id": table.id, "text": text})
                error = await ana.expect("error")
                assert error["code"] == "protocol.invalid_field", error
                assert named in error["message"]
            await ana.send({"type": "chat", "table_id": table.id, "text": "👨‍👩‍👧 hi"})
            line = await bob.expect("chat")  # the first line bob gets is the plain one
            assert line["text"] == "👨‍👩‍👧 hi"
