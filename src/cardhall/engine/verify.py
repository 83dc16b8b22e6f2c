"""Verify a finished history's chance actions from its revealed seeds (``docs/fairness.md``).

A finished ``cardhall-history/1`` document carries ``seed`` (the server seed, hex),
``seed_commitment`` (published at the game's start), ``shuffle`` (the seed derivation, absent in
histories written before client seeds) and ``client_seeds`` (one per game seat, ``null`` for a
seat that gave none). :func:`verify_history` checks:

* ``SHA-256(seed) == seed_commitment``;
* replaying ``actions`` from the header, at every chance entry (``seat: null``, other than the
  engine's ``abandon``), ``state.chance_action(shuffler)`` equals the logged action, where
  ``shuffler = SeededShuffler(shuffle_seed(shuffle, seed, client_seeds))`` numbers the game's
  shuffles 0, 1, 2, ... in order;
* every logged action is accepted, and the replay ends with the stored ``outcome``: every field
  the history recorded has the value the replay computes (:func:`outcome_matches`). A release
  may add fields to an outcome's ``detail`` (Soldier's Bluff ``decided_by``, Blot's
  ``last_trick_*``); a game saved before them still verifies, since it recorded none of them.
  ``reason`` and ``returns`` are always compared whole.

A mismatching chance entry is still applied as logged, so one bad deal does not hide later
ones; a rejected action ends the replay.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import EngineError, InvalidHistoryError
from .history import ABANDON, History, apply_logged, start_state
from .shuffle import LEGACY_SHUFFLE, SHUFFLES, SeededShuffler, commitment, shuffle_seed


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One failed check: ``index`` is the position in ``actions`` (``None`` for a check of the
    whole history: the commitment, the outcome, the seeds)."""

    index: int | None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "reason": self.reason}


FULL_CHECKS = ("commitment: SHA-256 of the seed is the seed_commitment",
               "deals: every chance action recomputed from the seeds",
               "replay: every action accepted by the rules, the stored outcome reached")
"""What :func:`verify_history` checks on a full copy (``checked``)."""


@dataclass(slots=True)
class Verification:
    """The answer of :func:`verify_history` (a full copy) or :func:`check_table_copy` (a
    table copy). ``chance_actions`` counts the chance entries recomputed; ``checked`` and
    ``not_checked`` name the checks; ``verified`` holds when there is no mismatch and nothing
    was left unchecked."""

    shuffle: str
    chance_actions: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    copy: str = "full"
    checked: list[str] = field(default_factory=lambda: list(FULL_CHECKS))
    not_checked: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return not self.mismatches and not self.not_checked

    def to_json(self) -> dict[str, Any]:
        """``{"verified", "shuffle", "chance_actions", "mismatches": [{"index", "reason"}],
        "copy": "full" | "table", "checked": [str], "not_checked": [str]}``."""
        return {"verified": self.verified, "shuffle": self.shuffle,
                "chance_actions": self.chance_actions,
                "mismatches": [m.to_json() for m in self.mismatches],
                "copy": self.copy, "checked": list(self.checked),
                "not_checked": list(self.not_checked)}


def revealed_seeds(doc: dict[str, Any], num_seats: int) -> tuple[str, bytes, list[str | None]]:
    """``(shuffle, server seed, client seeds)`` of a finished history document.

    Raises:
        InvalidHistoryError: no or malformed ``seed`` (hex), an unknown ``shuffle``, or
            ``client_seeds`` that is not a list of ``num_seats`` strings or nulls (names it).
    """
    seed_hex = doc.get("seed")
    if not isinstance(seed_hex, str):
        raise InvalidHistoryError(f"'seed' must be the revealed server seed in hex, got {seed_hex!r}")
    try:
        seed = bytes.fromhex(seed_hex)
    except ValueError as exc:
        raise InvalidHistoryError(f"'seed' is not hex: {seed_hex!r}") from exc
    shuffle = doc.get("shuffle", LEGACY_SHUFFLE)
    if shuffle not in SHUFFLES:
        raise InvalidHistoryError(f"unknown 'shuffle' {shuffle!r}; known: {list(SHUFFLES)}")
    clients = doc.get("client_seeds", [None] * num_seats)
    if (not isinstance(clients, list) or len(clients) != num_seats
            or any(c is not None and not isinstance(c, str) for c in clients)):
        raise InvalidHistoryError(f"'client_seeds' must list a string or null for each of the "
                                  f"{num_seats} seats, got {clients!r}")
    return shuffle, seed, clients


def verify_history(doc: Any) -> Verification:
    """Recompute every chance action of the finished history ``doc`` (a parsed JSON document)
    from its revealed seeds, and check the commitment and the outcome (module docstring).

    Returns a :class:`Verification`; a history that fails a check is *not* an error.

    Raises:
        InvalidHistoryError: ``doc`` is not a history, or its seeds cannot be read
            (:func:`revealed_seeds`); an unknown game or bad config as :func:`start_state`.
    """
    history = History.from_json(doc)
    shuffle, seed, clients = revealed_seeds(doc, len(history.seats))
    out = Verification(shuffle)
    if commitment(seed) != doc.get("seed_commitment"):
        out.mismatches.append(Mismatch(None, f"SHA-256 of the seed is {commitment(seed)}, not "
                                             f"the commitment {doc.get('seed_commitment')!r}"))
    try:
        shuffler = SeededShuffler(shuffle_seed(shuffle, seed, clients))
    except ValueError as exc:
        out.mismatches.append(Mismatch(None, str(exc)))
        return out
    _, state = start_state(history)
    for i, entry in enumerate(history.actions):
        try:
            if entry.seat is None and entry.action != ABANDON:
                drawn = state.chance_action(shuffler)
                out.chance_actions += 1
                if drawn != entry.action:
                    out.mismatches.append(Mismatch(i, _difference(drawn, entry.action)))
            apply_logged(state, entry.seat, entry.action)
        except EngineError as exc:
            out.mismatches.append(Mismatch(i, f"rejected: [{exc.code}] {exc.message}"))
            return out
    stored = doc.get("outcome")
    got = None if state.outcome is None else state.outcome.to_json()
    if stored is not None and not outcome_matches(stored, got):
        out.mismatches.append(Mismatch(None, f"the replay ends with outcome {got!r}, the history "
                                             f"stores {stored!r}"))
    return out


def outcome_matches(stored: Any, replayed: Any) -> bool:
    """Whether the ``replayed`` outcome (``Outcome.to_json()``) has every field the ``stored``
    one recorded, with the same value: dicts are compared on the stored keys (recursively),
    lists element by element with equal lengths, anything else by equality. So ``reason`` and
    ``returns`` must be equal, and fields a later release added to ``detail`` are ignored.

    >>> outcome_matches({"reason": "showdown", "returns": [1, -1], "detail": {"winner": 0}},
    ...                 {"reason": "showdown", "returns": [1, -1],
    ...                  "detail": {"winner": 0, "decided_by": "sum"}})
    True
    >>> outcome_matches({"returns": [1, -1]}, {"returns": [-1, 1]})
    False
    """
    if isinstance(stored, dict):
        return isinstance(replayed, dict) and all(
            key in replayed and outcome_matches(value, replayed[key])
            for key, value in stored.items())
    if isinstance(stored, list):
        return (isinstance(replayed, list) and len(stored) == len(replayed)
                and all(outcome_matches(a, b) for a, b in zip(stored, replayed, strict=True)))
    return bool(stored == replayed)


def _difference(drawn: dict[str, Any], logged: dict[str, Any]) -> str:
    """Which fields of a chance action differ from what the seed draws."""
    keys = sorted(k for k in drawn.keys() | logged.keys() if drawn.get(k) != logged.get(k))
    return f"chance action differs from the one the seeds draw (fields: {', '.join(keys)})"
