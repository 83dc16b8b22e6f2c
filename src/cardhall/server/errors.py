"""REST errors: one JSON shape and one table of stable codes (``design.md`` sections 6-7).

Every error response body is ``{"error": {"code": "namespace.code", "message": "...",
"details": [...]?}}``. Raise :class:`ApiError` with a code from :data:`ERROR_STATUS` (which maps
each code to its HTTP status); :func:`install_error_handlers` also rewrites FastAPI's validation
errors (``request.invalid``) and Starlette's HTTP errors (``request.not_found`` ...) into it, a
database that cannot answer (refused, timed out, locked, full: :func:`store_unavailable`) into
503 ``store.unavailable``, and anything else unexpected into 500 ``server.error``
(:class:`UnexpectedErrors`), never a text/plain 500.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from redis.exceptions import RedisError
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..tables.errors import TableError
from .outages import store_unavailable

RestErrorCode = Literal[
    "request.invalid",
    "request.too_large",
    "request.not_found",
    "request.method_not_allowed",
    "request.error",
    "auth.missing_token",
    "auth.invalid_token",
    "auth.banned",
    "auth.disabled",
    "auth.bad_credentials",
    "account.username_taken",
    "account.username_confusable",
    "account.weak_password",
    "account.not_guest",
    "account.not_registered",
    "session.not_found",
    "admin.disabled",
    "admin.invalid_token",
    "player.not_found",
    "game.not_found",
    "game.not_participant",
    "engine.invalid_config",
    "engine.unknown_game",
    "table.not_found",
    "table.bad_seat",
    "table.limit",
    "tournament.not_found",
    "tournament.limit",
    "tournament.closed",
    "tournament.full",
    "tournament.already_entered",
    "tournament.not_entered",
    "tournament.not_creator",
    "seek.not_found",
    "seek.already_waiting",
    "seek.needs_account",
    "seek.pool_full",
    "quota.tables",
    "quota.tournaments",
    "quota.sockets",
    "rate.limited",
    "store.backlog",
    "server.draining",
    "store.unavailable",
    "cluster.unavailable",
    "server.error",
]
"""Every stable REST error code (the keys of :data:`ERROR_STATUS`; a test checks both agree)."""

ERROR_STATUS: dict[RestErrorCode, int] = {
    "request.invalid": 422,
    "request.too_large": 413,
    "request.not_found": 404,
    "request.method_not_allowed": 405,
    "request.error": 400,
    "auth.missing_token": 401,
    "auth.invalid_token": 401,
    "auth.banned": 403,
    "auth.disabled": 403,
    "auth.bad_credentials": 401,
    "account.username_taken": 409,
    "account.username_confusable": 409,
    "account.weak_password": 422,
    "account.not_guest": 409,
    "account.not_registered": 409,
    "session.not_found": 404,
    "admin.disabled": 503,
    "admin.invalid_token": 401,
    "player.not_found": 404,
    "game.not_found": 404,
    "game.not_participant": 403,
    "engine.invalid_config": 422,
    "engine.unknown_game": 422,
    "table.not_found": 404,
    "table.bad_seat": 422,
    "table.limit": 503,
    "tournament.not_found": 404,
    "tournament.limit": 503,
    "tournament.closed": 409,
    "tournament.full": 409,
    "tournament.already_entered": 409,
    "tournament.not_entered": 409,
    "tournament.not_creator": 403,
    "seek.not_found": 404,
    "seek.already_waiting": 409,
    "seek.needs_account": 403,
    "seek.pool_full": 503,
    "quota.tables": 429,
    "quota.tournaments": 429,
    "quota.sockets": 429,
    "rate.limited": 429,
    "store.backlog": 503,
    "server.draining": 503,
    "store.unavailable": 503,
    "cluster.unavailable": 503,
    "server.error": 500,
}
"""Every stable REST error code and its HTTP status. Add new codes here, never rename one."""

log = logging.getLogger(__name__)

_HTTP_CODES = {404: "request.not_found", 405: "request.method_not_allowed",
               413: "request.too_large", 422: "request.invalid"}


class ErrorDetail(BaseModel):
    """The inside of an error body."""

    code: str
    message: str
    details: list[dict[str, Any]] | None = None


class ErrorResponse(BaseModel):
    """Every REST error body: ``{"error": {...}}``."""

    error: ErrorDetail


class ApiError(Exception):
    """A REST error with a stable ``code`` (one of :data:`RestErrorCode`)."""

    def __init__(self, code: RestErrorCode, message: str, *, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = ERROR_STATUS[code]
        self.code = code
        self.message = message
        self.headers = headers


def error_response(status: int, code: str, message: str, *,
                   details: list[dict[str, Any]] | None = None,
                   headers: Mapping[str, str] | None = None) -> JSONResponse:
    """The JSON response for one error (``details`` only when given)."""
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return JSONResponse({"error": body}, status_code=status,
                        headers=None if headers is None else dict(headers))


def responses(*codes: RestErrorCode) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses=`` entries documenting the error bodies of ``codes``."""
    out: dict[int | str, dict[str, Any]] = {}
    for code in codes:
        entry = out.setdefault(ERROR_STATUS[code], {"model": ErrorResponse, "description": ""})
        entry["description"] = ", ".join(filter(None, [entry["description"], f"`{code}`"]))
    return out


def _validation_details(exc: RequestValidationError) -> list[dict[str, Any]]:
    return [{"loc": [str(p) for p in err.get("loc", ())], "msg": str(err.get("msg", "")),
             "type": str(err.get("type", ""))} for err in exc.errors()]


async def _on_api_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.code, exc.message, headers=exc.headers)


async def _on_validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    details = _validation_details(exc)
    first = details[0] if details else {"loc": [], "msg": "invalid request"}
    message = f"{'.'.join(first['loc']) or 'request'}: {first['msg']}"
    return error_response(422, "request.invalid", message, details=details)


def _allowed_methods(request: Request) -> str | None:
    """The methods OpenAPI documents for the path template the router matched (FastAPI has
    one route per method, and Starlette's 405 lists only the first matching route's); ``None``
    for a route outside the schema."""
    route = request.scope.get("route")
    path = getattr(route, "path_format", None) or getattr(route, "path", None)
    documented = request.app.openapi().get("paths", {}).get(path) if path else None
    if not documented:
        return None
    return ", ".join(sorted(m.upper() for m in documented))


async def _on_http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 400:  # FastAPI's "error parsing the body" (e.g. JSON nested too deep)
        return error_response(422, "request.invalid", f"body: {exc.detail}")
    code = _HTTP_CODES.get(exc.status_code, "request.error")
    headers = dict(exc.headers or {})
    if exc.status_code == 405:
        headers["Allow"] = _allowed_methods(request) or headers.get("Allow", "")
    return error_response(exc.status_code, code, str(exc.detail), headers=headers or None)


async def _on_table_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, TableError)
    wait = exc.retry_after_seconds
    return error_response(ERROR_STATUS.get(exc.code, 500), exc.code, exc.message,
                          headers=None if wait is None else {"Retry-After": str(wait)})


async def _on_redis_error(request: Request, exc: Exception) -> JSONResponse:
    """Cluster mode: Redis did not answer (503 ``cluster.unavailable``, ``Retry-After: 2``)."""
    log.warning("redis unavailable answering %s %s: %s: %s", request.method, request.url.path,
                type(exc).__name__, _first_line(exc))
    return error_response(503, "cluster.unavailable",
                          f"the cluster's Redis did not answer ({type(exc).__name__}); retry",
                          headers={"Retry-After": "2"})


def failure_response(method: str, path: str, exc: BaseException) -> JSONResponse:
    """The answer to an exception no specific handler took: 503 ``store.unavailable`` (with
    ``Retry-After: 5``) when the database could not answer (:func:`store_unavailable`, logged
    as one warning line), else 500 ``server.error`` (a bug, logged with its traceback)."""
    if store_unavailable(exc):
        log.warning("store unavailable answering %s %s: %s: %s", method, path,
                    type(exc).__name__, _first_line(exc))
        return error_response(503, "store.unavailable",
                              "the database is not answering; try again shortly",
                              headers={"Retry-After": "5"})
    log.error("unexpected error answering %s %s", method, path, exc_info=exc)
    return error_response(500, "server.error", "internal server error")


async def _on_store_error(request: Request, exc: Exception) -> JSONResponse:
    return failure_response(request.method, request.url.path, exc)


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else ""


class UnexpectedErrors:
    """ASGI middleware: an exception that no handler took answers in the JSON shape through
    :func:`failure_response` (500 ``server.error``, logged once with its traceback and the
    request id; or 503 ``store.unavailable`` for an asyncpg outage error). If the
    response had already started, the exception is re-raised for the server to close the
    connection. WebSocket and lifespan traffic pass straight through."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watch(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, watch)
        except Exception as exc:
            if started:
                log.exception("unexpected error after the answer started, %s %s",
                              scope.get("method"), scope.get("path"))
                raise
            response = failure_response(str(scope.get("method")), str(scope.get("path")), exc)
            await response(scope, receive, send)


def install_error_handlers(app: FastAPI) -> None:
    """Make every REST error (ours, the table layer's, validation, routing, the database's,
    unexpected ones) use the one JSON shape. A :class:`~cardhall.tables.errors.TableError`
    answers its own ``code``; a Redis error (cluster mode) is 503 ``cluster.unavailable``;
    SQLAlchemy and OS errors go through :func:`store_unavailable`;
    any other exception is answered by :class:`UnexpectedErrors` (added here as the innermost
    middleware, so add it before the others)."""
    app.add_middleware(UnexpectedErrors)
    app.add_exception_handler(SQLAlchemyError, _on_store_error)
    app.add_exception_handler(OSError, _on_store_error)
    app.add_exception_handler(ApiError, _on_api_error)
    app.add_exception_handler(TableError, _on_table_error)
    app.add_exception_handler(RedisError, _on_redis_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(StarletteHTTPException, _on_http_error)
