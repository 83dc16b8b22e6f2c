"""Who may run a table: the hook the cluster (``docs/scaling.md``) gives the table manager.

One process owns every table it creates and nothing needs asking. In cluster mode each live
table is owned by exactly one node, under a lease whose epoch fences the table's log
(:attr:`~cardhall.storage.interface.LogBatch.fences`); the manager asks its
:class:`Ownership` for that epoch before a new table's first step, and tells it when a table's
task ends. The implementation lives in :mod:`cardhall.cluster`.
"""

from __future__ import annotations

from typing import Protocol


class Ownership(Protocol):
    """Leases of the tables this process runs."""

    async def claim(self, table_id: str) -> int:
        """Take the lease of a new table ``table_id``; returns its epoch.

        Raises:
            Any error taking it (the table is not created then).
        """

    def released(self, table_id: str, *, closed: bool) -> None:
        """The table's task ended here: ``closed`` for good (its log is dropped), else stopped
        with its log kept (a shutdown, or it was fenced): another node may take it over."""
