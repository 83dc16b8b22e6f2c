"""What a line of plain text a person types may hold (``docs/protocol.md``, "Chat").

Refused: control characters (Unicode category ``Cc``: C0 and C1 controls, ``U+0000``, tab and
newline included), lone surrogates (``Cs``), the line and paragraph separators (``U+2028``,
``U+2029``) and the explicit bidirectional formatting characters (``U+202A``-``U+202E``
embeddings and overrides, ``U+2066``-``U+2069`` isolates), which reorder the text shown after
them: ``U+202E`` makes ``gpj.exe`` read ``exe.jpg``. Other format characters stay allowed:
emoji sequences need the zero-width joiner (``U+200D``) and variation selectors, and
right-to-left text its marks (``U+200E``, ``U+200F``). Standard library only.
"""

from __future__ import annotations

import unicodedata

REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})
"""Unicode general categories refused in a line of plain text."""
BIDI_FORMATTING = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
"""Bidirectional classes of the explicit embedding, override and isolate characters."""


def refused(text: str) -> list[tuple[int, str]]:
    """``(index, character)`` of every character of ``text`` a plain line may not hold."""
    return [(i, ch) for i, ch in enumerate(text)
            if unicodedata.category(ch) in REFUSED_CATEGORIES
            or unicodedata.bidirectional(ch) in BIDI_FORMATTING]


def plain_line(text: str) -> str:
    """``text`` unchanged, when it is a plain line (see the module docstring).

    Raises:
        ValueError: naming the first refused character (``U+202E``) and its index.
    """
    bad = refused(text)
    if bad:
        i, ch = bad[0]
        raise ValueError(f"must not contain control or bidi formatting characters "
                         f"(U+{ord(ch):04X} at {i})")
    return text
