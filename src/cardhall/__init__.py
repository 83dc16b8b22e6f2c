"""cardhall: a multiplayer card-game server (Soldier's Bluff, Palace Poker, Bazaar Blot).

Layers (imports point down only): ``server -> storage, bots -> games -> engine``.
The engine and the games use the Python standard library only.
"""

__version__ = "0.1.0"
