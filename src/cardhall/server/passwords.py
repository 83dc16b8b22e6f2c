"""Account passwords: Argon2id through pwdlib (``docs/security.md``, "Accounts").

pwdlib is the maintained successor of passlib for FastAPI apps; its ``Argon2Hasher`` wraps
argon2-cffi (the reference C implementation) and writes PHC strings
(``$argon2id$v=19$m=65536,t=3,p=4$salt$hash``) that carry their own parameters, so raising the
cost later keeps old hashes valid (:meth:`Passwords.verify` says when one should be redone).
Hashing takes tens of milliseconds of CPU and 64 MiB by default: it runs in a worker thread
(argon2-cffi releases the GIL), never on the event loop.
"""

from __future__ import annotations

import asyncio

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher


class Passwords:
    """Hash and check passwords with Argon2id.

    Args:
        time_cost: Argon2 passes (>= 1).
        memory_kib: memory per hash in KiB (>= 64: 8 per lane, 4 lanes).

    A check of an unknown username verifies against a dummy hash of the same cost
    (:meth:`verify_unknown`), so the answer takes as long as for a wrong password.
    """

    def __init__(self, *, time_cost: int = 3, memory_kib: int = 65_536) -> None:
        self._hash = PasswordHash((Argon2Hasher(time_cost=time_cost, memory_cost=memory_kib),))
        self._dummy = self._hash.hash("not a password of anyone")

    async def hash(self, password: str) -> str:
        """The PHC string of ``password`` (a fresh random salt each time)."""
        return await asyncio.to_thread(self._hash.hash, password)

    async def verify(self, password: str, stored: str) -> tuple[bool, str | None]:
        """Whether ``password`` matches the ``stored`` hash, and a new hash to store when the
        stored one was made with other parameters (``None``: keep it). A hash that is not
        Argon2 (or is damaged) never matches."""
        try:
            return await asyncio.to_thread(self._hash.verify_and_update, password, stored)
        except Exception:  # pwdlib's UnknownHashError, argon2's InvalidHashError
            return False, None

    async def verify_unknown(self, password: str) -> None:
        """Spend the time of a check on a username that has no account."""
        await asyncio.to_thread(self._hash.verify, password, self._dummy)
