"""Proxy headers are believed only from the proxies ``CARDHALL_TRUSTED_PROXIES`` names
(default none; ``docs/security.md``, "Sessions, sockets and proxies"; ``docs/rest.md``,
"Limits"): a local client cannot pick its own address for the guest, log-in and REST rates
or the per-address socket cap, and behind a named proxy both count the forwarded client."""

from __future__ import annotations

from typing import Any

import pytest
from livesrv import Client, live_server
from test_ws_revocation import closed_code
from websockets.asyncio.client import connect

from cardhall.config import Settings

RATES = {"guest_rate_limit": "10/minute", "rest_rate_limit": "120/minute"}


async def _guests(live: Any, n: int) -> list[int]:
    async with live.http as http:
        return [(await http.post("/api/players", json={"name": f"g{i}"},
                                 headers={"X-Forwarded-For": f"203.0.113.{i}"})).status_code
                for i in range(n)]


async def test_a_forwarded_for_from_an_untrusted_client_changes_no_address(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")  # uvicorn's own variable is not read
    async with live_server(**RATES) as live:
        statuses = await _guests(live, 13)
    assert statuses == [201] * 10 + [429] * 3  # one address: the peer's


async def test_a_trusted_proxy_s_forwarded_for_is_the_client_address() -> None:
    async with live_server(trusted_proxies=["127.0.0.1"], **RATES) as live:
        assert await _guests(live, 13) == [201] * 13  # each forwarded client its own rate


async def _socket(live: Any, forwarded: str) -> Client:
    ws = await connect(live.ws_url, additional_headers={"X-Forwarded-For": forwarded})
    return Client(ws)


@pytest.mark.parametrize("trusted", [False, True])
async def test_the_socket_cap_counts_the_same_address_as_the_rates(trusted: bool) -> None:
    extra: dict[str, Any] = {"trusted_proxies": ["127.0.0.0/8"]} if trusted else {}
    async with live_server(max_sockets_per_address=1, **extra) as live:
        first = await _socket(live, "198.51.100.1")
        second = await _socket(live, "198.51.100.2")
        try:
            if trusted:  # two clients behind the proxy: one socket each
                assert set(live.app.state.address_cap.open) == {"198.51.100.1", "198.51.100.2"}
                same = await _socket(live, "198.51.100.1")
                assert (await closed_code(same))[1] == 4030
            else:  # both are the peer 127.0.0.1, whatever they claim
                assert (await closed_code(second))[1] == 4030
                assert set(live.app.state.address_cap.open) == {"127.0.0.1"}
        finally:
            await first.close()
            await second.close()


def test_trusted_proxies_default_to_none_and_take_addresses_and_networks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardhall.server.main import proxy_options

    assert Settings().trusted_proxies == []
    assert proxy_options(Settings()) == {"proxy_headers": False}
    monkeypatch.setenv("CARDHALL_TRUSTED_PROXIES", "10.0.0.5, 10.0.1.0/24,::1")
    settings = Settings()
    assert settings.trusted_proxies == ["10.0.0.5", "10.0.1.0/24", "::1"]
    assert proxy_options(settings) == {"proxy_headers": True, "forwarded_allow_ips": [
        "10.0.0.5", "10.0.1.0/24", "::1"]}
    for bad in ("*", "proxy.example", "10.0.0.0/33"):
        monkeypatch.setenv("CARDHALL_TRUSTED_PROXIES", bad)
        with pytest.raises(ValueError, match="not an IP address or network"):
            Settings()


ONE_64 = ["2001:db8:7:1::1", "2001:db8:7:1::2", "2001:DB8:7:1:ffff:ffff:ffff:ffff"]
"""Three addresses of one IPv6 /64 (one spelled in capitals): one machine holds a whole /64."""


async def test_an_ipv6_64_is_one_address_for_the_socket_cap_and_the_rates() -> None:
    """The REST and guest rates, the per-address socket cap and the waiting tables counted
    each IPv6 address on its own, so a client with a /64 (any IPv6 host) had 2**64 of
    each: 60 sockets from one /64 were all accepted at a cap of 50. Now they count by the
    /64, as the log-in throttle does, and an IPv4-mapped address as its IPv4 one."""
    async with live_server(trusted_proxies=["127.0.0.0/8"], max_sockets_per_address=2,
                           guest_rate_limit="2/minute",
                           max_waiting_tables_per_address=1) as live:
        first, second = await _socket(live, ONE_64[0]), await _socket(live, ONE_64[1])
        third = await _socket(live, ONE_64[2])
        v4 = [await _socket(live, "198.51.100.7"), await _socket(live, "::ffff:198.51.100.7")]
        mapped = await _socket(live, "::ffff:c633:6407")
        try:
            assert (await closed_code(third))[1] == 4030
            assert (await closed_code(mapped))[1] == 4030
            assert live.app.state.address_cap.open == {"2001:db8:7:1::/64": 2,
                                                       "198.51.100.7": 2}
        finally:
            for ws in (first, second, *v4):
                await ws.close()
        async with live.http as http:
            guests = [await http.post("/api/players", json={"name": f"g{i}"},
                                      headers={"X-Forwarded-For": address})
                      for i, address in enumerate(ONE_64)]
            assert [g.status_code for g in guests] == [201, 201, 429]
            other = await http.post("/api/players", json={"name": "other"},
                                    headers={"X-Forwarded-For": "2001:db8:7:2::1"})
            assert other.status_code == 201  # the next /64 is another client
            tables = [await http.post("/api/tables", json={"game": "palace_poker"}, headers={
                "X-Forwarded-For": address,
                "Authorization": f"Bearer {guest.json()['token']}"})
                for address, guest in zip(ONE_64[:2], guests[:2], strict=True)]
            assert [t.status_code for t in tables] == [201, 429], tables[1].text
            assert tables[1].json()["error"]["code"] == "quota.tables"
