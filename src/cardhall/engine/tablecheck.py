"""What can be checked of a *table copy* (``docs/fairness.md`` section 7), which has no seed
and no face-down card, so it cannot recompute a deal: :func:`check_table_copy`.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from .cardcodes import HIDDEN
from .errors import InvalidHistoryError
from .history import History
from .registry import get_game
from .shuffle import LEGACY_SHUFFLE
from .tablecopy import is_table_copy
from .verify import Mismatch, Verification

TABLE_CHECKS = (
    "structure: a cardhall-history/1 table copy of a registered game, without the seed",
    "commitment: seed_commitment is 64 lower-case hex digits (compare it with game_started)",
    "client_seeds: one string or null per seat",
    "public cards: every card in a card list is a card of the game or the face-down ??, and "
    "no face-up card is dealt twice by one chance action (a rejected banner excepted)",
)
NOT_CHECKED = (
    "commitment: SHA-256 of the seed is the seed_commitment (the seed is only in the full copy)",
    "deals: recomputing the chance actions (needs the seed, in the full copy; "
    "GET /api/games/{id}/verify does it on the server)",
    "replay: the actions under the rules and the outcome (needs the face-down cards)",
)
_HEX64 = re.compile(r"[0-9a-f]{64}")
_REPEATABLE = frozenset(("rejected",))
"""Chance-action fields that may turn a card twice: a Palace Poker banner deal's rejects
(rule 5: the reject pile is reshuffled when the deck runs out)."""


def check_table_copy(doc: Any) -> Verification:
    """Check the table copy ``doc`` as far as it can be (``checked``: :data:`TABLE_CHECKS`;
    ``not_checked``: :data:`NOT_CHECKED`, so ``verified`` is always false). A failed check is a
    :class:`~.verify.Mismatch` (``index``: the entry of ``actions``, or ``None``).

    Raises:
        InvalidHistoryError: ``doc`` is not a history or not a table copy; UnknownGameError:
            its game is not registered.
    """
    if not is_table_copy(doc):
        raise InvalidHistoryError("not a table copy (no \"copy\": \"table\")")
    history = History.from_json(doc)
    codes = get_game(history.game).card_codes
    out = Verification(str(doc.get("shuffle", LEGACY_SHUFFLE)), copy="table",
                       checked=list(TABLE_CHECKS), not_checked=list(NOT_CHECKED))
    if "seed" in doc:
        out.mismatches.append(Mismatch(None, "a table copy must not carry the seed"))
    if not isinstance(doc.get("seed_commitment"), str) or not _HEX64.fullmatch(
            doc["seed_commitment"]):
        out.mismatches.append(Mismatch(None, f"seed_commitment {doc.get('seed_commitment')!r} "
                                             "is not 64 lower-case hex digits"))
    clients = doc.get("client_seeds", [None] * len(history.seats))
    if (not isinstance(clients, list) or len(clients) != len(history.seats)
            or any(c is not None and not isinstance(c, str) for c in clients)):
        out.mismatches.append(Mismatch(None, f"client_seeds {clients!r} is not one string or "
                                             f"null per seat ({len(history.seats)})"))
    for i, entry in enumerate(history.actions):
        reason = _card_problem(entry.action, codes, chance=entry.seat is None)
        if reason:
            out.mismatches.append(Mismatch(i, reason))
    return out


def _card_problem(action: dict[str, Any], codes: frozenset[str], *, chance: bool) -> str | None:
    """Why the card lists of one action are wrong, or ``None``."""
    seen: Counter[str] = Counter()
    for key, value in action.items():
        cards = list(_listed(value))
        unknown = sorted({c for c in cards if c != HIDDEN and c not in codes})
        if unknown:
            return f"{key!r} lists {unknown[:3]}: not cards of this game"
        if chance and key not in _REPEATABLE:
            seen.update(c for c in cards if c != HIDDEN)
    twice = sorted(c for c, n in seen.items() if n > 1)
    return f"cards dealt twice by one chance action: {twice[:3]}" if twice else None


def _listed(value: Any, inside: bool = False) -> list[str]:
    """The strings inside lists of ``value`` (a card list, or lists of them)."""
    if isinstance(value, str):
        return [value] if inside else []
    if isinstance(value, list):
        return [s for v in value for s in _listed(v, True)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _listed(v, inside)]
    return []
