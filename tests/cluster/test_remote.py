"""The two ends of a remote socket (``cluster/remote.py``), without Redis: wire ids, the
delivery of frames, the rejoin of a moved table and the forgetting of a dead node's sockets."""

from __future__ import annotations

from typing import Any

import orjson

from cardhall.cluster.keys import Keys
from cardhall.cluster.remote import RESUME_RID, Peers, Sockets, header
from cardhall.protocol import messages as p
from cardhall.storage.interface import PlayerRecord
from cardhall.tables.connections import QueueConnection, encode


class FakeBus:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str]] = []

    def publish(self, channel: str, data: str) -> None:
        self.sent.append((channel, data))


def _socket(name: str = "ana") -> QueueConnection:
    return QueueConnection(PlayerRecord(f"id-{name}", name))


def _queued(conn: QueueConnection) -> list[str]:
    out = []
    while not conn.queue.empty():
        out.append(encode(conn.queue.get_nowait()))
    return out


def test_frames_reach_only_the_socket_of_this_incarnation() -> None:
    now = Sockets(lambda conn, msg: None, "new")
    conn = _socket()
    now.add(conn)
    state = '{"type":"state","table_id":"t1","version":3}'
    # a frame for the socket of the same id of the process that ran before under this name
    now.deliver(f"F\n{conn.id}.old {state}")
    assert _queued(conn) == []
    now.deliver(f"F\n{now.wire_id(conn)} {state}\n{conn.id}.old {state}")
    assert _queued(conn) == [state]


def test_a_moved_table_is_rejoined_by_seat_token_and_the_answer_is_not_forwarded() -> None:
    routed: list[tuple[QueueConnection, Any]] = []
    sockets = Sockets(lambda conn, msg: routed.append((conn, msg)), "inc")
    seat, watcher = _socket("ana"), _socket("bob")
    for conn in (seat, watcher):
        sockets.add(conn)
        conn.observer = sockets.seen
    seat.send(p.Joined(table_id="t1", version=4, role="seat", seat=2, seat_token="tok"))
    sockets.deliver(f"F\n{sockets.wire_id(watcher)} " + p.Joined(
        table_id="t1", version=5, role="spectator", seat=None).model_dump_json())
    assert sockets.rejoin("t1") == 2 and sockets.rejoin("t2") == 0
    joins = {conn.player.name: msg for conn, msg in routed}
    assert joins["ana"].seat_token == "tok" and joins["ana"].seat == 2
    assert joins["bob"].spectate is True
    assert all(m.rid == RESUME_RID for m in joins.values())
    _queued(seat), _queued(watcher)
    # the answers to the rejoins are dropped, local or remote; the state after them is not
    seat.send(p.Joined(table_id="t1", version=1_000_005, role="seat", seat=2,
                       seat_token="tok", resumed=True, rid=RESUME_RID))
    sockets.deliver(f"F\n{sockets.wire_id(watcher)} " + p.Joined(
        table_id="t1", version=1_000_005, role="spectator", seat=None,
        rid=RESUME_RID).model_dump_json())
    assert _queued(seat) == [] and _queued(watcher) == []
    # a socket that left is not rejoined
    seat.send(p.Left(table_id="t1", version=1_000_006))
    routed.clear()
    assert sockets.rejoin("t1") == 1 and routed[0][0] is watcher


def test_the_owner_forgets_a_dead_or_restarted_node_s_sockets() -> None:
    bus = FakeBus()
    peers = Peers(bus, Keys("pfx"))  # type: ignore[arg-type]
    conn = _socket()
    head = orjson.loads(header("b", f"{conn.id}.one", conn))
    old = peers.connection(head)
    assert peers.connection(head) is old  # one object per remote socket
    new = peers.connection({**head, "c": f"{conn.id}.two"})
    assert peers.of_node("b", keep="two") == [old] and old.closed and not new.closed
    assert peers.of_node("b") == [new]
    assert peers.conns == {}
