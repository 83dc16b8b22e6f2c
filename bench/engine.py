"""The ``engine`` part of ``make bench``: random self-play speed of every game, then every
``bench/bench_<name>.py`` module exposing ``run() -> dict`` (stored under ``<name>``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from runkit import note

from cardhall.engine import game_names, get_game
from cardhall.selfplay import run as selfplay

BENCH = Path(__file__).resolve().parent
SELFPLAY_GAMES = {"bazaar_blot": 200, "soldiers_bluff": 2000, "palace_poker": 300}


def selfplay_speed(game: str, scale: float = 1.0) -> dict[str, object]:
    """Random self-play speed: games, steps and deals/hands per second."""
    rules = get_game(game)
    seats = 6 if game == "palace_poker" else rules.min_seats
    games = max(1, round(SELFPLAY_GAMES.get(game, 200) * scale))
    rep = selfplay(game, games, seed=1, seats=seats, check=False)
    secs = rep.seconds or 1e-9
    return {
        "seats": seats,
        "games": rep.games,
        "seconds": round(secs, 3),
        "steps_per_second": round(rep.steps / secs, 1),
        "units_per_second": round(rep.units / secs, 1),
        "unit": "deal" if game == "bazaar_blot" else "hand",
        "longest_game_steps": rep.longest_game_steps,
    }


def engine(plan: Any, out: dict[str, Any]) -> None:
    """Self-play of every game into ``out["selfplay"]``; the ``bench_<name>.py`` modules into
    ``out[<name>]`` (full runs only)."""
    note("engine: self-play")
    out["selfplay"] = {g: selfplay_speed(g, plan.selfplay_scale) for g in game_names()}
    if not plan.modules:
        return
    for path in sorted(BENCH.glob("bench_*.py")):
        note(f"engine: {path.name}")
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        out[path.stem.removeprefix("bench_")] = mod.run()
