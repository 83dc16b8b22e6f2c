"""Entity tags of REST answers (RFC 9110, section 8.8.3 and 13.1.2).

The lobby's page (``GET /api/tables``) carries an ``ETag``; a client that sends it back in
``If-None-Match`` gets 304 Not Modified with no body while the page is unchanged. Written here
rather than taken from Werkzeug (``werkzeug.http.parse_etags``): Starlette has no public helper
for it, and the server does not otherwise depend on Werkzeug for two small functions.
"""

from __future__ import annotations

import hashlib

ETAG_HEX = 32
"""Hex digits of SHA-256 kept in a tag (128 bits: no two pages collide by chance)."""


def etag_of(*parts: bytes | str) -> str:
    """A strong entity tag (``"<hex>"``, quotes included) of everything an answer carries:
    its body and the headers that differ between answers (e.g. ``Link``)."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return f'"{digest.hexdigest()[:ETAG_HEX]}"'


def etag_matches(if_none_match: str, etag: str) -> bool:
    """Whether ``If-None-Match`` (``*`` or a comma-separated list of tags, weak ``W/`` ones
    included) names ``etag``: the weak comparison RFC 9110 prescribes for it."""
    wanted = etag.removeprefix("W/")
    for tag in if_none_match.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == wanted:
            return True
    return False
