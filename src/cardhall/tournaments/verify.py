"""Checking that every table of a duplicate board got the same cards (``docs/tournaments.md``,
"Checking the deals").

Pure and synchronous: given a tournament document and the stored full copies of its finished
rounds' games, :func:`check_tournament` answers, per board, whether the revealed seed matches
the commitment published before the round, whether every table's game was dealt from that
seed with no client seed and the same dealer, whether their deals are equal (the chance actions
before any seat acts: a Blot deal; a poker hand's banners and palaces, or its hands), and whether
each game verifies on its own (``engine.verify_history``: every chance action recomputed).
The answer carries no card: only booleans, counts and ids.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..engine import EngineError, commitment, verify_history


def opening_deal(history: Mapping[str, Any]) -> list[Any]:
    """The chance actions of ``history`` before any seat's first action: what the board
    deals, the same at every table of a duplicate board."""
    out = []
    for entry in history.get("actions", []):
        if entry.get("seat") is not None:
            break
        out.append(entry.get("action"))
    return out


def check_board(board: Mapping[str, Any], tables: list[Mapping[str, Any]],
                histories: Mapping[str, Mapping[str, Any] | None]) -> dict[str, Any]:
    """The checks of one board of a finished duplicate round (see the module docstring);
    ``problems`` names each failed check with the table it concerns."""
    problems: list[str] = []
    seed = board.get("seed")
    if seed is None or commitment(bytes.fromhex(seed)) != board.get("commitment"):
        problems.append("the revealed seed does not hash to the board's commitment")
    deals = []
    for t in tables:
        history = histories.get(t.get("game_id") or "")
        where = f"table {t.get('table_id')} (game {t.get('game_id')})"
        if history is None:
            problems.append(f"{where}: no stored game")
            continue
        if history.get("seed") != seed or history.get("seed_commitment") != board.get("commitment"):
            problems.append(f"{where}: dealt from another seed than the board's")
        if any(c is not None for c in history.get("client_seeds") or []):
            problems.append(f"{where}: a client seed changed the shuffle seed")
        if history.get("dealer") != 0:
            problems.append(f"{where}: another dealer")
        try:
            if not verify_history(history).verified:
                problems.append(f"{where}: the game does not verify")
        except EngineError as exc:
            problems.append(f"{where}: unreadable history ({exc.code})")
        deals.append(opening_deal(history))
    if deals and any(d != deals[0] for d in deals):
        problems.append("the tables' first deals differ")
    return {"board": board.get("board"), "tables": len(tables), "verified": not problems,
            "problems": problems}


def check_tournament(doc: Mapping[str, Any],
                     histories: Mapping[str, Mapping[str, Any] | None]) -> dict[str, Any]:
    """``{"verified", "duplicate", "rounds": [{"round", "boards": [...]}], "not_checked"}``:
    every board of every finished round of a duplicate tournament (:func:`check_board`);
    rounds still playing are listed in ``not_checked`` (their seeds are not revealed yet). A
    tournament without duplicate deals has nothing to compare (``verified`` ``false``)."""
    rounds, not_checked = [], []
    for rnd in doc.get("rounds", []):
        if rnd.get("status") != "finished":
            not_checked.append(f"round {rnd.get('round')}: still playing (seeds not revealed)")
            continue
        boards = [check_board(b, [t for t in rnd["tables"] if t["board"] == b["board"]],
                              histories) for b in rnd.get("boards", [])]
        rounds.append({"round": rnd.get("round"), "boards": boards})
    checked = [b for r in rounds for b in r["boards"]]
    ok = bool(doc.get("duplicate")) and bool(checked) and all(b["verified"] for b in checked)
    return {"tournament_id": doc.get("id"), "verified": ok, "duplicate": bool(doc.get("duplicate")),
            "rounds": rounds, "not_checked": not_checked}
