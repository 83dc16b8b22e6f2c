"""The WebSocket wire protocol (``design.md`` section 6): one pydantic model per message.

JSON text frames; every message is an object with a ``type``. Both directions are discriminated
unions on ``type`` with unknown and extra fields rejected. :data:`CLIENT` parses what a client
sends, :data:`SERVER` checks what the server sends, :func:`schema` exports both as one JSON
Schema document (``docs/protocol.schema.json``; ``python -m cardhall.protocol.messages`` prints
it). Every server message about a table carries ``table_id`` and the table's ``version``.
Error codes are the stable strings of :data:`ERROR_CODES` plus the engine's ``engine.*`` codes.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    create_model,
    field_validator,
    model_validator,
)

from ..engine.errors import ERROR_CODES as ENGINE_ERRORS
from .discriminators import standard_discriminators
from .errors import ERROR_CODES, ErrorCode, ProtocolErrorCode
from .games import GAME_PAYLOADS, VIEW_PATCHES
from .rematch import Rematch, RematchOffer, RematchReady
from .text import plain_line
from .tournament import TournamentUpdate, WatchTournament

PROTOCOL_VERSION = 2


CLOSE_CODES: dict[int, str] = {
    1000: "normal closure",
    1008: "policy violation (sustained rate-limit abuse)",
    1009: "frame above the hard limit (ws_max_size) - closed by the WebSocket layer",
    1011: "internal error: the server failed to serve a request (the close reason says why)",
    1012: "server restarting: the shutdown drain closed the socket after table_closed "
          "(reason shutdown); reconnect with backoff and resume with the seat token",
    4001: "session revoked: the token this socket authenticated with was revoked (after an "
          "error auth.session_revoked); log in again and resume the seats",
    4003: "banned: the player was banned (after an error auth.banned); its seats are kicked",
    4008: "slow consumer: the outbound queue overflowed",
    4009: "no hello answered welcome within hello_timeout_seconds (after an error "
          "auth.hello_timeout)",
    4029: "too many sockets for this player (after an error quota.sockets)",
    4030: "too many sockets from this client address (after an error quota.address_sockets)",
}
"""Every WebSocket close code the server sends (``docs/protocol.md``, "Close codes");
cardhall never sends 1001."""

TableClosedReason = Literal["closed", "kicked", "shutdown", "idle", "abandoned", "error"]
"""Why a ``table_closed`` was sent (``docs/protocol.md``, "Server -> client")."""
TABLE_CLOSED_REASONS: dict[str, str] = {
    "closed": "an admin closed the table",
    "kicked": "an admin removed this connection's seat holder",
    "shutdown": "the server is restarting: the table comes back; resume with the seat token",
    "idle": "a finished table, or a waiting one with no client, for idle_table_ttl_seconds",
    "abandoned": "every client left its seat after a game, or no client holding a seat was "
                 "connected for abandon_after_seconds",
    "error": "the table failed and was closed",
}


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _ClientMsg(BaseModel):
    """Client messages are parsed strictly: no coercion of ``"1"`` to ``1``."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


RequestId = Annotated[str, Field(min_length=1, max_length=64)]
TableId = Annotated[str, Field(min_length=1, max_length=64)]


# ----- client -> server ---------------------------------------------------------------------
class Hello(_ClientMsg):
    """Authenticate the connection with a player's bearer token. Answered by ``welcome``."""

    type: Literal["hello"]
    token: Annotated[str, Field(min_length=1, max_length=256)]
    rid: RequestId | None = None


ClientSeed = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[ -~]+$")]
"""A seat's client seed: 1-64 printable ASCII characters (``" "`` to ``"~"``), mixed into the
shuffle seed of every game the seat is dealt into (``docs/fairness.md``)."""


class Join(_ClientMsg):
    """Take a seat (``seat``, or any free seat when omitted), resume one (the player's own seat,
    or any seat with its ``seat_token``), or watch (``spectate``). Answered by ``joined`` and a
    full ``state``.

    ``seat`` is 0-63 (no table has more seats); a seat the table does not have, inside that
    range or not, is refused ``table.bad_seat`` (:func:`error_code_for`), a non-integer
    ``protocol.invalid_field``. ``spectate`` with ``seat``, ``seat_token`` or
    ``client_seed`` is refused; a player whose seat a stand-in plays after its ``leave`` may
    watch.
    ``client_seed`` (seats only): mixed into the shuffle seed of the
    games the seat is dealt into from the next game start on; a resume with one replaces the
    seat's client seed for the games that start later, a resume without keeps it."""

    type: Literal["join"]
    table_id: TableId
    seat: Annotated[int, Field(ge=0, le=63)] | None = None
    spectate: bool = False
    seat_token: Annotated[str, Field(min_length=1, max_length=128)] | None = None
    client_seed: ClientSeed | None = None
    invite_code: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    """A private table's invite code (``POST /api/tables`` with ``private: true`` answers it);
    taking a seat or watching there without it is refused ``table.invite_required``. The
    holder of a seat there resumes it without the code."""
    buy_in: Annotated[int, Field(ge=1, le=10_000_000)] | None = None
    """Poker tables: chips taken from the player's balance to the new seat's stack, from the
    table's ``min_buy_in`` to its ``max_buy_in`` (default: ``max_buy_in``, or the whole balance
    when that is less). On the player's own seat whose stack is below the ante between hands
    it is a *rebuy*: ``buy_in`` chips more (the stack at most ``max_buy_in``). Refused
    ``chips.bad_buy_in``, ``chips.insufficient``, ``chips.no_rebuy``; ignored elsewhere."""
    rid: RequestId | None = None

    @model_validator(mode="after")
    def _seat_or_watch(self) -> Join:
        """A join either takes (or resumes) a seat or watches: ``spectate`` with ``seat`` or
        ``seat_token`` is refused (``protocol.invalid_field``), and a spectator is dealt
        nothing, so it has no client seed."""
        if not self.spectate:
            return self
        for name in ("seat", "seat_token", "client_seed", "buy_in"):
            if getattr(self, name) is not None:
                raise ValueError(f"{name} is for seats; a join with spectate: true watches "
                                 f"(send one or the other)")
        return self


class Act(_ClientMsg):
    """Play ``action`` (a concrete action matching a legal entry) against table ``version``.
    ``action_id`` makes retries idempotent. ``seat``, when given, must be the connection's
    seat. Answered by ``accepted`` (then a ``state`` delta) or an ``error``."""

    type: Literal["act"]
    table_id: TableId
    version: Annotated[int, Field(ge=0)]
    action_id: RequestId
    action: dict[str, Any]
    seat: Annotated[int, Field(ge=0, le=63)] | None = None
    rid: RequestId | None = None

    @field_validator("action")
    @classmethod
    def _shallow(cls, action: dict[str, Any]) -> dict[str, Any]:
        """Refuse actions nested deeper than :data:`MAX_ACTION_DEPTH` (actions are flat objects
        with lists of card codes; deep nesting only serves to exhaust the recursion limit of
        whatever reprs or copies the action)."""
        if _depth(action, MAX_ACTION_DEPTH + 1) > MAX_ACTION_DEPTH:
            raise ValueError(f"action is nested deeper than {MAX_ACTION_DEPTH} levels")
        return action


MAX_ACTION_DEPTH = 8
"""Deepest nesting of objects and arrays accepted in an ``act``'s ``action``."""


def _depth(value: Any, cap: int) -> int:
    """Nesting depth of a JSON value (a scalar is 0), counted up to ``cap``; iterative."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            level += 1
            deepest = max(deepest, level)
            if level < cap:
                stack.extend((v, level) for v in (item.values() if isinstance(item, dict)
                                                  else item))
    return deepest


class Leave(_ClientMsg):
    """Stop watching, or give up a seat (during a game the seat stays in play, moved by its
    timer, and is freed when the game ends). Answered by ``left``."""

    type: Literal["leave"]
    table_id: TableId
    rid: RequestId | None = None


class SitOut(_ClientMsg):
    """Poker tables: sit out (``sit_out: true``) or come back in (``false``). A seat sitting
    out keeps its seat and its stack but is not dealt into the hands that start from now on
    (a hand it is playing is played to its end); ``seats[].sitting_out`` shows it. Coming
    back in deals it into the next hand. A table whose seats in are too few for a hand waits.
    Answered by a ``state``; refused ``table.not_poker`` (a game without stacks) and
    ``table.not_seated`` (this connection holds no seat there)."""

    type: Literal["sit_out"]
    table_id: TableId
    sit_out: bool
    rid: RequestId | None = None


class Ping(_ClientMsg):
    """Liveness check; answered by ``pong`` with the same ``nonce``."""

    type: Literal["ping"]
    nonce: Annotated[str, Field(max_length=64)] | int | None = None
    rid: RequestId | None = None


class Resync(_ClientMsg):
    """Ask for one full current ``state`` of a joined table."""

    type: Literal["resync"]
    table_id: TableId
    rid: RequestId | None = None


CHAT_MAX_CHARS = 200
"""The longest chat text accepted (characters)."""


class Chat(_ClientMsg):
    """Say ``text`` (1-200 characters of plain text: no control character, line separator
    or bidi embedding, override or isolate such as U+202E; ``protocol/text.py``) to everyone
    at a joined table, seats and spectators; a refused character is ``protocol.invalid_field``
    naming it. Answered by the ``chat`` broadcast; ``chat.flood`` when sent too fast (more
than 5 lines in 10 s from the player at the table, all its sockets together),
    ``table.not_joined`` before a ``join``."""

    type: Literal["chat"]
    table_id: TableId
    text: Annotated[str, Field(min_length=1, max_length=CHAT_MAX_CHARS),
                    AfterValidator(plain_line)]
    rid: RequestId | None = None


ClientMessage = Annotated[Hello | Join | Act | Leave | Ping | Resync | Chat | SitOut | Rematch
                          | WatchTournament,
                          Field(discriminator="type")]
CLIENT: TypeAdapter[Any] = TypeAdapter(ClientMessage)


# ----- server -> client ---------------------------------------------------------------------
class RequestRef(_Msg):
    """Which client message an error answers."""

    type: str | None = None
    rid: str | None = None
    action_id: str | None = None


class SeatPublic(_Msg):
    """Public facts about a seat (no tokens, no cards)."""

    seat: int
    name: str | None
    player_id: str | None
    bot: bool
    bot_level: Literal["random", "rule"] | None = None
    """A built-in bot's level (its policy, ``random`` or ``rule``); ``None`` for people, SDK
    bots and stand-ins (``stand_in``)."""
    connected: bool
    stack: int | None = None
    in_hand: bool = False
    out_of_chips: bool = False
    """Poker: the holder has fewer chips than the ante, so it sits out every hand; it keeps
    the seat until it ``leave``s (which frees the seat at once between hands)."""
    sitting_out: bool = False
    """Poker: the holder asked to sit out (``sit_out``): it keeps the seat and the stack and
    is not dealt into the hands that start until it comes back in."""
    stand_in: bool = False
    """A stand-in bot (the built-in ``rule`` policy) plays this seat: its holder left during
    the game or timed out three times in a row (the holder takes it back by joining again),
    or was kicked or banned (the seat is freed when the game ends)."""


class Welcome(_Msg):
    """The ``hello`` was accepted: the connection acts as player ``player_id`` (``name``).
    ``protocol`` is the wire version, ``max_frame_bytes`` the largest text frame the server
    reads, ``rate_per_second`` the steady rate of client messages it allows."""

    type: Literal["welcome"] = "welcome"
    player_id: str
    name: str
    protocol: int = PROTOCOL_VERSION
    max_frame_bytes: int
    rate_per_second: Annotated[float, Field(gt=0, allow_inf_nan=False)]
    rid: str | None = None


class Joined(_Msg):
    """The connection joined a table; ``seat_token`` (seats only) resumes the seat later."""

    type: Literal["joined"] = "joined"
    table_id: str
    version: int
    role: Literal["seat", "spectator"]
    seat: int | None
    seat_token: str | None = None
    resumed: bool = False
    rid: str | None = None


class State(_Msg):
    """One full, redacted snapshot for one recipient (``full: true``).

    ``seat`` is the recipient's table seat (``None`` = spectator); ``game_seat`` its index in
    the running game (``seat_map[game_seat] == seat``: poker hands deal only to seats with
    chips); ``view`` is the engine's view for that seat (``None`` before the first game);
    ``legal_actions`` its legal entries now; ``to_act`` and ``timer_seat`` are table seats;
    ``deadline_ms`` the milliseconds left on the running deadline (``None`` if none runs).

    Sent on ``join``, resume and ``resync``, and in place of a :class:`StateDelta` to a
    recipient whose state the server does not know. A full state sent after a step carries
    that step's ``events``/``actor``/``timeout`` like a delta does (empty otherwise)."""

    type: Literal["state"] = "state"
    full: Literal[True] = True
    table_id: str
    version: int
    game: str
    status: Literal["waiting", "playing", "between_hands", "finished", "closed"]
    hand: int
    seat: int | None
    game_seat: int | None
    seat_map: list[int]
    seats: list[SeatPublic]
    view: dict[str, Any] | None
    legal_actions: list[dict[str, Any]]
    to_act: list[int]
    timer_seat: int | None
    deadline_ms: int | None
    turn_timeout_ms: int
    seed_commitment: str | None
    next_seed_commitment: str | None = None
    """SHA-256 of the next game's server seed, published before its client seeds are fixed
    (``docs/fairness.md``); that game's ``seed_commitment`` will equal it."""
    game_id: str | None
    events: list[dict[str, Any]] = []
    actor: int | None = None
    timeout: bool = False
    min_buy_in: int | None = None
    """Poker: the fewest chips a seat buys in with (``join.buy_in``); ``None`` elsewhere."""
    max_buy_in: int | None = None
    """Poker: the most chips a seat buys in with, and the most a rebuy tops its stack up to."""


class StateDelta(_Msg):
    """What one step changed for one recipient (``full: false``), applied on top of the state
    of version ``base_version`` (:func:`cardhall.protocol.frames.apply_state`; on any other
    base the client sends ``resync``).

    The decision fields (``status``, ``hand``, ``seat``, ``game_seat``, ``legal_actions``,
    ``to_act``, ``timer_seat``, ``deadline_ms``) are always present. ``view_patch`` maps each
    top-level view key whose value changed to its new value (the whole view when the previous
    one was ``None``); ``view_removed`` lists view keys to delete. ``seats``, ``seat_map``,
    ``game_id`` and ``seed_commitment`` are present only when they changed. ``events`` are the
    events of the step this recipient may see (``Event.visible_to``; each ``{"kind": ...,
    ...data}``), ``actor`` the acting table seat (``None`` for a chance action or a table
    event), ``timeout`` marks a move made by the timer."""

    type: Literal["state"] = "state"
    full: Literal[False] = False
    table_id: str
    version: int
    base_version: int
    status: Literal["waiting", "playing", "between_hands", "finished", "closed"]
    hand: int
    seat: int | None
    game_seat: int | None
    legal_actions: list[dict[str, Any]]
    to_act: list[int]
    timer_seat: int | None
    deadline_ms: int | None
    events: list[dict[str, Any]]
    actor: int | None
    timeout: bool
    view_patch: dict[str, Any]
    game: str | None = None
    """The table's game (always sent; optional here so that older frames still parse)."""
    view_removed: list[str] = []
    seats: list[SeatPublic] | None = None
    seat_map: list[int] | None = None
    game_id: str | None = None
    seed_commitment: str | None = None
    next_seed_commitment: str | None = None


StateMessage = Annotated[State | StateDelta, Field(discriminator="full")]


class Accepted(_Msg):
    """An ``act`` was applied (``duplicate``: this ``action_id`` was applied before)."""

    type: Literal["accepted"] = "accepted"
    table_id: str
    version: int
    action_id: str
    duplicate: bool = False
    rid: str | None = None


class Error(_Msg):
    """A request was refused; nothing changed. ``code`` is stable (the schema's
    ``error_codes``, the AsyncAPI document's ``x-error-codes``)."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    table_id: str | None = None
    version: int | None = None
    request: RequestRef | None = None


class GameOver(_Msg):
    """The game ended: its outcome and its finished history (``docs/fairness.md`` section 7):
    to each player of the game the *full copy* (every card, the revealed ``seed``), to
    spectators and seats not dealt in the *table copy* (``"copy": "table"``: cards the table
    never saw are ``"??"``, no ``seed``; the ``seed_commitment`` and ``client_seeds`` stay)."""

    type: Literal["game_over"] = "game_over"
    table_id: str
    version: int
    game_id: str
    outcome: dict[str, Any]
    history: dict[str, Any] = Field(description=(
        "The finished cardhall-history/1 document: the full copy for a player of the game, "
        "the table copy (copy: table, face-down cards ??, no seed) for everyone else"))


class Left(_Msg):
    """The ``leave`` was done: the connection no longer watches or holds a seat at the table
    (during a game a seat it held plays on by its timer or a stand-in until the game ends)."""

    type: Literal["left"] = "left"
    table_id: str
    version: int
    rid: str | None = None


class TableClosed(_Msg):
    """The table is gone for this connection (``reason``: ``closed``, ``kicked``, ``idle``,
    ``abandoned`` (everyone left after a game, or no client was connected for
    ``abandon_after_seconds``), ``error``), or the server is restarting (``shutdown``: the table
    comes back when it starts again; resume the seat with its ``seat_token``)."""

    type: Literal["table_closed"] = "table_closed"
    table_id: str
    version: int
    reason: TableClosedReason


class Pong(_Msg):
    """The answer to a ``ping``, with its ``nonce`` and ``rid`` echoed."""

    type: Literal["pong"] = "pong"
    nonce: str | int | None = None
    rid: str | None = None


class Presence(_Msg):
    """Table seat ``seat``'s holder connected or disconnected (``connected``), sent to every
    other connection at the table at once, in every table status. Presence does not bump the
    ``version`` (it is the version the table is at); the next ``state`` agrees with it."""

    type: Literal["presence"] = "presence"
    table_id: str
    version: int
    seat: int
    connected: bool


class ChatOut(_Msg):
    """A chat line said at the table, to everyone there (seats and spectators): ``id`` (per
    table, rising), ``seat`` (the speaker's table seat, ``None`` for a spectator), ``name``,
    ``text`` (plain text: render it as text, never as markup) and ``ts`` (Unix milliseconds)."""

    type: Literal["chat"] = "chat"
    table_id: str
    id: int
    seat: int | None
    name: str
    player_id: str
    """The speaker's player id (what a client mutes by)."""
    text: str
    ts: int


class ChatRemoved(_Msg):
    """An admin removed chat line ``id`` of the table: clients drop it."""

    type: Literal["chat_removed"] = "chat_removed"
    table_id: str
    id: int


class LogStep(_Msg):
    """One step of a :class:`HandLog`, as a ``state`` frame reported it: the ``events`` this
    seat could see (``Event.visible_to``), ``actor`` (the acting table seat, ``None`` for a
    chance action or a table event) and ``timeout`` (the timer moved)."""

    events: list[dict[str, Any]]
    actor: int | None = None
    timeout: bool = False


class HandLog(_Msg):
    """The running game's log so far, to a seat that resumes it mid-game (sent after its
    ``joined`` and full ``state``), so its page can rebuild the log of the hand: ``steps`` in
    order, the first starting with the table's ``game_started`` event; each step only what
    that seat was (or would have been) shown live, never a card hidden from it; at most the
    last :data:`~cardhall.tables.handlog.MAX_STEPS` steps (``truncated``: earlier ones left
    out). ``stand_in_from``: when the seat was just taken back from a stand-in, the index in
    ``steps`` from which the stand-in played it (its moves are the steps whose ``actor`` is
    this ``seat``), else ``None``."""

    type: Literal["hand_log"] = "hand_log"
    table_id: str
    version: int
    game_id: str
    hand: int
    seat: int
    steps: list[LogStep]
    truncated: bool = False
    stand_in_from: int | None = None


ServerMessage = Annotated[
    Welcome | Joined | StateMessage | Accepted | Error | GameOver | Left | TableClosed | Pong
    | Presence | ChatOut | ChatRemoved | RematchReady | RematchOffer | HandLog
        | TournamentUpdate,
    Field(discriminator="type"),
]
SERVER: TypeAdapter[Any] = TypeAdapter(ServerMessage)
"""Parses any server message; ``view``, ``legal_actions`` and ``events`` stay plain JSON
(what the SDK hands a bot). :data:`SERVER_TYPED` is the contract that also checks them."""


def _typed_state(game: str, full: bool) -> type[BaseModel]:
    """The ``state`` model of one game: :class:`State` (or :class:`StateDelta`) with ``game``
    fixed and ``view`` (or ``view_patch``), ``legal_actions`` and ``events`` typed by
    :data:`cardhall.protocol.games.GAME_PAYLOADS`."""
    view, entry, event = GAME_PAYLOADS[game]
    base = State if full else StateDelta
    fields: dict[str, Any] = {
        "game": (Literal[game], ...),
        "legal_actions": (list[entry], ...),  # type: ignore[valid-type]
        "events": (list[event], [] if full else ...),  # type: ignore[valid-type]
    }
    if full:
        fields["view"] = (view | None, ...)
    else:
        fields["view_patch"] = (VIEW_PATCHES[game], ...)
    name = "".join(w.title() for w in game.split("_"))
    doc = (base.__doc__ or "").split("\n\n")[0]
    return create_model(
        f"{base.__name__}{name}", __base__=base, __doc__=f"{doc} ({game})", **fields)


GAMES = tuple(sorted(GAME_PAYLOADS))
"""The games whose ``state`` payloads are typed (every registered game)."""
TYPED_STATES: dict[str, type[BaseModel]] = {g: _typed_state(g, True) for g in GAMES}
TYPED_DELTAS: dict[str, type[BaseModel]] = {g: _typed_state(g, False) for g in GAMES}


def _by_game(models: dict[str, type[BaseModel]]) -> Any:
    union: Any = None
    for m in models.values():
        union = m if union is None else union | m
    return Annotated[union, Field(discriminator="game")]


if TYPE_CHECKING:
    TypedServerMessage = Any
else:
    TypedState = Annotated[_by_game(TYPED_STATES) | _by_game(TYPED_DELTAS),
                           Field(discriminator="full")]
    TypedServerMessage = Annotated[
        Welcome | Joined | TypedState | Accepted | Error | GameOver | Left | TableClosed | Pong
        | Presence | ChatOut | ChatRemoved | RematchReady | RematchOffer | HandLog
        | TournamentUpdate,
        Field(discriminator="type"),
    ]
SERVER_TYPED: TypeAdapter[Any] = TypeAdapter(TypedServerMessage)
"""Checks a server message completely: a ``state``'s ``view``/``view_patch``,
``legal_actions`` and ``events`` against its game's models (one branch per ``game``). Used
by tests and the published schema, never on the server's hot path."""


SEAT_BOUNDS = ("greater_than_equal", "less_than_equal")
"""The errors of an integer ``join.seat`` outside 0..63 (no table has more seats)."""


def error_code_for(exc: ValidationError) -> ProtocolErrorCode:
    """Map a pydantic validation error of a client message to one error code: a ``join``
    whose only fault is an integer ``seat`` outside 0..63 is ``table.bad_seat`` (as a seat the
    table does not have is); otherwise a ``protocol.*`` code."""
    errors = exc.errors()
    kinds = {e["type"] for e in errors}
    if errors and all(e["loc"][:2] == ("join", "seat") and e["type"] in SEAT_BOUNDS for e in errors):
        return "table.bad_seat"
    if kinds & {"union_tag_invalid", "union_tag_not_found"}:
        return "protocol.unknown_type"
    if "extra_forbidden" in kinds:
        return "protocol.extra_field"
    return "protocol.invalid_field"


def describe(exc: ValidationError) -> str:
    """A short message naming the offending fields."""
    parts = []
    for e in exc.errors()[:3]:
        loc = ".".join(str(x) for x in e["loc"][1:])
        parts.append(f"{loc or 'message'}: {e['msg']}")
    return "; ".join(parts)


def all_error_codes() -> dict[str, str]:
    """Every code an ``error`` may carry, with one line each: the server's
    (:data:`ERROR_CODES`) and the engine's ``engine.*`` codes (their classes' first line)."""
    codes: dict[str, str] = {str(k): v for k, v in ERROR_CODES.items()}
    for code, cls in ENGINE_ERRORS.items():
        codes[code] = " ".join((cls.__doc__ or code).split("\n\n")[0].split())
    return dict(sorted(codes.items()))


def schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of both directions: ``{"client": ..., "server": ...,
    "error_codes": ...}`` (deterministic; the committed ``docs/protocol.schema.json`` equals
    it). Every ``discriminator.mapping`` value is a ``$ref`` string
    (:func:`~.discriminators.standard_discriminators`)."""
    return {
        "$comment": "generated by `python -m cardhall.protocol.messages`; do not edit",
        "protocol": PROTOCOL_VERSION,
        "client": standard_discriminators(CLIENT.json_schema()),
        "server": standard_discriminators(SERVER_TYPED.json_schema()),
        "error_codes": all_error_codes(),
        "table_closed_reasons": TABLE_CLOSED_REASONS,
        "close_codes": {str(k): v for k, v in sorted(CLOSE_CODES.items())},
    }


def schema_text() -> str:
    """:func:`schema` as canonical JSON text (sorted keys, two-space indent, final newline)."""
    return json.dumps(schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(schema_text(), end="")
