"""Property-based hostile REST: schemathesis fuzzes every operation of ``/openapi.json``.

The app runs in process (ASGI, in-memory store) with an admin token and one player's bearer
token, so authenticated routes are reached past their guard. Each operation gets a bounded,
deterministic set of examples (``MAX_EXAMPLES``, valid and invalid, Hypothesis derandomized),
and every answer must pass schemathesis's checks: no 5xx (``not_a_server_error``), the status,
content type, headers and body documented (``*_conformance``), invalid input refused and valid
input accepted. ``docs/security.md`` names this test for "bad input gets a typed error".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

schemathesis = pytest.importorskip(
    "schemathesis", reason="schemathesis is not installed (a dev dependency: pip install -e '.[dev]')")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.python import asgi  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402

from cardhall.config import Settings  # noqa: E402
from cardhall.server.app import create_app  # noqa: E402

ADMIN_TOKEN = "schemathesis-admin-token-0123456789"
MAX_EXAMPLES = 25
"""Examples per operation (and generation mode); the whole run stays within CI's budget."""


APP = create_app(Settings(database_url="memory://", admin_token=ADMIN_TOKEN,
                          metrics_enabled=False,  # the run is one client: no rate or quota
                          rest_rate_limit="1000000/minute", guest_rate_limit="1000000/minute",
                          max_live_tables_per_player=1_000_000,
                          max_waiting_tables_per_address=1_000_000))  # type: ignore[call-arg]
"""Built at import, started (lifespan) by the first request of the run, stopped at teardown."""

CHECKED_BEYOND_THE_SCHEMA = {
    "POST /api/tables": "the game validates config, seat count, stack and timeout bounds",
    "POST /api/tournaments": "Swiss rounds below the entrants; the game validates config; "
                             "two running per player",
    "POST /api/seeks": "the game bounds the seat count",
    "GET /api/tables": "a cursor must be one the lobby gave (opaque: no JSON Schema)",
    "POST /api/players": "a name must hold no control or format character (no JSON Schema)",
    "POST /api/admin/bots": "a name must hold no control or format character (no JSON Schema)",
    "POST /api/accounts": "a password must be strong enough for zxcvbn; a username not like another",
    "POST /api/accounts/password": "the new password must be strong enough for zxcvbn",
    "POST /api/admin/players/{player_id}/password": "the password must be strong enough for zxcvbn",
}
"""Operations whose schema-valid input may still be refused (422 with a typed code): they skip
``positive_data_acceptance`` only; every other check runs on them."""

CONFIG = schemathesis.Config.from_dict({
    "seed": 1,
    "generation": {"max-examples": MAX_EXAMPLES, "deterministic": True},
    "auth": {
        "openapi": {"AdminToken": {"bearer": ADMIN_TOKEN}},
        # a fresh guest's token, fetched once from the app itself
        "dynamic": {"openapi": {"PlayerToken": {
            "path": "/api/players", "payload": {"name": "fuzz"}, "extract_selector": "/token"}}},
    },
})
schema = schemathesis.openapi.from_dict(APP.openapi(), config=CONFIG)
schema.app = APP  # what ``from_asgi`` does, without a request (and a lifespan) at collection
schema.location = "/openapi.json"


@pytest.fixture(scope="module", autouse=True)
def _stop_the_app() -> Iterator[None]:
    """The first request starts the app's lifespan (in schemathesis's portal); stop it after."""
    try:
        yield
    finally:
        asgi.shutdown_lifespans()


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_no_operation_answers_5xx_or_off_schema(case: Any) -> None:
    semantic = case.operation.label in CHECKED_BEYOND_THE_SCHEMA
    case.call_and_validate(excluded_checks=[positive_data_acceptance] if semantic else None)
