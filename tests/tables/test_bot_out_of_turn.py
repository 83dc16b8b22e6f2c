"""A built-in bot at the table acts on its seat's turn; out of turn (Bazaar Blot's contra
window) only when its policy's ``acts_out_of_turn`` says so (``tables/bots.py``): the rule bot
with a reason to contra, never the random bot, never a rule bot with a weak hand."""

from __future__ import annotations

from typing import Any

from cardhall.bots import get_policy
from cardhall.protocol.frames import Frame
from cardhall.storage.interface import PlayerRecord
from cardhall.tables.bots import BotConnection
from cardhall.tables.clock import FakeClock
from cardhall.tables.messages import ClientRequest

WEAK = ["Jh", "9h", "As", "7c", "8c", "7d", "8d", "Qs"]  # J + 9, one ace: no contra after a pass
STRONG = ["Jh", "9h", "As", "Ac", "7c", "8d", "7d", "Qs"]  # J + 9, two aces


def _window(hand: list[str]) -> dict[str, Any]:
    """The full state of table seat 2 after its pass and seat 3's bid of 9 hearts, while its
    partner (seat 0) is to call: seat 2 may contra out of turn until seat 1 calls (BB-14)."""
    calls = [{"seat": 1, "type": "pass"}, {"seat": 2, "type": "pass"},
             {"seat": 3, "type": "bid", "trump": "h", "level": 9}]
    view = {"game": "bazaar_blot", "seat": 2, "phase": "auction", "dealer": 0, "deal_number": 1,
            "target_score": 101, "match_score": [0, 0], "teams": [[0, 2], [1, 3]], "turn": 0,
            "to_act": [0, 2], "hand": hand, "hand_sizes": [8, 8, 8, 8],
            "auction": {"calls": calls, "standing": {"seat": 3, "trump": "h", "level": 9,
                                                     "kapot": False},
                        "contra_window": True, "multiplier": 1},
            "contract": None, "trick": None, "last_trick": None, "tricks_won": [0, 0],
            "card_points": [0, 0], "declarations": [], "declarations_winner_team": None,
            "deals": []}
    return {"type": "state", "full": True, "table_id": "t", "version": 7, "game": "bazaar_blot",
            "status": "playing", "hand": 1, "seat": 2, "game_seat": 2, "seat_map": [0, 1, 2, 3],
            "seats": [], "view": view, "legal_actions": [{"type": "contra"}],
            "to_act": [0, 2], "timer_seat": 0, "deadline_ms": 9000, "turn_timeout_ms": 10000,
            "seed_commitment": None, "game_id": "g1", "events": []}


def _bot(kind: str) -> tuple[BotConnection, FakeClock, list[Any]]:
    clock, posted = FakeClock(), []
    bot = BotConnection(PlayerRecord("rule-bot", "Cleo", is_bot=True),
                        get_policy("bazaar_blot", kind), clock, 0.5, posted.append)
    return bot, clock, posted


def test_out_of_turn_only_the_rule_bot_with_a_reason_calls_contra() -> None:
    for kind, hand, acts in (("random", STRONG, False), ("rule", WEAK, False),
                             ("rule", STRONG, True)):
        bot, clock, posted = _bot(kind)
        bot.send(Frame(_window(hand)))
        clock.advance(1.0)
        moves = [m.msg.action for m in posted if isinstance(m, ClientRequest)]
        assert moves == ([{"type": "contra"}] if acts else []), (kind, hand)


def test_on_its_own_turn_every_bot_is_asked() -> None:
    state = _window(WEAK)
    state["to_act"], state["legal_actions"] = [2], [{"type": "pass"}, {"type": "contra"}]
    state["view"]["turn"], state["view"]["to_act"] = 2, [2]
    for kind in ("random", "rule"):
        bot, clock, posted = _bot(kind)
        bot.send(Frame(state))
        clock.advance(1.0)
        assert len(posted) == 1, kind
    bot, clock, posted = _bot("rule")
    bot.send(Frame(state))
    clock.advance(1.0)
    assert posted[0].msg.action == {"type": "pass"}  # its turn: a weak hand passes
