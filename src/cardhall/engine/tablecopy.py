"""The two copies of a finished history: the *full copy* and the *table copy*
(``docs/fairness.md`` section 7, ``docs/design.md`` section 4).

The **full copy** is the ``cardhall-history/1`` document the table writes and the database
stores: every action with every card, the revealed ``seed`` and ``client_seeds``. The **table
copy** is what the table saw by the end of the game: the same document with every card that
stayed face down to the table (never in a public event, never in the spectator's view at any
step) replaced by :data:`HIDDEN`, without ``seed``, and marked ``"copy": "table"``. It keeps
``seed_commitment``, ``client_seeds``, ``shuffle``, the outcome and every action (their card
lists keep their lengths, so counts stay public: a Soldier's Bluff exchange of two cards is
``{"type": "exchange", "cards": ["??", "??"]}``).

Which cards were public is each game's rule (a card's *place* too: a Palace Poker reject is
face up, but where it went in the palace deal is not), so each game says it in
``GameRules.table_actions``, reading the history's own public events (``showdown.hands``,
``hand_end.shown``, a public ``battle_reveal``, ``soldier``, Blot's ``played``). On top of it
the engine hides every card that no public event and no spectator view (``view(None)``) ever
showed, whatever the game's function says: the table copy can never show more than the live
fan-out showed a spectator. ``GameRules.card_codes`` names the strings that are cards
(``design.md`` section 3); any other string of the document is left as it is.
"""

from __future__ import annotations

from typing import Any

from .actions import copy_json
from .cardcodes import HIDDEN, redact
from .events import filter_events
from .history import History, apply_logged, start_state
from .inspect import strings_in
from .registry import get_game

TABLE_COPY = "table"
"""The ``copy`` field of a table copy. A document without ``copy`` (or ``"full"``) is a full
copy."""


def is_table_copy(doc: Any) -> bool:
    """Whether ``doc`` (a history document) is a table copy (``"copy": "table"``)."""
    return isinstance(doc, dict) and doc.get("copy") == TABLE_COPY


def public_steps(history: History) -> tuple[list[list[dict[str, Any]]], set[str]]:
    """Replay the full copy ``history``: the public events of each entry of ``actions`` (JSON,
    what a spectator was sent), and every card code that a public event or the spectator's
    view (``view(None)``) showed at some step.

    Raises:
        UnknownGameError, InvalidConfigError: as :func:`~.history.start_state`;
        EngineError: an action of ``history`` is rejected (a full copy the game cannot replay).
    """
    rules, state = start_state(history)
    codes = rules.card_codes
    seen = {s for s in strings_in(state.public_view()) if s in codes}
    steps: list[list[dict[str, Any]]] = []
    for entry in history.actions:
        events = filter_events(apply_logged(state, entry.seat, entry.action), None)
        steps.append(events)
        seen.update(s for s in strings_in(events) if s in codes)
        seen.update(s for s in strings_in(state.public_view()) if s in codes)
    return steps, seen


def table_copy(doc: dict[str, Any]) -> dict[str, Any]:
    """The table copy of the full copy ``doc`` (module docstring): a fresh document, the same
    keys in the same order (``seed`` dropped, ``copy: "table"`` added), every action kept with
    the cards the table never saw replaced by :data:`HIDDEN`. A table copy is returned as a
    copy of itself.

    Raises:
        InvalidHistoryError: ``doc`` is not a history; UnknownGameError, InvalidConfigError,
            EngineError: as :func:`public_steps`.
    """
    if is_table_copy(doc):
        same: dict[str, Any] = copy_json(doc)
        return same
    history = History.from_json(doc)
    rules = get_game(history.game)
    steps, seen = public_steps(history)
    codes = rules.card_codes
    actions = rules.table_actions(history, steps)
    ever_public = seen.__contains__
    out: dict[str, Any] = {}
    for key, value in doc.items():
        if key == "seed":
            continue
        if key == "actions":
            value = [{**entry.to_json(), "action": redact(action, ever_public, codes)}
                     for entry, action in zip(history.actions, actions, strict=True)]
        elif key not in _HEADER:
            value = redact(value, ever_public, codes)
        out[key] = value
    out["copy"] = TABLE_COPY
    fresh: dict[str, Any] = copy_json(out)
    return fresh


_HEADER = frozenset(("format", "game", "config", "seats", "dealer", "stacks"))


def hidden_count(doc: dict[str, Any]) -> int:
    """How many card places of a table copy's ``actions`` hold :data:`HIDDEN`."""
    return sum(1 for s in strings_in(doc.get("actions") or []) if s == HIDDEN)
