"""The engine contract over many playouts of a game, with the figures of the run.

Usage::

    python benchmarks/contract_playouts.py GAME [--games N] [--ai-games M] [--players 3,4]
        [--density D] [--max-steps S] [--json FILE]

For each player count, ``N`` random playouts and ``M`` playouts with every seat played
by the AI (its fast budget) go through :func:`tests.contract.playout` (every check it
makes: no crash or dead end, the game ends, notations round-trip, garbage is refused,
deadline defaults are legal, no view, label, prompt or report shows a secret to a seat
that may not read it, determinize keeps the legal steps and not the future, images
within limits, replay reproduces the state). It prints, per player count: games, steps
and turns per game (median, max), how often each kind of step was played, wins per seat
with 95% intervals, and the time taken. A broken promise stops the run with the game,
seed and step.
``bazaar`` (the test game) is known here besides the registered games.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import registry
from bot.ai import FAST_BUDGET
from bot.registry import GameEntry
from tests import bazaar
from tests.contract import MAX_STEPS, Playout, playout


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion ``wins / n``."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def summary(results: list[Playout], players: int, seconds: float) -> dict[str, Any]:
    """The figures of one player count."""
    wins = [0.0] * players
    for result in results:
        assert result.outcome is not None
        winners = [w for w in result.outcome.winners if w < players]
        for seat in winners:
            wins[seat] += 1 / len(winners)
    actions: Counter[str] = Counter()
    for result in results:
        actions.update(result.actions)
    total = sum(actions.values())
    return {
        "games": len(results),
        "steps_median": statistics.median(r.steps for r in results),
        "steps_max": max(r.steps for r in results),
        "turns_median": statistics.median(r.turns for r in results),
        "turns_max": max(r.turns for r in results),
        "wins_by_seat": [{"share": w / len(results), "interval": wilson(w, len(results))}
                         for w in wins],
        "step_kinds": {k: v / total for k, v in actions.most_common()},
        "largest_image_bytes": max((max(r.images) for r in results if r.images), default=0),
        "seconds": seconds,
    }


def run(entry: GameEntry, players: int, games: int, ai_games: int,
        density: float, max_steps: int = MAX_STEPS) -> dict[str, Any]:
    """Random and AI playouts of one player count; their figures."""
    started = time.perf_counter()
    results = [playout(entry, players, seed, density=density, images=3 if seed % 50 == 0
                       else 0, max_steps=max_steps) for seed in range(games)]
    random_part = summary(results, players, time.perf_counter() - started)
    started = time.perf_counter()
    ai = [playout(entry, players, 1_000_000 + seed, ai_seats=range(players), density=density,
                  images=0, budget=FAST_BUDGET, max_steps=max_steps) for seed in range(ai_games)]
    return {"random": random_part,
            "ai": summary(ai, players, time.perf_counter() - started) if ai else None}


def main(argv: list[str] | None = None) -> int:
    games = {**registry.GAMES, "bazaar": bazaar.ENTRY}
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=sorted(games))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--ai-games", type=int, default=50)
    parser.add_argument("--players", default="", help="player counts, e.g. 3,4 (default: all)")
    parser.add_argument("--density", type=float, default=1.0,
                        help="share of steps with the thorough checks")
    parser.add_argument("--max-steps", type=int, default=MAX_STEPS,
                        help="steps after which a playout counts as endless")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    entry = games[args.game]
    meta = entry.engine.meta
    counts = [int(n) for n in args.players.split(",")] if args.players else list(
        range(meta.min_players, meta.max_players + 1))
    report: dict[str, Any] = {"game": args.game, "command": " ".join(sys.argv)}
    for players in counts:
        figures = run(entry, players, args.games, args.ai_games, args.density, args.max_steps)
        report[str(players)] = figures
        for kind in ("random", "ai"):
            part = figures[kind]
            if part is None:
                continue
            seats = "  ".join(f"{100 * w['share']:.1f}% [{100 * w['interval'][0]:.1f}-"
                              f"{100 * w['interval'][1]:.1f}]" for w in part["wins_by_seat"])
            print(f"{args.game} {players}p {kind}: {part['games']} games, steps median "
                  f"{part['steps_median']:.0f} (max {part['steps_max']}), turns median "
                  f"{part['turns_median']:.0f} (max {part['turns_max']}), "
                  f"{part['seconds']:.1f} s; wins by seat {seats}")
            kinds = ", ".join(f"{k} {100 * v:.1f}%" for k, v in
                              list(part["step_kinds"].items())[:12])
            print(f"    steps: {kinds}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    print("contract kept in every playout")
    return 0


if __name__ == "__main__":
    sys.exit(main())
