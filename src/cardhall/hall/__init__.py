"""The hall in one process: what the REST routes and the WebSocket handler ask of the tables
(:mod:`.local`) and the operations on a process's own tables (:mod:`.ops`). ``cluster/``
extends it over Redis (``docs/scaling.md``)."""
