"""The table copy of a finished history (``docs/fairness.md`` section 7): over many random
Palace Poker, Soldier's Bluff and Bazaar Blot games, no card that stayed face down to the table
(hidden from the spectator by the engine's own ``hidden_from(None)`` at every step) is in the
table copy; every card it keeps is the full copy's card at that place; the seed is gone; and
each game's rule about what it shows is pinned."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardhall.engine import (
    HIDDEN,
    History,
    Recorder,
    SeatInfo,
    SeededShuffler,
    get_game,
    is_table_copy,
    table_copy,
)
from cardhall.engine.actions import sample
from cardhall.engine.history import apply_logged, start_state
from cardhall.engine.inspect import strings_in
from cardhall.selfplay import play_one

GAMES = 120

CONFIGS: dict[str, list[dict[str, Any]]] = {
    "palace_poker": [{}, {"battle_reveal": "public"}, {"structure": "no_limit"}],
    "soldiers_bluff": [{}, {"pass_is_fold": True}, {"exchange_exact": True}],
    "bazaar_blot": [{"target_score": 31}, {}],
}


def full_copy(game: str, index: int) -> dict[str, Any]:
    rng = random.Random(f"{game}/{index}")
    seats = 4 if game == "bazaar_blot" else rng.randint(2, 5)
    config = rng.choice(CONFIGS[game])
    rec, violations, _ = play_one(game, seats, seed=rng.getrandbits(32), check=False,
                                  config=config)
    assert not violations
    doc = rec.history.to_json()
    doc.update({"seed": "ab" * 32, "seed_commitment": "cd" * 32, "outcome":
                None if rec.state.outcome is None else rec.state.outcome.to_json()})
    return doc


def never_public(doc: dict[str, Any]) -> set[str]:
    """The cards hidden from a spectator at every step, by the engine's ``hidden_from``."""
    history = History.from_json(doc)
    _, state = start_state(history)
    hidden = set(state.hidden_from(None))
    for entry in history.actions:
        apply_logged(state, entry.seat, entry.action)
        hidden &= state.hidden_from(None)
    return hidden


def faces_down(obj: Any, codes: frozenset[str]) -> Any:
    if isinstance(obj, str):
        return HIDDEN if obj in codes else obj
    if isinstance(obj, list):
        return [faces_down(v, codes) for v in obj]
    if isinstance(obj, dict):
        return {k: faces_down(v, codes) for k, v in obj.items()}
    return obj


def kept_places_match(full: Any, table: Any) -> bool:
    """Every string of ``table`` is ``HIDDEN`` or the string of ``full`` at the same place."""
    if isinstance(table, str):
        return table in (HIDDEN, full)
    if isinstance(table, list):
        return len(table) == len(full) and all(map(kept_places_match, full, table))
    if isinstance(table, dict):
        return table.keys() == full.keys() and all(kept_places_match(full[k], v)
                                                   for k, v in table.items())
    return bool(table == full)


@pytest.mark.parametrize("game", ["palace_poker", "soldiers_bluff", "bazaar_blot"])
def test_no_card_the_table_never_saw_is_in_the_table_copy(game: str) -> None:
    codes = get_game(game).card_codes
    hidden_somewhere = 0
    for index in range(GAMES if game != "bazaar_blot" else 15):
        full = full_copy(game, index)
        copy = table_copy(full)
        secret = never_public(full)
        assert is_table_copy(copy) and "seed" not in copy and not is_table_copy(full)
        assert copy["seed_commitment"] == full["seed_commitment"]
        leaked = secret & set(strings_in(copy))
        assert not leaked, f"{game} #{index}: {sorted(leaked)[:5]} never face up, yet copied"
        assert faces_down(copy["actions"], codes) == faces_down(full["actions"], codes)
        assert kept_places_match(full["actions"], copy["actions"])
        assert copy["outcome"] == full["outcome"]
        assert table_copy(copy) == copy
        hidden_somewhere += bool(secret)
    if game != "bazaar_blot":
        assert hidden_somewhere > GAMES // 2  # poker hands nearly always hide something


def deal(copy: dict[str, Any], kind: str) -> dict[str, Any]:
    action: dict[str, Any] = next(a["action"] for a in copy["actions"]
                                  if a["action"]["type"] == kind)
    return action


def test_soldiers_bluff_rule_9_shows_only_the_showdown_hands_and_rule_6_hides_exchanges() -> None:
    for index in range(60):
        full = full_copy("soldiers_bluff", index)
        copy = table_copy(full)
        shown = full["outcome"]["detail"]["shown"]
        hands = deal(copy, "deal")["hands"]
        for seat, hand in enumerate(hands):
            if shown[seat] is None:  # folded, or the uncontested winner (SB-23)
                assert set(hand) <= {HIDDEN}
            else:
                assert {c for c in hand if c != HIDDEN} <= set(shown[seat])
        for entry in copy["actions"]:
            if entry["action"]["type"] == "exchange":
                assert set(entry["action"]["cards"]) <= {HIDDEN}


def test_palace_poker_pp_14_participants_and_the_rejects_place_stay_face_down() -> None:
    """Under ``battle_reveal: "participants"`` a palace is face up in the table copy only at a
    showdown; a rejected banner card (rule 5, face up) keeps its place in the palace deal
    hidden unless it was bought or its palace shown."""
    for index in range(80):
        full = full_copy("palace_poker", index)
        if full["config"].get("battle_reveal") == "public":
            continue
        copy = table_copy(full)
        shown = (full["outcome"]["detail"].get("shown") or {})
        palaces = deal(copy, "deal_palaces")["palaces"]
        for seat, palace in enumerate(palaces):
            if palace is not None and str(seat) not in shown:
                assert set(palace) == {HIDDEN}, f"#{index}: seat {seat} palace shown"
        rejected = set(deal(full, "deal_banners")["rejected"])
        stock = deal(copy, "deal_palaces")["stock"]
        bought = [c for c in stock if c != HIDDEN]
        assert stock[:len(bought)] == bought  # only the top cards a Buy drew
        assert rejected & set(deal(copy, "deal_banners")["rejected"]) == rejected


def test_bazaar_blot_hides_a_thrown_in_deal_and_what_an_abandoned_match_never_played() -> None:
    """Rule 4: a deal every seat passed is redealt unseen, so its hands are face down; the
    cards of the deal played when the match was abandoned are face up once played."""
    rules = get_game("bazaar_blot")
    rec = Recorder(rules, rules.config({}), [SeatInfo(f"p{i}") for i in range(4)], 0)
    shuffle = SeededShuffler(bytes(32))
    rec.act(None, rec.state.chance_action(shuffle))
    for seat in (1, 2, 3, 0):
        rec.act(seat, {"type": "pass"})
    assert rec.state.chance_due()
    rec.act(None, rec.state.chance_action(shuffle))
    rng = random.Random(4)
    while sum(a.action["type"] == "play" for a in rec.history.actions) < 5:
        if rec.state.chance_due():  # another thrown-in deal
            rec.act(None, rec.state.chance_action(shuffle))
            continue
        seat = rec.state.to_act()[0]
        rec.act(seat, sample(rng.choice(rec.state.legal_actions(seat)), rng))
    rec.abandon()
    full = rec.history.to_json()
    copy = table_copy(full)
    assert set(strings_in(copy["actions"][0]["action"]["hands"])) == {HIDDEN}
    played = {a["action"]["card"] for a in full["actions"] if a["action"]["type"] == "play"}
    assert played
    last = max(i for i, a in enumerate(full["actions"]) if a["action"]["type"] == "deal")
    kept = {c for c in strings_in(copy["actions"][last]["action"]["hands"]) if c != HIDDEN}
    assert played <= kept and not kept & never_public(full)  # + declarations shown (rule 6)
    assert len(kept) < 32


@pytest.mark.parametrize("game", ["palace_poker", "soldiers_bluff", "bazaar_blot"])
def test_every_game_names_its_cards(game: str) -> None:
    """A game without ``card_codes`` would hide nothing in its table copy."""
    assert len(get_game(game).card_codes) >= 32 and HIDDEN not in get_game(game).card_codes


def test_cardhall_verify_checks_a_table_copy_as_far_as_it_can(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """``docs/fairness.md`` section 5: exit 3 and ``not_checked`` naming the deal
    recomputation; a face-up card dealt twice is a mismatch (exit 1)."""
    import json

    from cardhall.cli import main
    from cardhall.engine import check_table_copy

    copy = table_copy(full_copy("palace_poker", 3))
    result = check_table_copy(copy)
    assert not result.mismatches and not result.verified and result.copy == "table"
    assert any("deals" in n and "needs the seed" in n for n in result.not_checked)
    path = tmp_path / "table.json"
    path.write_text(json.dumps(copy))
    assert main(["verify", str(path), "--json"]) == 3
    out = json.loads(capsys.readouterr().out)
    assert out["copy"] == "table" and out["mismatches"] == [] and out["not_checked"]
    stock = copy["actions"][1]["action"]["stock"]
    stock[-1] = stock[-2] = "2c"  # one card face up twice in the palace deal
    path.write_text(json.dumps(copy))
    assert main(["verify", str(path), "--json"]) == 1
    assert "dealt twice" in json.loads(capsys.readouterr().out)["mismatches"][0]["reason"]


def test_cards_only_keeps_the_cards_and_drops_what_may_be_derived_from_them() -> None:
    from cardhall.engine.cardcodes import cards_only
    codes = {"throne", "quill", "book", "candle"}
    own = {"hand": ["throne", "quill", "book"], "hand_sum": 27, "label": "bluff",
           "revealed": {"2": ["candle", "book"], "3": []}, "flags": [True, None]}
    assert cards_only(own, {"book"}.__contains__, codes) == {
        "hand": ["??", "??", "book"], "revealed": {"2": ["??", "book"]}}
    assert cards_only({"hand_sum": 27, "hand": []}, lambda _c: True, codes) is None
    assert own["hand"] == ["throne", "quill", "book"]  # not changed
