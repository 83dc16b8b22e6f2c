"""The SQL store's players and accounts (:class:`~.interface.PlayerStore`, one role object of
:class:`~cardhall.storage.sql.SqlStore`).

An account is a ``players`` row with ``username``/``username_key``/``password_hash`` set; its
bearer tokens are ``sessions`` rows (only their SHA-256). A guest keeps its one token in
``players.token_hash`` as before; upgrading it moves that hash into a ``guest`` session and
leaves ``players.token_hash`` the hash of a token nobody was given.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import Table, delete, or_, select, update
from sqlalchemy.exc import IntegrityError

from .accounts import (
    AlreadyRegisteredError,
    SessionRecord,
    UsernameConfusableError,
    UsernameTakenError,
)
from .interface import PlayerRecord
from .models import Player, Session
from .sql_db import SqlRole
from .tokens import hash_token, new_token
from .usernames import legacy_username_key, username_key, username_skeleton

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

PLAYERS: Table = Player.__table__  # type: ignore[assignment]
SESSIONS: Table = Session.__table__  # type: ignore[assignment]


def player_record(row: Player) -> PlayerRecord:
    """The :class:`PlayerRecord` of a ``players`` row."""
    return PlayerRecord(row.id, row.name, row.is_bot, row.banned, row.owner_id,
                        username=row.username, disabled=row.disabled, created_at=row.created_at)


class SqlPlayers(SqlRole):
    """Identities, accounts and sessions in ``players`` and ``sessions``."""

    async def create_player(
        self, name: str, *, is_bot: bool = False, owner_id: str | None = None
    ) -> tuple[PlayerRecord, str]:
        token = new_token()
        row = Player(id=uuid.uuid4().hex, name=name, is_bot=is_bot, banned=False,
                     disabled=False, owner_id=owner_id, token_hash=hash_token(token),
                     created_at=datetime.now(UTC))
        async with self._writing(), self.sessions.begin() as session:
            session.add(row)
        return player_record(row), token

    async def get_player(self, player_id: str) -> PlayerRecord | None:
        async with self.sessions() as session:
            row = await session.get(Player, player_id)
        return None if row is None else player_record(row)

    async def list_players(self, *, limit: int = 100, offset: int = 0) -> list[PlayerRecord]:
        query = select(Player).order_by(Player.created_at, Player.id).limit(limit).offset(offset)
        async with self.sessions() as session:
            rows = (await session.scalars(query)).all()
        return [player_record(r) for r in rows]

    async def set_banned(self, player_id: str, banned: bool) -> PlayerRecord | None:
        async with self._writing(), self.sessions.begin() as session:
            row = await session.get(Player, player_id)
            if row is None:
                return None
            row.banned = banned
        return player_record(row)

    async def bots_of(self, owner_id: str) -> list[PlayerRecord]:
        """The bot identities ``owner_id`` owns, oldest first."""
        query = (select(Player).where(Player.owner_id == owner_id, Player.is_bot.is_(True))
                 .order_by(Player.created_at, Player.id))
        async with self.sessions() as session:
            rows = (await session.scalars(query)).all()
        return [player_record(r) for r in rows]

    async def bot_identity(self, name: str) -> PlayerRecord:
        """The bot identity called ``name`` (the oldest one), created on first use."""
        query = (select(Player).where(Player.name == name, Player.is_bot.is_(True),
                                      Player.owner_id.is_(None))
                 .order_by(Player.created_at, Player.id).limit(1))
        async with self.sessions() as session:
            row = await session.scalar(query)
        if row is None:
            row = Player(id=uuid.uuid4().hex, name=name, is_bot=True, banned=False, disabled=False,
                         owner_id=None, token_hash=hash_token(new_token()),
                         created_at=datetime.now(UTC))
            async with self._writing(), self.sessions.begin() as session:
                session.add(row)
        return player_record(row)

    async def player_for_token(self, token: str) -> PlayerRecord | None:
        """The identity of a guest token (``players.token_hash``) or of a session, in one
        query."""
        h = hash_token(token)
        by_session = select(SESSIONS.c.player_id).where(SESSIONS.c.token_hash == h)
        query = select(Player).where(or_(Player.token_hash == h, Player.id.in_(by_session)))
        async with self.sessions() as session:
            row = await session.scalar(query.limit(1))
        return None if row is None else player_record(row)

    async def register(self, name: str, username: str, password_hash: str, *,
                       upgrade: str | None = None) -> tuple[PlayerRecord, str]:
        """See :meth:`Store.register`: one transaction (the unique indexes on
        ``username_key`` and ``username_skeleton`` settle two registrations at once)."""
        now = datetime.now(UTC)
        token = new_token()
        key, skeleton = username_key(username), username_skeleton(username)
        values: dict[str, Any] = {"username": username, "username_key": key,
                                  "username_skeleton": skeleton, "name": name,
                                  "password_hash": password_hash, "registered_at": now}
        try:
            async with self._writing(), self.engine.begin() as conn:
                await self._check_name(conn, username, key, skeleton)
                player_id = await (self._insert_account(conn, values, now) if upgrade is None
                                   else self._upgrade(conn, upgrade, values))
                await conn.execute(SESSIONS.insert(), _session_row(player_id, token,
                                                                   "register", now))
        except IntegrityError as exc:  # a concurrent registration took the name first
            raise UsernameTakenError(f"username {username!r} is taken") from exc
        rec = await self.get_player(player_id)
        assert rec is not None
        return rec, token

    async def _check_name(self, conn: AsyncConnection, username: str, key: str,
                          skeleton: str) -> None:
        """Raise if ``key`` is taken or ``skeleton`` is another account's."""
        found = await conn.scalar(select(PLAYERS.c.id).where(PLAYERS.c.username_key == key))
        if found is not None:
            raise UsernameTakenError(f"username {username!r} is taken")
        found = await conn.scalar(select(PLAYERS.c.id).where(
            PLAYERS.c.username_skeleton == skeleton))
        if found is not None:
            raise UsernameConfusableError(f"username {username!r} looks like an existing one")

    async def _insert_account(self, conn: AsyncConnection, values: dict[str, Any],
                              now: datetime) -> str:
        player_id = uuid.uuid4().hex
        await conn.execute(PLAYERS.insert(), {
            "id": player_id, "is_bot": False, "banned": False, "disabled": False,
            "owner_id": None, "token_hash": hash_token(new_token()), "created_at": now,
            **values})
        return player_id

    async def _upgrade(self, conn: AsyncConnection, player_id: str,
                       values: dict[str, Any]) -> str:
        """Make the guest ``player_id`` an account; its guest token becomes a session."""
        row = (await conn.execute(select(PLAYERS.c.token_hash, PLAYERS.c.is_bot,
                                         PLAYERS.c.username)
                                  .where(PLAYERS.c.id == player_id))).first()
        if row is None or row.is_bot or row.username is not None:
            raise AlreadyRegisteredError(f"player {player_id!r} cannot be upgraded: it is no "
                                         "guest")
        await conn.execute(update(PLAYERS).where(PLAYERS.c.id == player_id).values(
            token_hash=hash_token(new_token()), **values))
        await conn.execute(SESSIONS.insert(), {
            "id": uuid.uuid4().hex, "player_id": player_id, "token_hash": row.token_hash,
            "kind": "guest", "created_at": datetime.now(UTC)})
        return player_id

    async def credentials(self, username: str) -> tuple[PlayerRecord, str] | None:
        key, legacy = username_key(username), legacy_username_key(username)
        query = select(Player).where(Player.username_key.in_({key, legacy}))
        async with self.sessions() as session:
            rows = list(await session.scalars(query))
        rows.sort(key=lambda r: r.username_key != legacy)  # a kept legacy key first
        row = rows[0] if rows else None
        if row is None or row.password_hash is None:
            return None
        return player_record(row), row.password_hash

    async def open_session(self, player_id: str, kind: str) -> str:
        token = new_token()
        async with self._writing(), self.engine.begin() as conn:
            await conn.execute(SESSIONS.insert(),
                               _session_row(player_id, token, kind, datetime.now(UTC)))
        return token

    async def list_sessions(self, player_id: str,
                            current_token: str | None = None) -> list[SessionRecord]:
        current = None if current_token is None else hash_token(current_token)
        query = (select(SESSIONS).where(SESSIONS.c.player_id == player_id)
                 .order_by(SESSIONS.c.created_at, SESSIONS.c.id))
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).mappings().all()
        return [SessionRecord(r["id"], r["kind"], r["created_at"], r["token_hash"] == current)
                for r in rows]

    async def revoke_token(self, token: str) -> bool:
        h = hash_token(token)
        async with self._writing(), self.engine.begin() as conn:
            gone = await conn.execute(delete(SESSIONS).where(SESSIONS.c.token_hash == h))
            if gone.rowcount:
                return True
            guest = await conn.execute(update(PLAYERS).where(PLAYERS.c.token_hash == h)
                                       .values(token_hash=hash_token(new_token())))
            return bool(guest.rowcount)

    async def revoke_session(self, player_id: str, session_id: str) -> bool:
        async with self._writing(), self.engine.begin() as conn:
            gone = await conn.execute(delete(SESSIONS).where(
                SESSIONS.c.player_id == player_id, SESSIONS.c.id == session_id))
        return bool(gone.rowcount)

    async def revoke_sessions(self, player_id: str, *, keep_token: str | None = None) -> int:
        stmt = delete(SESSIONS).where(SESSIONS.c.player_id == player_id)
        if keep_token is not None:
            stmt = stmt.where(SESSIONS.c.token_hash != hash_token(keep_token))
        async with self._writing(), self.engine.begin() as conn:
            gone = await conn.execute(stmt)
        return int(gone.rowcount)

    async def set_password(self, player_id: str, password_hash: str) -> bool:
        stmt = (update(PLAYERS).where(PLAYERS.c.id == player_id,
                                      PLAYERS.c.password_hash.is_not(None))
                .values(password_hash=password_hash))
        async with self._writing(), self.engine.begin() as conn:
            done = await conn.execute(stmt)
        return bool(done.rowcount)

    async def set_disabled(self, player_id: str, disabled: bool) -> PlayerRecord | None:
        async with self._writing(), self.sessions.begin() as session:
            row = await session.get(Player, player_id)
            if row is None:
                return None
            row.disabled = disabled
        return player_record(row)


def _session_row(player_id: str, token: str, kind: str, now: datetime) -> dict[str, Any]:
    return {"id": uuid.uuid4().hex, "player_id": player_id, "token_hash": hash_token(token),
            "kind": kind, "created_at": now}
