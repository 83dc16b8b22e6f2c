"""``GET /api/catalog``: every registered game and its facts, read from the registry (issue 25,
"a catalog instead of lists"), cacheable with an ETag."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from cardhall.config import Settings
from cardhall.engine import game_names, get_game
from cardhall.engine.config import bounds
from cardhall.server.app import create_app
from cardhall.server.routes.catalog import Catalog


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    settings = Settings(database_url="memory://", default_starting_stack=150,
                        max_starting_stack=9000)
    with TestClient(create_app(settings)) as c:
        yield c


def test_the_catalog_lists_every_registered_game_with_its_facts(client: TestClient) -> None:
    r = client.get("/api/catalog")
    assert r.status_code == 200, r.text
    body = Catalog.model_validate(r.json())
    assert [g.name for g in body.games] == game_names()
    for g in body.games:
        rules = get_game(g.name)
        assert g.title == rules.title == g.titles["en"]
        assert set(g.titles) == set(body.languages) == {"en", "bg", "hy"}
        assert (g.seats.min, g.seats.max) == (rules.min_seats, rules.max_seats)
        assert g.rated and g.teams == rules.teams
        if rules.uses_stacks:
            assert g.stacks is not None
            assert (g.stacks.default, g.stacks.min, g.stacks.max) == (150, 1, 9000)
            assert g.stacks.min_to_deal == rules.min_stack(rules.config())
        else:
            assert g.stacks is None
        assert [f.name for f in g.config] == [f.name for f in dataclasses.fields(rules.config_cls)]
        for name, bound in bounds(rules.config_cls).items():
            field = next(f for f in g.config if f.name == name)
            assert field.kind == "int" and field.bound is not None
            assert (field.bound.lo, field.bound.hi, field.bound.unit) == (bound.lo, bound.hi,
                                                                          bound.unit)
        assert rules.config({f.name: f.default for f in g.config if f.default is not None})
        assert g.rules is not None and client.get(g.rules.page + "?lang=bg").status_code == 200
        unit = rules.replay_unit
        assert (g.replay_unit is None) == (unit is None)
        if unit is not None and g.replay_unit is not None:
            assert g.replay_unit.name == unit.name
            assert set(g.replay_unit.ends_with) == unit.ends_with


def test_config_field_kinds_defaults_and_choices(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
    fields = {f["name"]: f for f in games["palace_poker"]["config"]}
    assert fields["small_bet"] == {"name": "small_bet", "kind": "int", "default": 2,
                                   "nullable": False, "choices": None,
                                   "bound": {"lo": 1, "hi": 1_000_000, "unit": "chips"}}
    assert fields["ante"]["default"] is None and fields["ante"]["nullable"]
    assert fields["structure"]["kind"] == "choice"
    assert fields["structure"]["choices"] == ["limit", "no_limit"]
    assert fields["side_pots"]["kind"] == "bool" and fields["side_pots"]["default"] is False
    blot = {f["name"]: f for f in games["bazaar_blot"]["config"]}
    assert blot["target_score"]["default"] == 101 and blot["contracts"]["kind"] == "list"
    assert games["bazaar_blot"]["teams"] == 2
    assert games["soldiers_bluff"]["rules"]["cards"] == "/api/rules/soldiers_bluff/cards"
    assert games["palace_poker"]["rules"]["cards"] is None


def test_the_catalog_is_cached_by_its_etag(client: TestClient) -> None:
    first = client.get("/api/catalog")
    tag = first.headers["etag"]
    assert first.headers["cache-control"] == "no-cache"
    again = client.get("/api/catalog", headers={"If-None-Match": f'W/{tag}, "other"'})
    assert again.status_code == 304 and again.content == b"" and again.headers["etag"] == tag
    stale = client.get("/api/catalog", headers={"If-None-Match": '"stale"'})
    assert stale.status_code == 200 and stale.content == first.content


def test_other_settings_give_another_catalog_and_tag() -> None:
    with TestClient(create_app(Settings(database_url="memory://"))) as other:
        r = other.get("/api/catalog")
    games = {g["name"]: g for g in r.json()["games"]}
    assert games["palace_poker"]["stacks"]["default"] == 200
    with TestClient(create_app(Settings(database_url="memory://",
                                        default_starting_stack=150,
                                        max_starting_stack=9000))) as same:
        assert same.get("/api/catalog").headers["etag"] != r.headers["etag"]
