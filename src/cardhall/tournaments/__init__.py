"""Tournaments (``docs/tournaments.md``): Swiss and knockout, with duplicate deals.

A layer between the server and the tables: the pure modules (:mod:`.pairing`,
:mod:`.scoring`, :mod:`.rounds`, :mod:`.spec`) decide; :mod:`.director` runs rounds on the
table manager and keeps each tournament's document in a
:class:`~cardhall.storage.tournaments.TournamentStore`.
"""

from .director import Director, TournamentNotFoundError
from .limits import TournamentLimitError, TournamentQuotaError
from .spec import TournamentRequest

__all__ = ["Director", "TournamentLimitError", "TournamentNotFoundError", "TournamentQuotaError",
           "TournamentRequest"]
