"""``/api/rules/{game}/cards``: the browser's card table is the engine's own copy."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardhall.config import Settings
from cardhall.games.soldiers_bluff.cards import CARD_IDS, DECK, LANGUAGES, card_name, card_table
from cardhall.server.app import create_app

STATIC = Path(__file__).resolve().parents[2] / "static"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url="memory://"))) as c:
        yield c


def test_soldiers_bluff_cards_are_what_the_engine_uses(client: TestClient) -> None:
    r = client.get("/api/rules/soldiers_bluff/cards")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body == card_table()
    assert body["game"] == "soldiers_bluff" and tuple(body["languages"]) == LANGUAGES == ("en", "bg", "hy")
    assert [c["id"] for c in body["cards"]] == list(CARD_IDS), "strength order"
    assert [c["value"] for c in body["cards"]] == [c.value for c in DECK]
    for c in body["cards"]:
        for lang in LANGUAGES:
            assert c["names"][lang] == card_name(c["id"], lang)


@pytest.mark.parametrize("game", ["palace_poker", "bazaar_blot", "no_such_game"])
def test_games_without_a_card_table_answer_404(client: TestClient, game: str) -> None:
    r = client.get(f"/api/rules/{game}/cards")
    assert r.status_code == 404
    error = r.json()["error"]
    assert error["code"] == "request.not_found" and repr(game) in error["message"]


def test_the_card_table_cannot_be_changed_through_an_answer() -> None:
    card_table()["cards"][0]["names"]["en"] = "changed"
    assert card_table()["cards"][0]["names"]["en"] == "King of Wolves"


def test_the_browser_keeps_no_copy_of_the_card_names() -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in STATIC.rglob("*.js"))
    copied = {c.id for c in DECK for name in (c.en, c.bg, c.hy) if name in sources}
    assert copied <= {"palace"}, f"static/ holds names of {sorted(copied)}"  # Palace Poker's word
