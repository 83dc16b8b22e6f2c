"""The application factory: settings -> store -> table manager -> routers.

Routers live in ``server/routes/`` (one module per resource); the WebSocket endpoint in
``server/ws.py``; request dependencies in ``server/deps.py``.
"""

from __future__ import annotations

from fastapi import FastAPI

from .. import __version__
from ..config import Settings
from ..engine import game_names
from ..evaluators import install as install_evaluators
from . import health, ws
from .apidocs import install_api_docs
from .authcache import AuthCache
from .errors import install_error_handlers
from .framesend import FrameSend
from .headers import SecurityHeaders
from .health import Liveness
from .lifespan import make_lifespan
from .limits import BodySizeLimit
from .loginthrottle import LoginThrottle, ThrottleRates
from .observability import install_metrics, install_request_id
from .passwords import Passwords
from .quotas import (
    LocalSocketQuota,
    RateLimits,
    RestRateLimit,
    SocketQuota,
    rate_storage,
    redis_storage_options,
)
from .redisconn import RedisHealth, make_redis, node_name
from .routes import (
    accounts,
    admin,
    admin_accounts,
    admin_audit,
    admin_bots,
    admin_players,
    asyncapi,
    catalog,
    games,
    lobby,
    open_hands,
    players,
    profiles,
    replay_units,
    rules_data,
    seeks,
    tournaments,
)
from .sockets import AddressCap


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the app from ``settings`` (read from the environment when omitted).

    Its services (store, game writer, table log, table manager) start and stop with the app's
    lifespan (:mod:`.lifespan`).
    """
    settings = settings or Settings()
    install_evaluators()

    app = FastAPI(title="cardhall", version=__version__, lifespan=make_lifespan(settings),
                  docs_url=None, redoc_url=None)  # served offline: apidocs.py
    app.state.settings = settings
    app.state.draining = False  # set by server/drain.py on SIGTERM/SIGINT
    app.state.passwords = Passwords(time_cost=settings.password_hash_time_cost,
                                    memory_kib=settings.password_hash_memory_kib)
    app.state.sessions = set()  # open sockets (server/ws.py), closed by the drain
    app.state.address_cap = AddressCap(settings.max_sockets_per_address)  # server/sockets.py
    # hello without a database round trip, and during an outage (server/authcache.py)
    app.state.auth_cache = AuthCache(fresh_seconds=settings.auth_cache_seconds)
    _cluster_state(app, settings)
    install_error_handlers(app)
    app.add_middleware(BodySizeLimit, max_bytes=settings.max_body_bytes)
    # outside the body limit: a client over its rate is refused before its body is read
    app.add_middleware(RestRateLimit, limits=app.state.rate_limits)

    @app.get("/healthz", response_model=Liveness)
    async def healthz() -> dict[str, object]:
        """Liveness: ``{"status": "ok", "version": ..., "games": [...]}``."""
        return {"status": "ok", "version": __version__, "games": game_names()}

    if settings.metrics_enabled:
        install_metrics(app)
    install_request_id(app)  # every answer carries X-Request-ID
    app.add_middleware(SecurityHeaders)  # CSP and the rest on every answer
    app.add_middleware(FrameSend)  # outermost: frames skip the stack (server/framesend.py)
    _include_routers(app)
    install_api_docs(app)
    _mount_static(app, settings)
    return app


def create_app_from_env() -> FastAPI:
    """The app with settings from ``CARDHALL_*`` and logging configured: the factory of
    ``uvicorn --factory cardhall.server.app:create_app_from_env`` and of each worker of
    ``cardhall serve --workers N`` (a worker is a fresh process: it reads the environment and
    sets up its logging itself)."""
    from .observability import configure_logging

    settings = Settings()
    configure_logging(settings.log_format, settings.log_level)
    return create_app(settings)


def _cluster_state(app: FastAPI, settings: Settings) -> None:
    """The parts of ``app.state`` that cluster mode shares over Redis: ``node_id``, ``redis``
    (the client, ``None`` without ``redis_url``), ``redis_health``, ``socket_quota``
    (:class:`~.clusterquota.RedisSocketQuota` in cluster mode, else
    :class:`~.quotas.LocalSocketQuota`), ``rate_limits`` (counted in Redis in cluster mode
    unless ``rate_limit_storage_uri`` names another storage) and ``login_throttle`` (the
    failed log-ins, :class:`~.loginthrottle.LoginThrottle`, in the same storage)."""
    app.state.node_id = node_name(settings)
    app.state.redis_health = RedisHealth()
    client = make_redis(settings.redis_url) if settings.redis_url else None
    app.state.redis = client
    quota: SocketQuota
    if client is None:
        quota = LocalSocketQuota(settings.max_sockets_per_player)
    else:
        from .clusterquota import RedisSocketQuota

        quota = RedisSocketQuota(client, settings.max_sockets_per_player,
                                 prefix=settings.redis_prefix, node_id=app.state.node_id,
                                 ttl_seconds=settings.lease_seconds,
                                 health=app.state.redis_health)
    app.state.socket_quota = quota
    uri = rate_storage(settings.rate_limit_storage_uri, settings.redis_url)
    pool = client.connection_pool if client is not None and uri == settings.redis_url else None
    options = redis_storage_options(uri, settings.redis_prefix, pool=pool)
    app.state.rate_limits = RateLimits(uri, rest=settings.rest_rate_limit,
                                       guests=settings.guest_rate_limit,
                                       logins=settings.login_rate_limit, **options)
    app.state.login_throttle = LoginThrottle(app.state.rate_limits, ThrottleRates(
        per_network=settings.login_failure_rate_limit,
        per_username=settings.login_username_failure_rate_limit,
        guarded=settings.login_guarded_rate_limit,
        known_days=settings.login_known_network_days))


def _include_routers(app: FastAPI) -> None:
    """Mount the REST routers (readiness, players, accounts and sessions, ratings and
    profiles, games, lobby, rules data, admin) and the WebSocket endpoint (``/api/players/me``
    comes before ``/api/players/{id}``)."""
    for router in (health.router, players.router, accounts.router, accounts.sessions_router,
                   profiles.router, profiles.players_router, games.router,
                   replay_units.router, open_hands.router, lobby.router, seeks.router,
                   catalog.router, rules_data.router, admin.router, admin_players.router,
                   admin_accounts.router, admin_audit.router, admin_bots.router,
                   asyncapi.router, tournaments.router, tournaments.admin_router,
                   ws.router):
        app.include_router(router)


def _mount_static(app: FastAPI, settings: Settings) -> None:
    """Serve the browser client: ``/`` is ``static/index.html``, assets under ``/static``."""
    from fastapi.responses import FileResponse
    from fastapi.staticfiles import StaticFiles

    directory = settings.resolved_static_dir()
    if directory is None:
        return
    app.mount("/static", StaticFiles(directory=directory), name="static")
    index = directory / "index.html"

    @app.get("/", include_in_schema=False)
    async def root() -> FileResponse:
        return FileResponse(index)
