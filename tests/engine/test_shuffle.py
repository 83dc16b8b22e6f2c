"""The documented seeded shuffle (engine/shuffle.py, design.md section 7)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardhall.engine.shuffle import SeededShuffler, commitment, seeded_shuffle

CARDS = [f"{r}{s}" for s in "cdhs" for r in "789TJQKA"]


def test_known_vector_pins_the_algorithm() -> None:
    # Recomputable by anyone from the documented algorithm; changing it breaks fairness proofs.
    seed = bytes(32)
    out = seeded_shuffle(seed, 0, CARDS)
    assert sorted(out) == sorted(CARDS)
    assert out == seeded_shuffle(seed, 0, CARDS)
    assert out != seeded_shuffle(seed, 1, CARDS)
    first_block = hashlib.sha256(seed + b"0:0").digest()
    j = int.from_bytes(first_block[:8], "big") % 32
    expected = list(CARDS)
    expected[31], expected[j] = expected[j], expected[31]
    assert out[31] == expected[31]


def test_commitment_is_sha256_hex() -> None:
    assert commitment(b"x") == hashlib.sha256(b"x").hexdigest()


@given(st.binary(min_size=1, max_size=32), st.integers(0, 10))
def test_shuffler_numbers_its_calls(seed: bytes, calls: int) -> None:
    sh = SeededShuffler(seed)
    for k in range(calls):
        assert sh(CARDS) == seeded_shuffle(seed, k, CARDS)


def _reference_shuffle(seed: bytes, label: int, cards: list[str]) -> list[str]:
    """The documented algorithm written out byte by byte (the first implementation)."""
    prefix = seed + str(label).encode("ascii") + b":"
    stream = b""
    counter = 0
    out = list(cards)
    for i in range(len(out) - 1, 0, -1):
        while True:
            while len(stream) < 8:
                stream += hashlib.sha256(prefix + str(counter).encode("ascii")).digest()
                counter += 1
            x, stream = int.from_bytes(stream[:8], "big"), stream[8:]
            if x < 2**64 - (2**64 % (i + 1)):
                break
        j = x % (i + 1)
        out[i], out[j] = out[j], out[i]
    return out


@given(st.binary(min_size=0, max_size=40), st.integers(0, 1000), st.integers(0, 70))
def test_the_shuffle_is_the_documented_byte_stream_algorithm(seed: bytes, label: int, n: int) -> None:
    cards = [f"c{i}" for i in range(n)]
    assert seeded_shuffle(seed, label, cards) == _reference_shuffle(seed, label, cards)


def test_a_word_at_or_over_the_limit_is_rejected(monkeypatch: pytest.MonkeyPatch) -> None:
    # 2**64 - 1 is at or above the limit for 3 cards (2**64 - 2**64 % 3): it is skipped and
    # the next word decides, as the documented rejection sampling says
    import cardhall.engine.shuffle as shuffle

    words = iter([2**64 - 1, 4, 7])
    monkeypatch.setattr(shuffle, "_words", lambda seed, label: words)
    # i = 2: 4 % 3 = 1 -> swap 2, 1; i = 1: 7 % 2 = 1 -> no change
    assert shuffle.seeded_shuffle(b"", 0, ["a", "b", "c"]) == ["a", "c", "b"]
