"""Pure helpers of the load generator (``bench/loadgen.py``): percentiles, latency summaries,
legal entry -> concrete action, and the reading of a ``state`` frame that works for protocol
v1 (full states) and v2 (``"full": false`` deltas), the window counters and the open-loop
choice of which seat acts. No I/O; tested in ``tests/bench``.
"""

from __future__ import annotations

import collections
import math
import random
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cardhall.engine.actions import sample


def percentile(values: list[float], q: float) -> float | None:
    """The ``q``-th percentile (0 < q < 100) of ``values`` (unsorted is fine), linear
    interpolation between closest ranks (``statistics.quantiles``, inclusive method);
    ``None`` for no values, the value itself for one."""
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    cuts = statistics.quantiles(values, n=1000, method="inclusive")
    return cuts[round(q * 10) - 1]


def summarize_ms(seconds: list[float]) -> dict[str, Any]:
    """``{"n", "p50_ms", "p99_ms", "max_ms"}`` of latencies given in seconds (ms rounded to
    0.01; ``None`` figures when there are none)."""
    def ms(v: float | None) -> float | None:
        return None if v is None else round(1000 * v, 2)

    return {"n": len(seconds), "p50_ms": ms(percentile(seconds, 50)),
            "p99_ms": ms(percentile(seconds, 99)), "max_ms": ms(max(seconds, default=None))}


def concrete_action(entry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random concrete action of a legal-action entry (``docs/bots.md`` section 6): each
    ``min_<f>``/``max_<f>`` range becomes a whole number ``<f>`` in range, each ``<f>_from``
    card choice a list of distinct cards of an allowed length; fixed keys are kept. This is
    the engine's own :func:`cardhall.engine.actions.sample`."""
    return sample(entry, rng)


def pick_action(legal_actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random entry of ``legal_actions`` made concrete. Raises ``IndexError`` when empty."""
    return concrete_action(rng.choice(legal_actions), rng)


@dataclass(frozen=True, slots=True)
class StateInfo:
    """What the load generator reads of a ``state`` frame (the same in protocol v1 and v2)."""

    table_id: str
    version: int
    status: str
    legal_actions: list[dict[str, Any]]
    deadline_ms: int | None

    @property
    def offers(self) -> bool:
        """True when the frame asks this seat to decide (playing, legal actions offered)."""
        return self.status == "playing" and bool(self.legal_actions)


def read_state(msg: dict[str, Any]) -> StateInfo | None:
    """The :class:`StateInfo` of a decoded server message, ``None`` if it is not a ``state``.

    Reads only ``type``, ``table_id``, ``version``, ``status``, ``legal_actions`` and
    ``deadline_ms``: fields a v1 full state, a v2 full state and a v2 delta all carry at top
    level, so the same code drives both protocol versions."""
    if msg.get("type") != "state":
        return None
    deadline = msg.get("deadline_ms")
    return StateInfo(str(msg.get("table_id")), int(msg["version"]), str(msg.get("status")),
                     list(msg.get("legal_actions") or []),
                     None if deadline is None else int(deadline))


def rate_per_second(count: int, seconds: float) -> float:
    """``count / seconds`` rounded to 0.1; 0.0 for a non-positive duration."""
    return round(count / seconds, 1) if seconds > 0 and math.isfinite(seconds) else 0.0


class Stats:
    """Counters of the measurement window (``on``); latencies in seconds."""

    def __init__(self) -> None:
        self.on = False
        self.start = self.end = 0.0
        self.latency: list[float] = []
        self.lateness: list[float] = []
        self.frames = self.bytes = self.acts_sent = self.late_ticks = self.game_overs = 0
        self.matches_ended = self.rematches = 0  # --rematch: in the window
        self.errors: collections.Counter[str] = collections.Counter()
        self.closed = 0

    def in_window(self, t: float) -> bool:
        """True if ``t`` (perf_counter seconds) lies in the measurement window."""
        return self.start <= t <= (self.end or float("inf")) and self.start > 0


class Table:
    """One table (or bare room) of four clients and its open-loop schedule state."""

    def __init__(self, table_id: str, rng: random.Random) -> None:
        self.id, self.rng = table_id, rng
        self.seats: list[Any] = []  # the table's loadgen clients, by seat
        self.offers: dict[int, StateInfo] = {}
        self.acted_version = -1
        self.pending = False
        self.turn = 0  # bare rooms: whose move it is
        self.in_flight = False  # bare rooms: a move awaits its broadcast

    def offer(self, seat: int, info: StateInfo) -> None:
        """Remember ``seat``'s latest state; drop its offer when the state offers nothing."""
        if info.offers and info.version > self.acted_version:
            self.offers[seat] = info
        else:
            self.offers.pop(seat, None)

    def take_offer(self) -> tuple[int, StateInfo] | None:
        """One random seat's offer at the newest offered version, consumed; ``None`` if none."""
        if not self.offers:
            return None
        top = max(i.version for i in self.offers.values())
        seat = self.rng.choice(sorted(s for s, i in self.offers.items() if i.version == top))
        info = self.offers[seat]
        self.acted_version = top
        self.offers.clear()
        return seat, info
