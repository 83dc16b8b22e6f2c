"""Bearer tokens: how they are made and the only form in which they are stored."""

from __future__ import annotations

import hashlib
import secrets


def hash_token(token: str) -> str:
    """SHA-256 hex of a bearer token (tokens are 256-bit random, so no salt or KDF is needed)."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh random bearer token (URL-safe, 256 bits)."""
    return secrets.token_urlsafe(32)
