"""Security headers of every HTTP answer (``docs/security.md``, "Sessions, sockets and
proxies"), set with the ``secure`` library's policy builders and its ASGI middleware.

* **The browser client and every other answer** get a strict Content Security Policy
  (:data:`CLIENT_CSP`): scripts, styles, fonts and connections from this origin only (the
  socket included: ``'self'`` covers ``ws:``/``wss:`` of the same host), images from it or
  ``data:`` (the empty favicon), nothing inline, no plugin, no ``<base>``, no framing
  (``frame-ancestors 'none'``, and ``X-Frame-Options: DENY`` for older browsers). The client
  in ``static/`` has no inline script, style or handler, so nothing in it is blocked.
* **The API explorers** (``/docs``, its OAuth2 redirect page and ``/redoc``) are FastAPI's
  pages, which start Swagger UI and ReDoc with an inline script and style them inline:
  :data:`DOCS_CSP` allows inline script and style there (the pages hold no user content),
  and ReDoc's ``blob:`` worker; everything else as above.
* Everywhere: ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``,
  ``Cross-Origin-Opener-Policy: same-origin``.

HSTS is left to the TLS terminating proxy (the server itself may speak plain HTTP behind it).
"""

from __future__ import annotations

from secure import (
    ContentSecurityPolicy,
    CrossOriginOpenerPolicy,
    ReferrerPolicy,
    Secure,
    XContentTypeOptions,
    XFrameOptions,
)
from secure.middleware import SecureASGIMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

SELF, NONE = "'self'", "'none'"
CLIENT_CSP = (ContentSecurityPolicy().default_src(NONE).script_src(SELF).style_src(SELF)
              .img_src(SELF, "data:").font_src(SELF).connect_src(SELF).manifest_src(SELF)
              .object_src(NONE).base_uri(NONE).form_action(SELF).frame_ancestors(NONE))
"""The policy of the browser client and of every answer but the API explorers'."""
DOCS_CSP = (ContentSecurityPolicy().default_src(NONE).script_src(SELF, "'unsafe-inline'")
            .style_src(SELF, "'unsafe-inline'").img_src(SELF, "data:").font_src(SELF)
            .connect_src(SELF).worker_src(SELF, "blob:").object_src(NONE).base_uri(NONE)
            .form_action(SELF).frame_ancestors(NONE))
"""The policy of ``/docs`` and ``/redoc`` (FastAPI's pages start their bundles inline)."""
DOCS_PATHS = frozenset({"/docs", "/docs/oauth2-redirect", "/redoc"})
"""The pages :data:`DOCS_CSP` applies to."""


def policy(csp: ContentSecurityPolicy) -> Secure:
    """Every security header of this module with ``csp`` as the Content Security Policy."""
    return Secure(csp=csp, xcto=XContentTypeOptions().nosniff(),
                  referrer=ReferrerPolicy().no_referrer(), xfo=XFrameOptions().deny(),
                  coop=CrossOriginOpenerPolicy().same_origin())


class SecurityHeaders:
    """ASGI middleware: the headers of :func:`policy` on every HTTP answer, with
    :data:`DOCS_CSP` on :data:`DOCS_PATHS` and :data:`CLIENT_CSP` everywhere else (the
    ``secure`` library's :class:`SecureASGIMiddleware` sets them, replacing any the app set).
    WebSocket and lifespan traffic passes straight through."""

    def __init__(self, app: ASGIApp) -> None:
        self.client = SecureASGIMiddleware(app, secure=policy(CLIENT_CSP))
        self.docs = SecureASGIMiddleware(app, secure=policy(DOCS_CSP))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer through the middleware of the path's policy."""
        docs = scope["type"] == "http" and scope.get("path") in DOCS_PATHS
        await (self.docs if docs else self.client)(scope, receive, send)  # type: ignore[arg-type]
