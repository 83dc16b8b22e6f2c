"""Every built-in policy of every available game: legal, side-effect free, deterministic.

Each policy is wrapped in :class:`Checked`, which, at every decision of complete games played
by :func:`cardhall.bots.evaluate.play_match`, asserts that the action matches a legal entry,
that the view and entries handed over are left unchanged, and that the same rng state gives
the same action. Lineups mix rule and random bots so the rule bot meets many positions.
"""

from __future__ import annotations

import ast
import copy
import random
from pathlib import Path
from typing import Any

import pytest

from cardhall.bots import get_policy, policy_names
from cardhall.bots.base import Policy
from cardhall.bots.evaluate import play_match
from cardhall.engine import Action, game_names, get_game, matches

# game -> (seat counts, complete games per seat count, config)
PLAN: dict[str, tuple[tuple[int, ...], int, dict[str, Any]]] = {
    "soldiers_bluff": ((2, 3, 5), 20, {}),
    "bazaar_blot": ((4,), 12, {"target_score": 31}),
    "palace_poker": ((2, 3, 6), 20, {}),
}
BOTS = Path(__file__).resolve().parents[2] / "src" / "cardhall" / "bots"


class Checked:
    """Wraps a policy and checks the contract at every decision."""

    def __init__(self, inner: Policy) -> None:
        self.inner = inner
        self.name = inner.name
        self.decisions = 0

    def choose(self, view: dict[str, Any], legal_actions: list[Action], rng: random.Random) -> Action:
        view0, legal0 = copy.deepcopy(view), copy.deepcopy(legal_actions)
        state0 = rng.getstate()
        action = self.inner.choose(view, legal_actions, rng)
        assert view == view0 and legal_actions == legal0, f"{self.name} changed its inputs"
        assert any(matches(e, action) for e in legal0), (self.name, action, legal0, view0)
        again = random.Random()
        again.setstate(state0)
        assert self.inner.choose(copy.deepcopy(view0), copy.deepcopy(legal0), again) == action
        self.decisions += 1
        return action


def _cases() -> list[tuple[str, int]]:
    return [(g, n) for g in game_names() for n in PLAN.get(g, ((2,), 10, {}))[0]]


@pytest.mark.parametrize(("game", "seats"), _cases())
def test_every_policy_returns_only_legal_actions(game: str, seats: int) -> None:
    _, games, config = PLAN.get(game, ((2,), 10, {}))
    pick = random.Random(f"{game}:{seats}")
    used = {kind: 0 for kind in policy_names()}
    for i in range(games):
        lineup = [Checked(get_policy(game, pick.choice(policy_names()))) for _ in range(seats)]
        outcome = play_match(game, lineup, seed=7000 + i, config=config)
        assert len(outcome.returns) == seats
        for p in lineup:
            used[p.name] += p.decisions
    assert all(used.values()), f"some policy never decided: {used}"


@pytest.mark.parametrize("game", game_names())
def test_rule_policy_exists_for_every_game(game: str) -> None:
    assert get_policy(game, "rule").name == "rule"


@pytest.mark.parametrize("game", game_names())
def test_match_is_deterministic_for_a_seed(game: str) -> None:
    rules = get_game(game)
    seats = 4 if game == "bazaar_blot" else min(max(rules.min_seats, 3), rules.max_seats)
    config = PLAN.get(game, ((2,), 1, {}))[2]
    lineup = [get_policy(game, "rule" if i % 2 == 0 else "random") for i in range(seats)]
    first = play_match(game, lineup, seed=11, config=config)
    assert play_match(game, lineup, seed=11, config=config) == first


def test_bots_import_no_server_storage_or_game_state() -> None:
    """Bots see views only (design.md section 1): no server, storage or game-state imports."""
    for path in sorted(BOTS.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                module = node.module or ""
                names = {a.name for a in node.names}
            elif isinstance(node, ast.Import):
                module, names = "", {a.name for a in node.names}
            else:
                continue
            text = f"{module} {' '.join(sorted(names))}"
            for bad in ("server", "storage", ".state", "State", "selfplay"):
                assert bad not in text, f"{path.name} imports {text!r}"


ALT_CONFIGS: list[tuple[str, int, dict[str, Any]]] = [
    ("soldiers_bluff", 3, {"exchange_exact": True}),
    ("soldiers_bluff", 4, {"pass_is_fold": True, "exchange_max": 0}),
    ("soldiers_bluff", 2, {"ante": 0, "fold_when_not_facing_bet": False}),
    ("bazaar_blot", 4, {"target_score": 31, "partner_raise_same_suit": False, "max_bid": 80}),
    ("bazaar_blot", 4, {"target_score": 31, "undertrump_when_cannot_overtrump": "forced",
                        "partner_winning": "must_ruff"}),
    ("palace_poker", 3, {"structure": "no_limit"}),
    ("palace_poker", 10, {}),
]


@pytest.mark.parametrize(("game", "seats", "config"), ALT_CONFIGS)
def test_policies_stay_legal_under_alternative_configs(
    game: str, seats: int, config: dict[str, Any]
) -> None:
    if game not in game_names():
        pytest.skip(f"{game} is not in this build")
    pick = random.Random(f"alt:{game}:{seats}")
    for i in range(8):
        lineup = [Checked(get_policy(game, pick.choice(policy_names()))) for _ in range(seats)]
        stacks = [pick.randint(5, 200) for _ in range(seats)]
        play_match(game, lineup, seed=9000 + i, config=config, stacks=stacks)


def test_every_registered_game_has_a_rule_bot() -> None:
    # "rule" used to fall back silently to the random bot when a game's module failed to import.
    from cardhall.bots.base import RULE_POLICIES
    from cardhall.engine import game_names

    assert sorted(RULE_POLICIES) == game_names()
    for game in game_names():
        assert get_policy(game, "rule").name == "rule"
    with pytest.raises(ValueError, match="no rule bot"):
        get_policy("no_such_game", "rule")


def test_a_rule_bot_plays_under_the_tables_config() -> None:
    # Real tables built Blot's rule bot with the default config, so it ignored carre_values.
    from cardhall.engine import get_game

    for game in ("bazaar_blot", "palace_poker", "soldiers_bluff"):
        config = get_game(game).config({})
        policy = get_policy(game, "rule", config)
        assert policy.config is config  # type: ignore[attr-defined]
