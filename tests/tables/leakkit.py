"""The leak test by construction (``docs/engine.md``, "Leak test by construction"): a second
deal that differs from a random game's only in cards one recipient has not seen, the same
actions replayed on it, and what that recipient is told compared between the two runs.

Engine level (:func:`compare_engine`): views, public and private parts, visible events, legal
actions and turn facts of the recipient at every step. Table level (:func:`run_table`): the raw
frames a table actor sends the recipient's connection (fake clock, no bots, every seat and
the spectator a :class:`FrameConnection`), the chance actions scripted so that the table
deals exactly the game's (or the second) deals.

A game is a list of :class:`Step`; second deals are built by :func:`second_deals`: a
permutation ``sigma`` of the cards of one chance action that are in the engine's own
``hidden_from(viewer)`` just after it, applied to that chance action and, as a consistent
relabelling, to every card named by a later action (Soldier's Bluff exchanges, Palace Poker
discards and reshuffles). The runs are compared until the *cut*: the first step that is not
legal in the second run (the recipient cannot tell the worlds apart, but a player who sees the
other cards would act differently), whose public result compares moved cards without showing
them (:data:`COMPARED`), or after which a moved card is no longer hidden from the viewer in
either run (the rules showed it). Nothing from the cut on is compared.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from tablekit import Harness

from cardhall.config import Settings
from cardhall.engine import Action, EngineError, GameState, commitment, get_game
from cardhall.engine.actions import copy_json, sample
from cardhall.engine.events import filter_events
from cardhall.engine.game import Shuffle
from cardhall.engine.inspect import strings_in
from cardhall.engine.shuffle import SeededShuffler
from cardhall.storage.interface import PlayerRecord
from cardhall.storage.memory import MemoryStore
from cardhall.tables.actor import Table
from cardhall.tables.clock import FakeClock
from cardhall.tables.connections import Outgoing, RecordingConnection, encode
from cardhall.tables.manager import TableManager


@dataclass(slots=True)
class Step:
    seat: int | None
    action: Action


@dataclass(slots=True)
class Game:
    """A random game's setup and steps (chance steps have ``seat is None``)."""

    game: str
    num_seats: int
    stacks: list[int] | None
    steps: list[Step]
    config: dict[str, Any] = field(default_factory=dict)
    dealer: int = 0

    def new_state(self) -> GameState:
        rules = get_game(self.game)
        return rules.new_state(rules.config(self.config), self.num_seats, self.dealer,
                               self.stacks)


def random_game(game: str, num_seats: int, stacks: list[int] | None, seed: int,
                max_steps: int = 2000, config: dict[str, Any] | None = None) -> Game:
    """A uniformly random game (as ``cardhall selfplay`` plays one) with seeded deals."""
    g = Game(game, num_seats, stacks, [], dict(config or {}))
    play_randomly(g, random.Random(seed), SeededShuffler(seed.to_bytes(32, "big")), max_steps)
    return g


def play_randomly(g: Game, rng: random.Random, shuffle: SeededShuffler,
                  max_steps: int = 2000) -> None:
    """Append to ``g.steps`` a uniformly random game: ``rng`` picks the seats' actions,
    ``shuffle`` draws the chance actions; at most ``max_steps`` steps."""
    st = g.new_state()
    while not st.is_over and len(g.steps) < max_steps:
        if st.chance_due():
            seat, action = None, st.chance_action(shuffle)
        else:
            seat = rng.choice(st.to_act())
            action = sample(rng.choice(st.legal_actions(seat)), rng)
        st.apply(seat, action)
        g.steps.append(Step(seat, copy_json(action)))


def relabel(obj: Any, sigma: dict[str, str]) -> Any:
    """``obj`` (JSON) with every string that is a key of ``sigma`` replaced by its image."""
    if isinstance(obj, str):
        return sigma.get(obj, obj)
    if isinstance(obj, dict):
        return {k: relabel(v, sigma) for k, v in obj.items()}
    if isinstance(obj, list):
        return [relabel(v, sigma) for v in obj]
    return obj


@dataclass(slots=True)
class SecondDeal:
    """The second run for one viewer: ``steps`` are the game's with chance step ``k`` and
    every later action relabelled by ``sigma`` (only cards hidden from ``viewer`` move)."""

    viewer: int | None
    k: int
    sigma: dict[str, str]
    steps: list[Step]

    @property
    def moved(self) -> set[str]:
        return {c for c, d in self.sigma.items() if c != d}


def chance_candidates(g: Game, viewer: int | None) -> dict[int, list[str]]:
    """Per chance step index: the cards of its action hidden from ``viewer`` just after it (at
    least two, so that something can move), from the engine's own ``hidden_from``."""
    st = g.new_state()
    out: dict[int, list[str]] = {}
    for i, s in enumerate(g.steps):
        st.apply(s.seat, s.action)
        if s.seat is None:
            hidden = st.hidden_from(viewer)
            cards = sorted({c for c in strings_in(s.action) if c in hidden})
            if len(cards) >= 2:
                out[i] = cards
    return out


def _sigma_steps(g: Game, k: int, sigma: dict[str, str]) -> list[Step]:
    return [Step(s.seat, s.action if i < k else relabel(s.action, sigma))
            for i, s in enumerate(g.steps)]


def permuted(g: Game, viewer: int | None, k: int, cards: list[str],
             rng: random.Random) -> SecondDeal:
    """Chance step ``k`` with all of ``cards`` permuted (at least one moves)."""
    images = cards[:]
    while images == cards:
        rng.shuffle(images)
    sigma = dict(zip(cards, images, strict=True))
    return SecondDeal(viewer, k, sigma, _sigma_steps(g, k, sigma))


def swapped(g: Game, viewer: int | None, k: int, a: str, b: str) -> SecondDeal:
    """Chance step ``k`` with cards ``a`` and ``b`` swapped."""
    sigma = {a: b, b: a}
    return SecondDeal(viewer, k, sigma, _sigma_steps(g, k, sigma))


def second_deals(g: Game, viewer: int | None, rng: random.Random,
                 tries: int = 6) -> list[tuple[SecondDeal, Comparison]]:
    """Second deals for ``viewer`` (``None``: spectator, or a seat out of the hand) at a
    chance step drawn among those that hide two of their cards from it, each with its engine
    comparison (:func:`compare_engine`): all its hidden cards permuted, and the swap of two
    of them that keeps the runs comparable longest of ``tries`` drawn (the length is the cut,
    which depends on the rules only, never on what the recipient is told). ``[]`` if no
    chance step hides two cards."""
    cands = chance_candidates(g, viewer)
    if not cands:
        return []
    k = rng.choice(sorted(cands))
    cards = cands[k]
    perm = permuted(g, viewer, k, cards, rng)
    swaps = [swapped(g, viewer, k, *rng.sample(cards, 2)) for _ in range(tries)]
    longest = max(swaps, key=lambda sd: compare_engine(g, sd, tell=False).cut)
    return [(perm, compare_engine(g, perm)), (longest, compare_engine(g, longest))]


# ----- engine level -------------------------------------------------------------------------
def palace_compared(st: GameState, action: Action) -> set[str]:
    """A called Palace Poker battle publishes its winner (rule 8), a comparison of the two
    battlers' palaces, which the other seats have not seen."""
    snap = st.snapshot()
    battle = snap.get("battle")
    if action.get("type") != "call" or battle is None:
        return set()
    return {c for seat in (battle["attacker"], battle["defender"])
            for c in snap["palaces"][seat] or ()}


COMPARED: dict[str, Callable[[GameState, Action], set[str]]] = {
    "palace_poker": palace_compared,
}
"""Per game: the cards whose values a step's public result depends on without showing them
(read on the state before the step). Blot's trick winners and the poker showdowns compare
only cards they show; a Blot declaration names its cards (relabelled, so legal in both runs
only if both hands hold them)."""


def told(st: GameState, viewer: int | None, events: list[Any]) -> dict[str, Any]:
    """Everything the engine tells ``viewer`` after a step (what the table builds frames of)."""
    out: dict[str, Any] = {
        "view": st.view(viewer), "public": st.public_view(),
        "events": filter_events(events, viewer), "to_act": st.to_act(),
        "timer_seat": st.timer_seat(), "over": st.is_over,
    }
    if viewer is not None:
        out["private"] = st.private_view(viewer)
        out["legal"] = st.legal_actions(viewer)
    return out


@dataclass(slots=True)
class Comparison:
    cut: int
    """Index of the first step not compared (``len(steps)``: the whole game was)."""
    why: str
    mismatches: list[str]


def compare_engine(g: Game, second: SecondDeal, *, tell: bool = True) -> Comparison:
    """Replay both runs step by step; compare what the viewer is told until the cut
    (``tell=False``: only find the cut)."""
    a, b = g.new_state(), g.new_state()
    viewer, moved = second.viewer, second.moved
    mismatches: list[str] = []
    compared = COMPARED.get(g.game, lambda _st, _a: set())
    for i, (sa, sb) in enumerate(zip(g.steps, second.steps, strict=True)):
        if i > second.k and moved & (compared(a, sa.action) | compared(b, sb.action)):
            return Comparison(i, f"step {i} compares a moved card", mismatches)
        ev_a = a.apply(sa.seat, sa.action)
        try:
            ev_b = b.apply(sb.seat, sb.action)
        except EngineError as e:
            assert i > second.k, f"the second deal itself was rejected: {e}"
            return Comparison(i, f"step {i} illegal in the second run ({e.code})", mismatches)
        if i >= second.k and not (moved <= a.hidden_from(viewer)
                                  and moved <= b.hidden_from(viewer)):
            assert i > second.k, "a moved card was not hidden after the second deal"
            return Comparison(i, f"step {i} shows a moved card", mismatches)
        if not tell or i < second.k:  # before the second deal both runs are the same game
            continue
        ta, tb = told(a, viewer, ev_a), told(b, viewer, ev_b)
        if ta != tb:
            keys = sorted(key for key in ta if ta[key] != tb.get(key))
            mismatches.append(f"step {i} ({sa.action.get('type')}): {keys} differ: "
                              f"{ {key: (ta[key], tb[key]) for key in keys[:1]} }")
    return Comparison(len(g.steps), "compared to the end", mismatches)


# ----- table level --------------------------------------------------------------------------
@dataclass(slots=True)
class TableRun:
    """A table that played ``steps``: each recipient's connection, and after each step group
    (the game start, then each seat action with the chance steps the table applies right
    after it) the number of frames each connection had been sent."""

    table: Table
    conns: dict[str, FrameConnection]
    groups: list[tuple[int, int]]
    """(first, last) step index of each group."""
    marks: list[dict[str, int]]


def groups_of(steps: list[Step]) -> list[tuple[int, int]]:
    """Step groups as the table applies them: the leading chance steps with the game start,
    then each seat action with the chance steps after it."""
    out: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(steps) + 1):
        if i == len(steps) or steps[i].seat is not None:
            out.append((start, i - 1))
            start = i
    return out


SEED = bytes(range(32))


@contextlib.asynccontextmanager
async def harness() -> AsyncIterator[Harness]:
    """A fresh manager on a fresh fake clock (as the ``h`` fixture of ``tablekit.py``), for
    one game's tables: a fake clock that never advances keeps every timer a closed table
    armed, and with it the table."""
    clock, store = FakeClock(), MemoryStore()
    settings = Settings(database_url="memory://", bot_delay_seconds=1.0,
                        next_hand_pause_seconds=2.0, turn_timeout_seconds=10.0)
    manager = TableManager(settings, store, clock)
    await manager.start()
    try:
        yield Harness(manager, clock, store)
    finally:
        await manager.stop()


async def players(h: Harness, names: list[str]) -> dict[str, PlayerRecord]:
    """The same player identities for every table of one harness (frames name the seats'
    players, so both runs must seat the same ones)."""
    known: dict[str, PlayerRecord] = h.__dict__.setdefault("leak_players", {})
    for name in names:
        if name not in known:
            known[name], _ = await h.store.create_player(name)
    return {name: known[name] for name in names}


async def run_table(h: Harness, g: Game, steps: list[Step], *, sit_out: int | None,
                    until: int | None = None) -> TableRun:
    """Play ``steps`` at a new table of ``g.game`` (no bots, fake clock never advanced, a
    fixed server seed). Table seats: ``g.num_seats`` game seats, plus seat ``sit_out`` (if not
    ``None``) whose holder has no chips and so sits out the hand. Recipients: ``"s<i>"`` per
    table seat and ``"spectator"``. ``until``: play only the step groups that end before it.

    The table's chance actions are the chance steps of ``steps`` (so a second deal is dealt as
    is): the state's ``chance_action`` is replaced when the table starts the game (the seed
    source is asked for the next game's seed right after the state is built,
    ``tables/flow.py``; this game's seed was drawn one game ahead and is set to ``SEED``)."""
    n_table = g.num_seats + (sit_out is not None)
    stack = None if g.stacks is None else g.stacks[0]
    assert g.stacks is None or set(g.stacks) == {stack}
    table = await h.manager.create(g.game, num_seats=n_table, turn_timeout_seconds=600.0,
                                   starting_stack=stack, config=g.config or None)
    chance = [s.action for s in steps if s.seat is None]

    def seed_source(_hand: int) -> bytes:
        rec = table.recorder
        assert rec is not None and not rec.history.actions, "the seed is drawn after the state"
        feed = iter(chance)

        def scripted(_shuffle: Shuffle) -> Action:
            action: Action = copy_json(next(feed))
            return action

        rec.state.chance_action = scripted  # type: ignore[method-assign,assignment]
        return SEED

    table.seed_source = seed_source  # asked for the game after this one, at the start
    table.next_seed, table.next_seed_commitment = SEED, commitment(SEED)  # drawn one ahead
    conns = {name: FrameConnection(rec)
             for name, rec in (await players(h, ["spectator"] + [f"s{ts}" for ts in range(n_table)])).items()}
    await h.join(table, conns["spectator"], spectate=True)
    game_seats = [ts for ts in range(n_table) if ts != sit_out]
    for ts in range(n_table):
        if ts == sit_out:
            await h.join(table, conns[f"s{ts}"], seat=ts)
            await table.call(lambda t, s=ts: setattr(t.seats[s], "stack", 0))
    for ts in game_seats:
        await h.join(table, conns[f"s{ts}"], seat=ts)
    assert table.seat_map == game_seats, table.seat_map
    groups = groups_of(steps)
    assert steps[0].seat is None, "every game starts with a deal"
    run = TableRun(table, conns, [], [])
    for n, (first, last) in enumerate(groups):
        if until is not None and last >= until:
            break
        if n > 0:
            s = steps[first]
            assert s.seat is not None
            conn = conns[f"s{game_seats[s.seat]}"]
            await h.act(table, conn, s.action, action_id=f"a{first}")
        run.groups.append((first, last))
        run.marks.append({name: len(c.texts) for name, c in conns.items()})
    played = (run.groups[-1] if run.groups else groups[0])[1] + 1  # the start is always dealt
    assert table.recorder is not None
    logged = [(a.seat, a.action) for a in table.recorder.history.actions]
    assert logged == [(s.seat, s.action) for s in steps[:played]], "the table refused a step"
    return run


SECRET = re.compile(r'"seat_token":"[^"]*"')
"""A frame field each table draws at random (``joined``)."""


def normalized(texts: list[str], table: Table, game_ids: list[str]) -> list[str]:
    """The frames as sent, without what differs between any two tables (their ids, the seat
    tokens each draws); ``game_over`` (which reveals the seed and every card) left out."""
    out = []
    for text in texts:
        if text.startswith('{"type":"game_over"'):
            continue
        text = SECRET.sub('"seat_token":"<secret>"', text.replace(table.id, "<table>"))
        for gid in game_ids:
            text = text.replace(gid, "<game>")
        out.append(text)
    return out


def game_ids(run: TableRun) -> list[str]:
    return [e["game_id"] for t in run.conns["spectator"].texts if '"game_started"' in t
            for e in orjson.loads(t).get("events") or () if e.get("kind") == "game_started"]


def frames_until(run: TableRun, name: str, cut: int) -> list[str]:
    """Frames recipient ``name`` got in the step groups that end before step ``cut``."""
    n = 0
    for (_, last), mark in zip(run.groups, run.marks, strict=True):
        if last >= cut:
            break
        n = mark[name]
    return normalized(run.conns[name].texts[:n], run.table, game_ids(run))


def first_difference(a: list[str], b: list[str]) -> str | None:
    """Where two frame lists first differ (``None`` if equal)."""
    for i, (ta, tb) in enumerate(zip(a, b, strict=False)):
        if ta != tb:
            x, y = orjson.loads(ta), orjson.loads(tb)
            keys = sorted(k for k in set(x) | set(y) if x.get(k) != y.get(k))
            detail = {k: (x.get(k), y.get(k)) for k in keys[:2]}
            return f"frame {i} ({x.get('type')} v{x.get('version')}): {keys} differ: {detail}"
    if len(a) != len(b):
        return f"{len(a)} frames against {len(b)}"
    return None


class FrameConnection(RecordingConnection):
    """A connection that keeps each message exactly as a socket would carry it (its JSON
    text) and decodes nothing (the protocol checks of :class:`RecordingConnection` are tested
    elsewhere and cost most of a step here)."""

    def __init__(self, player: PlayerRecord) -> None:
        super().__init__(player)
        self.texts: list[str] = []

    def send(self, msg: Outgoing) -> None:
        if not self.closed:
            self.texts.append(encode(msg))
