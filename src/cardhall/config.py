"""Server settings (``design.md`` section 8): pydantic-settings, env prefix ``CARDHALL_``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

PLACEHOLDER_SECRETS = frozenset({"change-me", "changeme", "change_me", "password", "secret",
                                 "postgres", "admin", "example"})
"""Passwords and tokens refused at start-up: the example files' placeholder and well-known
defaults (``docs/operations.md``, "Deployment files")."""


def _published_at_once() -> dict[str, float]:
    """``{game: 0.0}`` for every registered game whose full copies are public by default
    (``GameRules.publish_full_copy_by_default``)."""
    from .engine import game_names, get_game

    return {name: 0.0 for name in game_names() if get_game(name).publish_full_copy_by_default}


def _url_password(url: str) -> str | None:
    """The password of a SQLAlchemy URL, or ``None`` (none, or not a URL)."""
    from urllib.parse import unquote, urlsplit

    try:
        password = urlsplit(url).password
    except ValueError:
        return None
    return None if password is None else unquote(password)


class Settings(BaseSettings):
    """Every operator-facing knob. Units are in the names."""

    model_config = SettingsConfigDict(env_prefix="CARDHALL_", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./cardhall.db"
    """SQLAlchemy async URL; a SQLite file under the working directory by default."""
    migrate_on_start: bool = True
    """Apply the migrations at start-up (the embedded default). Off for several nodes: a
    one-shot ``cardhall db upgrade`` migrates before a rolling deploy and each node only checks
    that the schema serves it (``/readyz`` check ``schema``; ``docs/storage.md``, "Expand and
    contract")."""
    db_timeout_seconds: Annotated[float, Field(gt=0, le=600)] = 5.0
    """Bound of every wait on the database: connecting, a statement, a pool checkout, SQLite's
    lock, one log commit or game save. Past it a REST call answers 503 ``store.unavailable``;
    a log commit or a save counts as failed and is retried."""
    db_pool_size: Annotated[int, Field(ge=1, le=1000)] | None = None
    """Connections the SQL store keeps open; unset: per back-end (``storage/sql.py``
    ``pool_sizes``: SQLite 8, PostgreSQL 10). A SQLite file in WAL mode serves many readers at
    once and one writer; on PostgreSQL every node's pool counts against ``max_connections``
    (100 by default: three nodes of 10 + 20 fit)."""
    db_max_overflow: Annotated[int, Field(ge=0, le=1000)] | None = None
    """Connections the pool may open above ``db_pool_size`` under load (closed when returned);
    unset: per back-end (SQLite 8, PostgreSQL 20)."""
    db_pool_timeout_seconds: Annotated[float, Field(gt=0, le=600)] = 30.0
    """How long a request waits in the pool's queue for a connection while every one is in
    use (a reconnect storm queues rather than fails; issue 26). Each connection is bounded by
    ``db_timeout_seconds`` while in use, so a hung database still fails requests in time."""
    auth_cache_seconds: Annotated[float, Field(ge=0, le=3600)] = 300.0
    """How long a socket ``hello`` (and a join's ban check) is answered from this process's
    identity cache without asking the database (``server/authcache.py``); 0: every one asks
    the database (the cache then serves only database outages). A revocation, ban, disable or
    password change drops the player's entries on every node at once."""
    database_schema: str | None = None
    """PostgreSQL only: the schema the server's connections use (their ``search_path``);
    unset: the database's default. Tests give each run a fresh one."""
    host: str = "127.0.0.1"
    port: Annotated[int, Field(ge=0, le=65_535)] = 8000
    admin_token: str | None = None
    """Bearer token for ``/api/admin``; admin routes are disabled while unset."""
    turn_timeout_seconds: Annotated[float, Field(gt=0)] = 10.0
    """Default decision deadline of a table (a table setting, within the bounds below)."""
    min_turn_timeout_seconds: Annotated[float, Field(gt=0)] = 0.2
    max_turn_timeout_seconds: Annotated[float, Field(gt=0)] = 600.0
    bot_delay_seconds: Annotated[float, Field(ge=0)] = 0.5
    """A built-in bot's thinking time before each move."""
    next_hand_pause_seconds: Annotated[float, Field(ge=0)] = 3.0
    """Pause between two poker hands at a table."""
    idle_table_ttl_seconds: Annotated[float, Field(gt=0)] = 300.0
    """A finished table, or a waiting one with no person connected, closes after this long."""
    seek_ttl_seconds: Annotated[float, Field(gt=0, le=3600)] = 300.0
    """A seek (``POST /api/seeks``) not matched within this long expires (at most an hour)."""
    seek_tick_seconds: Annotated[float, Field(gt=0, le=60)] = 1.0
    """How often the seek pool widens its windows and tries again (``hall/seekpool.py``)."""
    stand_in_after_timeouts: Annotated[int, Field(ge=0, le=1000)] = 3
    """A stand-in bot plays a person's seat after this many timeouts in a row (the holder
    takes it back by joining again); 0: never (``CARDHALL_STAND_IN_AFTER_TIMEOUTS``)."""
    abandon_after_seconds: Annotated[float, Field(gt=0, le=86_400)] = 300.0
    """A table where games were started and no client (person or SDK bot) holding a seat has
    been connected for this long is abandoned: its running game ends with outcome reason
    ``abandoned`` (saved) and the table closes (``table_closed``/``abandoned``). At most a day.
    Five minutes by default: long enough to come back through "Your tables" after leaving a
    private table, and for every client to reconnect after a restart (``docs/performance.md``,
    "Reconnect storm"), while stand-ins play the seats."""
    publish_full_after_seconds: dict[str, Annotated[float, Field(ge=0)]] = Field(
        default_factory=lambda: _published_at_once())
    """Per game name: seconds after a game ended from which its *full copy* (every card and the
    seed, ``docs/fairness.md`` section 7) is public (``GET /api/games/{id}`` and the replay
    answer it to anyone). A game not listed is never published in full: only its players and
    the admin get the full copy, everyone else the table copy. Default: ``0`` for each game
    whose rules object says ``publish_full_copy_by_default`` (``{"bazaar_blot": 0}``: a Blot
    match plays every card anyway, and its seed lets anyone verify it); the poker games are
    never published. As JSON in the environment, e.g.
    ``CARDHALL_PUBLISH_FULL_AFTER_SECONDS='{"bazaar_blot": 0, "palace_poker": 604800}'``."""
    default_starting_stack: Annotated[int, Field(ge=1)] = 200
    """Chips a poker seat gets when taken, unless the table sets ``starting_stack``."""
    chip_balances: bool = True
    """Poker seats buy in from the player's chip balance and cash out to it
    (``tables/chips.py``; on by default). A join waits at most 1 s for the balance, and not
    at all while the table log is degraded (house chips then, ``tables/balances.py``); off:
    every seat gets the house's stack and ``join.buy_in`` is ignored."""
    chips_top_up_to: Annotated[int, Field(ge=0)] = 1_000
    """The free top-up of play chips: a player sitting down (or rebuying) with a balance below
    the table's minimum buy-in has it raised to this many chips ..."""
    chips_top_up_every_seconds: Annotated[float, Field(ge=0)] = 600.0
    """... at most once per this many seconds (default 10 minutes)."""
    max_starting_stack: Annotated[int, Field(ge=1)] = 10_000_000
    """Largest ``starting_stack`` a table may set (keeps every chip count and seat result well
    inside the 32-bit integer columns of stored results)."""
    max_tables: Annotated[int, Field(ge=1)] = 10_000
    """Live tables the server runs at most; beyond, creating one is 503 ``table.limit``."""
    max_live_tables_per_player: Annotated[int, Field(ge=1, le=1_000_000)] = 5
    """Live tables one player may have created (``POST /api/tables``, a quick seat that
    creates one); beyond, 429 ``quota.tables`` until one of them closes."""
    max_waiting_tables_per_address: Annotated[int, Field(ge=1, le=1_000_000)] = 20
    """Tables created over ``POST /api/tables`` from one client address that are still
    ``waiting`` (no game started yet); beyond, 429 ``quota.tables`` until one starts or
    closes. Guests are cheap, so the per-player quota alone let one address keep hundreds of
    empty tables in the lobby. In cluster mode each node counts its own tables."""
    max_running_tournaments: Annotated[int, Field(ge=1, le=100_000)] = 16
    """Tournaments this server runs at once (``docs/tournaments.md``, "Limits"); beyond,
    ``POST /api/tournaments`` is 503 ``tournament.limit`` until one ends."""
    max_running_tournaments_per_player: Annotated[int, Field(ge=1, le=100_000)] = 2
    """Running tournaments one player may have created; beyond, 429 ``quota.tournaments``."""
    max_running_tournaments_per_address: Annotated[int, Field(ge=1, le=100_000)] = 2
    """Running tournaments created from one client address (as every per-address limit
    counts it: an IPv6 one by its /64); beyond, 429 ``quota.tournaments``. Guests are cheap,
    so the per-player quota alone let five guests start 643 bot tables in two seconds."""
    max_tournament_tables: Annotated[int, Field(ge=1, le=1_000_000)] = 128
    """Tables all running tournaments keep open at once; a round's further tables wait for
    room (they are also their creator's, under ``max_live_tables_per_player``)."""
    max_sockets_per_player: Annotated[int, Field(ge=1, le=1_000_000)] = 10
    """Authenticated WebSocket connections one player may hold at once (in this process; in
    cluster mode on all nodes together); beyond, ``hello`` gets ``quota.sockets`` and the
    socket closes (4029)."""
    max_sockets_per_address: Annotated[int, Field(ge=1, le=1_000_000)] = 50
    """WebSocket connections one client address may hold open at once in this process,
    authenticated or not (the address as :attr:`trusted_proxies` makes it, an IPv6 one
    counted by its /64 as every per-address limit is); one more is told
    ``quota.address_sockets`` and closed (4030). Raise it for many players behind one NAT."""
    hello_timeout_seconds: Annotated[float, Field(gt=0, le=600)] = 10.0
    """A socket that has not authenticated (a ``hello`` answered ``welcome``) this long after
    it opened is told ``auth.hello_timeout`` and closed (4009)."""
    trusted_proxies: Annotated[list[str], NoDecode] = Field(default_factory=list)
    """Addresses or networks (``10.0.0.5``, ``10.0.0.0/24``, ``::1``) of the reverse proxies
    whose ``X-Forwarded-For``/``X-Forwarded-Proto`` are believed (uvicorn's proxy headers).
    Default: none, so the client address is the connection's peer and a client can never
    pick its own address for the rate limits and socket caps. In the environment a comma
    separated list: ``CARDHALL_TRUSTED_PROXIES=10.0.0.5,10.0.1.0/24``."""
    rest_rate_limit: str = "120/minute"
    """Requests to ``/api/*`` per client address (the ``limits`` notation: ``"120/minute"``,
    ``"10 per second"``); beyond, 429 ``rate.limited`` with ``Retry-After``. Health,
    readiness, metrics and static files are not counted."""
    guest_rate_limit: str = "10/minute"
    """``POST /api/players`` (new guest or bot identities) per client address, on top of
    ``rest_rate_limit``; beyond, 429 ``rate.limited``."""
    login_rate_limit: str = "10/minute"
    """``POST /api/sessions`` (log-ins) and ``POST /api/accounts`` (registrations) per client
    address, on top of ``rest_rate_limit``; beyond, 429 ``rate.limited``."""
    login_failure_rate_limit: str = "5/minute"
    """Failed log-ins of one username from one network (an IPv4 address, an IPv6 /64);
    beyond, that network's log-ins of that username are 429 ``rate.limited`` until the window
    lets one more in. Other networks' log-ins of the name are not touched
    (``server/loginthrottle.py``)."""
    login_username_failure_rate_limit: str = "100/hour"
    """Failed log-ins of one username from every network together; beyond, the username is
    guarded: a network it logged in from before is not slowed, any other gets
    ``login_guarded_rate_limit``. The username is never locked."""
    login_guarded_rate_limit: str = "1/10 minutes"
    """Failed log-ins of a guarded username from one network it never logged in from (the
    first try always goes through, so the owner with the right password gets in)."""
    login_known_network_days: Annotated[float, Field(gt=0, le=3650)] = 30.0
    """How long a network an account logged in from stays known to it (not slowed when the
    account is guarded)."""
    password_min_score: Annotated[int, Field(ge=0, le=4)] = 3
    """The least zxcvbn strength (0-4) a new password needs (register, password change, the
    admin's reset); below it, 422 ``account.weak_password`` says why. 3: about 10^8 guesses
    or more; 0 turns the check off."""
    password_hash_time_cost: Annotated[int, Field(ge=1, le=100)] = 3
    """Argon2id passes over the memory (pwdlib's default 3; each log-in costs about this
    times the memory pass)."""
    password_hash_memory_kib: Annotated[int, Field(ge=64, le=4_194_304)] = 65_536
    """Argon2id memory per hash in KiB (pwdlib's default 64 MiB). Lower it only on tiny
    machines or in tests; a hash keeps the parameters it was made with."""
    rate_limit_storage_uri: str = "memory://"
    """Where the rate windows are counted (a ``limits`` storage URI): ``memory://`` per
    process (in cluster mode, ``redis_url`` instead); ``redis://host:6379/0`` shares them
    between processes (through redis-py, keys under ``<redis_prefix>:rate``)."""
    max_frame_bytes: Annotated[int, Field(ge=64)] = 16_384
    """Largest accepted WebSocket text frame; a larger one gets ``protocol.frame_too_large``."""
    ws_max_size_bytes: Annotated[int, Field(ge=64)] = 65_536
    """Hard frame limit handed to uvicorn (``ws_max_size``): above it the socket closes (1009)."""
    ws_rate_per_second: Annotated[float, Field(gt=0)] = 20.0
    """Sustained client messages per second per connection (token bucket)."""
    ws_rate_burst: Annotated[int, Field(ge=1)] = 40
    """Messages a connection may send at once (the bucket's size)."""
    ws_outbound_queue: Annotated[int, Field(ge=1)] = 256
    """Messages that may wait for a slow client before it is disconnected (4008)."""
    ws_implementation: str = "websockets-sansio"
    """uvicorn's WebSocket implementation (design.md section 9)."""
    max_body_bytes: Annotated[int, Field(ge=64)] = 65_536
    log_format: Literal["console", "json"] = "console"
    """``json`` for one JSON object per log line (structlog), ``console`` for people."""
    log_level: str = "INFO"
    save_queue_max: Annotated[int, Field(ge=1, le=10_000_000)] = 100_000
    """Finished games that may wait for the database (``storage/writer.py``); beyond, a game
    is refused, logged as lost and counted (``cardhall_writer_failed_total``)."""
    durable_tables: bool = True
    """Log every table step to the database before it is sent, restore live tables at start-up
    and keep finished games in an outbox until saved (``docs/operations.md``). Needs a SQL
    database (ignored with ``memory://``)."""
    log_backlog_max: Annotated[int, Field(ge=1, le=100_000_000)] = 200_000
    """Table log entries that may wait for the database; beyond, new tables are refused
    (503 ``store.backlog``) and ``/readyz`` is not ready; existing tables go on."""
    log_sync_timeout_seconds: Annotated[float, Field(gt=0, le=60)] = 1.0
    """How long a step's messages wait for their log commit; past it the log degrades (the
    messages go out, the entries stay buffered until the database answers)."""
    log_commit_interval_seconds: Annotated[float, Field(ge=0, le=1)] = 0.005
    """The least time between the starts of two table log commits: the steps that come
    meanwhile wait for the next commit together (a group commit; 0: commit as soon as the
    previous one ends). At 1,000 tables playing 1 action/s, 5 ms cut the server's CPU by
    about a quarter for at most 0.5 ms more median latency (``docs/performance.md``)."""
    log_spill: bool = True
    """While the table log is degraded, hold each step's messages until the step is in the
    local spill (an fsync'd SQLite file, ``storage/spill.py``) instead of sending them
    undurable; the next start replays the spill into the database before restoring any table,
    so a process that dies during an outage loses nothing (``docs/operations.md``). ``false``:
    the messages go out undurable (a crash during an outage loses those steps)."""
    log_spill_path: Path | None = None
    """The spill file. Unset: ``<database file>.spill`` next to a SQLite database, else
    ``cardhall-spill-<hash of the database URL and schema>.db`` in the working directory. Keep
    it on a local, persistent disk (a volume in a container): a restart must find it."""
    insecure_fixed_seed: str | None = None
    """TESTS ONLY: derive every game's seed from this string and the hand number, so runs
    repeat exactly. Anyone who knows it can compute every deal: never set it in production."""
    gc_tuning: bool = True
    """Freeze the start-up heap, raise ``gc_threshold0`` and re-freeze periodically
    (``server/gctune.py``, ``docs/performance.md``)."""
    gc_threshold0: Annotated[int, Field(ge=100, le=10_000_000)] = 10_000
    """Allocations (less deallocations) of tracked objects between young collections
    (CPython's default is 700)."""
    gc_threshold1: Annotated[int, Field(ge=1, le=1_000_000)] = 100
    """Young collections between collections of the middle generation (CPython's default is
    10); with a re-freeze every ``gc_freeze_interval_seconds`` the middle generation is frozen
    before it is walked."""
    gc_freeze_interval_seconds: Annotated[float, Field(ge=0.01, le=86_400)] = 0.1
    """Seconds between re-freezes of the heap: a young collection walks at most what lived
    this long (``server/gctune.py``; 10 s let it walk every socket's pending I/O, 50-75 ms
    at 4,000 sockets)."""
    gc_full_collect_seconds: Annotated[float, Field(ge=1, le=604_800)] = 3_600.0
    """Seconds between full collections (unfreeze, collect everything once): frozen cyclic
    garbage is freed only then, so there is no "never"."""
    shutdown_grace_seconds: Annotated[float, Field(gt=0, le=3_600)] = 10.0
    """On SIGTERM/SIGINT, the longest the drain (every table told ``table_closed``/``shutdown``,
    every socket flushed and closed with 1012) and then the wait for open connections may take
    together, seconds (``server/drain.py``); the saving of queued games follows."""
    redis_url: str | None = None
    """Cluster mode (``docs/scaling.md``): the Redis that joins several cardhall processes into
    one hall (``redis://127.0.0.1:6379/0``). Unset: one process, nothing shared (the embedded
    default)."""
    redis_prefix: str = "cardhall"
    """Cluster mode: the first part of every Redis key and channel name (``<prefix>:lease:<table
    id>``), so that several halls (or test runs) can share one Redis."""
    node_id: str | None = None
    """This process's name in the cluster (default: host name, process id and a random
    suffix); it owns table leases and receives the frames of its sockets under it."""
    lease_seconds: Annotated[float, Field(gt=0.2, le=600)] = 5.0
    """Cluster mode: how long a table's lease lasts without renewal (the owner renews it every
    third of that); a dead owner's tables are taken over after at most this, plus the
    restore."""
    cluster_request_timeout_seconds: Annotated[float, Field(gt=0, le=60)] = 5.0
    """Cluster mode: how long a node waits for another node's answer to a forwarded request
    (create, close, kick) before answering 503 ``cluster.unavailable``."""
    metrics_enabled: bool = True
    """Serve Prometheus metrics at ``GET /metrics``."""
    static_dir: Path | None = None
    """The browser client's folder; by default the repository's ``static/`` next to ``src/``
    (a checkout, an editable install), else the copy packaged as ``cardhall/static``
    (``pip install .``, the Docker image; see ``setup.py``)."""

    @field_validator("rest_rate_limit", "guest_rate_limit", "login_rate_limit",
                     "login_failure_rate_limit", "login_username_failure_rate_limit",
                     "login_guarded_rate_limit")
    @classmethod
    def _one_rate(cls, value: str) -> str:
        """A rate must be one rate in the ``limits`` notation (``"10/minute"``)."""
        import limits

        try:
            items = limits.parse_many(value)
        except ValueError as exc:
            raise ValueError(f"not a rate such as '10/minute': {value!r}") from exc
        if len(items) != 1:
            raise ValueError(f"expected one rate such as '10/minute', got {value!r}")
        return value

    @field_validator("database_url", "redis_url")
    @classmethod
    def _no_placeholder_password(cls, value: str | None, info: Any) -> str | None:
        """Refuse a database or Redis URL whose password is the example files' placeholder
        (or another well-known default): a copied ``deploy/compose.env`` or
        ``deploy/cluster.env`` must get a real password."""
        password = None if value is None else _url_password(value)
        if password is not None and password.lower() in PLACEHOLDER_SECRETS:
            where = ("deploy/compose.env: POSTGRES_PASSWORD and CARDHALL_DATABASE_URL"
                     if info.field_name == "database_url"
                     else "deploy/cluster.env: REDIS_PASSWORD and CARDHALL_REDIS_URL")
            raise ValueError(f"the password in {info.field_name} is the placeholder "
                             f"{password!r}: set a real one ({where})")
        return value

    @field_validator("admin_token")
    @classmethod
    def _no_placeholder_admin_token(cls, value: str | None) -> str | None:
        """Refuse a placeholder admin token (``change-me`` ...); unset disables the admin."""
        if value is not None and value.lower() in PLACEHOLDER_SECRETS:
            raise ValueError(f"CARDHALL_ADMIN_TOKEN is the placeholder {value!r}: set a long "
                             "random one (python -c 'import secrets; print(secrets.token_urlsafe(32))')")
        return value

    @field_validator("trusted_proxies", mode="before")
    @classmethod
    def _proxies(cls, value: object) -> object:
        """A comma separated string becomes a list; each entry must be an IP address or
        network (``ipaddress.ip_network``: ``*`` and host names are refused)."""
        import ipaddress

        if isinstance(value, str):
            value = [item.strip() for item in value.split(",") if item.strip()]
        if isinstance(value, list):
            for item in value:
                try:
                    ipaddress.ip_network(str(item), strict=False)
                except ValueError as exc:
                    raise ValueError(f"not an IP address or network: {item!r}") from exc
        return value

    def resolved_static_dir(self) -> Path | None:
        """``static_dir`` if set, else the first of the repository's ``static/`` and the
        packaged ``cardhall/static`` that has an ``index.html``, else ``None`` (no client)."""
        if self.static_dir is not None:
            return self.static_dir
        here = Path(__file__).resolve().parent
        for guess in (here.parents[1] / "static", here / "static"):
            if (guess / "index.html").is_file():
                return guess
        return None
