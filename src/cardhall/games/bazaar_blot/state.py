"""The Bazaar Blot match state: phases, turns and dispatch (the deal state machine of rule 2-8).

Phases: ``"deal"`` (a chance deal is due) -> ``"auction"`` -> (redeal | ``"contra_response"``)
-> ``"play"`` (8 tricks) -> scoring -> ``"deal"`` ... -> ``"over"``. Cards are ints internally
(:mod:`.cards`); strings appear only in actions, entries, views, events and snapshots.
"""

from __future__ import annotations

from typing import Any

from ...engine.actions import copy_json
from ...engine.errors import IllegalActionError, NotYourTurnError
from ...engine.events import Event, private, public
from ...engine.game import GameState, Outcome, OutcomeReason, Shuffle
from . import auction, play, views
from .cards import CODES, codes
from .config import BlotConfig
from .declarations import describe
from .scoring import match_winner, score_deal
from .tricks import winner_index
from .wire import Parsed, parse_action


class BlotState(GameState):
    """One Bazaar Blot match of 4 seats (teams: seats 0, 2 = team 0; seats 1, 3 = team 1).

    Built by ``RULES.new_state(config, 4, dealer)``; the first action is the chance deal.
    """

    def __init__(self, config: BlotConfig, dealer: int) -> None:
        self.config = config
        self.num_seats = 4
        self.dealer = dealer
        self.deal_no = 0
        self.phase = "deal"
        self.totals = [0, 0]
        self.deals: list[dict[str, Any]] = []
        self._outcome: Outcome | None = None
        self.hands: list[list[int]] = [[], [], [], []]
        self._reset_deal()

    def _reset_deal(self) -> None:
        """Clear every per-deal field (auction, contract, tricks, declarations)."""
        self.turn = -1
        self.calls: list[tuple[Any, ...]] = []
        self.bid_seat = -1
        self.bid_level = 0
        self.bid_suit = -1
        self.bid_kapot = False
        self.passes = 0
        self.window = False
        self.kapots = [0, 0]
        self.multiplier = 1
        self.responses = 0
        self.declarer = -1
        self.trump = -1
        self.level: int | None = None
        self.leader = -1
        self.trick: list[int] = []
        self.win_i = 0  # index in ``trick`` of the card winning it so far
        self.win_key = -1  # its tricks.card_key
        self.legal_cache: list[int] | None = None
        self.combos_cache: list[list[tuple[int, ...]] | None] = [None, None, None, None]
        self.trick_no = 0
        self.tricks_won = [0, 0]
        self.points = [0, 0]
        self.last_trick: tuple[int, list[int], int] | None = None
        self.decls: list[tuple[int, tuple[int, ...]]] = []
        self.revealed = False
        self.decl_winner: int | None = None
        self.decl_awarded = [0, 0]

    # ----- queries ----------------------------------------------------------------------------
    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def chance_due(self) -> bool:
        return self.phase == "deal"

    def to_act(self) -> tuple[int, ...]:
        """The turn seat first, then (in the auction) opponents who may contra out of turn."""
        match self.phase:
            case "auction":
                if self.window:
                    extra = [s for s in auction.contra_seats(self) if s != self.turn]
                    return (self.turn, *extra)
                return (self.turn,)
            case "contra_response" | "play":
                return (self.turn,)
        return ()

    def timer_seat(self) -> int | None:
        """The turn seat (never an out-of-turn contra seat)."""
        return self.turn if self.phase in ("auction", "contra_response", "play") else None

    def _legal_actions(self, seat: int) -> list[dict[str, Any]]:
        if not self.is_seat(seat):
            return []
        match self.phase:
            case "auction":
                return auction.auction_entries(self, seat)
            case "contra_response":
                return auction.response_entries(self, seat)
            case "play":
                return play.play_entries(self, seat)
        return []

    def _timeout_action(self, seat: int) -> dict[str, Any] | None:
        """Rule 9 / BB-41: auction and contra response -> pass; play -> the weakest legal
        card without declaration; ``None`` for a seat whose timer is not running."""
        if not self.is_seat(seat) or seat != self.timer_seat():
            return None
        if self.phase == "play":
            return play.timeout_play(self)
        return {"type": "pass"}

    def _view(self, seat: int | None) -> dict[str, Any]:
        return views.view(self, seat)

    def hidden_from(self, seat: int | None) -> set[str]:
        """Cards in other seats' hands, except declared cards once shown at trick 2."""
        shown = {c for _, cs in self.decls for c in cs} if self.revealed else set()
        return {CODES[c] for s in range(4) if s != seat for c in self.hands[s] if c not in shown}

    def snapshot(self) -> dict[str, Any]:
        return views.snapshot(self)

    def check_invariants(self) -> list[str]:
        out = []
        cards = [c for h in self.hands for c in h] + self.trick
        if len(set(cards)) != len(cards):
            out.append("a card is in two places")
        if self.phase != "deal" and self.phase != "over" and len(cards) != 32 - 4 * self.trick_no:
            out.append(f"{len(cards)} cards in hands and trick after {self.trick_no} tricks")
        if self.trick and winner_index(self.trick, self.trump) != self.win_i:
            out.append("tracked trick winner is wrong")
        if sum(self.tricks_won) != self.trick_no:
            out.append("tricks won do not add up")
        return out

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
            hands[(self.dealer + 1 + i) & 3] = list(deck[8 * i: 8 * i + 8])
        return {"type": "deal", "hands": hands}

    # ----- transitions ------------------------------------------------------------------------
    def _parse(self, seat: int | None, action: dict[str, Any]) -> Parsed:
        return parse_action(action)

    def _check(self, seat: int | None, parsed: Parsed) -> None:
        if seat is None:
            if parsed[0] != "deal":
                raise IllegalActionError(f"{parsed[0]!r} is not a chance action; a deal is due")
            return
        match self.phase:
            case "auction":
                auction.check_call(self, seat, parsed)
            case "contra_response":
                auction.check_response(self, seat, parsed)
            case "play":
                play.check_play(self, seat, parsed)

    def _do(self, seat: int | None, parsed: Parsed) -> list[Event]:
        match self.phase:
            case "auction":
                return auction.do_call(self, seat, parsed)  # type: ignore[arg-type]
            case "contra_response":
                return auction.do_response(self, seat, parsed)  # type: ignore[arg-type]
            case "play":
                return play.do_play(self, seat, parsed)  # type: ignore[arg-type]
        return self._deal(parsed[1])

    def _deal(self, hands: list[list[int]]) -> list[Event]:
        """Rule 3: 8 cards to each player; the auction starts left of the dealer."""
        self._reset_deal()
        self.deal_no += 1
        self.hands = hands
        self.phase = "auction"
        self.turn = (self.dealer + 1) & 3
        events = [private(s, "dealt", seat=s, cards=codes(hands[s])) for s in range(4)]
        events.append(public("dealt", dealer=self.dealer, deal_number=self.deal_no))
        return events

    # ----- phase changes (called by auction and play) -----------------------------------------
    def redeal(self) -> list[Event]:
        """Rule 4 / BB-10: four passes; the same dealer redeals (or the next one)."""
        if self.config.redeal_rotates_dealer:
            self._rotate_dealer()
        self.phase = "deal"
        self.hands = [[], [], [], []]
        self.turn = -1
        return [public("redeal", dealer=self.dealer)]

    def start_play(self) -> list[Event]:
        """The auction is closed: fix the contract; left of the dealer leads trick 1."""
        self.declarer = self.bid_seat
        self.trump = self.bid_suit
        self.level = None if self.bid_kapot else self.bid_level
        self.window = False
        self.phase = "play"
        self.leader = self.turn = (self.dealer + 1) & 3
        return [public("contract", **(views.contract_json(self) or {}))]

    def finish_deal(self) -> list[Event]:
        """Rules 7-8: score the deal, add to the match, end the match or rotate the dealer."""
        team = self.declarer & 1
        res = score_deal(self.config, team, self.level, self.tricks_won, self.points,
                         self.decl_awarded, self.multiplier)
        self.totals = [self.totals[0] + res.scores[0], self.totals[1] + res.scores[1]]
        record = {
            "deal": self.deal_no, "dealer": self.dealer, "contract": views.contract_json(self),
            "tricks": list(self.tricks_won), "card_points": list(self.points),
            "card_small": list(res.card_small), "combinations": list(res.combos),
            "made": res.made, "scores": list(res.scores), "totals": list(self.totals),
        }
        self.deals.append(record)
        events = [public("deal_scored", **copy_json(record))]
        self.hands = [[], [], [], []]
        self.turn = -1
        a, b = self.totals
        winner = match_winner(self.totals, self.config.target_score)
        if winner is not None:
            self.phase = "over"
            detail = {"winner_team": winner, "totals": [a, b], "deals": copy_json(self.deals)}
            self._outcome = Outcome(OutcomeReason.TARGET_REACHED, (a, b, a, b), detail)
            events.append(public("match_over", winner_team=winner, totals=[a, b]))
        else:
            self._rotate_dealer()
            self.phase = "deal"
        return events

    def _rotate_dealer(self) -> None:
        step = 1 if self.config.dealer_rotation == "left" else 3
        self.dealer = (self.dealer + step) & 3

    def declarations_json(self, with_cards: bool) -> list[dict[str, Any]]:
        """Declarations in trick-1 order: seat, kind, length, value (+ cards once shown)."""
        out = []
        for seat, cards in self.decls:
            d = describe(cards, self.trump, self.config)
            item: dict[str, Any] = {"seat": seat, "kind": d.kind, "length": d.length,
                                    "value": d.value}
            if with_cards:
                item["cards"] = codes(cards)
            out.append(item)
        return out
