"""Nothing hidden leaks after the game, by construction (``docs/security.md``, "After the
game"; method: ``docs/engine.md``, "Leak test by construction"; helpers: ``afterkit.py``): for
random games of every game, a second game identical except that every card the table never saw
is re-dealt is played to the end at a table and stored, and every public answer about it (the
table copy, the game list, ``/steps``, ``/hands`` and ``/replay`` at every step, the lobby, the
players' profiles, rating histories, ``games.ndjson`` and the leaderboards; the ``game_over``
frame of the spectator and of a seat out of the hand) is byte for byte the first game's, read
as a guest and as a player of neither game.

``CARDHALL_LEAK_GAMES`` sets the games per game: 50 by default (`make test`), 200 in CI
(`make test-leak`, which `.ci/run` runs after `make test`)."""

from __future__ import annotations

import itertools
import os
import random
import re
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any
from unittest import mock

import httpx
import pytest
from afterkit import (
    World,
    answer_bytes,
    differences,
    masked,
    play_passing,
    public_answers,
    redealt,
)
from leakkit import Game, TableRun, game_ids, harness, run_table
from tablekit import Harness

from cardhall.cluster.hall import LocalHall
from cardhall.config import Settings
from cardhall.engine.cardcodes import redact
from cardhall.engine.shuffle import SeededShuffler
from cardhall.games.soldiers_bluff import showdown as sb_showdown
from cardhall.games.soldiers_bluff.ranking import hand_sum
from cardhall.server.app import create_app
from cardhall.server.routes import open_hands
from cardhall.storage import memory

pytestmark = pytest.mark.unverified_saves  # the second game's deal is no draw of its seed

GAMES = int(os.environ.get("CARDHALL_LEAK_GAMES", "50"))


@dataclass(frozen=True, slots=True)
class Setup:
    game: Game
    sit_out: int | None
    """Table seat whose holder has no chips and sits the game out (poker games)."""


def setup(game: str, index: int) -> Setup:
    """A random game: 2-4 seats (and maybe a seat out of chips) at the poker games, a few
    configs per game; Blot matches are of one played deal (``target_score`` 1: a deal played to
the end shows every card) and pass deals out often."""
    rng = random.Random(f"after/{game}/{index}")
    seed = rng.getrandbits(64)
    shuffle = SeededShuffler(seed.to_bytes(32, "big"))
    if game == "bazaar_blot":
        config: dict[str, Any] = rng.choice([
            {"target_score": 1}, {"target_score": 1, "redeal_rotates_dealer": True},
            {"target_score": 1, "undertrump_when_cannot_overtrump": "forced"}])
        g = Game(game, 4, None, [], config)
        play_passing(g, rng, shuffle, pass_rate=0.85)
        return Setup(g, None)
    n = rng.randint(2, 4)
    stack = rng.choice([3, 12, 60])
    if game == "soldiers_bluff":
        config = rng.choice([{}, {"pass_is_fold": True}, {"exchange_exact": True}])
    else:
        config = rng.choice([{}, {"battle_reveal": "public"}, {"structure": "no_limit"}])
    g = Game(game, n, [stack] * n, [], config)
    play_passing(g, rng, shuffle, pass_rate=0.0)
    return Setup(g, rng.choice([None, rng.randrange(n + 1)]))


@asynccontextmanager
async def app_client() -> AsyncIterator[httpx.AsyncClient]:
    """A client on the real app; each world points its store and hall at its own harness. No
    game is published in full (Blot's full copy is public by default: it would answer every
    card to anyone, by design)."""
    app = create_app(Settings(database_url="memory://", rest_rate_limit="1000000/minute",
                              publish_full_after_seconds={}, metrics_enabled=False))
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://test") as client:
        yield client


async def world(h: Harness, run: TableRun) -> World:
    """The ids of the game ``run`` played, and a fresh outsider's token."""
    _, token = await h.store.create_player("outsider")
    known: dict[str, Any] = h.__dict__["leak_players"]
    players = {name: rec.id for name, rec in known.items() if name != "spectator"}
    ids = game_ids(run)
    assert len(ids) == 1, ids
    return World(run.table.id, ids[0], players, token)


def game_over_frames(run: TableRun, w: World, sit_out: int | None) -> list[tuple[str, str]]:
    """The ``game_over`` frames of the spectator and of the seat out of the hand (the table
    copy, as the table sends it)."""
    names = ["spectator"] + ([] if sit_out is None else [f"s{sit_out}"])
    return [(f"frame {name}", masked(t, w)) for name in names for t in run.conns[name].texts
            if t.startswith('{"type":"game_over"')]


@dataclass
class Tally:
    problems: list[str] = field(default_factory=list)
    moved_games: int = 0
    moved_cards: int = 0
    answers: int = 0
    bytes: int = 0
    drawn: int = 0
    """Games drawn (those without a card the table never saw are drawn and skipped)."""


async def answers_of(client: httpx.AsyncClient, g: Game, sit_out: int | None,
                     dense: frozenset[int]) -> list[tuple[str, str]]:
    """Play ``g`` at a fresh table and store, point the app at them, read every answer. The
    store draws the same player ids in every world (a leaderboard breaks rating ties by id)."""
    ids = itertools.count(1)
    fake_uuid = SimpleNamespace(uuid4=lambda: uuid.UUID(int=next(ids)))
    with mock.patch.object(memory, "uuid", fake_uuid):
        return await _answers_of(client, g, sit_out, dense)


async def _answers_of(client: httpx.AsyncClient, g: Game, sit_out: int | None,
                      dense: frozenset[int]) -> list[tuple[str, str]]:
    async with harness() as h:
        run = await run_table(h, g, g.steps, sit_out=sit_out)
        await h.manager.writer.flush()
        w = await world(h, run)
        app = client._transport.app  # type: ignore[attr-defined]
        app.state.store, app.state.tables, app.state.hall = h.store, h.manager, LocalHall(h.manager)
        return game_over_frames(run, w, sit_out) + await public_answers(
            client, w, len(g.steps), dense)


async def check_game(client: httpx.AsyncClient, game: str, index: int, tally: Tally) -> None:
    s = setup(game, index)
    redeal = redealt(s.game, random.Random(f"after/{game}/{index}/sigma"))
    moved = redeal.moved
    if not moved:
        return
    tally.moved_games += 1
    tally.moved_cards += moved
    first = await answers_of(client, s.game, s.sit_out, redeal.dense)
    other = await answers_of(client, redeal.game, s.sit_out, redeal.dense)
    tally.answers += len(first)
    tally.bytes += answer_bytes(first)
    diff = differences(first, other)
    if diff is not None:
        tally.problems.append(f"{game}#{index} ({moved} cards moved): {diff}")


async def run_games(game: str, games: int) -> Tally:
    """Random games of ``game`` until ``games`` of them had a card to re-deal (every poker
    game has; a Blot match only when a deal was passed out)."""
    tally = Tally()
    async with app_client() as client:
        for index in itertools.count():
            if tally.moved_games >= games:
                break
            await check_game(client, game, index, tally)
            tally.drawn += 1
    return tally


@pytest.mark.slow
@pytest.mark.parametrize("game", ["bazaar_blot", "palace_poker", "soldiers_bluff"])
async def test_a_re_deal_of_every_card_the_table_never_saw_changes_no_public_answer(
        game: str) -> None:
    tally = await run_games(game, GAMES)
    assert tally.problems == [], (len(tally.problems), tally.problems[:3])
    print(f"{game}: {tally.moved_games} games re-dealt ({tally.moved_cards} cards) of "
          f"{tally.drawn} drawn, {tally.answers} answers ({tally.bytes} bytes) compared")
    assert tally.answers > 30 * GAMES  # not vacuous


# ----- planted leaks: the test must fail on each ------------------------------------------
def _redacted_only(obj: Any, keep: Any, codes: Any) -> Any:
    """The open hands of df87eb7: cards redacted, every other field of the view kept."""
    return redact(obj, keep, codes)


async def test_open_hands_that_keep_the_hand_sum_fail_it(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(open_hands, "cards_only", _redacted_only)
    tally = await run_games("soldiers_bluff", 4)
    assert len(tally.problems) == 4, "a hand_sum of a face-down hand went unnoticed"
    assert all("/hands?step=" in p and "hand_sum" in p for p in tally.problems), \
        tally.problems[:2]


def _award_with_every_sum(original: Any) -> Any:
    """A rules bug with no card in it: the outcome sums every hand, folded ones included."""
    def award(m: Any, *args: Any) -> Any:
        events, awarded = original(m, *args)
        awarded.detail["every_sum"] = [hand_sum(p.hand) for p in m.seats]
        return events, awarded
    return award


async def test_an_outcome_that_sums_the_folded_hands_fails_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sb_showdown, "_award", _award_with_every_sum(sb_showdown._award))
    tally = await run_games("soldiers_bluff", 3)
    assert len(tally.problems) == tally.moved_games > 0, tally.problems[:2]
    for answer in ("frame spectator", r"guest /api/games/<game> 200", r"guest /api/games 200",
                   r"/games\.ndjson 200", r"guest /api/players/<s\d> 200"):
        assert all(re.search(answer, p) for p in tally.problems), (answer, tally.problems[:1])
