"""The rule-based Palace Poker bot (``docs/bots-builtin.md``).

Sees only the seat's view and legal-action entries. Its one measure is the chance to win a
called battle against a given opponent (rule 8): its own eligible cards (palace + soldiers +
banner minus the opponent's banner suit) against the opponent's visible soldiers and banner
plus a palace drawn at random from the cards it cannot place, over a few samples drawn with the
policy's rng, ranked with the game's pure :func:`hand_key` (rule 12) and the own-suit tie-break.

* **Own turn** (rule 7): attacks the opponent it beats most often when that chance is high
  (a small no-limit extra only when very high); otherwise buys while it has fewer than five
  soldiers and a buy is cheap against its chips; otherwise stays. It never folds on its turn.
* **Battle** (rule 8): raises when clearly ahead, calls when the chance pays the amount owed
  (with a floor), folds otherwise.
* **Discard** (rules 7, 9): discards down to five, always the soldier whose loss weakens its
  own hand least.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.actions import Action, minimal
from ..games.palace_poker.cards import CANONICAL, CARD_ID
from ..games.palace_poker.config import PalacePokerConfig
from ..games.palace_poker.evaluation import hand_key
from .entries import first, of_type, with_amount, with_cards

SAMPLES = 24
"""Random opponent palaces drawn per battle estimate."""
ATTACK_AT = 0.68
"""Win chance needed to start a battle."""
EXTRA_AT = 0.85
"""Win chance needed to add the minimum no-limit extra to an attack."""
RAISE_AT = 0.75
"""Win chance needed to raise in a battle."""
CALL_FLOOR = 0.4
"""Smallest win chance that ever calls."""
BUY_SHARE = 12
"""Buy only while a soldier costs at most 1/BUY_SHARE of the chips behind."""


class RulePolicy:
    """Palace Poker rule bot: buy cheap soldiers, attack when ahead, discard the weakest."""

    name = "rule"

    def __init__(self, config: PalacePokerConfig | None = None) -> None:
        """``config``: the table's rules config (the defaults when ``None``); the bets this bot
        weighs are in its legal actions, so it only keeps it."""
        self.config = config or PalacePokerConfig()

    def choose(self, view: dict[str, Any], legal_actions: list[Action], rng: random.Random) -> Action:
        """One concrete action matching an entry of ``legal_actions`` (non-empty)."""
        match view.get("decision"):
            case "battle_response":
                return respond(view, legal_actions, rng)
            case "discard" if of_type(legal_actions, "discard"):
                return discard(view, legal_actions)
            case "turn":
                return turn(view, legal_actions, rng)
        return _fallback(legal_actions)


def _seat(view: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(s for s in view["seats"] if s["seat"] == seat)


def own_cards(view: dict[str, Any]) -> list[str]:
    """Palace + soldiers + banner of the viewing seat."""
    me = _seat(view, view["seat"])
    return list(view.get("palace") or []) + list(me["soldiers"]) + [me["banner"]]


def _key(cards: list[str], banned: str | None) -> tuple[int, ...]:
    return hand_key([CARD_ID[c] for c in cards if c[1] != banned])


def win_chance(view: dict[str, Any], target: int, rng: random.Random) -> float:
    """Estimated chance to win a called battle against ``target`` (ties count one half)."""
    me, them = _seat(view, view["seat"]), _seat(view, target)
    mine = own_cards(view)
    my_suit, their_suit = me["banner"][1], them["banner"][1]
    known = set(mine)
    for s in view["seats"]:
        known.update(s["soldiers"])
        if s["banner"]:
            known.add(s["banner"])
    shown = (view.get("revealed_palaces") or {}).get(str(target))
    pool = [c for c in CANONICAL if c not in known]
    their_open = [*them["soldiers"], them["banner"]]
    my_key = _key(mine, their_suit)
    my_count = sum(1 for c in mine if c[1] == my_suit)
    score = 0.0
    draws = 1 if shown else SAMPLES
    for _ in range(draws):
        palace = list(shown) if shown else rng.sample(pool, min(3, len(pool)))
        theirs = their_open + palace
        their_key = _key(theirs, my_suit)
        if my_key != their_key:
            score += my_key > their_key
        else:
            count = sum(1 for c in theirs if c[1] == their_suit)
            score += 1.0 if my_count > count else 0.5 if my_count == count else 0.0
    return score / draws


def turn(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """The own-turn choice (rule 7): attack, buy or stay."""
    battles = of_type(legal, "battle")
    targets = sorted({e["target"] for e in battles})
    if targets:
        chances = {t: win_chance(view, t, rng) for t in targets}
        target = max(targets, key=lambda t: (chances[t], -t))
        if chances[target] >= ATTACK_AT:
            mine = [e for e in battles if e["target"] == target]
            ranged = next((e for e in mine if "min_extra" in e), None)
            if ranged is not None and chances[target] >= EXTRA_AT:
                return with_amount(ranged, "extra", ranged["min_extra"])
            return minimal(min(mine, key=lambda e: e.get("extra", 0)))
    me = _seat(view, view["seat"])
    small_bet = me["attack_cost"] // (me["soldier_count"] + 1)
    buy = first(legal, "buy")
    if buy is not None and me["soldier_count"] < 5 and small_bet * BUY_SHARE <= me["chips"]:
        return dict(buy)
    return _fallback(legal)


def respond(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """Facing a battle bet or raise (rule 8): raise, call or fold by win chance."""
    battle = view["battle"]
    me = view["seat"]
    other = battle["defender"] if battle["attacker"] == me else battle["attacker"]
    chance = win_chance(view, other, rng)
    if chance >= RAISE_AT and (raise_ := first(legal, "raise")) is not None:
        return with_amount(raise_, "by", raise_["min_by"]) if "min_by" in raise_ else dict(raise_)
    owed = int((battle.get("owed") or {}).get(str(me), 0))
    price = owed / (int(view["pot"]) + owed) if owed else 0.0
    if chance >= max(CALL_FLOOR, price) and (call := first(legal, "call")) is not None:
        return dict(call)
    return _fallback(legal, ("fold", "call"))


def discard(view: dict[str, Any], legal: list[Action]) -> Action:
    """Discard down to five (rules 7, 9): drop, one at a time, the soldier whose loss leaves
    the strongest own hand."""
    entries = of_type(legal, "discard")
    need = min(e.get("min_cards", len(e.get("cards", []))) for e in entries)
    base = [*(view.get("palace") or []), _seat(view, view["seat"])["banner"]]
    kept = list(_seat(view, view["seat"])["soldiers"])
    dropped: list[str] = []
    for _ in range(need):
        worst = max(kept, key=lambda c: (_key(base + [s for s in kept if s != c], None),
                                         -CARD_ID[c]))
        kept.remove(worst)
        dropped.append(worst)
    return with_cards(entries, "cards", dropped, need)


def _fallback(legal: list[Action], order: tuple[str, ...] = ("stay", "call", "fold")) -> Action:
    for kind in order:
        if (entry := first(legal, kind)) is not None:
            return minimal(entry)
    return minimal(legal[0])
