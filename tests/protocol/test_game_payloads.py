"""Every view, legal-action entry and event the engines produce in random games of every game
conforms to that game's models in :mod:`cardhall.protocol.games` (the ones the published
``state`` schema references, built from each game's ``RULES.wire``). Everything per game comes
from the registry: the configs played are the rules object's ``example_configs``, each played
for the same step budget, and the events seen must cover most kinds the game declares (so a
new game is held to the same test without an entry here)."""

from __future__ import annotations

import random
from typing import Annotated, Any, get_args, get_origin, get_type_hints

import pytest
from pydantic import TypeAdapter, ValidationError

from cardhall.engine import GameRules, SeededShuffler, game_names, get_game, sample
from cardhall.protocol import messages as p
from cardhall.protocol.games import GAME_PAYLOADS, VIEW_PATCHES, patch_of, payloads_of

STEPS = 2400
"""Steps played per game, split evenly over its ``example_configs``."""


def declared_kinds(rules: GameRules[Any]) -> set[str]:
    """The event kinds a game's wire shapes declare (the ``Literal`` of each member's ``kind``)."""
    assert rules.wire is not None, f"{rules.name} declares no wire shapes"
    union = get_args(rules.wire.event)[0]
    kinds: set[str] = set()
    for member in get_args(union) or (union,):
        if get_origin(member) is Annotated:
            member = get_args(member)[0]
        kinds |= set(get_args(get_type_hints(member, include_extras=True)["kind"]))
    return kinds


def test_every_registered_game_has_typed_payloads() -> None:
    assert sorted(GAME_PAYLOADS) == sorted(game_names()) == list(p.GAMES)


def check_random_games(rules: GameRules[Any]) -> None:
    """Play ``STEPS`` random steps of ``rules`` and validate every payload against its models."""
    view_t, entry_t, event_t = payloads_of(rules)
    entries, events = TypeAdapter(list[entry_t]), TypeAdapter(list[event_t])  # type: ignore[valid-type]
    patch = VIEW_PATCHES.get(rules.name) or patch_of(view_t)
    kinds: set[str] = set()
    budget = STEPS // len(rules.example_configs)
    for cfg in rules.example_configs:
        checked, g = 0, 0
        while checked < budget:
            rng = random.Random(g)
            n = rng.randint(rules.min_seats, min(rules.max_seats, 6))
            stacks = ([rng.choice([3, 20, 100]) for _ in range(n)] if rules.uses_stacks
                      else None)
            st = rules.new_state(rules.config(cfg), n, rng.randrange(n), stacks)
            shuffle = SeededShuffler(bytes([g % 256]) * 32)
            g += 1
            for _ in range(5000):
                for seat in (None, *range(n)):
                    view = st.view(seat)
                    view_t.model_validate(view)
                    patch.model_validate({k: v for k, v in view.items() if rng.random() < .5})
                    if seat is not None:
                        entries.validate_python(st.legal_actions(seat))
                checked += 1
                if st.outcome is not None:
                    break
                if st.chance_due():
                    seat, action = None, st.chance_action(shuffle)
                else:
                    seat = rng.choice(st.to_act())
                    action = sample(rng.choice(st.legal_actions(seat)), rng)
                out = [e.to_json() for e in st.apply(seat, action)]
                events.validate_python(out)
                kinds |= {e["kind"] for e in out}
            events.validate_python([e.to_json() for e in st.abandon()] if st.outcome is None
                                   else [])
    declared = declared_kinds(rules)
    missing = declared - kinds
    assert len(missing) <= len(declared) // 4, f"{rules.name}: never produced {sorted(missing)}"


@pytest.mark.parametrize("game", sorted(GAME_PAYLOADS))
def test_random_games_conform_to_the_game_models(game: str) -> None:
    check_random_games(get_game(game))


@pytest.mark.parametrize("bad", [
    {"kind": "played", "seat": 1, "card": "6h"},  # no 6 in Blot
    {"kind": "played", "seat": 1, "card": "Jh", "extra": 1},
    {"kind": "dealt", "seat": 1},
    {"kind": "no_such_event"},
])
def test_the_event_models_refuse_what_the_game_never_sends(bad: dict[str, Any]) -> None:
    _, _, event_t = GAME_PAYLOADS["bazaar_blot"]
    with pytest.raises(ValidationError):
        TypeAdapter(event_t).validate_python(bad)


def test_a_state_of_one_game_does_not_pass_as_another() -> None:
    base = {"type": "state", "full": False, "table_id": "t", "version": 3, "base_version": 2,
            "status": "playing", "hand": 1, "seat": 0, "game_seat": 0, "to_act": [0],
            "timer_seat": 0, "deadline_ms": 1, "actor": 1, "timeout": False,
            "legal_actions": [{"type": "bet", "min_to": 1, "max_to": 3}],
            "events": [{"kind": "pass", "seat": 1, "stake": 0, "pot": 2, "folded": False}],
            "view_patch": {"to_act": 0}}
    p.SERVER_TYPED.validate_python({**base, "game": "soldiers_bluff"})
    for game in ("palace_poker", "bazaar_blot", "toy"):
        with pytest.raises(ValidationError):
            p.SERVER_TYPED.validate_python({**base, "game": game})
    with pytest.raises(ValidationError):
        p.SERVER_TYPED.validate_python({**base, "game": "soldiers_bluff",
                                        "view_patch": {"hands_of_others": []}})
    p.SERVER.validate_python({**base, "game": "toy"})  # the envelope alone is game-agnostic
