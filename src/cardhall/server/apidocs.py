"""``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) from assets the app serves itself, so the API
explorer works without internet (``docs/rest.md``).

The JavaScript and CSS come from the ``fastapi-offline`` package (maintained; it ships the
Swagger UI bundle, its CSS, the ReDoc standalone bundle and a favicon as package data). Only
its files are used: the pages are FastAPI's own ``get_swagger_ui_html`` / ``get_redoc_html``
pointed at ``/docs-assets/...``; FastAPI's CDN-loading defaults are switched off in
:func:`~.app.create_app` (``docs_url=None, redoc_url=None``).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS_URL = "/docs-assets"
"""Where the Swagger UI and ReDoc files are served (not under ``/api``: never rate limited)."""


def assets_dir() -> Path:
    """The directory of ``fastapi-offline``'s bundled assets (``swagger-ui-bundle.js``,
    ``swagger-ui.css``, ``redoc.standalone.js``, ``favicon.png``)."""
    return Path(str(files("fastapi_offline") / "static"))


def install_api_docs(app: FastAPI) -> None:
    """Mount the assets at :data:`ASSETS_URL` and add ``GET /docs``, its OAuth2 redirect page
    and ``GET /redoc`` (none of them in the OpenAPI document)."""
    app.mount(ASSETS_URL, StaticFiles(directory=assets_dir()), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"
    redirect_url = app.swagger_ui_oauth2_redirect_url or "/docs/oauth2-redirect"

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_swagger_ui_html(
            openapi_url=f"{root}{openapi_url}", title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=f"{root}{redirect_url}",
            swagger_js_url=f"{root}{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS_URL}/favicon.png")

    @app.get(redirect_url, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return get_redoc_html(
            openapi_url=f"{root}{openapi_url}", title=f"{app.title} - ReDoc",
            redoc_js_url=f"{root}{ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{ASSETS_URL}/favicon.png", with_google_fonts=False)
