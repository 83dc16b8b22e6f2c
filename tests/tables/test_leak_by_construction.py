"""Fair play you can check (``design.md`` section 7), by construction: for random games of
every game and every recipient (each seat, so each Blot partner; a spectator; a seated player
who sits out the hand), a second deal that differs only in cards that recipient has not seen,
the same actions replayed, and every message the recipient gets identical in both runs until
the rules show a moved card (method: ``docs/engine.md``, "Leak test by construction";
helpers: ``leakkit.py``). Compared at the engine (views, public and private parts, events,
legal actions) and in the raw frames the table actor sends.

``CARDHALL_LEAK_GAMES`` sets the games per game: 50 by default (`make test`), 200 in CI
(`make test-leak`, which `.ci/run` runs after `make test`)."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from typing import Any

import pytest
from leakkit import (
    Game,
    first_difference,
    frames_until,
    harness,
    random_game,
    run_table,
    second_deals,
)
from tablekit import Harness

from cardhall.engine.inspect import strings_in
from cardhall.tables.fanout import Fanout

pytestmark = pytest.mark.unverified_saves  # the deals are scripted, not drawn from the seed


GAMES = int(os.environ.get("CARDHALL_LEAK_GAMES", "50"))
TABLE_RUNS = 2
"""Second deals per recipient replayed at a table: the permutation and the longest swap."""


@dataclass(frozen=True)
class Setup:
    game: Game
    sit_out: int | None
    """Table seat whose holder sits out the hand (poker games), else ``None``."""
    engine_only: Game | None = None
    """Poker games: the same game with a game seat of no chips, which the engine deals out
    (a table seats such a holder outside the game instead); compared at the engine only."""


def setup(game: str, index: int) -> Setup:
    rng = random.Random(f"{game}/{index}")
    seed = rng.getrandbits(64)
    config: dict[str, Any]
    if game == "bazaar_blot":
        config = rng.choice([{}, {"target_score": 31}, {"undertrump_when_cannot_overtrump":
                                                        "forced", "target_score": 51}])
        return Setup(random_game(game, 4, None, seed, config=config), None)
    n = rng.randint(2, 4)
    stack = rng.choice([3, 12, 60])
    sit_out = rng.randrange(n + 1)
    if game == "soldiers_bluff":
        config = rng.choice([{}, {"pass_is_fold": True}, {"exchange_exact": True}])
    else:
        config = rng.choice([{}, {"battle_reveal": "public"}, {"structure": "no_limit"}])
    stacks = [stack] * (n + 1)
    stacks[sit_out] = 0
    return Setup(random_game(game, n, [stack] * n, seed, config=config), sit_out,
                 random_game(game, n + 1, stacks, seed, config=config))


@dataclass
class Tally:
    problems: list[str]
    table_frames: int = 0
    """Frames compared at a table from the second deal's on (before it both runs are one)."""


async def check_game(game: str, index: int, tally: Tally | None = None) -> list[str]:
    """Every recipient of one random game: the problems found (empty if none)."""
    async with harness() as h:
        return await _check_game(h, game, index, tally)


async def _check_game(h: Harness, game: str, index: int, tally: Tally | None) -> list[str]:
    s = setup(game, index)
    g = s.game
    rng = random.Random(f"{game}/{index}/sigma")
    problems: list[str] = []
    seconds = []
    for viewer in [*range(g.num_seats), None]:
        deals = second_deals(g, viewer, rng)
        for second, cmp in deals:
            problems += [f"{game}#{index} engine, viewer {viewer}, moved {sorted(second.moved)}"
                         f" at step {second.k}: {m}" for m in cmp.mismatches[:1]]
        seconds += [(second, cmp.cut) for second, cmp in deals[:TABLE_RUNS]]
    if s.engine_only is not None:
        out = s.engine_only
        for viewer in (s.sit_out, None):
            for second, cmp in second_deals(out, viewer, rng):
                problems += [f"{game}#{index} engine, dealt-out seat game, viewer {viewer}, "
                             f"moved {sorted(second.moved)} at step {second.k}: {m}"
                             for m in cmp.mismatches[:1]]
    if not seconds:
        return problems
    table_seats = [ts for ts in range(g.num_seats + (s.sit_out is not None)) if ts != s.sit_out]
    first = await run_table(h, g, g.steps, sit_out=s.sit_out,
                            until=max(cut for _, cut in seconds))
    for second, cut in seconds:
        other = await run_table(h, g, second.steps, sit_out=s.sit_out, until=cut)
        if second.viewer is None:
            names = ["spectator"] + ([] if s.sit_out is None else [f"s{s.sit_out}"])
        else:
            names = [f"s{table_seats[second.viewer]}"]
        for name in names:
            fa, fb = frames_until(first, name, cut), frames_until(other, name, cut)
            if tally is not None:
                before = len(frames_until(first, name, second.k))
                tally.table_frames += len(fa) - before
            diff = first_difference(fa, fb)
            if diff is not None:
                problems.append(f"{game}#{index} table, {name} (moved {sorted(second.moved)} "
                                f"at step {second.k}, cut {cut}): {diff}")
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("game", ["bazaar_blot", "palace_poker", "soldiers_bluff"])
async def test_a_second_deal_of_unseen_cards_changes_no_message(game: str) -> None:
    tally = Tally([])
    for index in range(GAMES):
        tally.problems += await check_game(game, index, tally)
    assert tally.problems == [], tally.problems[:3]
    print(f"{game}: {GAMES} games, {tally.table_frames} frames compared after a second deal")
    assert tally.table_frames > 3 * GAMES  # not vacuous


# ----- planted leaks: the test must fail on each ------------------------------------------
def _fanout_peeks_at_the_next_seat(original: Any) -> Any:
    """A fan-out bug: every frame's decision part carries one card of another seat's private
    view (the next game seat's; a spectator's, game seat 0's)."""
    def decision(self: Fanout, seat: int | None, gs: int | None) -> dict[str, Any]:
        out = original(self, seat, gs)
        rec = self.table.recorder
        if rec is not None:
            st = rec.state
            other = 0 if gs is None else (gs + 1) % st.num_seats
            hidden = st.hidden_from(gs)
            out["hint"] = next((c for c in strings_in(st.private_view(other)) if c in hidden),
                               None)
        return out
    return decision


def _blot_counts_hearts(original: Any) -> Any:
    """A game-view bug with no card in it: the public view counts each hand's hearts."""
    def view(m: Any, *args: Any, **kw: Any) -> dict[str, Any]:
        out = original(m, *args, **kw)
        out["hearts"] = [sum(1 for c in hand if c // 8 == 2) for hand in m.deal.hands]
        return out
    return view


def _bluff_shows_the_stock_top(original: Any) -> Any:
    """A game-view bug: every view shows the top card of the stock."""
    def view(m: Any, seat: int | None) -> dict[str, Any]:
        out = original(m, seat)
        out["stock_top"] = m.stock[0] if m.stock else None
        return out
    return view


async def _problems(game: str, games: int) -> list[str]:
    problems: list[str] = []
    for index in range(games):
        problems += await check_game(game, index)
    return problems


async def test_a_fanout_that_shows_one_card_of_another_seat_fails_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Fanout, "_decision", _fanout_peeks_at_the_next_seat(Fanout._decision))
    problems = await _problems("palace_poker", 5)
    assert any(" table, " in p and "'hint'" in p for p in problems), problems[:3]
    assert not any(" engine, " in p for p in problems)  # the engine is not at fault


async def test_a_view_that_counts_hidden_hearts_fails_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import cardhall.games.bazaar_blot.views as blot_views
    monkeypatch.setattr(blot_views, "view", _blot_counts_hearts(blot_views.view))
    problems = await _problems("bazaar_blot", 3)
    assert any(" engine, " in p for p in problems), problems[:3]
    assert any(" table, " in p and "hearts" in p for p in problems), problems[:3]
    # the self-play check looks for card codes only, so it cannot see this one
    from cardhall.selfplay import play_one
    _, violations, _ = play_one("bazaar_blot", 4, seed=1)
    assert violations == []


async def test_a_view_that_shows_the_stock_top_fails_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import cardhall.games.soldiers_bluff.views as sb_views
    monkeypatch.setattr(sb_views, "view", _bluff_shows_the_stock_top(sb_views.view))
    problems = await _problems("soldiers_bluff", 5)
    assert any(" engine, " in p for p in problems), problems[:3]
    assert any(" table, " in p and "stock_top" in p for p in problems), problems[:3]
