"""Built-in bots: policies that see only a seat's view and its legal actions, never the state.

A policy is any object with ``choose(view, legal_actions, rng) -> action``. The table runtime
calls it for a bot seat exactly where it would wait for a person's message.
"""

from .base import Policy, RandomPolicy, get_policy, policy_names

__all__ = ["Policy", "RandomPolicy", "get_policy", "policy_names"]
