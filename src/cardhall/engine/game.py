"""The rules protocol every game implements (``design.md`` section 2).

A game is a :class:`~.rules.GameRules` object (registered by name) that builds
:class:`GameState` objects; how a game ends is an :class:`~.outcome.Outcome`. A state is mutable: :meth:`GameState.apply` validates an action completely *before*
changing anything, so a rejected action leaves the state untouched; :meth:`GameState.clone`
gives an independent copy for look-ahead. All transitions go through the one ``apply``, which
checks, in this order: game over, well-formedness, whose turn, legality (the game's own
validator, shared with ``legal_actions``).
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, TypeVar, final

from .actions import Action, RandomSource, sample
from .errors import GameOverError, MalformedActionError, NotYourTurnError
from .events import Event
from .outcome import Outcome as Outcome
from .outcome import OutcomeReason as OutcomeReason

Shuffle = Callable[[list[str]], list[str]]
"""A caller-supplied shuffle: returns a permutation of the cards it is given."""

S = TypeVar("S", bound="GameState")


class GameState(ABC):
    """One game in progress (a hand of poker, a match of Bazaar Blot).

    Subclasses implement the abstract methods; the public :meth:`apply`, :meth:`legal_actions`,
    :meth:`timeout_action` and :meth:`view` are final: they check the seat, then call the hooks.
    """

    config: Any
    num_seats: int

    # ----- queries -------------------------------------------------------------------------
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now, the turn seat first; ``()`` when a chance action is due or
        the game is over. (Bazaar Blot adds seats that may call contra out of turn.)"""

    @abstractmethod
    def chance_due(self) -> bool:
        """True if the next action must be a chance action (``seat=None``)."""

    def timer_seat(self) -> int | None:
        """The seat whose decision deadline runs now (``None`` if none)."""
        seats = self.to_act()
        return seats[0] if seats else None

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """``None`` while the game runs, else how it ended."""

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @final
    def legal_actions(self, seat: int) -> list[Action]:
        """Every legal move of ``seat`` now, as entries (see :mod:`cardhall.engine.actions`).

        Final: the engine answers ``[]`` for anything that is not a seat index of this table
        (``-1``, ``num_seats``, ``True``, ``1.0``) and only then asks the game's
        :meth:`_legal_actions` hook, which answers ``[]`` for a seat not in :meth:`to_act`
        (the shared invariant checks of :mod:`cardhall.engine.inspect` hold every game to it;
        the engine does not recompute ``to_act`` here, the hottest call of a game).
        """
        if type(seat) is not int or not 0 <= seat < self.num_seats:
            return []
        return self._legal_actions(seat)

    @final
    def timeout_action(self, seat: int) -> Action | None:
        """The concrete action the turn timer takes for ``seat`` now, or ``None`` if the seat
        has no running deadline.

        Final: ``None`` for anything that is not a seat index or a seat not in :meth:`to_act`;
        otherwise the game's :meth:`_timeout_action` hook decides (a rule of the game).
        """
        if not self.is_seat(seat) or seat not in self.to_act():
            return None
        return self._timeout_action(seat)

    @final
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None`` = spectator), as a fresh JSON object. The only way
        hidden information leaves the engine besides seat-tagged events.

        Raises:
            NotYourTurnError: ``seat`` is neither ``None`` nor a seat index of this table
                (``view(-1)`` never shows the last seat's hand).
        """
        self.check_viewer(seat)
        return self._view(seat)

    @final
    def public_view(self) -> dict[str, Any]:
        """The part of every view that is the same for all viewers: equal (keys, key order and
        values) to ``view(None)``, the spectator's view.

        Built once per step by the server, which diffs it against the previous public view by
        top-level key; so every value in it is either fresh or a value the state never mutates
        afterwards (a game may share such a frozen value between calls, e.g. Blot's scored
        ``deals``). Callers must treat it as read-only; :meth:`view` stays fully fresh.
        """
        return self._public_view()

    @final
    def private_view(self, seat: int) -> dict[str, Any]:
        """The top-level keys of ``view(seat)`` whose value differs from :meth:`public_view`
        (a fresh JSON object), so that ``{**public_view(), **private_view(seat)} == view(seat)``,
        key order included. Exactly those keys: e.g. Bazaar Blot ``seat`` and ``hand``, the
        latter only while the seat holds cards (between deals every ``hand`` is ``[]``, the
        spectator's value, so it moves to the public part).

        Raises:
            NotYourTurnError: ``seat`` is not a seat index of this table (as :meth:`view`;
                ``None`` too: the spectator has no private part).
        """
        if not self.is_seat(seat):
            raise NotYourTurnError(f"no seat {seat!r} at this table")
        return self._private_view(seat)

    # ----- the game's hooks behind the final guards -------------------------------------------
    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """Legal entries of ``seat`` (a seat index the base has checked); ``[]`` unless the
        seat is in :meth:`to_act`."""

    @abstractmethod
    def _timeout_action(self, seat: int) -> Action | None:
        """The timer's action for ``seat`` (a seat in :meth:`to_act`), or ``None`` if its
        deadline is not running (e.g. a Blot seat that may only call contra out of turn)."""

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` (``None`` or a checked seat index), a fresh JSON object.

        Every seat's view has the spectator's keys in the spectator's order (a seat may add
        keys only after them), so that the public/private split of :meth:`public_view` and
        :meth:`private_view` can rebuild it."""

    def _public_view(self) -> dict[str, Any]:
        """The public view (see :meth:`public_view`). The base answers ``_view(None)``; a game
        overrides it to share values it never mutates again instead of copying them."""
        return self._view(None)

    def _private_view(self, seat: int) -> dict[str, Any]:
        """The keys of ``_view(seat)`` that differ from the spectator's view (see
        :meth:`private_view`; ``seat`` is checked). The base builds both views and keeps the
        differing keys, so a new game works unchanged; a game overrides it with a cheap
        version (the engine tests hold it to the base's answer)."""
        public = self._view(None)
        missing = object()
        return {k: v for k, v in self._view(seat).items() if public.get(k, missing) != v}

    @abstractmethod
    def hidden_from(self, seat: int | None) -> set[str]:
        """Card codes ``seat`` may not see now (other hands, the stock, face-down discards).
        Used by the invariant tests to prove views and events leak nothing."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The full, unredacted state as JSON (admin inspection, equality checks in tests)."""

    @abstractmethod
    def chance_action(self, shuffle: Shuffle) -> Action:
        """The chance action due now, with its outcome drawn through ``shuffle``.

        Raises:
            NotYourTurnError: no chance action is due.
        """

    def check_invariants(self) -> list[str]:
        """Violations of the game's internal invariants (empty when all hold)."""
        return []

    def is_seat(self, seat: object) -> bool:
        """True if ``seat`` is a seat index of this table (an ``int`` in ``0..num_seats-1``;
        not a bool, float or negative index)."""
        return type(seat) is int and 0 <= seat < self.num_seats

    def check_viewer(self, seat: int | None) -> None:
        """Raise :class:`NotYourTurnError` unless ``seat`` is ``None`` (spectator) or a seat index.
        Games call it first in ``view`` so that e.g. ``view(-1)`` never shows the last hand."""
        if seat is not None and not self.is_seat(seat):
            raise NotYourTurnError(f"no seat {seat!r} at this table")

    # ----- transitions --------------------------------------------------------------------
    @abstractmethod
    def _parse(self, seat: int | None, action: Action) -> Any:
        """Validate the action's shape and return the game's parsed form.

        Raises:
            MalformedActionError: unknown type, missing/extra fields, bad field types or card codes.
        """

    @abstractmethod
    def _check(self, seat: int | None, parsed: Any) -> None:
        """Raise :class:`IllegalActionError` unless the parsed action is legal for ``seat`` now."""

    def _check_off_turn(self, seat: int, parsed: Any) -> None:
        """Called when ``seat`` may not act now, before :class:`NotYourTurnError` is raised: a
        game raises :class:`IllegalActionError` here when the action could never be legal for
        this seat whatever the turn (e.g. a Bazaar Blot contra from the bidder's side), so the
        answer names the real reason. The base does nothing."""
        return None

    @abstractmethod
    def _do(self, seat: int | None, parsed: Any) -> list[Event]:
        """Apply a validated action; return the events it produced."""

    @abstractmethod
    def _abandon(self) -> None:
        """End the running game now, as :meth:`abandon` describes: put the game's data in its
        over phase (no seat to act, no chance action due, no chip left in a pot) and set the
        outcome to ``Outcome(OutcomeReason.ABANDONED, returns, detail)`` with the returns of
        the game's rule and ``detail["abandoned"] is True``."""

    @final
    def abandon(self) -> list[Event]:
        """End the running game early with reason ``abandoned`` (a provisional *table* rule,
        not a rule of any card game: the table calls it when no client has been connected for
        its ``abandon_after_seconds``; ``docs/engine.md``, "Abandoned games").

        What each game gives back (:attr:`Outcome.returns`):

        * poker games (Soldier's Bluff, Palace Poker): every seat takes back what it put into
          this hand (ante and bets), so every return is 0 and no stack changes;
        * Bazaar Blot: the match score so far (team totals per seat, as at a normal end); the
          unfinished deal scores nothing and ``detail.winner_team`` is ``None``.

        ``detail`` carries ``"abandoned": True`` and the game's own facts. No card is shown.

        Returns:
            One public event ``{"kind": "abandoned", "returns": [...]}``.

        Raises:
            GameOverError: the game has already ended.
        """
        if self.outcome is not None:
            raise GameOverError("the game is over; it cannot be abandoned")
        self._abandon()
        outcome = self.outcome
        if outcome is None or outcome.reason is not OutcomeReason.ABANDONED:
            raise AssertionError(f"{type(self).__name__}._abandon set outcome {outcome!r}")
        return [Event("abandoned", {"returns": list(outcome.returns)})]

    @final
    def apply(self, seat: int | None, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat`` (``None`` for a chance action) in place.

        Returns:
            The events produced, each tagged with who may see it.

        Raises:
            GameOverError: the game has ended.
            MalformedActionError: the action is not well formed.
            NotYourTurnError: ``seat`` may not act now (or a chance action is due / not due).
            IllegalActionError: the rules forbid this action now (message names the value),
                or could never allow it to this seat (see :meth:`_check_off_turn`).
        """
        if self.outcome is not None:
            raise GameOverError(f"the game is over; action {action!r} rejected")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise MalformedActionError(f"an action must be an object with a string 'type', got {action!r}")
        if seat is not None and (type(seat) is not int or not 0 <= seat < self.num_seats):
            raise NotYourTurnError(f"no seat {seat!r} at this table")  # is_seat, inlined
        parsed = self._parse(seat, action)
        if seat is None:
            if not self.chance_due():
                raise NotYourTurnError(f"no chance action is due; {action['type']!r} rejected")
        elif self.chance_due() or seat not in self.to_act():
            self._check_off_turn(seat, parsed)
            raise NotYourTurnError(f"seat {seat} may not act now; to act: {list(self.to_act())}")
        self._check(seat, parsed)
        return self._do(seat, parsed)

    # ----- the unchecked random driver (self-play and its benchmark only) ---------------------
    def random_step(self, rng: RandomSource, shuffle: Shuffle) -> tuple[int | None, Action, Any]:
        """Draw the next step of a uniformly random game (the game must not be over):
        ``(seat, action, parsed)``, ``seat`` ``None`` for a chance step, ``action`` its fresh
        JSON (for the history) and ``parsed`` the game's parsed form of it, for
        :meth:`apply_drawn`.

        The draws are fixed, so a seed names one game: a chance step draws through ``shuffle``
        (:meth:`chance_action`) and nothing from ``rng``; a seat's step is ``rng.choice`` of
        :meth:`to_act`, ``rng.choice`` of that seat's :meth:`legal_actions` entries, then
        :func:`~cardhall.engine.actions.sample` of the entry. The base does exactly that
        through the public API and :meth:`_parse`; a game may override it with a cheaper
        version that makes the same draws and answers the same action (the engine tests hold
        every game to the base's answer).
        """
        if self.chance_due():
            action = self.chance_action(shuffle)
            return None, action, self._parse(None, action)
        seat = rng.choice(self.to_act())
        action = sample(rng.choice(self._legal_actions(seat)), rng)
        return seat, action, self._parse(seat, action)

    @final
    def apply_drawn(self, seat: int | None, parsed: Any) -> None:
        """Apply a step :meth:`random_step` drew just now, **unchecked** and without its events
        (the unchecked self-play loop, which throws events away). Never for actions from
        outside: nothing is validated (use :meth:`apply`). The state afterwards equals what
        ``apply(seat, action)`` leaves (tested for every game)."""
        self._do_quiet(seat, parsed)

    def play_random(self, rng: RandomSource, shuffle: Shuffle, max_steps: int,
                    log: Callable[[int | None, Action], None]) -> int:
        """Play on with :meth:`random_step` and :meth:`apply_drawn` until the game is over or
        ``max_steps`` steps were taken, calling ``log(seat, action)`` after each step (the
        action is fresh: the callee may keep it). Returns the steps taken. A game may override
        it with a tighter loop over its hot phase that makes the same draws and leaves the
        same state (the engine tests hold every game to this base)."""
        steps = 0
        draw, apply = self.random_step, self._do_quiet
        while steps < max_steps and self.outcome is None:
            seat, action, parsed = draw(rng, shuffle)
            apply(seat, parsed)
            log(seat, action)
            steps += 1
        return steps

    def _do_quiet(self, seat: int | None, parsed: Any) -> None:
        """Apply a legal parsed action whose events nobody wants. The base calls :meth:`_do`
        and drops its events; a game may skip building them on its hot path."""
        self._do(seat, parsed)

    def after(self: S, seat: int | None, action: Action) -> tuple[S, list[Event]]:
        """Functional form of :meth:`apply`: returns ``(new_state, events)`` and leaves this
        state unchanged."""
        new = self.clone()
        events = new.apply(seat, action)
        return new, events

    def clone(self: S) -> S:
        """An independent deep copy."""
        return copy.deepcopy(self)
