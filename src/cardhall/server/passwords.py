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
from collections.abc import Iterable

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher
from zxcvbn import zxcvbn

ESTIMATED_CHARS = 72
"""zxcvbn estimates at most this many characters (its own bound: the estimate's matching is
quadratic or worse); of a longer password only the first 72 are estimated."""


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


def password_weakness(password: str, user_inputs: Iterable[str], min_score: int) -> str | None:
    """Why ``password`` is too weak, or ``None`` when zxcvbn scores it ``min_score`` (0-4)
    or more. ``user_inputs`` (the username, the display name) count as known words: a
    password made of them is weak. zxcvbn (Dropbox's estimator, ported by dwolfhub) scores
    0 (too guessable, < 10^3 guesses) to 4 (very unguessable, >= 10^10); 3 means at least
    10^8 guesses. Of a password longer than :data:`ESTIMATED_CHARS` the first 72 characters
    are estimated (a prefix is never stronger than the whole). Takes about 1-3 ms.

    Returns:
        ``None`` or a message: the score, the bar, zxcvbn's warning and its suggestions,
        for the person who typed it (``account.weak_password``).
    """
    if min_score <= 0:
        return None
    words = [w for w in user_inputs if w]
    result = zxcvbn(password[:ESTIMATED_CHARS], user_inputs=words)
    score = int(result["score"])
    if score >= min_score:
        return None
    feedback = result.get("feedback") or {}
    why = " ".join(part for part in [feedback.get("warning") or "",
                                     *(feedback.get("suggestions") or [])] if part)
    return (f"password too easy to guess (strength {score} of 4, at least {min_score} "
            f"needed){': ' + why if why else ''}")
