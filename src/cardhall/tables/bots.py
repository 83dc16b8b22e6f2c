"""Built-in bots at a table: a :class:`~.connections.Connection` driven by a policy.

A bot holds its seat exactly like a person: it is a player identity (``is_bot``) attached to
the seat through the same join path, it receives exactly the messages a socket would (its
``state``: its view and its legal actions), and it answers with the same ``act`` request posted
to the table's inbox, carrying the version it saw and a fresh ``action_id``. It never sees the
game state. Its thinking delay runs on the injected clock (one armed handle per bot).

A bot is asked on its seat's turn (the first of ``to_act``), as the SDK and the evaluation
harness ask theirs. Out of turn (Bazaar Blot's contra window: the seat is in ``to_act``
behind the turn seat, and acting is optional) only a policy with an
``acts_out_of_turn(view, legal_actions) -> bool`` method is asked, and only when that says
so: the rule bot when it has a reason to contra (``bots/bazaar_blot.py``). Before, every
built-in bot answered every window, and since its only legal action there is ``contra``, a
bot that had just passed called contra on the next bid whatever its hand.
"""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Callable
from typing import Any

from ..bots import Policy
from ..protocol import messages as p
from ..protocol.frames import Frame, StateGapError, apply_state
from ..storage.interface import PlayerRecord
from .clock import Clock, Handle
from .connections import Outgoing
from .messages import ClientRequest

_ids = itertools.count(1)

BOT_NAMES = ("Ada", "Boris", "Cleo", "Dara", "Emil", "Faye", "Gor", "Hana")
"""The display names of built-in bots, one per seat (seat 0 is ``Ada``, seat 8 ``Ada 2``)."""


def bot_name(seat: int) -> str:
    """The display name of the built-in bot at table seat ``seat`` (``seat >= 0``):
    :data:`BOT_NAMES` by seat, with a number from the ninth seat on (``Boris 2`` at seat 9).
    Only the name: the bot's player id stays its kind's shared identity (``rule-bot``), and
    the seat's ``bot_level`` (``random``/``rule``) tells the kind."""
    name = BOT_NAMES[seat % len(BOT_NAMES)]
    lap = seat // len(BOT_NAMES)
    return name if lap == 0 else f"{name} {lap + 1}"


class BotConnection:
    """A seat's bot. ``post`` is the table's :meth:`~.actor.Table.post`.

    Args:
        player: the bot's identity.
        policy: its decision function (sees only the view and the legal actions).
        clock: the injected clock for the thinking delay.
        delay_seconds: thinking time before each move.
        post: where its ``act`` requests go.
    """

    def __init__(self, player: PlayerRecord, policy: Policy, clock: Clock, delay_seconds: float,
                 post: Callable[[Any], None]) -> None:
        self.id = f"b{next(_ids)}"
        self.player = player
        self.policy = policy
        self.clock = clock
        self.delay_seconds = delay_seconds
        self._post = post
        self._rng = random.Random(secrets.randbits(64))
        self._pending: Handle | None = None
        self._pending_state: dict[str, Any] | None = None
        self._state: dict[str, Any] | None = None
        """The full state it holds (protocol 2 deltas are applied to it)."""
        self._moves = itertools.count(1)
        self.closed = False
        self.tables: set[str] = set()
        self.errors: list[p.Error] = []

    def send(self, msg: Outgoing) -> None:
        if self.closed:
            return
        if isinstance(msg, Frame):
            if msg.type == "state":
                self._on_frame(msg.data)  # decoded exactly as a socket client would
            return
        if isinstance(msg, p.Error):
            # a stale move: the state that overtook it was already sent and re-planned; the
            # state held stays valid (a missed frame would show as a gap on the next delta)
            self.errors = [*self.errors[-9:], msg]
        elif isinstance(msg, p.TableClosed):
            self.close()

    def close(self) -> None:
        self.closed = True
        if self._pending is not None:
            self._pending.cancel()
            self._pending = self._pending_state = None

    def _on_frame(self, frame: dict[str, Any]) -> None:
        """Apply a ``state`` frame as a client would (a delta on a base it does not hold means
        a frame was lost: ask for a full state)."""
        try:
            state = apply_state(self._state, frame)
        except StateGapError:
            self._state = None
            self._post(ClientRequest(self, p.Resync(type="resync", table_id=frame["table_id"])))
            return
        self._state = state
        self._on_state(state)

    def _on_state(self, state: dict[str, Any]) -> None:
        before = self._pending_state
        if self._pending is not None and before is not None and _same_decision(before, state):
            return  # seats came or went, the decision did not change: keep thinking
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
        if state["legal_actions"] and state["view"] is not None and state["status"] == "playing" \
                and self._asked(state):
            self._pending = self.clock.call_later(self.delay_seconds, self._move, state)
            self._pending_state = state

    def _asked(self, state: dict[str, Any]) -> bool:
        """Whether the policy decides now: on the seat's turn, or out of turn when its
        ``acts_out_of_turn`` wants to (see the module docstring)."""
        if state["to_act"][:1] == [state["seat"]]:
            return True
        wants = getattr(self.policy, "acts_out_of_turn", None)
        return wants is not None and bool(wants(state["view"], list(state["legal_actions"])))

    def _move(self, state: dict[str, Any]) -> None:
        self._pending = self._pending_state = None
        if self.closed or state["view"] is None:
            return
        action = self.policy.choose(state["view"], list(state["legal_actions"]), self._rng)
        act = p.Act(type="act", table_id=state["table_id"], version=state["version"],
                    action_id=f"{self.id}-{next(self._moves)}", action=action)
        self._post(ClientRequest(self, act))


def _same_decision(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """The same game, view and legal actions (the move planned for ``a`` is still valid)."""
    return (a["game_id"] == b["game_id"] and b["status"] == "playing" and a["view"] == b["view"]
            and a["legal_actions"] == b["legal_actions"])
