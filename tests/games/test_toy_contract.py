"""The contract suite holds a new game honestly: ``toy_highcard`` (``toy_highcard.py``, defined
under ``tests/`` only and registered for each test) passes the same game-generic tests the
three games pass, called on it directly, and plays a table over a real socket. Nothing of it
lives outside its module but the registration ``register`` does (``docs/design.md`` section 12).
"""

from __future__ import annotations

import asyncio
import inspect
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from render_golden import golden_doc
from toy_highcard import NAME, register

from cardhall.engine import History, get_game, replay, seeded_shuffle

TESTS = Path(__file__).resolve().parents[1]
for folder in ("engine", "protocol", "server", "tables"):
    if str(TESTS / folder) not in sys.path:
        sys.path.insert(0, str(TESTS / folder))

import test_attack_contract  # noqa: E402
import test_game_payloads  # noqa: E402
import test_random_playouts  # noqa: E402
import test_random_step  # noqa: E402
import test_seat_guards  # noqa: E402


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch)


def contract_tests() -> list[tuple[str, Callable[..., Any]]]:
    """Every test of the game-generic modules that takes a ``game`` (and maybe ``seats``)."""
    out = []
    for mod in (test_attack_contract, test_random_playouts, test_random_step, test_seat_guards):
        for name, fn in vars(mod).items():
            params = list(inspect.signature(fn).parameters) if name.startswith("test_") else []
            if params[:1] == ["game"] and set(params) <= {"game", "seats", "bad"}:
                out.append((f"{mod.__name__}.{name}", fn))
    return out


@pytest.mark.parametrize(("name", "fn"), contract_tests(), ids=[n for n, _ in contract_tests()])
def test_the_toy_passes_the_generic_contract(name: str, fn: Callable[..., Any]) -> None:
    params = inspect.signature(fn).parameters
    for seats in (2, 6):
        kwargs: dict[str, Any] = {"game": NAME}
        if "seats" in params:
            kwargs["seats"] = seats
        for bad in ([-1, 9, True, "0"] if "bad" in params else [None]):
            fn(**({**kwargs, "bad": bad} if "bad" in params else kwargs))


def test_the_toy_payloads_conform_to_models_built_from_its_wire_shapes() -> None:
    test_game_payloads.check_random_games(get_game(NAME))


def test_the_toy_deals_in_its_documented_order() -> None:
    rules = get_game(NAME)
    assert rules.deal_deck is not None
    doc = golden_doc(rules)
    deals = [e["action"] for e in doc["history"]["actions"] if e["seat"] is None]
    # the golden shuffle is a SeededShuffler of a fixed seed: its k-th shuffle is label k
    import hashlib
    seed = hashlib.sha256(f"golden:{doc['seed']}".encode()).digest()
    verdicts = [rules.deals_from(seeded_shuffle(seed, k, list(rules.deal_deck)), d)
                for k, d in enumerate(deals)]
    assert verdicts == [True]
    state = replay(History.from_json(doc["history"]))
    assert state.outcome is not None and state.outcome.to_json() == doc["outcome"]


def test_the_toy_plays_a_table_over_a_real_socket(monkeypatch: pytest.MonkeyPatch) -> None:
    from livesrv import Audit, client, live_server, play_randomly

    async def play() -> list[dict[str, Any]]:
        async with live_server() as live:
            audit = Audit(live, monkeypatch)
            (pa, ta), (pb, tb) = [await live.player(n) for n in ("ana", "bob")]
            async with live.http as http:
                r = await http.post("/api/tables", json={"game": NAME, "seats": 2},
                                    headers={"Authorization": f"Bearer {ta}"})
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            async with client(live, ta) as a, client(live, tb) as b:
                await a.send({"type": "join", "table_id": tid, "seat": 0})
                await a.expect("joined")
                await b.send({"type": "join", "table_id": tid, "seat": 1})
                await b.expect("joined")
                overs = await asyncio.gather(play_randomly(a, tid, 1), play_randomly(b, tid, 2))
                for pid, c in ((pa, a), (pb, b)):
                    assert audit.violations(pid, c.frames) == []
            return list(overs)

    over_a, over_b = asyncio.run(play())
    assert over_a == over_b and over_a["history"]["game"] == NAME
    assert replay(History.from_json(over_a["history"])).outcome is not None
