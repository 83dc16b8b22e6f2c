"""Matchmaking by rating (``docs/rest.md``, "Seeks"): which waiting seeks sit down together.

Pure decisions, no I/O and no clock: time is the ``now`` the caller passes (seconds on any one
monotonic origin, the same as each seek's ``since``). The runtime pool that holds the seeks and
makes the tables is :mod:`.seekpool`.

The rule, lichess-style:

* Seeks meet only in the same **pool**: same game, same seat count, same ``rated`` flag
  (:func:`pool_key`).
* Each seek has a **rating window** that widens while it waits (:class:`Window`): ``start``
  rating points either side at once, ``widen_by`` more after each ``step_seconds`` of waiting,
  at most ``most``; after ``open_after_seconds`` the window is open (any rating).
* A **group** is ``seats`` seeks of different players in which every pair fits both windows:
  ``|r_a - r_b| <= min(w_a, w_b)`` (:func:`fits`), so nobody is seated further from their own
  rating than they accepted.
* **Who first**: the longest-waiting seek anchors a group (ties: player id); it takes, closest
  rating first (ties: the longer waiting), each seek that fits everyone already chosen, until
  the group is full (:func:`match`). Greedy, so deterministic and linear per anchor; it may
  miss a group a search over every subset would find, which a later tick (wider windows)
  finds instead.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Seek:
    """One player asking for a game.

    Attributes:
        player: the player id (a player has at most one waiting seek; the pool checks).
        game: the game name (``soldiers_bluff`` ...).
        seats: the table's seat count, so the group size (1 to 64).
        rated: a rated seek (accounts only; the pool checks) meets only rated seeks.
        rating: the player's displayed rating in ``game`` (``storage/rating.py``: a new player
            shows 1000).
        since: when the seek was made (seconds, the caller's monotonic clock).
    """

    player: str
    game: str
    seats: int
    rated: bool
    rating: int
    since: float


@dataclass(frozen=True, slots=True)
class Window:
    """How far from its own rating a seek accepts others, by waiting time (rating points).

    Attributes:
        start: half-width at once (default 100: ``1500`` meets 1400 to 1600).
        widen_by: added after each ``step_seconds`` of waiting (default 50).
        step_seconds: the widening step (default 5 s).
        most: the cap of the half-width before the window opens (default 500).
        open_after_seconds: after this long any rating fits (default 60 s; ``None``: never).
    """

    start: float = 100.0
    widen_by: float = 50.0
    step_seconds: float = 5.0
    most: float = 500.0
    open_after_seconds: float | None = 60.0

    def __post_init__(self) -> None:
        """Raises ValueError for a negative width, step or cap, or a step of zero."""
        if self.start < 0 or self.widen_by < 0 or self.most < self.start:
            raise ValueError(f"window widths must be 0 <= start <= most, got {self}")
        if not self.step_seconds > 0:
            raise ValueError(f"step_seconds must be > 0, got {self.step_seconds!r}")

    def half_width(self, waited_seconds: float) -> float:
        """The half-width after ``waited_seconds`` (negative counts as 0): ``math.inf`` once
        open.

        >>> Window().half_width(0), Window().half_width(12.0), Window().half_width(60.0)
        (100.0, 200.0, inf)
        """
        waited = max(0.0, waited_seconds)
        if self.open_after_seconds is not None and waited >= self.open_after_seconds:
            return math.inf
        return min(self.start + self.widen_by * math.floor(waited / self.step_seconds),
                   self.most)

    def bounds(self, seek: Seek, now: float) -> tuple[int | None, int | None]:
        """The ratings ``seek`` accepts at ``now``: ``(lowest, highest)``, ``(None, None)``
        once open (what the browser shows while waiting)."""
        w = self.half_width(now - seek.since)
        if math.isinf(w):
            return None, None
        return math.ceil(seek.rating - w), math.floor(seek.rating + w)


def pool_key(seek: Seek) -> tuple[str, int, bool]:
    """The pool a seek waits in: ``(game, seats, rated)``."""
    return seek.game, seek.seats, seek.rated


def fits(a: Seek, b: Seek, now: float, window: Window) -> bool:
    """Whether ``a`` and ``b`` may sit together at ``now``: same pool, different players, and
    each rating inside the other's window."""
    if a.player == b.player or pool_key(a) != pool_key(b):
        return False
    gap = abs(a.rating - b.rating)
    return gap <= min(window.half_width(now - a.since), window.half_width(now - b.since))


def _order(seeks: Iterable[Seek]) -> list[Seek]:
    return sorted(seeks, key=lambda s: (s.since, s.player))


class _Pool:
    """One pool's waiting seeks, in two rating orders for walking outward from an anchor: by
    ``(rating, index)`` (higher ratings, the longer waiting first among equals) and by
    ``(rating, -index)`` (lower ratings, walked downward: the longer waiting first too);
    ``index`` is the seek's place in waiting order. A seated seek is removed from both."""

    def __init__(self, waiting: Sequence[Seek]) -> None:
        self.waiting = waiting
        self.up = sorted((s.rating, i) for i, s in enumerate(waiting))
        self.down = sorted((s.rating, -i) for i, s in enumerate(waiting))

    def remove(self, i: int) -> None:
        r = self.waiting[i].rating
        del self.up[bisect.bisect_left(self.up, (r, i))]
        del self.down[bisect.bisect_left(self.down, (r, -i))]

    def near(self, i: int, reach: float) -> Iterator[Seek]:
        """The seeks other than ``i`` within ``reach`` of its rating, closest first (ties:
        the longer waiting)."""
        r = self.waiting[i].rating
        hi = bisect.bisect_right(self.up, (r, math.inf))  # first rating above r
        lo = bisect.bisect_left(self.down, (r, -math.inf)) - 1  # last rating below r
        same = bisect.bisect_left(self.up, (r, -math.inf))
        for _, j in self.up[same:hi]:  # the same rating, in waiting order
            if j != i:
                yield self.waiting[j]
        while True:
            gap_up = self.up[hi][0] - r if hi < len(self.up) else math.inf
            gap_down = r - self.down[lo][0] if lo >= 0 else math.inf
            gap = min(gap_up, gap_down)
            if gap > reach or math.isinf(gap):  # past the window, or nobody left
                return
            if gap_up < gap_down or (gap_up == gap_down and self.up[hi][1] < -self.down[lo][1]):
                yield self.waiting[self.up[hi][1]]
                hi += 1
            else:
                yield self.waiting[-self.down[lo][1]]
                lo -= 1


def _group_for(pool: _Pool, i: int, now: float, window: Window) -> tuple[Seek, ...] | None:
    """The group seek ``i`` anchors (closest rating first among those fitting every member
    chosen so far), or ``None``."""
    anchor = pool.waiting[i]
    group = [anchor]
    if anchor.seats <= 1:
        return (anchor,)
    for cand in pool.near(i, window.half_width(now - anchor.since)):
        if all(fits(cand, member, now, window) for member in group):
            group.append(cand)
            if len(group) == anchor.seats:
                return tuple(group)
    return None


def match(seeks: Iterable[Seek], now: float, window: Window | None = None,
          ) -> list[tuple[Seek, ...]]:
    """The groups to seat now, each of ``seats`` seeks, anchor (longest waiting) first; a seek
    is in at most one group; seeks left out keep waiting. See the module docstring for the
    rule. Each anchor looks only at the ratings inside its own window (a sorted index), so a
    tick over thousands of far-apart seeks stays in milliseconds.

    >>> a = Seek("a", "g", 2, True, 1500, since=0.0)
    >>> b = Seek("b", "g", 2, True, 1650, since=0.0)
    >>> match([a, b], now=0.0), [[s.player for s in g] for g in match([a, b], now=5.0)]
    ([], [['a', 'b']])
    """
    window = window or Window()
    pools: dict[tuple[str, int, bool], list[Seek]] = {}
    for s in _order(seeks):
        pools.setdefault(pool_key(s), []).append(s)
    out: list[tuple[Seek, ...]] = []
    for waiting in pools.values():
        pool = _Pool(waiting)
        index = {id(s): i for i, s in enumerate(waiting)}
        used: set[int] = set()
        for i in range(len(waiting)):
            if i in used:
                continue
            group = _group_for(pool, i, now, window)
            if group is not None:
                for s in group:
                    used.add(index[id(s)])
                    pool.remove(index[id(s)])
                out.append(group)
    return sorted(out, key=lambda g: (g[0].since, g[0].player))


def match_with(candidate: Seek, seeks: Iterable[Seek], now: float,
               window: Window | None = None) -> tuple[Seek, ...] | None:
    """The group ``candidate`` (a quick seat's seek, not waiting) completes at once with the
    waiting ``seeks``, ``candidate`` first, or ``None``. Others are chosen longest waiting
    first among those that fit everyone (the waiting seeks' priority), not closest first."""
    window = window or Window()
    pool = [s for s in _order(seeks) if pool_key(s) == pool_key(candidate)
            and s.player != candidate.player]
    group = [candidate]
    if candidate.seats <= 1:
        return (candidate,)
    for cand in pool:
        if all(fits(cand, member, now, window) for member in group):
            group.append(cand)
            if len(group) == candidate.seats:
                return tuple(group)
    return None
