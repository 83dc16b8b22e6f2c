"""Legal-action entries: how a client learns every legal move without knowing the rules.

``GameState.legal_actions(seat)`` returns a list of *entries*. An entry is a JSON object with a
``type`` and the action's fixed fields, plus, where the player chooses a value:

* an **amount range** ``"min_<f>"`` / ``"max_<f>"`` (integers, inclusive): the concrete action
  carries field ``<f>`` with a whole number in that range, e.g.
  ``{"type": "raise", "min_to": 3, "max_to": 20}`` -> ``{"type": "raise", "to": 7}``;
* a **card choice** ``"<f>_from"`` (a list of cards) with ``"min_<f>"`` / ``"max_<f>"``: the
  concrete action carries ``<f>``, a list of distinct cards from ``<f>_from`` whose length is in
  range, e.g. ``{"type": "exchange", "cards_from": [...6 cards], "min_cards": 0, "max_cards": 2}``.

An entry without such keys is itself a concrete action. :func:`matches` tells whether a concrete
action is an instance of an entry; :func:`sample` draws one uniformly-ish with a caller-supplied
random source (the engine never draws random numbers itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

Action = dict[str, Any]

T = TypeVar("T")


class RandomSource(Protocol):
    """The subset of :class:`random.Random` the helpers and the random driver need."""

    def randint(self, a: int, b: int) -> int: ...

    def sample(self, population: list[Any], k: int) -> list[Any]: ...

    def choice(self, seq: Sequence[T]) -> T: ...


_CONTAINERS = (dict, list, tuple)


def copy_json(obj: Any) -> Any:
    """A deep copy of a JSON-like value (dicts, lists, tuples -> lists; other values shared,
    they are immutable scalars). Much cheaper than :func:`copy.deepcopy` for actions, views and
    events."""
    if type(obj) is dict:
        # the common case (an action, an event): a C-level copy, then only nested containers
        out = obj.copy()
        for k, v in obj.items():
            if isinstance(v, _CONTAINERS):
                out[k] = copy_json(v)
        return out
    if isinstance(obj, dict):  # a dict subclass becomes a plain dict
        return {k: copy_json(v) if isinstance(v, _CONTAINERS) else v for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [copy_json(v) if isinstance(v, _CONTAINERS) else v for v in obj]
    return obj


def _choice_fields(entry: Action) -> tuple[set[str], set[str]]:
    """Split an entry's variable fields into (amount fields, card-choice fields)."""
    choices = {k[: -len("_from")] for k in entry if k.endswith("_from")}
    amounts = {k[4:] for k in entry if k.startswith("min_") and k[4:] not in choices}
    return amounts, choices


def is_concrete(entry: Action) -> bool:
    """True if the entry has no range or choice keys (it is itself an action)."""
    amounts, choices = _choice_fields(entry)
    return not amounts and not choices


def matches(entry: Action, action: Action) -> bool:
    """True if the concrete ``action`` is an instance of the legal ``entry``.

    Fixed fields must be equal; range fields must be whole numbers within the bounds; choice
    fields must be lists of distinct cards from the offered list with a length within bounds;
    the action may have no other field.
    """
    amounts, choices = _choice_fields(entry)
    meta = {f"{p}_{f}" for f in amounts | choices for p in ("min", "max")}
    meta |= {f"{f}_from" for f in choices}
    fixed = {k: v for k, v in entry.items() if k not in meta}
    if set(action) != set(fixed) | amounts | choices:
        return False
    if any(action[k] != v for k, v in fixed.items()):
        return False
    for f in amounts:
        v = action[f]
        if type(v) is not int or not entry[f"min_{f}"] <= v <= entry[f"max_{f}"]:
            return False
    for f in choices:
        v = action[f]
        if not isinstance(v, list) or not entry[f"min_{f}"] <= len(v) <= entry[f"max_{f}"]:
            return False
        try:
            chosen = set(v)
        except TypeError:  # unhashable items (lists, objects) are never offered cards
            return False
        if len(chosen) != len(v) or not chosen <= set(entry[f"{f}_from"]):
            return False
    return True


def is_legal(entries: list[Action], action: Action) -> bool:
    """True if ``action`` is an instance of any of ``entries``."""
    return any(matches(e, action) for e in entries)


def sample(entry: Action, rng: RandomSource) -> Action:
    """A concrete action drawn from ``entry`` with ``rng`` (amounts uniform in range; card
    choices: a uniform length, then a uniform subset of that length). Amounts are drawn
    before choices, each in the entry's key order. A concrete entry (the common case: no
    ``min_*`` or ``*_from`` key) is copied without drawing."""
    for key in entry:
        if key.startswith("min_") or key.endswith("_from"):
            break
    else:
        return dict(entry)
    choices = [k[:-5] for k in entry if k.endswith("_from")]
    amounts = [k[4:] for k in entry if k.startswith("min_") and k[4:] not in choices]
    meta = {f"{p}_{f}" for f in amounts + choices for p in ("min", "max")}
    meta.update(f"{f}_from" for f in choices)
    action = {k: v for k, v in entry.items() if k not in meta}
    for f in amounts:
        action[f] = rng.randint(entry["min_" + f], entry["max_" + f])
    for f in choices:
        n = rng.randint(entry["min_" + f], entry["max_" + f])
        action[f] = rng.sample(list(entry[f + "_from"]), n)
    return action


def minimal(entry: Action) -> Action:
    """The concrete action of ``entry`` with every amount at its minimum and every card choice
    the first ``min`` offered cards (deterministic; useful for defaults and tests)."""
    amounts, choices = _choice_fields(entry)
    meta = {f"{p}_{f}" for f in amounts | choices for p in ("min", "max")}
    meta |= {f"{f}_from" for f in choices}
    action = {k: v for k, v in entry.items() if k not in meta}
    for f in amounts:
        action[f] = entry[f"min_{f}"]
    for f in choices:
        action[f] = list(entry[f"{f}_from"])[: entry[f"min_{f}"]]
    return action
