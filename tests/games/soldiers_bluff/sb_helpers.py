"""Helpers for the Soldier's Bluff tests: build hands with chosen cards and play scripts."""

from __future__ import annotations

from typing import Any

from cardhall.engine.events import Event
from cardhall.games.soldiers_bluff import CARD_IDS, RULES, SoldiersBluffState

KOW = "king_of_wolves"
BLUFF = [
    "lord_of_blades", "red_captain", "black_sergeant", "gold_guard", "green_archer",
    "white_swordsman",
]
HAND_E1_A = ["king_of_wolves", "black_sergeant", "blind_smith", "howling_wolf", "palace", "candle"]
HAND_E1_B = ["queen_of_roses", "prince_of_serpents", "green_archer", "happy_weaver", "throne",
             "grey_ship"]
HAND_E2_A = ["king_of_wolves", "galloping_horse", "castle", "crown", "bloody_dagger", "book"]
HAND_E2_B = ["queen_of_roses", "lonely_miller", "sleeping_serpent", "scroll", "drawn_bow",
             "dark_sea"]
HAND_E4_B = ["king_of_wolves", "queen_of_roses", "prince_of_serpents", "lady_of_crows",
             "blind_smith", "smiling_mason"]


def new_hand(stacks: list[int], dealer: int = 0, **config: Any) -> SoldiersBluffState:
    """A fresh hand (antes posted, deal due) with a config built from keyword fields."""
    return RULES.new_state(RULES.config(config), len(stacks), dealer, stacks)


def deal_action(
    st: SoldiersBluffState, chosen: dict[int, list[str]], stock_top: list[str] | None = None
) -> dict[str, Any]:
    """A deal giving ``chosen`` hands; other seats dealt in get the strongest cards left (in
    strength order); the stock starts with ``stock_top``, then the rest in strength order."""
    used = {c for h in chosen.values() for c in h} | set(stock_top or [])
    rest = [c for c in CARD_IDS if c not in used]
    hands: list[list[str]] = []
    for seat in range(st.num_seats):
        if seat in chosen:
            hands.append(list(chosen[seat]))
        elif st.seats[seat].in_hand:
            hands.append(rest[:6])
            rest = rest[6:]
        else:
            hands.append([])
    return {"type": "deal", "hands": hands, "stock": list(stock_top or []) + rest}


def deal(st: SoldiersBluffState, chosen: dict[int, list[str]],
         stock_top: list[str] | None = None) -> list[Event]:
    """Apply :func:`deal_action`."""
    return st.apply(None, deal_action(st, chosen, stock_top))


def no_exchanges(st: SoldiersBluffState) -> None:
    """Every seat exchanges nothing."""
    while st.phase == "exchange":
        st.apply(st.to_act()[0], {"type": "exchange", "cards": []})


def play(st: SoldiersBluffState, script: list[tuple[int, dict[str, Any]]]) -> list[Event]:
    """Apply ``(seat, action)`` pairs in order; return all events."""
    events: list[Event] = []
    for seat, action in script:
        events += st.apply(seat, action)
    return events


def types(entries: list[dict[str, Any]]) -> list[str]:
    """The action types of legal-action entries."""
    return [e["type"] for e in entries]


PASS = {"type": "pass"}
CHECK = {"type": "check"}
CALL = {"type": "call"}
FOLD = {"type": "fold"}


def bet(to: int) -> dict[str, Any]:
    return {"type": "bet", "to": to}


def raise_to(to: int) -> dict[str, Any]:
    return {"type": "raise", "to": to}
