"""The documented, language-independent shuffle (``design.md`` section 7, fairness).

A game's server seed is 32 random bytes; its commitment ``sha256(seed).hexdigest()`` is
published when the game starts, and the seed is revealed in the finished history. Anyone can
then recompute every chance action:

* The *k*-th shuffle of a game (k = 0, 1, 2, ... in the order the chance actions occur) uses the
  byte stream ``SHA-256(seed || "k" || ":" || counter)`` for ``counter = 0, 1, 2, ...`` (``"k"``
  and ``counter`` as ASCII decimal), concatenated.
* A random integer below ``n`` reads the next 8 bytes as a big-endian unsigned integer ``x`` and
  rejects ``x >= 2**64 - (2**64 % n)`` (rejection sampling, no modulo bias); else ``x % n``.
* The shuffle is Fisher-Yates on the list the game hands over (its order is documented per
  game): for ``i`` from ``len-1`` down to ``1``, swap items ``i`` and ``randbelow(i+1)``.

Client seeds (``docs/fairness.md``): the ``seed`` above is the game's *shuffle seed*. Under
:data:`SHUFFLE` (``"cardhall-shuffle/1"``) it is :func:`game_seed` of the server seed and the
client seeds of the game's seats, so the server alone cannot choose a deal; a history without a
``shuffle`` field (written before client seeds, :data:`LEGACY_SHUFFLE`) shuffles with the server
seed itself. The commitment is always that of the server seed.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Iterator, Sequence

SHUFFLE = "cardhall-shuffle/1"
"""The name and version of the seed derivation of :func:`game_seed` (a history's ``shuffle``)."""
LEGACY_SHUFFLE = "cardhall-shuffle/0"
"""Histories without a ``shuffle`` field: the shuffle seed is the server seed itself."""
SHUFFLES = (LEGACY_SHUFFLE, SHUFFLE)

CLIENT_SEED_MAX = 64
"""Longest client seed, in characters (printable ASCII, ``" "`` to ``"~"``)."""


def valid_client_seed(text: str) -> bool:
    """Whether ``text`` is a client seed: 1 to :data:`CLIENT_SEED_MAX` printable ASCII
    characters (code points 32 to 126, space included)."""
    return 1 <= len(text) <= CLIENT_SEED_MAX and all(" " <= ch <= "~" for ch in text)


def _field(data: bytes) -> bytes:
    """``data`` with its length in front: 4 bytes, big-endian unsigned."""
    return struct.pack(">I", len(data)) + data


def game_seed(server_seed: bytes, client_seeds: Sequence[str | None]) -> bytes:
    """The shuffle seed of a game under :data:`SHUFFLE` (32 bytes)::

        SHA-256( "cardhall-shuffle/1"                  (18 ASCII bytes)
                 || u32(len(server_seed)) || server_seed
                 || for each game seat, in seat order: u32(len(c)) || c )

    where ``c`` is the seat's client seed as UTF-8 (ASCII) bytes, empty for a seat without one
    (``None``), and ``u32`` is 4 bytes big-endian. Every field is length-prefixed, so distinct
    inputs never encode to the same bytes.

    Raises:
        ValueError: a client seed that :func:`valid_client_seed` refuses (names it).
    """
    parts = [SHUFFLE.encode("ascii"), _field(server_seed)]
    for i, c in enumerate(client_seeds):
        if c is not None and not valid_client_seed(c):
            raise ValueError(f"client seed {i} {c!r} is not 1-{CLIENT_SEED_MAX} printable "
                             f"ASCII characters")
        parts.append(_field(b"" if c is None else c.encode("ascii")))
    return hashlib.sha256(b"".join(parts)).digest()


def shuffle_seed(shuffle: str, server_seed: bytes, client_seeds: Sequence[str | None]) -> bytes:
    """The seed :class:`SeededShuffler` uses for a game: :func:`game_seed` under
    :data:`SHUFFLE`, the server seed itself under :data:`LEGACY_SHUFFLE`.

    Raises:
        ValueError: an unknown ``shuffle`` name, or a bad client seed (:func:`game_seed`).
    """
    if shuffle == SHUFFLE:
        return game_seed(server_seed, client_seeds)
    if shuffle == LEGACY_SHUFFLE:
        return server_seed
    raise ValueError(f"unknown shuffle {shuffle!r}; known: {list(SHUFFLES)}")


def commitment(seed: bytes) -> str:
    """The public commitment to a seed: SHA-256, lower-case hex."""
    return hashlib.sha256(seed).hexdigest()


_TWO64 = 1 << 64
_LIMITS = tuple(_TWO64 - _TWO64 % n if n else 0 for n in range(65))
"""``_LIMITS[n]``: words at or above it are rejected when drawing below ``n`` (n <= 64)."""
_WORDS = struct.Struct(">4Q")
"""One SHA-256 block (32 bytes) read as four big-endian 64-bit unsigned integers."""


def _words(seed: bytes, label: int) -> Iterator[int]:
    """The byte stream of shuffle number ``label`` read 8 bytes at a time, as big-endian
    unsigned integers (a block of 32 bytes is exactly four of them)."""
    prefix = seed + str(label).encode("ascii") + b":"
    sha256 = hashlib.sha256
    counter = 0
    while True:
        yield from _WORDS.unpack(sha256(prefix + str(counter).encode("ascii")).digest())
        counter += 1


def seeded_shuffle(seed: bytes, label: int, cards: list[str]) -> list[str]:
    """A new list: ``cards`` shuffled by the documented algorithm for shuffle number ``label``."""
    out = list(cards)
    words = _words(seed, label)
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = _LIMITS[n] if n <= 64 else _TWO64 - _TWO64 % n
        x = next(words)
        while x >= limit:  # rejection sampling: no modulo bias
            x = next(words)
        j = x % n
        out[i], out[j] = out[j], out[i]
    return out


class SeededShuffler:
    """A shuffle function (``Shuffle``) that numbers its calls 0, 1, 2, ... and applies
    :func:`seeded_shuffle` with that number as the label."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed
        self.count = 0

    def __call__(self, cards: list[str]) -> list[str]:
        out = seeded_shuffle(self.seed, self.count, cards)
        self.count += 1
        return out
