"""The arena (``docs/tournaments.md``, "Arena"): continuous pairing during a time window.

Pure and synchronous: what the arena decides, as functions of its document and the clock's
reading (``now``, UTC); :mod:`.arenaloop` runs it on the director.

* **The window**: ``starts_at`` to ``ends_at`` (``duration_seconds`` later). A waiting
  entrant is seated while ``now < ends_at`` (and fewer than :data:`MAX_TABLES` were seated);
  no table starts after, running ones finish.
* **Seating** (:func:`arena_groups`): the waiting entrants by provisional points (then seed)
  fill tables of ``sides``, each table's best-placed entrant taking the closest in points
  that it did not just meet; a table that would repeat an entrant's previous table is held
  back while any other table runs (someone else comes free), and seated when none does.
* **Boards** (duplicate): the arena's sequence of ``boards`` seeds is drawn and committed
  when it starts and revealed when it ends; a table plays the first board of the sequence
  none of its entrants has played (all played: the one they played least, the earliest),
  its seats rotated by how many tables played that board before. Every result on a board is
  compared with all the others on the same seat's cards when the arena ends.
* **Points** (:func:`final_points`): a game's points are the matchpoint share of the
  entrant's net, ``mp / (2 (n - 1))`` in 0..1 (``n`` the results compared: the tables of the
  board for duplicate, the sides of its own table otherwise; one result alone scores 0.5),
  or under ``total_points`` the net itself (points or chips). Standings by points, then
  points per game, then seeding.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from ..engine import get_game
from .grouprounds import board_results, draw_boards
from .groups import seat_layout, side_nets
from .scoring import matchpoints
from .spec import TournamentRequest


def sides_of(doc: Mapping[str, Any]) -> int:
    """Entrants per table: the ``table_size`` of single entrants, else two teams."""
    return int(doc.get("table_size") or 2)


def start_arena(doc: dict[str, Any], req: TournamentRequest, new_seed: Callable[[], bytes],
                now: datetime) -> dict[str, Any]:
    """Open the arena's window at ``now`` and its one round: the sequence of ``req.boards``
    boards (seeds drawn and committed now when duplicate), no table yet; returns the round."""
    doc["duration_seconds"] = req.duration_seconds
    doc["starts_at"] = now.isoformat()
    doc["ends_at"] = (now + timedelta(seconds=float(req.duration_seconds or 0))).isoformat()
    doc["boards_per_round"] = req.boards
    rnd = {"round": 1, "status": "playing", "started_at": now.isoformat(), "groups": [],
           "byes": [], "boards": draw_boards(req.boards, req.duplicate, new_seed),
           "tables": [], "scores": {}}
    doc["rounds"] = [rnd]
    return rnd


MAX_TABLES = 1000
"""Most tables an arena seats (its document is saved after every step, so it stays small):
the arena closes early when it has seated them."""


def is_open(doc: Mapping[str, Any], now: datetime) -> bool:
    """Whether a table may still start: ``now`` before ``ends_at`` and fewer than
    :data:`MAX_TABLES` seated."""
    return (now < datetime.fromisoformat(doc["ends_at"])
            and len(doc["rounds"][0]["tables"]) < MAX_TABLES)


def busy(doc: Mapping[str, Any]) -> set[str]:
    """The entrants at a table whose result is not in yet."""
    return {e for t in doc["rounds"][0]["tables"] if t["returns"] is None for e in t["seats"]}


def table_points(doc: Mapping[str, Any], t: Mapping[str, Any]) -> dict[str, float]:
    """A finished table's points by its own sides only (the plain rule of the module
    docstring): what seats the next tables, and the plain arena's standings."""
    sides = sides_of(doc)
    nets = side_nets(t["returns"], sides)
    group = t["seats"][:sides]
    if doc["scoring"] == "total_points":
        return dict(zip(group, nets, strict=True))
    return dict(zip(group, (_share(m, sides) for m in matchpoints(nets)), strict=True))


def _share(mp: float, n: int) -> float:
    """Matchpoints ``mp`` among ``n`` results as a share of the most (0.5 when alone)."""
    return 0.5 if n < 2 else mp / (2 * (n - 1))


def provisional(doc: Mapping[str, Any]) -> dict[str, list[float]]:
    """Each entrant's points per finished table, by :func:`table_points`."""
    out: dict[str, list[float]] = {e["id"]: [] for e in doc["entrants"]}
    for t in doc["rounds"][0]["tables"]:
        if t["returns"] is not None:
            for e, p in table_points(doc, t).items():
                out[e].append(p)
    return out


def arena_groups(waiting: Sequence[str], points: Mapping[str, float],
                 last: Mapping[str, frozenset[str]], size: int, others_running: bool) -> list[list[str]]:
    """The tables to seat now from ``waiting`` (in seeding order), each of ``size``.

    Args:
        points: provisional points (missing: 0).
        last: each entrant's previous table (its entrants).
        others_running: some table is still playing (a rematch may wait for it).

    Returns:
        Groups, best placed first; fewer than ``size`` left over wait (see the module
        docstring for the order and the rematch rule).
    """
    order = {e: i for i, e in enumerate(waiting)}
    left = sorted(waiting, key=lambda e: (-points.get(e, 0.0), order[e]))
    out: list[list[str]] = []
    while len(left) >= size:
        head = left.pop(0)
        group = [head]
        while len(group) < size:
            best = min(left, key=lambda c: (_rematches([*group, c], last),
                                            abs(points.get(c, 0.0) - points.get(head, 0.0)),
                                            order[c]))
            left.remove(best)
            group.append(best)
        if _rematches(group, last) and others_running:
            continue  # held back: they wait for another table to finish
        out.append(group)
    return out


def _rematches(group: Sequence[str], last: Mapping[str, frozenset[str]]) -> int:
    return sum(1 for a in group for b in group if a < b and b in last.get(a, frozenset()))


def next_board(doc: Mapping[str, Any], group: Sequence[str]) -> int | None:
    """The board a new table of ``group`` plays (module docstring), ``None`` when not
    duplicate (the table draws its own seed)."""
    if not doc["duplicate"]:
        return None
    tables = doc["rounds"][0]["tables"]
    plays = {b["board"]: sum(1 for t in tables if t["board"] == b["board"]
                             for e in set(t["seats"]) if e in group)
             for b in doc["rounds"][0]["boards"]}
    return min(plays, key=lambda b: (plays[b], b))


def seat_waiting(doc: dict[str, Any], now: datetime) -> list[dict[str, Any]]:
    """Seat the waiting entrants while the window is open: appends each new table (status
    ``pending``) and its group to the arena's round and returns the new tables."""
    if not is_open(doc, now):
        return []
    rnd = doc["rounds"][0]
    taken = busy(doc)
    waiting = [e["id"] for e in doc["entrants"]
               if e["id"] not in taken and not e.get("withdrawn")]
    last: dict[str, frozenset[str]] = {}
    for t in rnd["tables"]:
        for e in t["seats"]:
            last[e] = frozenset(t["seats"]) - {e}
    points = {e: sum(p) for e, p in provisional(doc).items()}
    num_seats = doc.get("table_size") or get_game(doc["game"]).max_seats
    new = []
    room = MAX_TABLES - len(rnd["tables"])
    for group in arena_groups(waiting, points, last, sides_of(doc), bool(taken))[:room]:
        board = next_board(doc, group)
        rotation = sum(1 for t in rnd["tables"] if board is not None and t["board"] == board)
        rnd["groups"].append(group)
        new.append({"board": board, "group": len(rnd["groups"]) - 1,
                    "seats": seat_layout(group, rotation, num_seats), "table_id": None,
                    "game_id": None, "status": "pending", "returns": None,
                    "seated_at": now.isoformat()})
        rnd["tables"].append(new[-1])
    return new


def final_points(doc: dict[str, Any]) -> dict[str, list[float]]:
    """Each entrant's points per game once the arena is over (module docstring); a duplicate
    arena also keeps the round's ``results`` (each board's seats side by side, each result
    with its ``points``)."""
    rnd = doc["rounds"][0]
    if not doc["duplicate"]:
        return provisional(doc)
    _, rnd["results"] = board_results(rnd["boards"], rnd["tables"], sides_of(doc),
                                      doc["scoring"])
    out: dict[str, list[float]] = {e["id"]: [] for e in doc["entrants"]}
    for result in rnd["results"]:
        n = len(result["held"])
        for held in result["held"]:
            held["points"] = held["net"] if doc["scoring"] == "total_points" else _share(
                held["score"], n)
            out[held["entrant"]].append(held["points"])
    return out


def arena_standings(doc: Mapping[str, Any], points: Mapping[str, list[float]]) -> list[dict[str, Any]]:
    """Rows ``{"rank", "entrant", "score", "games", "per_game"}``: by points, then points per
    game, then seeding."""
    order = [e["id"] for e in doc["entrants"]]
    rows = [{"entrant": e, "score": sum(points.get(e, [])), "games": len(points.get(e, [])),
             "per_game": sum(points.get(e, [])) / len(points[e]) if points.get(e) else 0.0}
            for e in order]
    rows.sort(key=lambda r: (-r["score"], -r["per_game"], order.index(r["entrant"])))
    return [{"rank": i, **r} for i, r in enumerate(rows, 1)]


def finish_arena(doc: dict[str, Any]) -> None:
    """Score the arena (every table has its result): final points, the round's ``scores``,
    the standings; the round and the tournament ``finished`` (the seeds then show)."""
    points = final_points(doc)
    rnd = doc["rounds"][0]
    rnd["scores"] = {e: sum(p) for e, p in points.items()}
    rnd["status"] = "finished"
    doc["standings"] = arena_standings(doc, points)
    doc["status"] = "finished"
