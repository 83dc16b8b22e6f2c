"""``/docs`` and ``/redoc`` work offline (``docs/rest.md``): with every request to another host
blocked, Swagger UI renders the operations and ReDoc its menu, from assets the app serves."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

pytest.importorskip("playwright", reason="the playwright Python package is not installed")

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def offline(page: Any, app_url: str) -> list[str]:
    """Abort every request not to the app's host; returns the list of blocked URLs."""
    host = urlsplit(app_url).netloc
    blocked: list[str] = []

    def route(r: Any) -> None:
        if urlsplit(r.request.url).netloc == host:
            r.continue_()
        else:
            blocked.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    return blocked


def test_docs_renders_swagger_ui_with_the_network_blocked_except_the_app(
        new_page: Any, server: Any) -> None:
    page = new_page(csp=True)  # under the /docs policy (server/headers.py)
    blocked = offline(page, server.url)
    page.goto(f"{server.url}/docs")
    page.wait_for_selector(".swagger-ui .opblock", timeout=15_000)
    assert page.locator(".opblock").count() > 20
    assert page.locator(".opblock-summary-path", has_text="/api/games/{game_id}").count() >= 1
    assert blocked == [], blocked


REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
"""The one URL the ReDoc bundle itself names: the image of its "API docs by Redocly" credit
(cosmetic; the page renders without it)."""


def test_redoc_renders_with_the_network_blocked_except_the_app(browser: Any, server: Any) -> None:
    page = browser.new_page()  # not watched for console errors: the blocked credit logs one
    try:
        blocked = offline(page, server.url)
        page.goto(f"{server.url}/redoc")
        page.wait_for_selector(".api-content", timeout=20_000)
        assert page.get_by_text("/api/games/{game_id}").count() >= 1
        assert set(blocked) <= {REDOC_LOGO}, blocked
    finally:
        page.close()
