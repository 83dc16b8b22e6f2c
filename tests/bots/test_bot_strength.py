"""The rule bot beats the random bot in every game (fixed seeds, so the figures are stable).

Each test plays duplicate blocks through :func:`cardhall.bots.evaluate.compare` and requires the
95% confidence interval (normal approximation over blocks) of the rule bot's mean return to lie
above zero. Blot uses a short match (``target_score=31``) to stay fast.
"""

from __future__ import annotations

import pytest

from cardhall.bots.evaluate import compare
from cardhall.engine import game_names


def _needs(game: str) -> None:
    if game not in game_names():
        pytest.skip(f"{game} is not in this build")


@pytest.mark.parametrize("lineup", [["rule", "random"], ["rule", "random", "random"]])
def test_soldiers_bluff_rule_bot_beats_random(lineup: list[str]) -> None:
    result = compare("soldiers_bluff", lineup, games=300, seed=3)
    rule = result["policies"]["rule"]
    assert rule["mean_return"]["low"] > 0, result
    assert rule["edge"]["low"] > 0, result


def test_bazaar_blot_rule_team_beats_random_team() -> None:
    _needs("bazaar_blot")
    result = compare("bazaar_blot", ["rule", "random", "rule", "random"], games=80, seed=5,
                     config={"target_score": 31})
    rule = result["policies"]["rule"]
    assert rule["edge"]["low"] > 0, result
    assert rule["win_rate"]["low"] > 0.5, result


@pytest.mark.parametrize("lineup", [["rule", "random"], ["rule", "random", "random"]])
def test_palace_poker_rule_bot_beats_random(lineup: list[str]) -> None:
    _needs("palace_poker")
    result = compare("palace_poker", lineup, games=300, seed=3)
    rule = result["policies"]["rule"]
    assert rule["mean_return"]["low"] > 0, result
    assert rule["edge"]["low"] > 0, result
