"""Soldier's Bluff rules 4-12 and the views of section 5, clause by clause."""

from __future__ import annotations

import pytest
from sb_helpers import CALL, CHECK, FOLD, PASS, bet, deal, new_hand, no_exchanges, play, types

from cardhall.engine.actions import is_legal
from cardhall.engine.errors import InvalidConfigError
from cardhall.engine.inspect import leaks
from cardhall.games.soldiers_bluff import CARD_IDS


def test_SB_rule4_short_stacks_sit_out_and_get_no_cards() -> None:
    st = new_hand([10, 0, 5, 1], dealer=3, ante=2)
    assert [p.in_hand for p in st.seats] == [True, False, True, False]
    assert st.pot == 4 and st.order == [0, 2]
    assert st.cap == 3, "smallest stack after the ante among players dealt in"
    action = st.chance_action(lambda cards: cards)
    assert action["hands"][1] == [] and action["hands"][3] == []
    st.apply(None, action)
    assert st.to_act() == (0,)


def test_SB_rule4_fewer_than_two_dealt_in_starts_no_hand() -> None:
    with pytest.raises(InvalidConfigError, match="at least 2"):
        new_hand([10, 0, 0])


def test_SB_rule4_ante_zero_deals_everyone_in() -> None:
    st = new_hand([0, 7], ante=0)
    assert [p.in_hand for p in st.seats] == [True, True] and st.pot == 0 and st.cap == 0


def test_SB_rule5_deal_one_card_at_a_time_from_the_dealers_left() -> None:
    st = new_hand([10, 10, 10], dealer=1)
    handed: list[list[str]] = []
    action = st.chance_action(lambda cards: handed.append(list(cards)) or list(cards))
    assert handed == [list(CARD_IDS)], "the shuffle gets the 40 ids in strength order"
    deck = list(CARD_IDS)
    assert action["hands"][2] == deck[0:18:3]
    assert action["hands"][0] == deck[1:18:3]
    assert action["hands"][1] == deck[2:18:3]
    assert action["stock"] == deck[18:]


def test_SB_rule5_hands_are_private() -> None:
    st = new_hand([10, 10])
    events = deal(st, {})
    dealt = [e for e in events if e.kind == "dealt"]
    assert {tuple(e.to or ()) for e in dealt} == {(0,), (1,)}
    for e in dealt:
        (owner,) = e.to or ()
        assert e.data["cards"] == st.seats[owner].hand
    public_deal = next(e for e in events if e.kind == "deal")
    assert public_deal.to is None and public_deal.data["counts"] == [6, 6]


def test_SB_rule6_exchange_count_public_cards_private() -> None:
    st = new_hand([10, 10])
    deal(st, {})
    discards = st.seats[1].hand[:1]
    events = st.apply(1, {"type": "exchange", "cards": discards})
    pub = next(e for e in events if e.kind == "exchanged")
    assert pub.to is None and pub.data == {"seat": 1, "count": 1, "stock_size": 27}
    drew = next(e for e in events if e.kind == "drew")
    assert drew.to == frozenset({1}) and drew.data["discarded"] == discards
    assert st.view(0)["seats"][1]["exchanged"] == 1
    assert not set(discards) & set(str(st.view(0)))


def test_SB_rule6_legal_exchange_entry() -> None:
    st = new_hand([10, 10])
    deal(st, {})
    assert st.legal_actions(1) == [
        {"type": "exchange", "cards_from": st.seats[1].hand, "min_cards": 0, "max_cards": 2}
    ]


def test_SB_4_exchange_exact_offers_none_or_exactly_two() -> None:
    st = new_hand([10, 10], exchange_exact=True)
    deal(st, {})
    entries = st.legal_actions(1)
    assert {"type": "exchange", "cards": []} in entries
    assert is_legal(entries, {"type": "exchange", "cards": st.seats[1].hand[:2]})
    assert not is_legal(entries, {"type": "exchange", "cards": st.seats[1].hand[:1]})


def test_SB_rule7_round1_entries_with_amount_range() -> None:
    st = new_hand([30, 12, 50])
    deal(st, {})
    no_exchanges(st)
    assert st.cap == 11
    assert st.legal_actions(1) == [
        {"type": "pass"}, {"type": "bet", "min_to": 1, "max_to": 11}, {"type": "fold"}
    ]
    play(st, [(1, bet(4))])
    assert {"type": "bet", "min_to": 4, "max_to": 11} in st.legal_actions(2), "SB-9: >= H"


def test_SB_9_alternative_round1_bets_need_only_min_bet() -> None:
    st = new_hand([30, 30, 30], round1_bet_must_match=False)
    deal(st, {})
    no_exchanges(st)
    play(st, [(1, bet(4))])
    assert {"type": "bet", "min_to": 1, "max_to": 29} in st.legal_actions(2)


def test_SB_rule7_round2_check_or_raise_when_matched_call_when_behind() -> None:
    st = new_hand([30, 30, 30], min_raise=2)
    deal(st, {})
    no_exchanges(st)
    play(st, [(1, bet(3)), (2, bet(3)), (0, PASS)])
    assert st.legal_actions(1) == [
        {"type": "check"}, {"type": "raise", "min_to": 5, "max_to": 29}, {"type": "fold"}
    ]
    play(st, [(1, CHECK), (2, CHECK)])
    assert types(st.legal_actions(0)) == ["call", "raise", "fold"]
    play(st, [(0, CALL)])
    assert st.outcome is not None and st.outcome.reason == "showdown"
    assert st.outcome.detail is not None and st.outcome.detail["pot"] == 12


def test_SB_rule7_cap_zero_offers_no_bet_or_raise() -> None:
    st = new_hand([1, 20, 20])
    deal(st, {})
    no_exchanges(st)
    assert st.cap == 0
    assert types(st.legal_actions(1)) == ["pass", "fold"]
    play(st, [(1, PASS), (2, PASS), (0, PASS)])
    assert types(st.legal_actions(1)) == ["check", "fold"]
    play(st, [(1, CHECK), (2, CHECK), (0, CHECK)])
    assert st.outcome is not None and st.outcome.reason == "showdown"


def test_SB_rule7_no_raise_above_cap_once_reached() -> None:
    st = new_hand([6, 6])
    deal(st, {})
    no_exchanges(st)
    play(st, [(1, bet(5)), (0, bet(5))])
    assert types(st.legal_actions(1)) == ["check", "fold"]


def test_SB_14_folding_when_not_facing_a_bet_is_allowed_by_default() -> None:
    st = new_hand([20, 20, 20])
    deal(st, {})
    no_exchanges(st)
    play(st, [(1, FOLD)])
    assert st.seats[1].folded and st.to_act() == (2,)
    st2 = new_hand([20, 20, 20], fold_when_not_facing_bet=False)
    deal(st2, {})
    no_exchanges(st2)
    assert "fold" not in types(st2.legal_actions(1))


def test_SB_rule12_timeouts() -> None:
    st = new_hand([20, 20, 20])
    deal(st, {})
    assert st.timeout_action(1) == {"type": "exchange", "cards": []}
    assert st.timeout_action(2) is None, "not to act"
    no_exchanges(st)
    assert st.timeout_action(1) == PASS
    play(st, [(1, bet(2)), (2, PASS), (0, PASS)])
    assert st.timeout_action(1) == CHECK
    play(st, [(1, CHECK)])
    assert st.timeout_action(2) == FOLD


def test_SB_section5_views_show_own_hand_and_public_facts() -> None:
    st = new_hand([20, 30, 40])
    deal(st, {})
    no_exchanges(st)
    play(st, [(1, bet(3))])
    v = st.view(2)
    assert v["hand"] == st.seats[2].hand
    assert v["pot"] == 6 and v["highest"] == 3 and v["cap"] == 19 and v["round"] == 1
    assert v["to_act"] == 2 and v["dealer"] == 0 and v["stock_size"] == 22
    assert v["seats"][1] == {"seat": 1, "in_hand": True, "chips": 26, "ante": 1, "stake": 3,
                             "folded": False, "exchanged": 0, "shown": None}
    spectator = st.view(None)
    assert spectator["hand"] == []
    assert leaks(st) == []


def test_SB_section5_showdown_reveals_only_non_folded_hands() -> None:
    st = new_hand([20, 20, 20])
    deal(st, {})
    no_exchanges(st)
    play(st, [(1, PASS), (2, FOLD), (0, PASS), (1, CHECK), (0, CHECK)])
    shown = [s["shown"] for s in st.view(None)["seats"]]
    assert shown[0] == st.seats[0].hand and shown[1] == st.seats[1].hand and shown[2] is None
    assert set(st.seats[2].hand) <= st.hidden_from(None)
    assert set(st.seats[2].hand) <= st.hidden_from(0)
    assert st.outcome is not None and st.outcome.detail is not None
    assert st.outcome.detail["shown"][2] is None


def test_SB_rule10_returns_sum_to_zero_and_ignore_seats_sitting_out() -> None:
    st = new_hand([20, 0, 20])
    deal(st, {})
    no_exchanges(st)
    play(st, [(2, bet(7)), (0, FOLD)])
    assert st.outcome is not None and st.outcome.returns == (-1, 0, 1)


def test_SB_rule7_highest_stake_counts_only_non_folded_players() -> None:
    st = new_hand([20, 20, 20])
    deal(st, {})
    no_exchanges(st)
    play(st, [(1, bet(5)), (2, PASS), (0, PASS), (1, FOLD)])
    assert st.highest() == 0, "H is taken over non-folded players only (rule 7)"
    assert types(st.legal_actions(2)) == ["check", "raise", "fold"]
    play(st, [(2, CHECK), (0, CHECK)])
    assert st.outcome is not None and st.outcome.reason == "showdown"
    assert st.outcome.detail is not None and st.outcome.detail["pot"] == 8
