"""The Bazaar Blot match state: phases, turns, dispatch and the chaining of transitions.

The only module that changes :attr:`.model.Match.phase`, the dealer and the match score, and
sets the outcome. Phases (:class:`.model.Phase`): ``deal`` (a chance deal is due) ->
``auction`` -> (redeal | ``contra_response``) -> ``play`` (8 tricks) -> scoring -> ``deal`` ...
-> ``over``. A rule module applies an action to the :class:`.model.DealState` and returns its
events and a transition (:class:`.auction.ContraCalled`, :class:`.auction.Redeal`,
:class:`.auction.AuctionClosed`, :class:`.tricks.TrickTaken`, :class:`.scoring.DealScored`);
:meth:`BlotState._follow` moves the match on. Cards are ints internally (:mod:`.cards`);
strings appear only in actions, entries, views, events and snapshots.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine.actions import RandomSource
from ...engine.errors import IllegalActionError, NotYourTurnError
from ...engine.events import Event, public
from ...engine.game import GameState, Outcome, OutcomeReason, Shuffle
from . import auction, declarations, driver, scoring, tricks, views
from .actions import PLAYS, BlotAction, Deal, Play, parse_action
from .auction import AuctionClosed, ContraCalled, Redeal
from .cards import CODES, codes
from .config import BlotConfig
from .model import AUCTION, CONTRA_RESPONSE, DEAL, OVER, PLAY, DealState, Match, Phase
from .scoring import DealScored
from .tricks import TrickTaken

Transition = ContraCalled | Redeal | AuctionClosed | TrickTaken | DealScored

ONLY = tuple(frozenset((s,)) for s in range(4))
"""The audience of an event only seat ``s`` may see (immutable, so shared)."""


class BlotState(GameState):
    """One Bazaar Blot match of 4 seats (teams: seats 0, 2 = team 0; seats 1, 3 = team 1).

    Built by ``RULES.new_state(config, 4, dealer)``; the first action is the chance deal.
    ``match`` holds the data (:class:`.model.Match`).
    """

    def __init__(self, config: BlotConfig, dealer: int) -> None:
        self.config = config
        self.num_seats = 4
        self.match = Match(config, dealer)
        self._outcome: Outcome | None = None

    # ----- queries ----------------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def chance_due(self) -> bool:
        return self.match.phase is DEAL

    def to_act(self) -> tuple[int, ...]:
        """The turn seat first, then (in the auction) opponents who may contra out of turn."""
        m = self.match
        phase = m.phase
        if phase is PLAY or phase is CONTRA_RESPONSE:
            return (m.deal.turn,)
        if phase is AUCTION:
            deal = m.deal
            if deal.auction.contra_window:
                extra = [s for s in auction.contra_seats(deal.auction) if s != deal.turn]
                return (deal.turn, *extra)
            return (deal.turn,)
        return ()

    def timer_seat(self) -> int | None:
        """The turn seat (never an out-of-turn contra seat)."""
        m = self.match
        if m.phase is DEAL or m.phase is OVER:
            return None
        return m.deal.turn

    def _legal_actions(self, seat: int) -> list[dict[str, Any]]:
        m = self.match
        phase = m.phase
        if phase is PLAY:
            return tricks.play_entries(m.deal, m.config, seat)
        if phase is AUCTION:
            return auction.auction_entries(m.deal, m.config, seat)
        if phase is CONTRA_RESPONSE:
            return auction.response_entries(m.deal, seat)
        return []

    def _timeout_action(self, seat: int) -> dict[str, Any] | None:
        """Rule 9 / BB-41: auction and contra response -> pass; play -> the weakest legal
        card without declaration; ``None`` for a seat whose timer is not running."""
        if seat != self.timer_seat():
            return None
        m = self.match
        if m.phase is PLAY:
            return tricks.timeout_play(m.deal, m.config)
        return {"type": "pass"}

    def _view(self, seat: int | None) -> dict[str, Any]:
        return views.view(self.match, seat, self.timer_seat(), self.to_act())

    def _public_view(self) -> dict[str, Any]:
        """The spectator's view sharing the scored ``deals`` (never mutated: see
        :func:`.views.view`)."""
        return views.view(self.match, None, self.timer_seat(), self.to_act(), share_deals=True)

    def _private_view(self, seat: int) -> dict[str, Any]:
        return views.private_view(self.match, seat)

    def hidden_from(self, seat: int | None) -> set[str]:
        """Cards ``seat`` cannot see now (:func:`.views.hidden_from`): all 32 while a deal is
        due; else other seats' hands, less declarations shown at trick 2."""
        return views.hidden_from(self.match, seat)

    def snapshot(self) -> dict[str, Any]:
        return views.snapshot(self.match, self._outcome)

    def check_invariants(self) -> list[str]:
        return views.check_invariants(self.match)

    def chance_action(self, shuffle: Shuffle) -> dict[str, Any]:
        """The deal: the 32 codes in canonical order (suits c, d, h, s; ranks 7 8 9 T J Q K A
        within each) are passed to ``shuffle``; seat ``dealer+1`` gets shuffled cards 0-7,
        ``dealer+2`` cards 8-15, ``dealer+3`` 16-23 and the dealer 24-31. Returns
        ``{"type": "deal", "hands": [[8 codes] per seat, seat order]}``.

        Raises:
            NotYourTurnError: no deal is due.
        """
        if not self.chance_due():
            raise NotYourTurnError("no chance action is due")
        deck = shuffle(list(CODES))
        hands: list[list[str]] = [[], [], [], []]
        for i in range(4):
            hands[(self.match.dealer + 1 + i) & 3] = list(deck[8 * i: 8 * i + 8])
        return {"type": "deal", "hands": hands}

    # ----- transitions ------------------------------------------------------------------------
    def _parse(self, seat: int | None, action: dict[str, Any]) -> BlotAction:
        return parse_action(action)

    def _check(self, seat: int | None, parsed: BlotAction) -> None:
        m = self.match
        if seat is None:
            if type(parsed) is not Deal:
                raise IllegalActionError(f"{parsed.type!r} is not a chance action; a deal is due")
            return
        phase = m.phase
        if phase is PLAY:
            if type(parsed) is not Play:
                raise IllegalActionError(f"{parsed.type!r} is not allowed during play; play a card")
            tricks.check_play(m.deal, m.config, seat, parsed.card, parsed.declare)
        elif phase is AUCTION:
            auction.check_call(m.deal, m.config, seat, parsed)
        elif phase is CONTRA_RESPONSE:
            auction.check_response(parsed)

    def _check_off_turn(self, seat: int, parsed: BlotAction) -> None:
        """A contra or recontra ``seat`` could not make whatever the turn answers
        ``illegal_action`` (see :func:`.auction.check_out_of_turn`), not ``not_your_turn``."""
        auction.check_out_of_turn(self.match.deal, self.match.phase, seat, parsed)

    def _do(self, seat: int | None, parsed: BlotAction) -> list[Event]:
        m = self.match
        step: Transition | None
        if type(parsed) is Play:
            assert seat is not None
            events, step = tricks.do_play(m.deal, m.config, seat, parsed.card, parsed.declare)
        elif type(parsed) is Deal:
            return self._deal(parsed)
        else:
            assert seat is not None and not isinstance(parsed, Play | Deal)
            if m.phase is AUCTION:
                events, step = auction.do_call(m.deal, m.config, seat, parsed)
            else:
                events, step = auction.do_response(m.deal, seat, parsed)
        while step is not None:
            step = self._follow(step, events)
        return events

    # ----- the unchecked random driver ---------------------------------------------------------
    def random_step(self, rng: RandomSource, shuffle: Shuffle) -> tuple[int | None, dict[str, Any],
                                                                         BlotAction]:
        """The engine's random step (same draws, same action), without building entries or
        parsing (:mod:`.driver`): the seat is drawn from :meth:`to_act` (in play, its
        ``(turn,)``), the action by the phase's driver function; the deal is parsed from its
        own ints."""
        m = self.match
        phase = m.phase
        if phase is PLAY:
            deal = m.deal
            seat = rng.choice((deal.turn,))
            if deal.tricks_played:  # the hot path: one plain play per legal card (inlined)
                card = rng.choice(tricks.legal_now(deal, m.config))
                return seat, {"type": "play", "card": CODES[card]}, PLAYS[card]
            return seat, *driver.random_play(deal, m.config, seat, rng)
        if phase is DEAL:
            action = self.chance_action(shuffle)
            return None, action, Deal(driver.parsed_deal(action["hands"]))
        seat = rng.choice(self.to_act())
        if phase is AUCTION:
            return seat, *driver.random_call(m.deal, m.config, seat, rng)
        return seat, *driver.random_response(rng)

    def play_random(self, rng: RandomSource, shuffle: Shuffle, max_steps: int,
                    log: Callable[[int | None, dict[str, Any]], None]) -> int:
        """The engine's loop, with each deal's card play (32 of its ~37 steps) in the tight
        loop of :meth:`_play_cards_randomly`: the same draws as :meth:`random_step`, the same
        state as :meth:`_do_quiet`."""
        m = self.match
        steps = 0
        while steps < max_steps and self._outcome is None:
            if m.phase is PLAY:
                steps += self._play_cards_randomly(rng, max_steps - steps, log)
                continue
            seat, action, parsed = self.random_step(rng, shuffle)
            self._do_quiet(seat, parsed)
            log(seat, action)
            steps += 1
        return steps

    def _play_cards_randomly(self, rng: RandomSource, max_steps: int,
                             log: Callable[[int | None, dict[str, Any]], None]) -> int:
        """Play the deal's cards on randomly until play ends or ``max_steps`` (> 0) cards were
        played; returns the cards played. Legal cards come from :func:`.tricks.legal_cards`
        with the arguments :func:`.tricks.legal_now` would pass, without its cache (reset by
        every card); :meth:`_follow` runs after tricks 1 and 8 only (it does nothing after the
        others)."""
        m = self.match
        choice, legal_cards, play_card = rng.choice, tricks.legal_cards, tricks.play_card
        deal, cfg, hands = m.deal, m.config, m.deal.hands
        assert deal.contract is not None  # cards are played only under a contract
        trump = deal.contract.trump
        forced = cfg.undertrump_when_cannot_overtrump == "forced"
        must_ruff = cfg.partner_winning == "must_ruff"
        steps = 0
        while steps < max_steps:
            seat = choice((deal.turn,))
            if deal.tricks_played:
                trick = deal.trick
                strength = trick.winning_strength
                card = choice(legal_cards(
                    hands[seat], trick.cards, trump,
                    ((trick.leader + trick.winning_index) ^ seat) & 1 == 0,
                    forced, must_ruff, strength - 100 if strength >= 100 else -1))
                log(seat, {"type": "play", "card": CODES[card]})
            else:  # trick 1: declarations are offered
                action, parsed = driver.random_play(deal, cfg, seat, rng)
                log(seat, action)
                assert type(parsed) is Play
                card = parsed.card
                if parsed.declare is not None:
                    declarations.declare(deal, cfg, seat, parsed.declare)
            steps += 1
            step: Transition | None = play_card(deal, cfg, seat, card)
            if step is not None and deal.tricks_played in (1, 8):
                while step is not None:
                    step = self._follow(step, None)
                if m.phase is not PLAY:
                    break
        return steps

    def _do_quiet(self, seat: int | None, parsed: BlotAction) -> None:
        """:meth:`_do` without the events: the deal, plays (:func:`.tricks.play_card`, a
        declaration recorded first) and the transitions build none; a call still builds its
        small ``call`` event (dropped)."""
        m = self.match
        if type(parsed) is Deal:
            self._deal(parsed, quiet=True)
            return
        assert seat is not None  # only the deal is a chance action
        step: Transition | None
        if type(parsed) is Play:
            if parsed.declare is not None:
                declarations.declare(m.deal, m.config, seat, parsed.declare)
            step = tricks.play_card(m.deal, m.config, seat, parsed.card)
        else:
            assert not isinstance(parsed, Play | Deal)
            if m.phase is AUCTION:
                step = auction.do_call(m.deal, m.config, seat, parsed)[1]
            else:
                step = auction.do_response(m.deal, seat, parsed)[1]
        while step is not None:
            step = self._follow(step, None)

    def _follow(self, step: Transition, events: list[Event] | None) -> Transition | None:
        """Move the match on after ``step``, appending the events it causes (``events`` is
        ``None`` when nobody wants them: the random driver); returns the next transition to
        follow, if any."""
        m = self.match
        match step:
            case TrickTaken(number=number):
                if number == 1:
                    shown = declarations.reveal(m.deal, m.config, quiet=events is None)
                    if events is not None and shown is not None:
                        events.append(shown)
                if number == 8:
                    return scoring.score(m.deal, m.config)
            case ContraCalled():
                m.phase = Phase.CONTRA_RESPONSE
            case AuctionClosed(contract=contract):
                m.phase = Phase.PLAY
                tricks.start(m.deal, contract, (m.dealer + 1) & 3)
                if events is not None:
                    events.append(public("contract", **(views.contract_json(contract) or {})))
            case Redeal():
                redealt = self._redeal()
                if events is not None:
                    events += redealt
            case DealScored(result=result):
                scored = self._deal_scored(result, quiet=events is None)
                if events is not None:
                    events += scored
        return None

    def _deal(self, action: Deal, quiet: bool = False) -> list[Event]:
        """Rule 3: 8 cards to each player; the auction starts left of the dealer. Returns the
        ``dealt`` events (none when ``quiet``)."""
        m = self.match
        m.deal = DealState(hands=[list(h) for h in action.hands], turn=(m.dealer + 1) & 3)
        m.deal_number += 1
        m.phase = Phase.AUCTION
        if quiet:
            return []
        hands = m.deal.hands
        events = [Event("dealt", {"seat": s, "cards": codes(hands[s])}, ONLY[s]) for s in range(4)]
        events.append(public("dealt", dealer=m.dealer, deal_number=m.deal_number))
        return events

    def _redeal(self) -> list[Event]:
        """Rule 4 / BB-10: four passes; the same dealer redeals (or the next one)."""
        m = self.match
        if m.config.redeal_rotates_dealer:
            self._rotate_dealer()
        m.phase = Phase.DEAL
        m.deal.hands = [[], [], [], []]
        m.deal.turn = -1
        return [public("redeal", dealer=m.dealer)]

    def _deal_scored(self, result: scoring.DealResult, quiet: bool = False) -> list[Event]:
        """Rules 7-8: add the deal to the match; end the match or rotate the dealer. Returns
        the ``deal_scored`` (and ``match_over``) events; none when ``quiet``."""
        m = self.match
        a, b = m.match_score[0] + result.scores[0], m.match_score[1] + result.scores[1]
        m.match_score = [a, b]
        m.deals = [*m.deals, views.deal_record(m, result)]  # never mutated: views share it
        events = [] if quiet else [Event("deal_scored", views.deal_record(m, result))]
        m.deal.hands = [[], [], [], []]
        m.deal.turn = -1
        winner = scoring.match_winner(m.match_score, m.config.target_score)
        if winner is None:
            self._rotate_dealer()
            m.phase = Phase.DEAL
            return events
        m.phase = Phase.OVER
        # the outcome is the state's own (Outcome.to_json copies it); the deals list and its
        # records are never mutated, so it shares them
        detail = {"winner_team": winner, "totals": [a, b], "deals": m.deals}
        self._outcome = Outcome(OutcomeReason.TARGET_REACHED, (a, b, a, b), detail)
        if not quiet:
            events.append(public("match_over", winner_team=winner, totals=[a, b]))
        return events

    def _abandon(self) -> None:
        """The table ended the match early (engine ``abandon``, a table rule, not a card rule):
        the match score so far stands and the unfinished deal scores nothing. ``returns`` are
        the team totals per seat as at a normal end; ``detail``: ``abandoned`` (true),
        ``winner_team`` (``None``), ``totals``, ``deals`` (the scored deals). The hands stay
        where they were (no card is shown)."""
        m = self.match
        a, b = m.match_score
        m.phase = Phase.OVER
        m.deal.turn = -1
        detail = {"abandoned": True, "winner_team": None, "totals": [a, b],
                  "deals": m.deals}  # scored deals are never mutated (views.py)
        self._outcome = Outcome(OutcomeReason.ABANDONED, (a, b, a, b), detail)

    def _rotate_dealer(self) -> None:
        """BB-1: the dealer moves one seat left (or right)."""
        m = self.match
        m.dealer = (m.dealer + (1 if m.config.dealer_rotation == "left" else 3)) & 3

