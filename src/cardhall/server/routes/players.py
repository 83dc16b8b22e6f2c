"""``/api/players``: create guest and bot identities, and who-am-I (``design.md`` section 6)."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

from fastapi import APIRouter
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from ...protocol.messages import SeatPublic
from ...storage.interface import PlayerRecord
from ..deps import HallDep, OptionalPlayerDep, PlayerDep, SettingsDep, StoreDep
from ..errors import responses

router = APIRouter(prefix="/api/players", tags=["players"])

INVISIBLE = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B, 0x180C, 0x180D, 0x180F, 0x3164, 0xFFA0,
     *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0), 0x2800])
"""Default-ignorable code points outside category C (Unicode's ``DerivedCoreProperties``):
the combining grapheme joiner, the Hangul fillers, the Khmer inherent vowels and the
variation selectors; and U+2800 BRAILLE PATTERN BLANK, a symbol (``So``, not
default-ignorable, not white space) that draws nothing either. A name holding them looks
empty or like another (``anna`` and ``anna`` + U+2800 have two skeletons)."""


def _printable(name: str) -> str:
    """Refuse what a name must not hold: control, format (the bidi overrides and isolates
    U+202A-U+202E, U+2066-U+2069, zero-width characters), surrogate, private-use and
    unassigned characters (category C*), line and paragraph separators (Zl, Zp) and the
    other invisible characters (:data:`INVISIBLE`).

    Raises:
        ValueError: naming the first such character (``U+202E``).
    """
    for ch in name:
        if (unicodedata.category(ch)[0] == "C" or unicodedata.category(ch) in ("Zl", "Zp")
                or ord(ch) in INVISIBLE):
            raise ValueError(f"name must not contain control, format or invisible characters "
                             f"(U+{ord(ch):04X})")
    return name


PlayerName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32),
                       AfterValidator(_printable)]
"""A display name: 1-32 printable characters after trimming."""


class PlayerCreate(BaseModel):
    """``POST /api/players`` body: a display name (1-32 characters) and whether it is a bot."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: PlayerName
    bot: bool = False


class PlayerPublic(BaseModel):
    """A player as others may see it."""

    id: str
    name: str
    bot: bool
    owner_id: str | None = Field(None, description="The player who created this bot")

    @classmethod
    def of(cls, rec: PlayerRecord) -> PlayerPublic:
        return cls(id=rec.id, name=rec.name, bot=rec.is_bot, owner_id=rec.owner_id)


class PlayerCreated(PlayerPublic):
    """The new identity and its bearer token (shown once; only its hash is stored)."""

    token: str


@router.post("", status_code=201, responses=responses(
    "request.invalid", "auth.invalid_token", "auth.banned"),
    openapi_extra={"security": [{}, {"PlayerToken": []}]})  # the token is optional here
async def create_player(body: PlayerCreate, store: StoreDep,
                        caller: OptionalPlayerDep) -> PlayerCreated:
    """Create a guest (or a bot) identity and return its token.

    A bot created with a caller's bearer token is owned by that caller (``owner_id``); an
    invalid token is refused rather than ignored.
    """
    owner = caller.id if body.bot and caller is not None else None
    rec, token = await store.create_player(body.name, is_bot=body.bot, owner_id=owner)
    return PlayerCreated(**PlayerPublic.of(rec).model_dump(), token=token)


@router.get("/me", responses=responses("auth.missing_token", "auth.invalid_token",
                                       "auth.banned"))
async def me(player: PlayerDep) -> PlayerPublic:
    """The identity of the bearer token."""
    return PlayerPublic.of(player)


class ChipBalanceAnswer(BaseModel):
    """The caller's chip balance (``tables/chips.py``)."""

    player_id: str
    balance: int | None = Field(description="Chips the player may buy in with now (a buy-in "
                                            "is debited as the join is sent); null for a bot "
                                            "identity, which has no balance")
    enabled: bool = Field(description="Whether this caller's poker seats buy in from the "
                                      "balance (CARDHALL_CHIP_BALANCES, and false for a bot "
                                      "identity); false: its seats play on the house's "
                                      "starting_stack and no balance moves")
    top_up_to: int = Field(description="The free top-up: sitting down with a balance below a "
                                       "table's min_buy_in raises it to this many chips ...")
    top_up_every_seconds: float = Field(description="... at most once per this many seconds")


@router.get("/me/chips", responses=responses("auth.missing_token", "auth.invalid_token",
                                             "auth.banned", "store.unavailable"))
async def my_chips(player: PlayerDep, store: StoreDep,
                   settings: SettingsDep) -> ChipBalanceAnswer:
    """The bearer's chip balance in chips (1,000 before its first move); reading it never
    applies the free top-up (sitting down does). A bot identity has none (``balance: null,
    enabled: false``: it plays on the house's chips). 503 ``store.unavailable`` while the
    database cannot answer."""
    stored = None if player.is_bot else await store.chip_balance(player.id)
    return ChipBalanceAnswer(player_id=player.id, balance=stored,
                             enabled=settings.chip_balances and not player.is_bot,
                             top_up_to=settings.chips_top_up_to,
                             top_up_every_seconds=settings.chips_top_up_every_seconds)


class MyTable(BaseModel):
    """A live table where the caller holds a seat, with what it takes to go back."""

    id: str
    game: str
    status: Literal["waiting", "playing", "between_hands", "finished", "closed"]
    private: bool
    invite_code: str | None = Field(description="A private table's invite code (the caller "
                                                "holds a seat there); null for a public table")
    num_seats: int
    hand: int = Field(description="Hands (games) dealt so far at the table")
    my_seats: list[int] = Field(description="The caller's seats there (a seat a stand-in plays "
                                            "while the caller is away counts: joining again "
                                            "takes it back)")
    seats: list[SeatPublic]
    created_at: str


class MyTables(BaseModel):
    """``GET /api/players/me/tables``."""

    items: list[MyTable]
    unreachable: list[str] = Field(default_factory=list,
                                   description="Cluster nodes that did not answer in time "
                                               "(their tables are left out)")


@router.get("/me/tables", responses=responses("auth.missing_token", "auth.invalid_token",
                                              "auth.banned"))
async def my_tables(player: PlayerDep, hall: HallDep) -> MyTables:
    """Every live table where the bearer holds a seat, private ones included, oldest first:
    the way back to a table left or a tab closed (resume with a WebSocket ``join`` of the
    table id: the seat is the caller's). A seat the caller was kicked or banned from is not
    listed. In cluster mode every node answers (a node that does not within a second is
    named in ``unreachable``)."""
    rows, missing = await hall.my_tables(player.id)
    return MyTables(items=[MyTable(**r) for r in rows], unreachable=missing)
