"""``GET /api/rules/{game}?lang=``: a rule page for players per game in every language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cardhall.config import Settings
from cardhall.engine import game_names, get_game
from cardhall.server import rulebook
from cardhall.server.app import create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url="memory://"))) as c:
        yield c


def test_every_game_has_a_page_in_its_package_titled_with_its_name() -> None:
    for game in game_names():
        assert rulebook.has_pages(game), f"games/{game}/{rulebook.RULE_PAGES} is missing"
        assert rulebook.titles(game)["en"] == get_game(game).title
        assert set(rulebook.titles(game)) == set(rulebook.LANGUAGES)
    assert not rulebook.has_pages("no_such_game") and rulebook.page("no_such_game", "en") is None


@pytest.mark.parametrize("game", sorted(game_names()))
@pytest.mark.parametrize("lang", rulebook.LANGUAGES)
def test_page_has_hand_controls_scoring_and_glossary(client: TestClient, game: str,
                                                      lang: str) -> None:
    r = client.get(f"/api/rules/{game}", params={"lang": lang})
    assert r.status_code == 200, r.text
    page = r.json()
    assert page["game"] == game and page["lang"] == lang and page["title"]
    ids = [s["id"] for s in page["sections"]]
    assert {"hand", "scoring"} <= set(ids)
    assert all(s["paragraphs"] and all(p.strip() for p in s["paragraphs"])
               for s in page["sections"])
    assert len(page["glossary"]) >= 10


@pytest.mark.parametrize("game", sorted(game_names()))
def test_languages_have_the_same_sections_and_terms(client: TestClient, game: str) -> None:
    pages = {lang: client.get(f"/api/rules/{game}?lang={lang}").json()
             for lang in rulebook.LANGUAGES}
    shape = {lang: ([s["id"] for s in p["sections"]],
                    [len(s["paragraphs"]) for s in p["sections"]],
                    [g["id"] for g in p["glossary"]]) for lang, p in pages.items()}
    assert shape["bg"] == shape["en"] == shape["hy"]
    assert pages["bg"]["title"] != pages["en"]["title"] != pages["hy"]["title"]


def test_default_language_is_english(client: TestClient) -> None:
    assert client.get("/api/rules/bazaar_blot").json()["lang"] == "en"


def test_unknown_game_is_404_and_unknown_language_422(client: TestClient) -> None:
    r = client.get("/api/rules/chess")
    assert r.status_code == 404 and r.json()["error"]["code"] == "request.not_found"
    assert client.get("/api/rules/bazaar_blot?lang=fr").status_code == 422
