"""Fair play you can check (``design.md`` section 7), by construction: for random games of
every game and every recipient (each seat, so each Blot partner; a spectator; a seated player
who sits out the hand), a second deal that differs only in cards that recipient has not seen,
the same actions replayed, and every message the recipient gets identical in both runs until
the rules show a moved card (method: ``docs/engine.md``, "Leak test by construction";
helpers: ``leakkit.py``). Compared at the engine (views, public and private parts, events,
legal actions) and in the raw frames the table actor sends.

``CARDHALL_LEAK_GAMES`` (default 200) sets the games per game for a longer local run."""

from __future__ import annotations

import os
import random
from dataclasses import dataclass

import pytest
from leakkit import (
    Game,
    first_difference,
    frames_until,
    random_game,
    run_table,
    second_deals,
)
from tablekit import Harness

GAMES = int(os.environ.get("CARDHALL_LEAK_GAMES", "200"))
TABLE_RUNS = 2
"""Second deals per recipient replayed at a table: the permutation and the longest swap."""


@dataclass(frozen=True)
class Setup:
    game: Game
    sit_out: int | None
    """Table seat whose holder sits out the hand (poker games), else ``None``."""


def setup(game: str, index: int) -> Setup:
    rng = random.Random(f"{game}/{index}")
    seed = rng.getrandbits(64)
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
    return Setup(random_game(game, n, [stack] * n, seed, config=config), sit_out)


async def check_game(h: Harness, game: str, index: int) -> list[str]:
    """Every recipient of one random game: the problems found (empty if none)."""
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
            diff = first_difference(frames_until(first, name, cut), frames_until(other, name, cut))
            if diff is not None:
                problems.append(f"{game}#{index} table, {name} (moved {sorted(second.moved)} "
                                f"at step {second.k}, cut {cut}): {diff}")
        await h.manager.close(other.table.id, "done")
    await h.manager.close(first.table.id, "done")
    return problems


@pytest.mark.parametrize("game", ["bazaar_blot", "palace_poker", "soldiers_bluff"])
async def test_a_second_deal_of_unseen_cards_changes_no_message(h: Harness, game: str) -> None:
    problems: list[str] = []
    for index in range(GAMES):
        problems += await check_game(h, game, index)
    assert problems == [], problems[:3]
