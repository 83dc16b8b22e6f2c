"""The running game's log for a seat that resumes it (``hand_log``, ``docs/protocol.md``).

A page that comes back to its seat mid-game (a reload, the Back button, another device, or
taking the seat back from a stand-in) missed the steps it was not connected for, and the
server replays no events on a join. :func:`hand_log` rebuilds them from the game's own
history: it runs the logged actions again from the start (:func:`~cardhall.engine.history.
start_state`, the same replay the stored game answers) and keeps, per step, exactly the events
that seat may see (``Event.visible_to`` of its game seat), grouped as the live ``state`` frames
grouped them (an action with the chance actions that followed it). So the rebuilt log shows
nothing that the seat's live frames would not have shown.
"""

from __future__ import annotations

from typing import Any

from ..engine import EngineError
from ..engine.history import apply_logged, start_state
from ..protocol import messages as p
from .state import TableState

MAX_STEPS = 400
"""Steps a ``hand_log`` carries at most (the latest; a page keeps 200 log lines)."""


def _steps(table: TableState, gs: int) -> tuple[list[dict[str, Any]], list[int]]:
    """The steps of the running game for game seat ``gs`` and, per step, the index of the
    action that began it (the first step, the game's start, begins at 0)."""
    assert table.recorder is not None
    history = table.recorder.history
    dealer = table.seat_map[history.dealer] if table.seat_map else None
    started = {"kind": "game_started", "game_id": table.game_id, "hand": table.hand,
               "seat_map": list(table.seat_map), "dealer": dealer,
               "seed_commitment": table.seed_commitment}
    steps: list[dict[str, Any]] = [{"events": [started], "actor": None, "timeout": False}]
    starts = [0]
    _, state = start_state(history)
    for i, entry in enumerate(history.actions):
        events = apply_logged(state, entry.seat, entry.action)
        if entry.seat is not None:
            steps.append({"events": [], "actor": table.table_seat(entry.seat),
                          "timeout": entry.timeout})
            starts.append(i)
        steps[-1]["events"].extend(e.to_json() for e in events if e.visible_to(gs))
    return steps, starts


def hand_log(table: TableState, index: int, stand_in_from: int | None = None) -> p.HandLog | None:
    """The ``hand_log`` of the running game for table seat ``index``, or ``None`` (no game
    running, or the seat is not dealt into it). ``stand_in_from``: the action index from
    which a stand-in played the seat until now (it was just taken back), else ``None``."""
    gs = table.game_seat(index)
    if table.status != "playing" or table.recorder is None or gs is None:
        return None
    try:
        steps, starts = _steps(table, gs)
    except EngineError:  # the table's own history always replays; never fail a resume on it
        return None
    stood = None
    if stand_in_from is not None:
        stood = next((k for k, a in enumerate(starts) if k > 0 and a >= stand_in_from),
                     len(steps))
    truncated = len(steps) > MAX_STEPS
    if truncated:  # the game's start (its game_started event alone), then the latest steps
        first = len(steps) - (MAX_STEPS - 1)
        head = {"events": steps[0]["events"][:1], "actor": None, "timeout": False}
        steps = [head, *steps[first:]]
        if stood is not None:
            stood = max(1, stood - first + 1)
    return p.HandLog(table_id=table.id, version=table.version, game_id=table.game_id or "",
                     hand=table.hand, seat=index, steps=[p.LogStep(**s) for s in steps],
                     truncated=truncated, stand_in_from=stood)
