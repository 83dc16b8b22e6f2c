"""Players, accounts, sessions and ratings of the :class:`~.memory.MemoryStore` (two of its role
objects): the same behaviour as the SQL store's ``sql_accounts.py`` and ``sql_ratings.py``, in
dicts."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from .accounts import (
    AlreadyRegisteredError,
    PlayerRating,
    RatingPoint,
    SessionRecord,
    UsernameConfusableError,
    UsernameTakenError,
)
from .interface import GameRecord, PlayerRecord, SeatResult
from .rating import Skill, rate_game, record_rated, seat_marks
from .tokens import hash_token, new_token
from .usernames import username_key, username_skeleton


class MemoryPlayers:
    """Identities, accounts and sessions kept in dicts (:class:`~.interface.PlayerStore`).

    Args:
        players: player id -> record (shared with :class:`MemoryRatings`, which names them).
        tokens: identity token hash -> player id.
        new_id: makes the id of a new identity (:meth:`create_player`).
    """

    def __init__(self, players: dict[str, PlayerRecord], tokens: dict[str, str],
                 new_id: Callable[[], str] = lambda: uuid.uuid4().hex) -> None:
        self.players = players
        self.tokens = tokens
        self.new_id = new_id
        self.passwords: dict[str, str] = {}
        """player id -> password hash (accounts only)."""
        self.session_rows: dict[str, tuple[str, SessionRecord]] = {}
        """token hash -> (player id, session)."""

    async def create_player(
        self, name: str, *, is_bot: bool = False, owner_id: str | None = None
    ) -> tuple[PlayerRecord, str]:
        rec = PlayerRecord(self.new_id(), name, is_bot, False, owner_id,
                           created_at=datetime.now(UTC))
        token = new_token()
        self.players[rec.id] = rec
        self.tokens[hash_token(token)] = rec.id
        return rec, token

    async def player_for_token(self, token: str) -> PlayerRecord | None:
        pid = self.tokens.get(hash_token(token)) or self._session_player(token)
        return None if pid is None else self.players.get(pid)

    async def get_player(self, player_id: str) -> PlayerRecord | None:
        return self.players.get(player_id)

    async def list_players(self, *, limit: int = 100, offset: int = 0) -> list[PlayerRecord]:
        return list(self.players.values())[offset : offset + limit]

    async def set_banned(self, player_id: str, banned: bool) -> PlayerRecord | None:
        rec = self.players.get(player_id)
        if rec is None:
            return None
        self.players[player_id] = rec = replace(rec, banned=banned)
        return rec

    async def bots_of(self, owner_id: str) -> list[PlayerRecord]:
        """The bots ``owner_id`` owns, oldest first."""
        return [r for r in self.players.values() if r.is_bot and r.owner_id == owner_id]

    async def bot_identity(self, name: str) -> PlayerRecord:
        for rec in self.players.values():
            if rec.is_bot and rec.owner_id is None and rec.name == name:
                return rec
        rec, _ = await self.create_player(name, is_bot=True)
        return rec

    async def register(self, name: str, username: str, password_hash: str, *,
                       upgrade: str | None = None) -> tuple[PlayerRecord, str]:
        key, skeleton = username_key(username), username_skeleton(username)
        names = [p.username for p in self.players.values() if p.username is not None]
        if any(username_key(n) == key for n in names):
            raise UsernameTakenError(f"username {username!r} is taken")
        if any(username_skeleton(n) == skeleton for n in names):
            raise UsernameConfusableError(f"username {username!r} looks like an existing one")
        now = datetime.now(UTC)
        if upgrade is None:
            rec = PlayerRecord(uuid.uuid4().hex, name, created_at=now)
        else:
            guest = self.players.get(upgrade)
            if guest is None or guest.is_bot or guest.username is not None:
                raise AlreadyRegisteredError(f"player {upgrade!r} cannot be upgraded: it is "
                                             "no guest")
            rec = guest
            for token_hash in [h for h, pid in self.tokens.items() if pid == upgrade]:
                del self.tokens[token_hash]
                self._add_session(token_hash, upgrade, "guest")
        self.players[rec.id] = rec = replace(rec, username=username, name=name)
        self.passwords[rec.id] = password_hash
        return rec, await self.open_session(rec.id, "register")

    def _add_session(self, token_hash: str, player_id: str, kind: str) -> None:
        self.session_rows[token_hash] = (player_id, SessionRecord(uuid.uuid4().hex, kind,
                                                                  datetime.now(UTC)))

    async def credentials(self, username: str) -> tuple[PlayerRecord, str] | None:
        key = username_key(username)
        for rec in self.players.values():
            if rec.username is not None and username_key(rec.username) == key:
                return rec, self.passwords[rec.id]
        return None

    async def open_session(self, player_id: str, kind: str) -> str:
        token = new_token()
        self._add_session(hash_token(token), player_id, kind)
        return token

    async def list_sessions(self, player_id: str,
                            current_token: str | None = None) -> list[SessionRecord]:
        current = None if current_token is None else hash_token(current_token)
        rows = [replace(s, current=h == current) for h, (pid, s) in self.session_rows.items()
                if pid == player_id]
        return sorted(rows, key=lambda s: (s.created_at, s.id))

    async def revoke_token(self, token: str) -> bool:
        h = hash_token(token)
        return (self.session_rows.pop(h, None) or self.tokens.pop(h, None)) is not None

    async def revoke_session(self, player_id: str, session_id: str) -> bool:
        for h, (pid, s) in list(self.session_rows.items()):
            if pid == player_id and s.id == session_id:
                del self.session_rows[h]
                return True
        return False

    async def revoke_sessions(self, player_id: str, *, keep_token: str | None = None) -> int:
        keep = None if keep_token is None else hash_token(keep_token)
        gone = [h for h, (pid, _) in self.session_rows.items() if pid == player_id and h != keep]
        for h in gone:
            del self.session_rows[h]
        return len(gone)

    async def set_password(self, player_id: str, password_hash: str) -> bool:
        if player_id not in self.passwords:
            return False
        self.passwords[player_id] = password_hash
        return True

    async def set_disabled(self, player_id: str, disabled: bool) -> PlayerRecord | None:
        rec = self.players.get(player_id)
        if rec is None:
            return None
        self.players[player_id] = rec = replace(rec, disabled=disabled)
        return rec

    def _session_player(self, token: str) -> str | None:
        got = self.session_rows.get(hash_token(token))
        return None if got is None else got[0]



class MemoryRatings:
    """Ratings kept in dicts (:class:`~.interface.RatingStore`); :meth:`rate` rates each game
    the archive saves.

    Args:
        players: player id -> record (read only: a rating shows its player's current name).
    """

    def __init__(self, players: dict[str, PlayerRecord]) -> None:
        self.players = players
        self.ratings: dict[tuple[str, str], PlayerRating] = {}
        """(player id, game) -> current rating."""
        self.rating_points: list[tuple[str, str, RatingPoint]] = []
        """(player id, game, point), in save order."""

    def rate(self, record: GameRecord) -> list[SeatResult]:
        """Rate one newly saved game (``storage/rating.py``); its results with their marks."""
        marks = seat_marks(record.game, record.outcome, record.results)
        results = [replace(r, mark=m) for r, m in zip(record.results, marks, strict=True)]
        if not record_rated(record):
            return results
        priors = {pid: Skill(r.mu, r.sigma) for (pid, game), r in self.ratings.items()
                  if game == record.game}
        for pid, skill in rate_game(record.game, results, priors).items():
            old = self.ratings.get((pid, record.game))
            before = Skill() if old is None else Skill(old.mu, old.sigma)
            won = any(r.player_id == pid and r.mark == "win" for r in results)
            seat = next(r for r in results if r.player_id == pid)
            player = self.players.get(pid)
            self.ratings[(pid, record.game)] = PlayerRating(
                pid, player.name if player else pid, record.game, skill.mu, skill.sigma,
                (old.games if old else 0) + 1, (old.wins if old else 0) + int(won), seat.is_bot,
                record.ended_at)
            self.rating_points.append((pid, record.game, RatingPoint(
                record.game_id, record.ended_at, skill.mu, skill.sigma, before.mu,
                before.sigma)))
        return results

    async def leaderboard(self, game: str, *, bots: bool = False, limit: int = 50,
                          offset: int = 0) -> list[PlayerRating]:
        def listed(r: PlayerRating) -> bool:
            p = self.players.get(r.player_id)
            return (r.game == game and r.is_bot == bots
                    and not (p is not None and (p.banned or p.disabled)))

        rows = [self._named(r) for r in self.ratings.values() if listed(r)]
        rows.sort(key=lambda r: (-Skill(r.mu, r.sigma).ordinal, r.player_id))
        return rows[offset : offset + limit]

    def _named(self, r: PlayerRating) -> PlayerRating:
        p = self.players.get(r.player_id)
        return r if p is None else replace(r, name=p.name)

    async def player_ratings(self, player_id: str) -> list[PlayerRating]:
        return sorted((self._named(r) for (pid, _), r in self.ratings.items()
                       if pid == player_id), key=lambda r: r.game)

    async def rating_history(self, player_id: str, game: str, *,
                             limit: int = 500) -> list[RatingPoint]:
        points = [p for pid, g, p in self.rating_points if pid == player_id and g == game]
        points.sort(key=lambda p: (p.at, p.game_id))
        return points[-limit:] if limit else []
