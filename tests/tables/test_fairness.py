"""The fairness promise (``design.md`` section 7) checked on games a table really played and
saved: the revealed seed matches the commitment published at the start, every chance action
of the stored history recomputes from the seed with the documented shuffle
(``engine/shuffle.py``; k-th shuffle of the game = label k) under the game's shuffle seed
(``game_seed`` of the server seed and the seats' published client seeds, ``docs/fairness.md``),
the Blot and Soldier's Bluff deals also straight from ``seeded_shuffle`` and each game's
documented deal order, ``cardhall replay`` reaches the stored outcome and ``cardhall verify``
passes; a history with two dealt cards swapped fails it, naming the entry."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tablekit import Harness, LeakCheckingConnection

from cardhall.cli import main as cli_main
from cardhall.engine import (
    History,
    SeededShuffler,
    commitment,
    game_names,
    game_seed,
    get_game,
    seeded_shuffle,
)
from cardhall.engine.history import start_state
from cardhall.protocol import messages as p

REAL_GAMES = game_names()  # read at import: the toy games of these tests are not among them


def shuffle_seed_of(history: dict[str, Any]) -> bytes:
    """The game's shuffle seed, from the revealed server seed and the published client seeds."""
    assert history["shuffle"] == "cardhall-shuffle/1"
    return game_seed(bytes.fromhex(history["seed"]), history["client_seeds"])


def recompute_chance_actions(history: dict[str, Any]) -> int:
    """Re-draw every chance action of ``history`` from its seeds; returns how many."""
    shuffler = SeededShuffler(shuffle_seed_of(history))
    _, state = start_state(History.from_json(history))
    drawn = 0
    for i, entry in enumerate(history["actions"]):
        if entry["seat"] is None:
            assert state.chance_action(shuffler) == entry["action"], f"chance action {i}"
            drawn += 1
        state.apply(entry["seat"], entry["action"])
    assert state.outcome is not None and state.outcome.to_json() == history["outcome"]
    return drawn


def check_deals_from_the_documented_order(history: dict[str, Any]) -> None:
    """Every chance action that deals a fresh deck deals ``seeded_shuffle`` of the game's
    ``deal_deck`` in the order its rules object documents (``GameRules.deals_from``); a game
    that declares no deal order fails here, and so does one whose game dealt none."""
    rules = get_game(history["game"])
    assert rules.deal_deck is not None, f"{rules.name} declares no deal order (deal_deck)"
    seed = shuffle_seed_of(history)
    deals = [e["action"] for e in history["actions"] if e["seat"] is None]
    verdicts = [rules.deals_from(seeded_shuffle(seed, k, list(rules.deal_deck)), deal)
                for k, deal in enumerate(deals)]
    assert False not in verdicts, f"deals off the documented order: {verdicts}"
    assert True in verdicts, f"no chance action of {rules.name} dealt a fresh deck: {verdicts}"


def test_every_game_declares_its_deal_order() -> None:
    for game in REAL_GAMES:
        rules = get_game(game)
        assert rules.deal_deck is not None and len(set(rules.deal_deck)) == len(rules.deal_deck)
        assert set(rules.deal_deck) <= rules.card_codes, game


def test_a_game_without_a_deal_order_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    from toygame import DECK, ToyRules, register

    register(monkeypatch)

    assert ToyRules.deal_deck is None
    with pytest.raises(AssertionError, match="declares no deal order"):
        check_deals_from_the_documented_order({"game": "toy_duel", "actions": []})
    with pytest.raises(NotImplementedError, match="declares no deal order"):
        ToyRules().deals_from(list(DECK), {"type": "deal"})


@pytest.mark.parametrize("game", REAL_GAMES)
async def test_saved_games_recompute_from_the_revealed_seed(
        h: Harness, game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = get_game(game)
    n = min(max(rules.min_seats, 3), rules.max_seats)
    table = await h.manager.create(game, num_seats=n, bots={s: "rule" for s in range(1, n)},
                                   turn_timeout_seconds=5.0)
    person = LeakCheckingConnection((await h.player("ana")).player, table)
    await h.join(table, person, seat=0, client_seed=f"ana's seed for {game}")
    committed = table.seed_commitment
    for _ in range(3000):
        if h.store.games:
            break
        await h.advance(table, 1.0)
    (summary, history), = list(h.store.games.values())[:1]
    assert person.violations == []
    assert history["seed_commitment"] == committed == commitment(bytes.fromhex(history["seed"]))
    over = person.last("game_over")
    assert over.history == history and over.game_id == summary.id
    started = [e for m in person.of_type("events") for e in m.events
               if e["kind"] == "game_started"]
    assert started[0]["seed_commitment"] == committed
    assert history["client_seeds"] == [f"ana's seed for {game}"] + [None] * (n - 1)
    assert recompute_chance_actions(history) >= 1
    check_deals_from_the_documented_order(history)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(history))
    capsys.readouterr()
    assert cli_main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["finished"] and out["outcome"] == history["outcome"] == summary.outcome
    capsys.readouterr()
    assert cli_main(["verify", str(path), "--json"]) == 0
    verdict = json.loads(capsys.readouterr().out)
    assert verdict["verified"] and verdict["mismatches"] == []
    assert verdict["chance_actions"] == sum(1 for e in history["actions"] if e["seat"] is None)
    # two dealt cards swapped (between two hands, or within one): the verification fails
    index, swapped = swap_two_dealt_cards(history)
    path.write_text(json.dumps(swapped))
    assert cli_main(["verify", str(path), "--json"]) == 1
    verdict = json.loads(capsys.readouterr().out)
    assert not verdict["verified"] and verdict["mismatches"][0]["index"] == index
    assert "chance action differs" in verdict["mismatches"][0]["reason"]


def swap_two_dealt_cards(history: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """A copy of ``history`` whose first chance action has two of its dealt cards swapped (the
    first two distinct card codes in its lists: two hands' first cards in Blot and Soldier's
    Bluff, two banners in Palace Poker). Returns the entry index and the copy."""
    doc = json.loads(json.dumps(history))
    index = next(i for i, e in enumerate(doc["actions"]) if e["seat"] is None)
    slots: list[tuple[list[Any], int]] = []

    def collect(value: Any) -> None:
        if isinstance(value, list):
            for k, item in enumerate(value):
                if isinstance(item, str):
                    slots.append((value, k))
                else:
                    collect(item)
        elif isinstance(value, dict):
            for item in value.values():
                collect(item)

    collect(doc["actions"][index]["action"])
    (la, ka) = slots[0]
    (lb, kb) = next((lst, k) for lst, k in slots if lst[k] != la[ka])
    la[ka], lb[kb] = lb[kb], la[ka]
    return index, doc


async def first_deal(h: Harness, client_seed: str | None) -> tuple[str, dict[str, Any]]:
    """The commitment and first chance action of a toy game whose server seed is fixed (32 zero
    bytes) and whose seat 0 joins with ``client_seed`` (the other seat is a bot: none)."""
    table = await h.manager.create("toy_duel", num_seats=2, bots={1: "random"})
    table.seed_source = lambda _hand: bytes(32)
    table.next_seed, table.next_seed_commitment = bytes(32), commitment(bytes(32))
    kw = {} if client_seed is None else {"client_seed": client_seed}
    await h.join(table, await h.player("ana"), seat=0, **kw)
    assert table.recorder is not None and table.client_seeds == [client_seed, None]
    return table.seed_commitment or "", table.recorder.history.actions[0].action


async def test_client_seeds_change_the_deal_but_not_the_commitment(h: Harness) -> None:
    commit_a, deal_a = await first_deal(h, "alpha")
    commit_b, deal_b = await first_deal(h, "beta")
    commit_n, deal_n = await first_deal(h, None)
    again_commit, again = await first_deal(h, "alpha")
    assert commit_a == commit_b == commit_n == again_commit == commitment(bytes(32))
    assert deal_a == again  # the same seeds deal the same cards
    assert deal_a != deal_b and deal_a != deal_n and deal_b != deal_n
    from toygame import DECK
    assert deal_a["hands"][0] == SeededShuffler(game_seed(bytes(32), ["alpha", None]))(
        list(DECK))[:2]


async def test_the_commitment_is_published_before_any_client_seed_is_fixed(h: Harness) -> None:
    """The server draws each game's seed one game ahead: the lobby and every state carry the
    next game's commitment before a seat joins with its client seed, and that game's
    ``seed_commitment`` equals it (the server cannot pick its seed after seeing the client
    seeds)."""
    table = await h.manager.create("palace_poker", num_seats=2, bots={1: "rule"})
    announced = table.summary()["next_seed_commitment"]
    ana = await h.player("ana")
    await h.join(table, ana, seat=0, client_seed="chosen-after-the-commitment")
    assert table.seed_commitment == announced
    assert table.seed is not None and commitment(table.seed) == announced
    assert table.next_seed_commitment != announced  # the one after is announced at once
    last = [m for m in ana.messages if isinstance(m, p.State)][-1]
    assert last.seed_commitment == announced
    assert last.next_seed_commitment == table.next_seed_commitment


async def test_a_resume_with_a_client_seed_replaces_it_for_later_games(h: Harness) -> None:
    table = await h.manager.create("palace_poker", num_seats=2, bots={1: "rule"})
    ana = await h.player("ana")
    await h.join(table, ana, seat=0, client_seed="first")
    assert table.client_seeds == ["first", None]
    await h.join(table, ana, seat=0, client_seed="second")  # a resume by the same player
    assert table.seats[0].client_seed == "second"
    assert table.client_seeds == ["first", None]  # the running hand keeps its seeds
    await h.join(table, ana, seat=0)  # a resume without one keeps the seat's seed
    assert table.seats[0].client_seed == "second"
