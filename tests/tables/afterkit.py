"""The post-game leak test by construction (``docs/engine.md``, "Leak test by construction",
"After the game"): a random game, a second game identical except that every card the table
never saw is re-dealt, both played to the end at a table and stored, and every public answer
about them read as a guest and as a player of neither game.

**The second game.** The cards the table never saw are, per *deck* (Bazaar Blot deals a fresh
deck at each chance action; Soldier's Bluff and Palace Poker deal one per game), those its
chance actions named that the engine's own ``hidden_from(None)`` held after every step of that
deck, less the cards whose values a public result compared without showing them (a called
Palace Poker battle, ``leakkit.COMPARED``). They are permuted among themselves (``sigma``) and
every action of that deck is relabelled by ``sigma`` (an exchange or a discard of a moved card
names its image), so the second game replays the same actions, legally, to the same outcome:
:func:`redealt` checks it at the engine. The places whose card the table knows (a rejected
Palace Poker banner: face up, but not where it went) never move.

**The answers** (:func:`public_answers`): the table copy (``GET /api/games/{id}``), the game
lists, ``/steps``, ``/hands`` and the spectator's ``/replay`` at every step, each seat's
``/replay`` (refused), the lobby and the table, and for every player of the table its
profile, rating history and ``games.ndjson``, and the leaderboard. Only what
differs between any two stores is masked (:func:`masked`): ids and player creation times.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import httpx
from leakkit import COMPARED, Game, Step, relabel

from cardhall.engine import EngineError
from cardhall.engine.actions import copy_json, sample
from cardhall.engine.inspect import strings_in
from cardhall.engine.shuffle import SeededShuffler

FRESH_DECK = frozenset({"bazaar_blot"})
"""Games whose every chance action deals a fresh deck (the same card codes again)."""


def decks(g: Game) -> list[tuple[int, int]]:
    """``(first, end)`` step ranges, one per deck: from a chance action that deals a fresh
    deck to the next one (one range over the whole game for the other games)."""
    chance = [i for i, s in enumerate(g.steps) if s.seat is None]
    if g.game not in FRESH_DECK:
        return [(chance[0], len(g.steps))]
    return list(zip(chance, [*chance[1:], len(g.steps)], strict=True))


def never_seen(g: Game) -> list[tuple[int, int, list[str]]]:
    """Per deck (:func:`decks`): its range and the cards of its chance actions that the table
    never saw (hidden from a spectator after every step of the deck) and no public result
    compared."""
    st = g.new_state()
    compared = COMPARED.get(g.game, lambda _st, _a: set())
    hidden: list[set[str]] = []
    weighed: list[set[str]] = []
    for s in g.steps:
        weighed.append(compared(st, s.action))
        st.apply(s.seat, s.action)
        hidden.append(set(st.hidden_from(None)))
    out = []
    for first, end in decks(g):
        dealt = {c for s in g.steps[first:end] if s.seat is None for c in strings_in(s.action)}
        cards = set.intersection(*hidden[first:end]) & dealt
        cards -= set().union(*weighed[first:end])
        out.append((first, end, sorted(cards)))
    return out


@dataclass(frozen=True, slots=True)
class Redeal:
    """The second game, the cards it moved and the steps of its decks that moved any (step
    counts ``k``: actions applied, as ``/hands?step=k``)."""

    game: Game
    moved: int
    dense: frozenset[int]


def redealt(g: Game, rng: random.Random) -> Redeal:
    """``g`` with every card the table never saw re-dealt (a random permutation per deck, each
    deck of two or more such cards moving at least one). The second game is checked to replay
    every action legally with the same turns and outcome.

    Raises:
        AssertionError: the second game does not replay as the first (the construction is
            wrong for this game).
    """
    steps = [Step(s.seat, s.action) for s in g.steps]
    moved = 0
    dense: set[int] = set()
    for first, end, cards in never_seen(g):
        if len(cards) < 2:
            continue
        dense.update(range(first + 1, end + 1))
        images = cards[:]
        while images == cards:
            rng.shuffle(images)
        sigma = dict(zip(cards, images, strict=True))
        moved += sum(1 for c in cards if sigma[c] != c)
        for i in range(first, end):
            steps[i] = Step(steps[i].seat, relabel(steps[i].action, sigma))
    second = Game(g.game, g.num_seats, g.stacks, steps, g.config, g.dealer)
    a, b = g.new_state(), second.new_state()
    for i, (sa, sb) in enumerate(zip(g.steps, second.steps, strict=True)):
        a.apply(sa.seat, sa.action)
        try:
            b.apply(sb.seat, sb.action)
        except EngineError as exc:  # pragma: no cover - a wrong construction
            raise AssertionError(f"{g.game}: step {i} illegal after the re-deal: {exc}") from exc
        assert a.to_act() == b.to_act(), f"{g.game}: step {i} turns differ after the re-deal"
    assert a.outcome is not None and b.outcome is not None
    assert a.outcome.returns == b.outcome.returns
    return Redeal(second, moved, frozenset(dense))


def play_passing(g: Game, rng: random.Random, shuffle: SeededShuffler, pass_rate: float,
                 max_steps: int = 20_000) -> None:
    """As ``leakkit.play_randomly``, but a seat that may pass does so with ``pass_rate``
    (uniform random play almost never passes a Blot deal out, the one place its table never
    sees a card)."""
    st = g.new_state()
    while not st.is_over and len(g.steps) < max_steps:
        if st.chance_due():
            seat, action = None, st.chance_action(shuffle)
        else:
            seat = rng.choice(st.to_act())
            entries = st.legal_actions(seat)
            passes = [e for e in entries if e.get("type") == "pass"]
            pick = passes[0] if passes and rng.random() < pass_rate else rng.choice(entries)
            action = sample(pick, rng)
        st.apply(seat, action)
        g.steps.append(Step(seat, copy_json(action)))


@dataclass(frozen=True, slots=True)
class World:
    """One stored game and who to name in its answers: the table, the game, each table seat's
    player id (``"s<i>"``) and the outsider's token."""

    table_id: str
    game_id: str
    players: dict[str, str]
    outsider: str

    def replacements(self) -> list[tuple[str, str]]:
        pairs = [(self.table_id, "<table>"), (self.game_id, "<game>")]
        return pairs + [(pid, f"<{name}>") for name, pid in self.players.items()]


CREATED = re.compile(r'"created_at":"[^"]*"')


def masked(text: str, world: World) -> str:
    """``text`` without what differs between any two stores: the ids of ``world`` and every
    ``created_at`` (player creation times are the wall clock's; a table's is the fake clock's,
    so it is the same in both anyway)."""
    for old, new in world.replacements():
        text = text.replace(old, new)
    return CREATED.sub('"created_at":"<t>"', text)


STRIDE = 4
"""The guest reads ``/hands`` and ``/replay`` at every step of a deck that had a card
re-dealt, and at every fourth step (and the last) of the others (Blot's deals played out,
whose every card the table saw)."""
OUTSIDER_STRIDE = 8
"""The outsider reads them at every eighth step and the last: past the token check both get
the same table copy, and a request costs about as much as a step of a game."""


async def public_answers(client: httpx.AsyncClient, world: World, steps: int,
                         dense: frozenset[int]) -> list[tuple[str, str]]:
    """``(label, masked body)`` of every public answer about ``world``'s game (module
    docstring). The routes that read a bearer token (the table copy, ``/hands``, ``/replay``)
    are read as a guest and as the outsider (a player of neither game; ``/hands`` and
    ``/replay`` at ``dense``, the steps of the decks that moved a card, and those of
    :data:`STRIDE` and :data:`OUTSIDER_STRIDE`; each seat's ``/replay``, refused to both
    alike, by the outsider only); the others read no token, so once."""
    game, table = f"/api/games/{world.game_id}", f"/api/tables/{world.table_id}"
    name = (await client.get(game)).json()["game"]
    seats = [f"{game}/replay?seat={s}&step={steps}" for s in range(len(world.players))]
    per_step = {k: [f"{game}/hands?step={k}", f"{game}/replay?step={k}"]
                for k in range(steps + 1)}
    without = [f"{game}/steps", "/api/games", "/api/tables", table, f"/api/ratings?game={name}"]
    for pid in world.players.values():
        without += [f"/api/players/{pid}", f"/api/players/{pid}/games.ndjson",
                    f"/api/players/{pid}/ratings/{name}"]
    outsider = {"Authorization": f"Bearer {world.outsider}"}
    reads = [("guest", url, {}) for url in [game, *without]]
    sparse = {k for k in per_step if k % STRIDE == 0 or k == steps}
    reads += [("guest", url, {}) for k, urls in per_step.items() if k in dense | sparse
              for url in urls]
    reads += [("outsider", url, outsider) for url in [game, *seats]]
    reads += [("outsider", url, outsider) for k, urls in per_step.items()
              if k % OUTSIDER_STRIDE == 0 or k == steps for url in urls]
    out = []
    for who, url, headers in reads:
        r = await client.get(url, headers=headers)
        out.append((f"{who} {masked(url, world)} {r.status_code}", masked(r.text, world)))
    return out


def differences(a: list[tuple[str, str]], b: list[tuple[str, str]]) -> str | None:
    """Which answers differ between two worlds, and where the first does (``None``: every
    byte is the same)."""
    differ = [(la, ta, tb) for (la, ta), (lb, tb) in zip(a, b, strict=True)
              if la != lb or ta != tb]
    if not differ:
        return None
    _, ta, tb = differ[0]
    at = next((i for i, (x, y) in enumerate(zip(ta, tb, strict=False)) if x != y),
              min(len(ta), len(tb)))
    return (f"{len(differ)} answers differ: {[d[0] for d in differ]}; the first at "
            f"...{ta[max(0, at - 80):at + 80]}... against ...{tb[max(0, at - 80):at + 80]}...")


def answer_bytes(answers: list[tuple[str, str]]) -> int:
    """The bytes compared (UTF-8 bodies)."""
    return sum(len(t.encode()) for _, t in answers)
