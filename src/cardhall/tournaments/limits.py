"""A tournament's limits (``docs/tournaments.md``, "Limits"): how many run at once on the
server, per player and per address; pure (the director passes what it runs)."""

from __future__ import annotations

from collections.abc import Mapping

from ..config import Settings


class TournamentQuotaError(Exception):
    """The player already runs ``max_running_tournaments_per_player`` tournaments, or their
    address ``max_running_tournaments_per_address`` (REST: 429 ``quota.tournaments``)."""


class TournamentLimitError(Exception):
    """The server already runs ``max_running_tournaments`` tournaments (REST: 503
    ``tournament.limit``)."""


def check_quota(s: Settings, owners: Mapping[str, str | None],
                addresses: Mapping[str, str | None], created_by: str | None,
                created_from: str | None) -> None:
    """Refuse one more tournament over the server's, the player's or the address's cap.
    ``owners`` and ``addresses``: each running (or being created) tournament's creator and
    client network.

    Raises:
        TournamentLimitError: the server runs ``max_running_tournaments``.
        TournamentQuotaError: ``created_by`` runs ``max_running_tournaments_per_player``, or
            ``created_from`` ``max_running_tournaments_per_address``.
    """
    if len(owners) >= s.max_running_tournaments:
        raise TournamentLimitError(f"the server already runs {len(owners)} tournaments "
                                   f"(max_running_tournaments={s.max_running_tournaments})")
    mine = sum(1 for owner in owners.values() if owner == created_by)
    most = s.max_running_tournaments_per_player
    if created_by is not None and mine >= most:
        raise TournamentQuotaError(f"player {created_by} already runs {mine} tournaments "
                                   f"(max_running_tournaments_per_player={most}); "
                                   f"wait for one to end")
    here = sum(1 for a in addresses.values() if a == created_from)
    most = s.max_running_tournaments_per_address
    if created_from is not None and here >= most:
        raise TournamentQuotaError(f"{here} tournaments created from this address run "
                                   f"(max_running_tournaments_per_address={most}); "
                                   f"wait for one to end")
