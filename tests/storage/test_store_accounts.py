"""Accounts, sessions and ratings of the :class:`Store` contract, on every implementation
(MemoryStore, SqlStore on SQLite and on PostgreSQL when reachable)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta

import pytest

from cardhall.storage import GameRecord, SeatResult, Store
from cardhall.storage.accounts import AlreadyRegisteredError, UsernameTakenError
from cardhall.storage.rating import Skill

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
BLOT_WIN = [162, 98, 162, 98]


def _record(game_id: str, game: str, players: list[str | None], returns: list[int], *,
            minutes: int = 0, reason: str = "showdown", bots: int = 0) -> GameRecord:
    """A finished game of ``players`` (ids; the last ``bots`` of them are bots)."""
    first_bot = len(players) - bots
    results = [SeatResult(i, f"seat{i}", r, pid, i >= first_bot)
               for i, (pid, r) in enumerate(zip(players, returns, strict=True))]
    ended = T0 + timedelta(minutes=minutes)
    return GameRecord(game_id, game, "t1", {"format": "cardhall-history/1", "game": game},
                      {"reason": reason, "returns": returns}, results,
                      ended - timedelta(minutes=1), ended)


async def test_register_then_log_in_by_any_case(store: Store) -> None:
    rec, token = await store.register("Ann", "AnnB", "$argon2id$fake")
    assert rec.username == "AnnB" and rec.name == "Ann" and not rec.is_bot
    assert await store.player_for_token(token) == rec
    found = await store.credentials("annb")
    assert found is not None and found[0].id == rec.id and found[1] == "$argon2id$fake"
    assert await store.credentials("nobody") is None
    with pytest.raises(UsernameTakenError):
        await store.register("Other", "ANNB", "$argon2id$x")


async def test_guest_upgrade_keeps_id_games_and_its_token(store: Store) -> None:
    guest, guest_token = await store.create_player("Gus")
    await store.save_games([_record("g1", "palace_poker", [guest.id, None], [5, -5])])
    rec, token = await store.register("Gus", "gus", "h", upgrade=guest.id)
    assert rec.id == guest.id and rec.username == "gus"
    assert (await store.player_for_token(guest_token)).id == guest.id  # type: ignore[union-attr]
    assert (await store.player_for_token(token)).id == guest.id  # type: ignore[union-attr]
    kinds = sorted(s.kind for s in await store.list_sessions(guest.id))
    assert kinds == ["guest", "register"]
    assert [g.id for g in await store.list_games(player_id=guest.id)] == ["g1"]
    with pytest.raises(AlreadyRegisteredError):
        await store.register("Gus", "gus2", "h", upgrade=guest.id)


async def test_sessions_are_listed_and_revoked(store: Store) -> None:
    rec, first = await store.register("Ann", "ann", "h")
    second = await store.open_session(rec.id, "login")
    listed = await store.list_sessions(rec.id, current_token=second)
    assert [s.current for s in listed] == [False, True]
    assert await store.revoke_token(second)
    assert await store.player_for_token(second) is None
    assert not await store.revoke_token(second)
    third = await store.open_session(rec.id, "login")
    assert await store.revoke_sessions(rec.id, keep_token=third) == 1
    assert await store.player_for_token(first) is None
    assert await store.player_for_token(third) is not None
    [only] = await store.list_sessions(rec.id)
    assert await store.revoke_session(rec.id, only.id)
    assert await store.player_for_token(third) is None


async def test_a_guest_token_can_be_revoked(store: Store) -> None:
    _, token = await store.create_player("Gus")
    assert await store.revoke_token(token)
    assert await store.player_for_token(token) is None


async def test_password_and_disable(store: Store) -> None:
    rec, _ = await store.register("Ann", "ann", "old")
    assert await store.set_password(rec.id, "new")
    assert (await store.credentials("ann"))[1] == "new"  # type: ignore[index]
    guest, _ = await store.create_player("Gus")
    assert not await store.set_password(guest.id, "x")
    assert (await store.set_disabled(rec.id, True)).disabled  # type: ignore[union-attr]
    assert (await store.get_player(rec.id)).disabled  # type: ignore[union-attr]
    assert await store.set_disabled("nobody", True) is None


async def test_a_blot_match_rates_two_teams_with_openskill_numbers(store: Store) -> None:
    """Openskill Plackett-Luce, two teams of two fresh players, team 0 first: every winner
    26.964294621803063 / 8.177962604389991, every loser 23.035705378196937 (the library's
    own numbers for this case)."""
    await store.save_games([_record("b1", "bazaar_blot", ["a", "b", "c", "d"], BLOT_WIN,
                                    reason="target_reached")])
    for pid, mu in (("a", 26.964294621803063), ("c", 26.964294621803063),
                    ("b", 23.035705378196937), ("d", 23.035705378196937)):
        await _check_rating(store, pid, "bazaar_blot", mu, 8.177962604389991)
    [summary] = await store.list_games()
    assert [s.mark for s in summary.seats] == ["win", "loss", "win", "loss"]
    [point] = await store.rating_history("a", "bazaar_blot")
    assert point.game_id == "b1" and point.mu_before == 25.0
    assert point.mu == pytest.approx(26.964294621803063)


async def _check_rating(store: Store, pid: str, game: str, mu: float, sigma: float) -> None:
    [rating] = [r for r in await store.player_ratings(pid) if r.game == game]
    assert rating.mu == pytest.approx(mu, abs=1e-9)
    assert rating.sigma == pytest.approx(sigma, abs=1e-9)
    assert rating.games == 1


async def test_a_poker_hand_rates_a_ranking_by_chips_won(store: Store) -> None:
    """Three fresh players ranked 1, 2, 2 (a +20 winner, two -10): openskill gives the winner
    27.869048680749426 / 8.205243377397993 and each loser 23.565475659625285 /
    8.058224222802378."""
    await store.save_games([_record("p1", "palace_poker", ["a", "b", "c"], [20, -10, -10])])
    await _check_rating(store, "a", "palace_poker", 27.869048680749426, 8.205243377397993)
    await _check_rating(store, "b", "palace_poker", 23.565475659625285, 8.058224222802378)
    await _check_rating(store, "c", "palace_poker", 23.565475659625285, 8.058224222802378)
    [a] = await store.player_ratings("a")
    assert a.wins == 1 and Skill(a.mu, a.sigma).display > 1000


async def test_games_of_one_batch_are_rated_in_order_and_abandoned_ones_not(
        store: Store) -> None:
    await store.save_games([
        _record("p1", "soldiers_bluff", ["a", "b"], [10, -10], minutes=1),
        _record("p2", "soldiers_bluff", ["a", "b"], [10, -10], minutes=2),
        _record("p3", "soldiers_bluff", ["a", "b"], [0, 0], minutes=3, reason="abandoned")])
    [a] = await store.player_ratings("a")
    assert a.games == 2 and a.wins == 2
    points = await store.rating_history("a", "soldiers_bluff")
    assert [p.game_id for p in points] == ["p1", "p2"]
    assert points[1].mu_before == pytest.approx(points[0].mu)
    assert [g.id for g in await store.list_games(player_id="a", result="win")] == ["p2", "p1"]
    [p3] = await store.list_games(player_id="a", until=T0 + timedelta(minutes=4), limit=1)
    assert p3.id == "p3" and [s.mark for s in p3.seats] == [None, None]
    await store.save_games([_record("p1", "soldiers_bluff", ["a", "b"], [10, -10])])
    assert (await store.player_ratings("a"))[0].games == 2  # a duplicate rates nothing


async def test_a_casual_game_keeps_its_marks_and_changes_no_rating(store: Store) -> None:
    """A game of a casual table (``GameRecord.rated`` false: ``rated: false`` at
    ``POST /api/tables``, a casual seek, an unrated tournament) is stored with its win/loss
    marks, and nobody's rating moves; a rated one after it still rates."""
    casual = dataclasses.replace(
        _record("c1", "soldiers_bluff", ["a", "b"], [10, -10], minutes=1), rated=False)
    assert GameRecord.from_json(casual.to_json()).rated is False  # the outbox keeps it
    await store.save_games([casual])
    assert await store.player_ratings("a") == []
    assert await store.rating_history("a", "soldiers_bluff") == []
    [c1] = await store.list_games(player_id="a")
    assert [s.mark for s in c1.seats] == ["win", "loss"]
    await store.save_games([_record("r1", "soldiers_bluff", ["a", "b"], [10, -10], minutes=2)])
    [a] = await store.player_ratings("a")
    assert a.games == 1


async def test_the_leaderboard_pages_people_and_lists_bots_apart(store: Store) -> None:
    players = []
    for i in range(5):
        rec, _ = await store.create_player(f"p{i}")
        players.append(rec.id)
    bot = await store.bot_identity("rule-bot")
    for i, pid in enumerate(players):  # p0 wins most
        for j in range(5 - i):
            await store.save_games([_record(f"g{i}-{j}", "palace_poker", [pid, bot.id],
                                            [10, -10], minutes=10 * i + j, bots=1)])
    # bots rated like anyone, listed apart
    first = await store.leaderboard("palace_poker", limit=2)
    second = await store.leaderboard("palace_poker", limit=2, offset=2)
    rest = await store.leaderboard("palace_poker", limit=2, offset=4)
    ids = [r.player_id for r in first + second + rest]
    assert ids == players and [r.name for r in first] == ["p0", "p1"]
    [bot_row] = await store.leaderboard("palace_poker", bots=True)
    assert bot_row.player_id == bot.id and bot_row.is_bot and bot_row.games == 15
    await store.set_banned(players[0], True)
    assert (await store.leaderboard("palace_poker", limit=1))[0].player_id == players[1]


async def test_usernames_compare_in_nfkc_and_look_alikes_are_refused(store: Store) -> None:
    """Issue 24, row 6: a fullwidth ``ａnna`` is ``anna`` (taken); a Cyrillic ``аnna`` looks
    like it (confusable); a log-in by any compatibility form finds the account."""
    from cardhall.storage.accounts import UsernameConfusableError

    rec, _ = await store.register("Anna", "anna", "h")
    with pytest.raises(UsernameTakenError):
        await store.register("Twin", "\uff41nna", "h")
    for twin in ("\u0430nna", "\u0410NNA", "\u0430nn\u0430"):
        with pytest.raises(UsernameConfusableError):
            await store.register("Twin", twin, "h")
    found = await store.credentials("\uff21NNA")
    assert found is not None and found[0].id == rec.id
    other, _ = await store.register("Lan", "lan", "h")  # looks different from anna: fine
    with pytest.raises(UsernameConfusableError):
        await store.register("Ian", "Ian", "h")  # capital I looks like l
    assert other.username == "lan"
