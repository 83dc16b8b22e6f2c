"""The entry helpers always build an action that matches one of the entries they were given."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cardhall.bots.entries import with_amount, with_cards
from cardhall.engine import is_legal, matches

CARDS = [f"c{i}" for i in range(8)]


@given(lo=st.integers(0, 50), span=st.integers(0, 50), want=st.integers(-100, 200))
def test_with_amount_clamps_into_the_range(lo: int, span: int, want: int) -> None:
    entry = {"type": "raise", "min_to": lo, "max_to": lo + span}
    action = with_amount(entry, "to", want)
    assert matches(entry, action)
    assert action["to"] == max(lo, min(lo + span, want))


@given(
    offer=st.lists(st.sampled_from(CARDS), min_size=0, max_size=8, unique=True),
    lo=st.integers(0, 3), span=st.integers(0, 3), want=st.integers(0, 8),
    ranked=st.lists(st.sampled_from(CARDS), unique=True),
    with_empty=st.booleans(),
)
def test_with_cards_matches_an_entry(
    offer: list[str], lo: int, span: int, want: int, ranked: list[str], with_empty: bool
) -> None:
    entries = [{"type": "x", "cards_from": offer, "min_cards": min(lo, len(offer)),
                "max_cards": min(lo + span, len(offer))}]
    if with_empty:
        entries.insert(0, {"type": "x", "cards": []})
    action = with_cards(entries, "cards", ranked, want)
    assert is_legal(entries, action)
    preferred = [c for c in ranked if c in offer]
    chosen = action["cards"]
    assert chosen[: len(preferred)] == preferred[: len(chosen)]
