"""Failed log-ins throttled so that no stranger can lock an owner out (``docs/rest.md``,
"Limits"; ``docs/security.md``, "Log-in throttling").

Three counts, each a ``limits`` sliding window in the storage of the REST rates
(:class:`~.quotas.RateLimits`: per process, or shared in Redis in cluster mode), keyed by a
SHA-256 digest of the username key (never the name itself) and the client's *network* (the
address itself for IPv4, its /64 for IPv6, where one machine holds a whole /64):

1. **per username and network** (``login_failure_rate_limit``, 5/minute): past it, that
   network's log-ins of that username get 429 ``rate.limited`` until the window lets one
   more in. Nobody else's log-ins of the name are touched.
2. **per username** (``login_username_failure_rate_limit``, 100/hour over every network):
   past it the username is *guarded*: a network that logged in to this account before
   (:meth:`LoginThrottle.succeeded`, remembered ``login_known_network_days``) is not slowed
   any further, and any other network gets ``login_guarded_rate_limit`` (1/10 minutes) on
   top of (1): its first try goes through, so the owner with the right password gets in
   from anywhere; a guesser spread over many networks gets one guess per network per ten
   minutes. The username is never locked.
3. the per-address log-in rate of the middleware (``login_rate_limit``, 10/minute,
   :class:`~.quotas.RestRateLimit`) bounds one address over every username.

A throttled log-in is refused before its password is checked (no Argon2 time is spent on
it). When the rate storage fails (Redis down) log-ins are let through and a warning logged,
as the REST rates do.
"""

from __future__ import annotations

import hashlib
import logging
import math
from dataclasses import dataclass

import limits

from .errors import ApiError
from .quotas import WAIT_MARGIN_SECONDS, RateLimits, network_of, parse_rate, sliding_wait

log = logging.getLogger(__name__)


def _rate(text: str | None) -> limits.RateLimitItem | None:
    return None if text is None else parse_rate(text)


def _digest(username_key: str) -> str:
    return hashlib.sha256(username_key.encode()).hexdigest()[:32]


@dataclass(frozen=True, slots=True)
class ThrottleRates:
    """The rates of :class:`LoginThrottle`, in the ``limits`` notation (``None``: off).

    Attributes:
        per_network: failed log-ins of one username from one network.
        per_username: failed log-ins of one username from every network (then guarded).
        guarded: failed log-ins of a guarded username from one network it never logged in
            from.
        known_days: how long a network that logged in stays known to the account.
    """

    per_network: str | None = "5/minute"
    per_username: str | None = "100/hour"
    guarded: str | None = "1/10 minutes"
    known_days: float = 30.0


class LoginThrottle:
    """Counts failed log-ins and refuses throttled ones (see the module).

    Args:
        rates: the REST rates, whose storage and limiter this shares.
        config: the three rates and the memory of known networks.

    Raises:
        ValueError: a rate that does not parse.
    """

    def __init__(self, rates: RateLimits, config: ThrottleRates) -> None:
        self.storage, self.limiter = rates.storage, rates.limiter
        self.per_network = _rate(config.per_network)
        self.per_username = _rate(config.per_username)
        self.guarded = _rate(config.guarded)
        self.known_seconds = max(1, round(config.known_days * 86_400))

    async def check(self, username_key: str, address: str) -> None:
        """Refuse a log-in of ``username_key`` from ``address`` while it is throttled
        (counts nothing).

        Raises:
            ApiError: 429 ``rate.limited`` with ``Retry-After`` (whole seconds).
        """
        user, net = _digest(username_key), network_of(address)
        try:
            wait = await self._wait(self.per_network, "login-failures", user, net)
            if wait is None and await self._guarded_against(user, net):
                wait = await self._wait(self.guarded, "login-guarded", user, net)
        except ApiError:
            raise
        except Exception as exc:  # the rate storage is down: fail open, loudly
            log.warning("login throttle storage failed (%s: %s); not throttled",
                        type(exc).__name__, exc)
            return
        if wait is not None:
            raise ApiError("rate.limited", f"too many failed log-ins of this username from "
                           f"your network; retry in {wait} s", headers={"Retry-After": str(wait)})

    async def failed(self, username_key: str, address: str) -> None:
        """Count one failed log-in (or wrong current password) of ``username_key`` from
        ``address``."""
        user, net = _digest(username_key), network_of(address)
        try:
            if self.per_network is not None:
                await self.limiter.hit(self.per_network, "login-failures", user, net)
            guarded = await self._guarded_against(user, net)
            if self.per_username is not None:
                await self.limiter.hit(self.per_username, "login-failures-user", user)
            if guarded and self.guarded is not None:
                await self.limiter.hit(self.guarded, "login-guarded", user, net)
        except Exception as exc:
            log.warning("login throttle storage failed (%s: %s); failure not counted",
                        type(exc).__name__, exc)

    async def succeeded(self, username_key: str, address: str) -> None:
        """Remember that ``address``'s network logged in to ``username_key`` (for
        ``known_days``, counted anew from now)."""
        key = self._known_key(_digest(username_key), network_of(address))
        try:
            await self.storage.clear(key)
            await self.storage.incr(key, self.known_seconds)
        except Exception as exc:
            log.warning("login throttle storage failed (%s: %s); network not remembered",
                        type(exc).__name__, exc)

    async def _guarded_against(self, user: str, net: str) -> bool:
        """Whether ``user`` is over its per-username rate and ``net`` is not known to it."""
        if self.per_username is None or await self.limiter.test(
                self.per_username, "login-failures-user", user):
            return False
        return not await self.storage.get(self._known_key(user, net))

    @staticmethod
    def _known_key(user: str, net: str) -> str:
        return f"login-known/{user}/{net}"

    async def _wait(self, item: limits.RateLimitItem | None, *keys: str) -> int | None:
        """``None`` if ``item`` lets one more hit of ``keys`` in, else whole seconds to wait."""
        if item is None or await self.limiter.test(item, *keys):
            return None
        window = await self.storage.get_sliding_window(  # type: ignore[attr-defined]
            item.key_for(*keys), item.get_expiry())
        wait = sliding_wait(item.amount, item.get_expiry(), *window)
        return max(1, math.floor(wait + WAIT_MARGIN_SECONDS) + 1)
