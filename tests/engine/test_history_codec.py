"""The hand-history codec (design.md section 4)."""

from __future__ import annotations

import pytest

from cardhall.engine import History, InvalidHistoryError

DOC = {
    "format": "cardhall-history/1",
    "game": "bazaar_blot",
    "config": {"target_score": 101},
    "seats": [{"name": "ana"}, {"name": "bot-1", "bot": True}, {"name": "gor"}, {"name": "b2", "bot": True}],
    "dealer": 0,
    "stacks": None,
    "actions": [
        {"seat": None, "action": {"type": "deal", "hands": []}},
        {"seat": 2, "action": {"type": "pass"}, "timeout": True, "t_ms": 10004},
    ],
    "id": "g-1",
}


def test_round_trip_keeps_every_field() -> None:
    assert History.from_json(DOC).to_json() == DOC


@pytest.mark.parametrize(
    ("patch", "needle"),
    [
        ({"format": "other/9"}, "format"),
        ({"game": 3}, "game"),
        ({"seats": []}, "seats"),
        ({"dealer": "x"}, "dealer"),
        ({"stacks": [1, "a"]}, "stacks"),
        ({"actions": [{"seat": 0}]}, "action 0"),
        ({"config": [1]}, "config"),
    ],
)
def test_invalid_documents_name_the_field(patch: dict, needle: str) -> None:
    with pytest.raises(InvalidHistoryError, match=needle):
        History.from_json({**DOC, **patch})
