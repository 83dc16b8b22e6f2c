"""Stand-in bots: a built-in bot plays a seat whose holder is gone until the game ends.

A part of the table core (``table.stand_ins``); runs only inside the table's task.
:meth:`StandIns.stand_in` is the one mechanism: the admin's kick and ban use it today, and a player leaving mid-game can
use it the same way (``docs/operations.md``, "Stand-in bots"). The seat's holder is detached
(its connection is no longer the seat's), the seat is marked ``leaving`` (freed when the running
game ends, as a leave is) and ``stand_in`` (the reason, shown as ``SeatPublic.stand_in``), and a
:class:`~.bots.BotConnection` with the :data:`STAND_IN_POLICY` policy takes its connection: it
gets the seat's state and moves like any bot, so the seat no longer times out move after move.

The stand-in is durable: the seat's ``stand_in`` and ``stand_in_from`` are in every snapshot
and :mod:`.restore` seats a stand-in bot again. The finished history lists the stand-ins
(``stand_ins``: ``[{"seat": game seat, "from_action": index into actions, "reason": ...}]``);
the moves themselves are ordinary actions of the log.
"""

from __future__ import annotations

import logging
from typing import Any

from ..bots import get_policy
from ..storage.interface import PlayerRecord
from .bots import BotConnection
from .fanout import Fanout
from .seats import Seat
from .state import STAND_IN_RETURNABLE, TableState

log = logging.getLogger(__name__)

STAND_IN_POLICY = "rule"
"""The built-in policy (``bots/``) a stand-in plays with."""
RETURNABLE = STAND_IN_RETURNABLE
"""Stand-in reasons whose holder may take the seat back by resuming it (a player who left
mid-game, or timed out :data:`TIMEOUTS_FOR_STAND_IN` times in a row, or once while
disconnected); a kicked or banned holder may not."""
TIMEOUTS_FOR_STAND_IN = 3
"""Consecutive timeouts of a seat after which a stand-in plays it."""


def stand_in_player(seat: Seat) -> PlayerRecord:
    """The identity a stand-in bot's connection carries: no ``players`` row (its moves are the
    seat's, recorded under the seat's holder), never banned."""
    return PlayerRecord(f"stand-in-{seat.index}", f"stand-in-{seat.index}", is_bot=True)


class StandIns:
    """The stand-ins of one table (see the module docstring; held as ``table.stand_ins``).

    Args:
        t: the table's state.
        fanout: the table's fan-out (a stand-in's seat gets a full state; a detached
            connection is forgotten).
    """

    def __init__(self, t: TableState, fanout: Fanout) -> None:
        self.t = t
        self.fanout = fanout

    def stand_in(self, index: int, reason: str, keep_watching: bool = False) -> bool:
        """Let a stand-in bot play seat ``index`` until the running game ends (then the seat is
        freed) or, for a :data:`RETURNABLE` reason, until its holder resumes it
        (:meth:`take_back`), detaching its holder's connection (the caller tells the holder
        why; with ``keep_watching`` that connection watches the table instead). Returns
        ``False`` (and changes nothing) when no game is running with that seat in it, or a
        stand-in already plays it. Bumps the version and sends every state."""
        seat = self.t.seats[index]
        if self.t.status != "playing" or not self.t.in_hand(index) or seat.stand_in is not None:
            return False
        old = seat.conn
        if isinstance(old, BotConnection):  # a built-in bot's own connection stops for good
            old.close()
        if old is not None:
            self.fanout.forget(old)
            if keep_watching and not isinstance(old, BotConnection):
                self.t.spectators[old.id] = old
        seat.stand_in = reason
        seat.stand_in_from = len(self.t.recorder.history.actions) if self.t.recorder else 0
        seat.leaving = reason != "timeouts"  # a timed-out holder keeps the seat across games
        seat.bot_kind = None  # not the table's own bot seat any more (freed at the game's end)
        self.attach_stand_in(seat)
        self.t.version += 1
        log.info("table %s: a stand-in plays seat %d (%s) until the game ends", self.t.id, index,
                 reason)
        self.fanout.broadcast()  # the stand-in holds nothing yet: it gets a full state
        return True

    def take_back(self, seat: Seat) -> None:
        """The holder of a :data:`RETURNABLE` stand-in seat is back: the stand-in stops (its
        period stays in the game's ``stand_ins``) and the seat is the holder's again (the
        caller attaches the holder's connection)."""
        bot = seat.conn
        if isinstance(bot, BotConnection):
            bot.close()
            self.fanout.forget(bot)
        gs = self.t.game_seat(seat.index)
        if gs is not None and seat.stand_in is not None:
            self.t.stand_ins_done.append({
                "seat": gs, "from_action": seat.stand_in_from, "reason": seat.stand_in,
                "to_action": len(self.t.recorder.history.actions) if self.t.recorder else 0})
        seat.stand_in = seat.stand_in_from = None
        seat.leaving = False
        seat.timeouts = 0
        seat.conn = None
        log.info("table %s: seat %d is its holder's again", self.t.id, seat.index)

    def count_timeout(self, index: int | None) -> None:
        """The timer moved for table seat ``index``: after ``spec.stand_in_after_timeouts``
        (default :data:`TIMEOUTS_FOR_STAND_IN`) in a row a stand-in plays a person's seat (its
        connection, if any, watches meanwhile); a seat whose holder has no connection at
        that moment gets its stand-in at the first timeout (nobody waits out the clock at
        each of an absent player's turns). Either way the holder takes the seat back by
        resuming it (:data:`RETURNABLE`)."""
        if index is None:
            return
        seat = self.t.seats[index]
        seat.timeouts += 1
        most = self.t.spec.stand_in_after_timeouts
        if most and (seat.conn is None or seat.conn.closed):
            most = 1  # nobody is there to answer the next clock either
        if (most and seat.timeouts >= most and seat.bot_kind is None
                and seat.stand_in is None):
            self.stand_in(index, "timeouts", keep_watching=True)

    def attach_stand_in(self, seat: Seat) -> BotConnection:
        """Give ``seat`` (already marked ``stand_in``) its stand-in bot connection (used by
        :meth:`stand_in` and by a restore); returns it."""
        try:
            policy = get_policy(self.t.rules.name, STAND_IN_POLICY, self.t.config)
        except ValueError:  # a game without a rule bot: the random one still plays legally
            policy = get_policy(self.t.rules.name, "random", self.t.config)
        bot = BotConnection(stand_in_player(seat), policy, self.t.clock,
                            self.t.spec.bot_delay_seconds, self.t.post)
        bot.tables.add(self.t.id)
        seat.conn = bot
        return bot

    def periods(self) -> list[dict[str, Any]]:
        """The running game's stand-ins, for its finished history (see the module
        docstring), in game-seat order: the periods that ended when the holder came back
        (with ``to_action``) and those still running; the ended ones are forgotten here (the
        next game starts with none)."""
        out, self.t.stand_ins_done = list(self.t.stand_ins_done), []
        for s in self.t.seats:
            gs = self.t.game_seat(s.index)
            if s.stand_in is not None and gs is not None:
                out.append({"seat": gs, "from_action": s.stand_in_from, "reason": s.stand_in})
        return sorted(out, key=lambda d: d["seat"])
