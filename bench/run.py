"""``make bench``: benchmarks, printed as one JSON object on stdout.

Generic part: random self-play speed (no invariant checks) for every available game, on one
core. Game-specific parts: every ``bench/bench_<name>.py`` module exposing ``run() -> dict`` is
run and its result stored under ``<name>``.
"""

from __future__ import annotations

import importlib.util
import json
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from cardhall.engine import game_names, get_game
from cardhall.selfplay import run as selfplay

SELFPLAY_GAMES = {"bazaar_blot": 200, "soldiers_bluff": 2000, "palace_poker": 300}


def selfplay_speed(game: str) -> dict[str, object]:
    """Random self-play speed: games, steps and deals/hands per second."""
    rules = get_game(game)
    seats = 6 if game == "palace_poker" else rules.min_seats
    rep = selfplay(game, SELFPLAY_GAMES.get(game, 200), seed=1, seats=seats, check=False)
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


def main() -> None:
    out: dict[str, object] = {"python": platform.python_version(), "selfplay": {}}
    for game in game_names():
        out["selfplay"][game] = selfplay_speed(game)  # type: ignore[index]
    for path in sorted(Path(__file__).parent.glob("bench_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        out[path.stem.removeprefix("bench_")] = mod.run()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
