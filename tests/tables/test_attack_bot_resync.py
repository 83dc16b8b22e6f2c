"""A built-in bot keeps the state it holds when a move of its is refused as stale: its
deltas still apply (protocol 2), so it never needs a resync (which cost a full state)."""

from __future__ import annotations

from tablekit import Harness

from cardhall.protocol import messages as p
from cardhall.tables.bots import BotConnection
from cardhall.tables.messages import ClientRequest


async def test_a_stale_move_does_not_make_a_bot_resync(h: Harness) -> None:
    table = await h.manager.create("toy_duel", num_seats=2, config={"cards_each": 4},
                                   bots={1: "random"}, turn_timeout_seconds=600.0)
    ana = await h.player("ana")
    await h.join(table, ana, seat=0)
    bot = table.seats[1].conn
    assert isinstance(bot, BotConnection)
    posted: list[object] = []
    post = bot._post

    def watch(msg: object) -> None:
        posted.append(msg)
        post(msg)

    bot._post = watch
    for _ in range(6):
        # the bot's move raced another change: the table refuses it as stale
        bot.send(p.Error(code="table.stale_version", message="stale", table_id=table.id,
                         version=table.version))
        st = ana.last("state")
        if st.legal_actions and st.to_act == [0]:
            await h.act(table, ana, {"type": "play", "card": st.view["hand"][0]},
                        action_id=f"m{st.version}")
        await h.advance(table, 1.0)
        if table.status != "playing":
            break
    resyncs = [m for m in posted if isinstance(m, ClientRequest)
               and isinstance(m.msg, p.Resync)]
    assert resyncs == [], f"{len(resyncs)} needless resyncs (each answered by a full state)"
