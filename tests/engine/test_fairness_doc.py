"""``docs/fairness.md``'s worked example and its stand-alone reimplementation agree with the
engine's shuffle (``engine/shuffle.py``), so the page stays a correct specification."""

from __future__ import annotations

import hashlib
import re
import struct
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from cardhall.engine import commitment, game_seed, seeded_shuffle, valid_client_seed

DOC = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text(encoding="utf-8")
S = hashlib.sha256(b"cardhall example").digest()
CLIENTS = ["ana's lucky string", None, "bob-7", None]
BLOT_CODES = [r + s for s in "cdhs" for r in "789TJQKA"]


def test_the_worked_example_is_what_the_engine_computes() -> None:
    g = game_seed(S, CLIENTS)
    deck = seeded_shuffle(g, 0, BLOT_CODES)
    block = hashlib.sha256(g + b"0:0").digest()
    first = struct.unpack(">4Q", block)[0]
    for fact in (S.hex(), commitment(S), g.hex(), block.hex(), str(first), f"= {first % 32}",
                 " ".join(deck[:8]), " | ".join(" ".join(deck[8 * i:8 * i + 8]) for i in range(4)),
                 " ".join(seeded_shuffle(game_seed(S, [None] * 4), 0, BLOT_CODES)[:8])):
        assert fact in DOC, fact


def _doc_code() -> dict[str, object]:
    code = re.search(r"```python\n(.*?)```", DOC, re.S)
    assert code is not None
    namespace: dict[str, object] = {}
    exec(code.group(1), namespace)  # the page's own reimplementation
    return namespace


DOC_CODE = _doc_code()


@given(st.binary(min_size=32, max_size=32),
       st.lists(st.none() | st.text(st.characters(min_codepoint=32, max_codepoint=126),
                                    min_size=1, max_size=64), min_size=1, max_size=10),
       st.integers(0, 5), st.integers(0, 60))
def test_the_documented_code_is_the_engine(server: bytes, clients: list[str | None], label: int,
                                           n: int) -> None:
    assert all(c is None or valid_client_seed(c) for c in clients)
    g = game_seed(server, clients)
    assert DOC_CODE["game_seed"](server, clients) == g  # type: ignore[operator]
    cards = [f"c{i}" for i in range(n)]
    assert DOC_CODE["shuffle"](g, label, cards) == seeded_shuffle(g, label, cards)  # type: ignore[operator]


def test_seat_order_and_empty_seeds_matter() -> None:
    assert game_seed(S, ["a", None]) != game_seed(S, [None, "a"])
    assert game_seed(S, ["ab", None]) != game_seed(S, ["a", "b"])
    assert game_seed(S, [None]) != game_seed(S, [None, None])
    for bad in ["", "x" * 65, "caf\u00e9", "tab\there"]:
        assert not valid_client_seed(bad)
