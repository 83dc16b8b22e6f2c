"""The hall in one process: what the REST routes and the WebSocket handler ask of the tables
(:mod:`.local`), the operations on a process's own tables (:mod:`.ops`) and the seek pool
(matchmaking by rating: the pure matcher :mod:`.seeks`, its runtime :mod:`.seekpool`). ``cluster/``
extends it over Redis (``docs/scaling.md``)."""
