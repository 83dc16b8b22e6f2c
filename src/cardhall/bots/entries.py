"""Helpers for turning legal-action entries into concrete actions (shared by the rule bots).

Every helper returns an action that :func:`cardhall.engine.actions.matches` one of the entries
it was given: amounts are clamped into the entry's ``min_<f>``/``max_<f>`` range and card choices
are cut to a length the entry allows. See :mod:`cardhall.engine.actions` for the entry forms.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.actions import Action, is_concrete, minimal


def of_type(legal: list[Action], kind: str) -> list[Action]:
    """The entries of ``legal`` whose ``type`` is ``kind`` (in the given order)."""
    return [e for e in legal if e.get("type") == kind]


def first(legal: list[Action], kind: str) -> Action | None:
    """The first entry of type ``kind``, or ``None``."""
    found = of_type(legal, kind)
    return found[0] if found else None


def with_amount(entry: Action, field: str, want: int) -> Action:
    """The action of ``entry`` with amount ``field`` set to ``want`` clamped into
    ``min_<field>..max_<field>`` (other choices at their minimum)."""
    action = minimal(entry)
    lo, hi = entry[f"min_{field}"], entry[f"max_{field}"]
    action[field] = max(lo, min(hi, int(want)))
    return action


def with_cards(entries: list[Action], field: str, ranked: Iterable[str], want: int) -> Action:
    """A card-choice action from ``entries`` (all of one type) picking about ``want`` cards.

    ``ranked`` lists cards in order of preference; an entry takes its cards from the front of
    that list (then from its own offer, in order). Among the entries, the one whose allowed
    length is closest to ``want`` wins (the shorter on a tie); a concrete entry counts with
    the length of its own card list.

    Raises:
        ValueError: ``entries`` is empty.
    """
    if not entries:
        raise ValueError("no entries to choose cards from")
    order = list(ranked)
    best: tuple[int, int, Action] | None = None
    for entry in entries:
        if is_concrete(entry) or f"{field}_from" not in entry:
            action = minimal(entry)
        else:
            offer = list(entry[f"{field}_from"])
            pool = [c for c in order if c in offer] + [c for c in offer if c not in order]
            lo, hi = entry[f"min_{field}"], min(entry[f"max_{field}"], len(pool))
            action = minimal(entry)
            action[field] = pool[: max(lo, min(hi, want))]
        n = len(action.get(field, []))
        key = (abs(n - want), n)
        if best is None or key < best[:2]:
            best = (key[0], key[1], action)
    assert best is not None
    return best[2]
