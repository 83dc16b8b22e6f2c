"""Usernames: the normal form, the case-insensitive key and the confusable skeleton
(``docs/security.md``, "Account names and passwords").

* :func:`normalize_username`: what is stored and shown, NFKC (so a fullwidth ``ａnna`` *is*
  ``anna``, and so are ligatures, superscripts and other compatibility forms), case kept.
* :func:`username_key`: NFKC of the case-folded NFKC form (Unicode's ``toNFKC_Casefold``
  without the removal of default-ignorables, which the names refuse anyway): one account
  per key, the log-in looks the account up by it (unique index ``ix_players_username_key``).
* :func:`username_skeleton`: the UTS #39 skeleton (every character replaced by the prototype
  of its confusable class, in NFD), taken over the normal form, case-folded and taken again,
  so that ``аnna`` (Cyrillic ``а``), ``АNNA`` and ``anna`` share one. No two accounts
  registered since migration 0007 share one (unique index ``ix_players_username_skeleton``):
  a name that looks like an existing one is refused (409 ``account.username_confusable``).

The confusable classes are those of Unicode's ``confusables.txt`` as shipped by the
``confusable-homoglyphs`` package (its ``confusables.json``, which lists each pair of the
file both ways). A class's prototype is the one member every other member maps to; where a
class has only two members the file's direction cannot be told from that list, and the
smaller of the two strings stands for both (a skeleton is only ever compared with another).
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import confusables

SKELETON_LEN = 255
"""Longest stored skeleton (``players.username_skeleton``); a longer one is cut (which can
only make two names compare equal that did not, never the other way)."""
_MARKS = "\u200e\u200f"
"""Direction marks ``confusables.txt`` puts around right-to-left characters in its comments,
which ``confusable-homoglyphs`` keeps in its data."""


def normalize_username(username: str) -> str:
    """The stored form of ``username``: trimmed, then NFKC (case kept)."""
    return unicodedata.normalize("NFKC", username.strip())


def username_key(username: str) -> str:
    """The case-insensitive key of a username: ``Ann``, ``aNN`` and fullwidth ``Ａｎｎ`` are
    one (NFKC, case-folded, NFKC again)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", username).casefold())


def legacy_username_key(username: str) -> str:
    """The key accounts had before migration 0007 (``str.casefold`` alone); an account whose
    NFKC key collided with an older account's kept it (``docs/security.md``)."""
    return username.casefold()


def username_skeleton(username: str) -> str:
    """The confusable skeleton of ``username`` (see the module): two names with one skeleton
    look alike. At most :data:`SKELETON_LEN` characters."""
    once = _skeleton(unicodedata.normalize("NFKC", username))
    return _skeleton(once.casefold())[:SKELETON_LEN]


def _skeleton(text: str) -> str:
    """UTS #39 ``skeleton``: NFD, each character mapped to its prototype, NFD again."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@cache
def _prototypes() -> dict[str, str]:
    """Character -> its prototype string, from ``confusable-homoglyphs``' symmetric list."""
    pairs: dict[str, set[str]] = {}
    for source, homoglyphs in confusables.confusables_data.items():
        for glyph in homoglyphs:
            a, b = _clean(source), _clean(glyph["c"])
            if a and b and a != b:
                pairs.setdefault(a, set()).add(b)
                pairs.setdefault(b, set()).add(a)
    table: dict[str, str] = {}
    for member, others in pairs.items():
        if len(member) != 1 or len(others) != 1:
            continue  # a prototype (many members map to it) or a sequence: never mapped
        [hub] = others
        if len(pairs[hub]) > 1 or len(hub) > 1 or hub < member:
            table[member] = hub
    return table


def _clean(text: str) -> str:
    return text.strip(_MARKS)
