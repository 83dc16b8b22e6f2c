"""A tournament as one JSON document, and the pure steps that move it on.

Pure and synchronous (no I/O, no asyncio): the director (:mod:`.director`) creates the tables
and feeds their results in; everything decided here is a function of the document.

The document (``docs/tournaments.md``, "The document") holds the request, the entrants, each
round's pairs, boards (the seeds, kept server side until the round is over) and tables (seats,
``table_id``, ``game_id``, the outcome's ``returns``), the round's scores and the standings.
:func:`public` is what the API answers: a board's ``seed`` only once its round is finished.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import datetime
from typing import Any

from ..engine import get_game
from .entry import tables_watchable
from .grouprounds import (
    board_results,
    draw_boards,
    group_meetings,
    plan_group_round,
    score_group_round,
)
from .pairing import knockout_pairs, swiss_pairs
from .scoring import Meeting, standings
from .spec import TournamentRequest

FORMAT = "cardhall-tournament/1"


def new_tournament(tournament_id: str, req: TournamentRequest, created_by: str | None,
                   now: datetime) -> dict[str, Any]:
    """A new tournament's document, status ``running``, with its bot entrants and no round.
    A partnership game's entrant is a team (one bot kind on each of its seats, ``Bot team
    i``), a single-entrant game's one bot (``Bot i``; the document's ``table_size`` says how
    many sit at a table). An arena's window and boards are set by :func:`.arena.start_arena`.

    Raises:
        InvalidConfigError: the board config (:meth:`TournamentRequest.board_config`).
    """
    config = req.board_config()
    kinds = req.bot_kinds
    rules = get_game(req.game)
    per, word = (rules.max_seats // rules.teams, "Bot team ") if rules.teams else (1, "Bot ")
    entrants = [{"id": f"e{i + 1}", "name": f"{word}{i + 1}", "bots": [kinds[i % len(kinds)]] * per}
                for i in range(req.bots)]
    rounds = {"swiss": req.rounds, "arena": 1}.get(req.format, math.ceil(math.log2(max(2, req.bots))))
    extra = {} if rules.teams else {"table_size": req.sides()}
    return extra | {"format": FORMAT, "id": tournament_id, "name": req.name or f"{req.format} {tournament_id}",
            "game": req.game, "kind": req.format, "rounds_total": rounds,
            "boards_per_round": req.boards_per_round, "duplicate": req.duplicate,
            "scoring": req.scoring, "rated": req.rated, "config": config,
            "created_by": created_by,
            "created_at": now.isoformat(), "status": "running", "entrants": entrants,
            "alive": [e["id"] for e in entrants], "rounds": [], "standings": [], "error": None}


def meetings(doc: dict[str, Any]) -> dict[str, list[Meeting]]:
    """Each entrant's finished rounds (:class:`~.scoring.Meeting`)."""
    if doc.get("table_size"):
        return group_meetings(doc)
    out: dict[str, list[Meeting]] = {e["id"]: [] for e in doc["entrants"]}
    for rnd in doc["rounds"]:
        if rnd["status"] != "finished":
            continue
        scores = rnd["scores"]
        for home, away in rnd["pairs"]:
            out[home].append(Meeting(away, scores[home], scores[away]))
            out[away].append(Meeting(home, scores[away], scores[home]))
        if rnd["bye"] is not None:
            out[rnd["bye"]].append(Meeting(None, scores[rnd["bye"]]))
    return out


def plan_round(doc: dict[str, Any], new_seed: Callable[[], bytes]) -> dict[str, Any]:
    """Pair the next round, draw its boards' seeds and lay out its tables; appends the round
    (status ``playing``) to ``doc`` and returns it.

    Swiss pairs by score without repeat opponents (:func:`~.pairing.swiss_pairs`); a knockout
    pairs the entrants still in, in seeding order. A duplicate round draws one seed per board,
    shared by every table of the board; otherwise each table draws its own (``seed`` ``None``).
    Table ``t`` of board ``b`` seats its home entrant on seats 0 and 2 when ``t + b`` is even,
    else on 1 and 3: so each entrant holds each side of the cards on alternate boards, and each
    board's cards are held by home entrants at half the tables. A document with a
    ``table_size`` is grouped at tables of N (:func:`.grouprounds.plan_group_round`).
    """
    if doc.get("table_size"):
        return plan_group_round(doc, new_seed)
    played = {frozenset((h, a)) for r in doc["rounds"] for h, a in r["pairs"]}
    byes = {r["bye"] for r in doc["rounds"] if r["bye"] is not None}
    totals = {e: sum(m.score for m in ms) for e, ms in meetings(doc).items()}
    if doc["kind"] == "swiss":
        pairs, bye = swiss_pairs(doc["alive"], totals, played, byes)
    else:
        pairs, bye = knockout_pairs(doc["alive"])
    boards = draw_boards(doc["boards_per_round"], doc["duplicate"], new_seed)
    tables = []
    for b in range(doc["boards_per_round"]):
        for t, (home, away) in enumerate(pairs):
            flip = doc["duplicate"] and (t + b) % 2 == 1
            seats = [away, home, away, home] if flip else [home, away, home, away]
            tables.append({"board": b + 1, "pair": t, "seats": seats, "table_id": None,
                           "game_id": None, "status": "pending", "returns": None})
    rnd = {"round": len(doc["rounds"]) + 1, "status": "playing", "pairs": [list(p) for p in pairs],
           "bye": bye, "boards": boards, "tables": tables, "scores": {}}
    doc["rounds"].append(rnd)
    return rnd


def score_round(doc: dict[str, Any], rnd: dict[str, Any]) -> None:
    """Score a round whose tables all have ``returns``, mark it ``finished``, update the
    standings, and (knockout) who goes on; the tournament is ``finished`` after its last round.

    A side's net on a board is its team's return minus the other's; the nets of the sides that
    held the same cards (the same seats of the same board) are compared
    (:func:`~.scoring.board_scores`). The bye scores the average a board gives under
    matchpoints (one fewer than the results compared) and 0 under total points. The round's
    ``results`` list each board's sides side by side (:func:`.grouprounds.board_results`).
    """
    if doc.get("table_size"):
        score_group_round(doc, rnd)
        return _scored(doc, rnd)
    scores: dict[str, float] = {e: 0.0 for pair in rnd["pairs"] for e in pair}
    got, rnd["results"] = board_results(rnd["boards"], rnd["tables"], 2, doc["scoring"])
    for e, s in got.items():
        scores[e] += s
    if rnd["bye"] is not None:
        per_board = max(0, len(rnd["pairs"]) - 1) if doc["scoring"] == "matchpoints" else 0
        scores[rnd["bye"]] = float(per_board * len(rnd["boards"]))
    rnd["scores"] = scores
    _scored(doc, rnd)


def _scored(doc: dict[str, Any], rnd: dict[str, Any]) -> None:
    """Mark a scored round ``finished``; the knockout's winners go on; the standings; the
    tournament ends after its last round."""
    scores = rnd["scores"]
    rnd["status"] = "finished"
    if doc["kind"] == "knockout":
        order = [e["id"] for e in doc["entrants"]]
        winners = [home if scores[home] > scores[away] or (
            scores[home] == scores[away] and order.index(home) < order.index(away)) else away
                   for home, away in rnd["pairs"]]
        doc["alive"] = [e for e in doc["alive"] if e in winners or e == rnd["bye"]]
    doc["standings"] = [s.to_json() for s in
                        standings([e["id"] for e in doc["entrants"]], meetings(doc))]
    if len(doc["rounds"]) >= doc["rounds_total"] or too_few_alive(doc):
        doc["status"] = "finished"


def unscored_tables(doc: dict[str, Any]) -> set[str]:
    """The table ids of ``doc``'s rounds not yet scored (an arena's until it has ended):
    their finished games are withheld from every game route."""
    if doc["status"] not in ("running", "registering"):
        return set()
    return {t["table_id"] for r in doc["rounds"] if r["status"] != "finished"
            for t in r["tables"] if t["table_id"]}
def too_few_alive(doc: dict[str, Any]) -> bool:
    """Whether the entrants still in (``alive``) cannot fill one table (two sides, or
    ``table_size``): no round can be paired, so the tournament is over. Withdrawals may land
    after a round was scored, so the director asks again before it pairs the next."""
    return len(doc["alive"]) < int(doc.get("table_size") or 2)


def public(doc: dict[str, Any]) -> dict[str, Any]:
    """The document as the API answers it: until its round is finished, every board's
    ``seed`` is withheld (``None``; its ``commitment`` is there from the start of the round),
    and so are a finished table's ``game_id`` and ``returns`` (``None``, ``status``
    ``finished`` kept): another table may still be playing the same board, and the points a
    board gave tell how its cards lie. A ``pending`` table's ``table_id`` (chosen and stored
    before the table is made, :func:`unscored_tables`) is ``None`` until the table exists.
    """
    out = {**doc, "rounds": []}
    out.pop("request", None)
    out["tables_watchable"] = tables_watchable(doc)
    gone = {e["id"] for e in doc["entrants"] if e.get("withdrawn")}
    out["standings"] = [{**s, "withdrawn": True} if s.get("entrant") in gone else s
                        for s in doc["standings"]]
    for rnd in doc["rounds"]:
        shown = rnd["status"] == "finished"
        out["rounds"].append({
            **rnd,
            "boards": [{**b, "seed": b["seed"] if shown else None} for b in rnd["boards"]],
            "tables": rnd["tables"] if shown else [
                {**t, "game_id": None, "returns": None,
                 "table_id": None if t["status"] == "pending" else t["table_id"]}
                for t in rnd["tables"]]})
    return out


def summary(doc: dict[str, Any]) -> dict[str, Any]:
    """A tournament's row in ``GET /api/tournaments``."""
    return {k: doc[k] for k in ("id", "name", "game", "kind", "status", "rounds_total",
                                "boards_per_round", "duplicate", "scoring", "created_by",
                                "created_at")} | {k: doc[k] for k in ("table_size", "ends_at")
                                                  if k in doc} | {"entrants": len(doc["entrants"]),
                                                  "rounds_played": sum(
                                                      r["status"] == "finished"
                                                      for r in doc["rounds"])}
