"""Rounds at tables of N single entrants, and the per-board results of every round
(``docs/tournaments.md``, "Tables of N" and "Per-board results").

Pure and synchronous, like :mod:`.rounds` (which calls in here when the document has a
``table_size``): a round's ``groups`` (tables of ``table_size`` entrants, :func:`.groups.swiss_groups`)
and ``byes`` replace a two-sided round's ``pairs`` and ``bye``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from ..engine import commitment
from .groups import meetings_of, seat_layout, side_nets, swiss_groups
from .scoring import Meeting, Scoring, board_scores


def draw_boards(count: int, duplicate: bool, new_seed: Callable[[], bytes],
                first: int = 1) -> list[dict[str, Any]]:
    """``count`` boards numbered from ``first``: each with its own seed and its commitment
    (``sha256(seed)``) when ``duplicate``, else both ``None`` (each table draws its own)."""
    boards = []
    for b in range(count):
        seed = new_seed() if duplicate else None
        boards.append({"board": first + b, "seed": None if seed is None else seed.hex(),
                       "commitment": None if seed is None else commitment(seed)})
    return boards


def group_meetings(doc: dict[str, Any]) -> dict[str, list[Meeting]]:
    """Each entrant's finished rounds at tables of N: one :class:`~.scoring.Meeting` a round,
    every other entrant of its table an opponent (``also``), or the bye."""
    out: dict[str, list[Meeting]] = {e["id"]: [] for e in doc["entrants"]}
    for rnd in doc["rounds"]:
        if rnd["status"] != "finished":
            continue
        scores = rnd["scores"]
        for group in rnd["groups"]:
            for e in group:
                others = [(o, scores[o]) for o in group if o != e]
                out[e].append(Meeting(others[0][0], scores[e], others[0][1], tuple(others[1:])))
        for e in rnd["byes"]:
            out[e].append(Meeting(None, scores[e]))
    return out


def plan_group_round(doc: dict[str, Any], new_seed: Callable[[], bytes]) -> dict[str, Any]:
    """Group the next Swiss round at tables of ``doc["table_size"]``, draw its boards and lay
    out its tables; appends the round (``playing``) and returns it.

    Table ``t`` of board ``b`` (from 0) seats its group rotated by ``t + b``
    (:func:`.groups.seat_layout`): with ``table_size`` boards each entrant holds each seat's
    cards once, and a board's seat is held by different group places at different tables.
    """
    met = meetings_of(g for r in doc["rounds"] for g in r["groups"])
    byes = Counter(e for r in doc["rounds"] for e in r["byes"])
    totals = {e: sum(m.score for m in ms) for e, ms in group_meetings(doc).items()}
    groups, out = swiss_groups(doc["alive"], totals, met, byes, doc["table_size"])
    tables = []
    for b in range(doc["boards_per_round"]):
        for t, group in enumerate(groups):
            rot = (t + b) if doc["duplicate"] else 0
            tables.append({"board": b + 1, "group": t,
                           "seats": seat_layout(group, rot, doc["table_size"]),
                           "table_id": None, "game_id": None, "status": "pending",
                           "returns": None})
    rnd = {"round": len(doc["rounds"]) + 1, "status": "playing", "groups": groups, "byes": out,
           "boards": draw_boards(doc["boards_per_round"], doc["duplicate"], new_seed),
           "tables": tables, "scores": {}}
    doc["rounds"].append(rnd)
    return rnd


def board_results(boards: Sequence[dict[str, Any]], tables: Sequence[dict[str, Any]],
                  sides: int, scoring: Scoring) -> tuple[dict[str, float], list[dict[str, Any]]]:
    """Score every board of ``boards`` from its tables' ``returns``.

    For each board and side (the cards of seat ``s``; a team's seats ``s`` and ``s + 2``),
    the nets (:func:`.groups.side_nets`) of the entrants that held that side at the board's
    tables are compared (:func:`~.scoring.board_scores`).

    Returns:
        ``(scores, results)``: each entrant's sum over its boards, and per board and side
        ``{"board", "side", "held": [{"entrant", "table_id", "game_id", "net", "score"}]}``,
        the results with the same cards side by side.
    """
    scores: dict[str, float] = {}
    results = []
    for board in boards:
        played = [t for t in tables if t["board"] == board["board"] and t["returns"] is not None]
        for side in range(sides):
            nets = [side_nets(t["returns"], sides)[side] for t in played]
            held = []
            for t, net, s in zip(played, nets, board_scores(nets, scoring), strict=True):
                entrant = t["seats"][side]
                scores[entrant] = scores.get(entrant, 0.0) + s
                held.append({"entrant": entrant, "table_id": t["table_id"],
                             "game_id": t["game_id"], "net": net, "score": s})
            results.append({"board": board["board"], "side": side, "held": held})
    return scores, results


def score_group_round(doc: dict[str, Any], rnd: dict[str, Any]) -> None:
    """Score a round at tables of N whose tables all have ``returns`` (:func:`board_results`):
    its ``scores`` and ``results``; a bye scores the average a board gives under matchpoints
    (one fewer than the tables, per board) and 0 under total points."""
    scores, rnd["results"] = board_results(rnd["boards"], rnd["tables"], doc["table_size"],
                                           doc["scoring"])
    per_board = max(0, len(rnd["groups"]) - 1) if doc["scoring"] == "matchpoints" else 0
    for e in rnd["byes"]:
        scores[e] = float(per_board * len(rnd["boards"]))
    rnd["scores"] = {e: scores.get(e, 0.0) for g in rnd["groups"] for e in g} | {
        e: scores[e] for e in rnd["byes"]}
