"""Legal-action entries: matching and sampling (engine/actions.py)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from cardhall.engine.actions import is_concrete, is_legal, matches, minimal, sample

RAISE = {"type": "raise", "min_to": 3, "max_to": 9}
EXCHANGE = {"type": "exchange", "cards_from": ["a", "b", "c", "d"], "min_cards": 0, "max_cards": 2}


def test_concrete_entry_matches_only_itself() -> None:
    entry = {"type": "play", "card": "Jh"}
    assert is_concrete(entry)
    assert matches(entry, {"type": "play", "card": "Jh"})
    assert not matches(entry, {"type": "play", "card": "9h"})
    assert not matches(entry, {"type": "play", "card": "Jh", "declare": []})


def test_amount_range_bounds_are_inclusive() -> None:
    assert not is_concrete(RAISE)
    assert matches(RAISE, {"type": "raise", "to": 3})
    assert matches(RAISE, {"type": "raise", "to": 9})
    assert not matches(RAISE, {"type": "raise", "to": 10})
    assert not matches(RAISE, {"type": "raise", "to": 2})
    assert not matches(RAISE, {"type": "raise", "to": 3.0})
    assert not matches(RAISE, {"type": "raise"})


def test_card_choice_needs_distinct_offered_cards() -> None:
    assert matches(EXCHANGE, {"type": "exchange", "cards": []})
    assert matches(EXCHANGE, {"type": "exchange", "cards": ["d", "a"]})
    assert not matches(EXCHANGE, {"type": "exchange", "cards": ["a", "a"]})
    assert not matches(EXCHANGE, {"type": "exchange", "cards": ["a", "b", "c"]})
    assert not matches(EXCHANGE, {"type": "exchange", "cards": ["z"]})


def test_minimal_is_an_instance() -> None:
    assert minimal(RAISE) == {"type": "raise", "to": 3}
    assert matches(EXCHANGE, minimal(EXCHANGE))


@given(st.integers(0, 2**32))
def test_sample_is_always_an_instance(seed: int) -> None:
    rng = random.Random(seed)
    assert matches(RAISE, sample(RAISE, rng))
    assert matches(EXCHANGE, sample(EXCHANGE, rng))


def test_card_choice_with_unhashable_items_is_not_an_instance() -> None:
    # matches() raised TypeError (set() of a list of lists) on a client's malformed action
    entry = {"type": "exchange", "cards_from": ["a", "b", "c"], "min_cards": 0, "max_cards": 2}
    assert not matches(entry, {"type": "exchange", "cards": [["a"]]})
    assert not matches(entry, {"type": "exchange", "cards": [{"a": 1}, "b"]})
    assert not is_legal([entry], {"type": "exchange", "cards": [["a"], ["b"]]})
    assert matches(entry, {"type": "exchange", "cards": ["c", "a"]})


def test_copy_json_is_a_deep_copy_of_json_values() -> None:
    from cardhall.engine.actions import copy_json

    src = {"a": [1, {"b": ["x"]}], "t": ("y", 2), "n": None}
    out = copy_json(src)
    assert out == {"a": [1, {"b": ["x"]}], "t": ["y", 2], "n": None}
    out["a"][1]["b"].append("z")
    assert src["a"][1]["b"] == ["x"]


def test_sample_of_a_concrete_entry_is_an_equal_fresh_dict_and_draws_nothing() -> None:
    entry = {"type": "play", "card": "Jh"}
    rng = random.Random(4)
    state = rng.getstate()
    action = sample(entry, rng)
    assert action == entry and action is not entry
    assert rng.getstate() == state


def test_copy_json_is_deep_and_keeps_key_order() -> None:
    from collections import OrderedDict

    from cardhall.engine.actions import copy_json

    inner = {"b": [1, (2, 3)], "a": {"x": ["y"]}}
    doc = {"z": 1, "inner": inner, "t": ("p", {"q": 2}), "od": OrderedDict(k=[1])}
    out = copy_json(doc)
    assert out == {"z": 1, "inner": {"b": [1, [2, 3]], "a": {"x": ["y"]}}, "t": ["p", {"q": 2}],
                   "od": {"k": [1]}}
    assert list(out) == ["z", "inner", "t", "od"] and list(out["inner"]) == ["b", "a"]
    assert type(out["od"]) is dict
    out["inner"]["b"].append(9)
    out["inner"]["a"]["x"].append("w")
    out["t"][1]["q"] = 7
    assert inner == {"b": [1, (2, 3)], "a": {"x": ["y"]}} and doc["t"] == ("p", {"q": 2})
