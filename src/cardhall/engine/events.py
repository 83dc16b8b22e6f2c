"""Events produced by ``apply``, each tagged with who may see it (``design.md`` section 2).

An event is public (``to is None``) or private to a set of seats. Spectators see public events
only. Hidden information leaves the engine only through views and through events that are
filtered with :func:`Event.visible_to`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened.

    Attributes:
        kind: event name, e.g. ``"bid"``, ``"trick_won"``, ``"dealt"``.
        data: JSON-compatible payload.
        to: ``None`` for a public event, else the seats that may see it.
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """True if ``seat`` (``None`` = spectator) may see this event."""
        if self.to is None:
            return True
        return seat is not None and seat in self.to

    def to_json(self) -> dict[str, Any]:
        """The event as a JSON object ``{"kind": ..., **data}`` (without its audience)."""
        return {"kind": self.kind, **self.data}


def public(kind: str, **data: Any) -> Event:
    """A public event."""
    return Event(kind, data, None)


def private(seats: int | frozenset[int] | set[int] | tuple[int, ...], kind: str, **data: Any) -> Event:
    """An event only ``seats`` may see."""
    to = frozenset((seats,)) if isinstance(seats, int) else frozenset(seats)
    return Event(kind, data, to)


def filter_events(events: list[Event], seat: int | None) -> list[dict[str, Any]]:
    """The JSON form of the events that ``seat`` (``None`` = spectator) may see, in order."""
    return [e.to_json() for e in events if e.visible_to(seat)]
