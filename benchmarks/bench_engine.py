"""Engine and AI figures: steps per second, whole-game time, AI win rate against random.

Usage::

    python benchmarks/bench_engine.py [--game ur] [--games N] [--random-games M]
                                      [--seed S] [--budget full|fast|quick] [--json FILE]

- steps per second: random legal playouts, each step = ``legal`` + ``apply``;
- median time of a whole random game with 3 and with 4 players (M games each,
  default 100);
- the AI (bot.ai.choose) against two random players (bot.ai.random_choice) in
  N 3-player games (default 100), the AI in a random seat: its win rate, where a shared win
  counts as NOT a win (shared wins are reported separately), with a 95%
  Wilson interval, and the median time of such a game and of one AI decision (the AI
  of the bot, ``full``, unless ``--budget`` names a cheaper one).

The default run takes about a minute and a half on an idle machine. Timings use the wall clock here
(benchmarks only; tests never time anything).
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.balance import BUDGETS, wilson
from bot import ai
from bot.engine import Game, Seat
from host import registry

MAX_STEPS = 100_000
"""A random game longer than this is an engine bug, not a slow game."""


@dataclass
class RandomFigures:
    """Random playouts with one player count."""

    players: int
    games: int
    steps: int
    seconds: float
    median_game_ms: float
    median_steps_per_game: float


@dataclass
class AiFigures:
    """The AI against random players."""

    players: int
    games: int
    wins: int
    shared_wins: int
    win_rate: float
    wilson_low: float
    wilson_high: float
    median_game_ms: float
    median_decision_ms: float
    max_decision_ms: float
    decisions: int


def random_game(game: Game, seed: int, players: int) -> tuple[int, float]:
    """One game of random legal steps: (steps, seconds)."""
    rng = random.Random(seed)
    start = time.perf_counter()
    state = game.setup(seed, players, {})
    steps = 0
    while game.outcome(state) is None:
        if steps > MAX_STEPS:
            raise RuntimeError(f"seed {seed}: no end after {MAX_STEPS} random steps")
        seat = game.active(state)[0]
        state = game.apply(state, seat, rng.choice(game.legal(state, seat)))
        steps += 1
    return steps, time.perf_counter() - start


def bench_random(game: Game, players: int, games: int, seed: int) -> RandomFigures:
    """Random playouts of ``games`` games with ``players`` seats."""
    results = [random_game(game, seed + i, players) for i in range(games)]
    seconds = sum(t for _, t in results)
    return RandomFigures(
        players=players,
        games=games,
        steps=sum(s for s, _ in results),
        seconds=seconds,
        median_game_ms=1000 * statistics.median(t for _, t in results),
        median_steps_per_game=statistics.median(s for s, _ in results),
    )


def ai_game(
    game: Game, seed: int, players: int, budget: ai.Budget = ai.DEFAULT_BUDGET
) -> tuple[Seat, tuple[Seat, ...], float, list[float]]:
    """The AI in a random seat against random players: (AI seat, winners, seconds, decisions)."""
    rng = random.Random(seed)
    ai_seat = rng.randrange(players)
    decisions: list[float] = []
    start = time.perf_counter()
    state = game.setup(seed, players, {})
    while (outcome := game.outcome(state)) is None:
        seat = game.active(state)[0]
        legal = game.legal(state, seat)
        view = game.view(state, seat)
        if seat == ai_seat:
            t0 = time.perf_counter()
            action = ai.choose(game, view, legal, seat, rng, budget)
            decisions.append(time.perf_counter() - t0)
        else:
            action = ai.random_choice(game, view, legal, seat, rng)
        state = game.apply(state, seat, action)
    return ai_seat, outcome.winners, time.perf_counter() - start, decisions


def bench_ai(game: Game, games: int, seed: int, players: int = 3,
             budget: ai.Budget = ai.DEFAULT_BUDGET) -> AiFigures:
    """The AI's record against random players over ``games`` games."""
    wins = shared = 0
    times: list[float] = []
    decisions: list[float] = []
    for i in range(games):
        seat, winners, seconds, spent = ai_game(game, seed + i, players, budget)
        wins += winners == (seat,)
        shared += seat in winners and len(winners) > 1
        times.append(seconds)
        decisions.extend(spent)
    low, high = wilson(wins, games)
    return AiFigures(
        players=players,
        games=games,
        wins=wins,
        shared_wins=shared,
        win_rate=wins / games if games else 0.0,
        wilson_low=low,
        wilson_high=high,
        median_game_ms=1000 * statistics.median(times) if times else 0.0,
        median_decision_ms=1000 * statistics.median(decisions) if decisions else 0.0,
        max_decision_ms=1000 * max(decisions, default=0.0),
        decisions=len(decisions),
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="ur", help="registered game id (default: ur)")
    parser.add_argument("--games", type=int, default=100, help="AI-vs-random games (default 100)")
    parser.add_argument("--random-games", type=int, default=100,
                        help="random games per player count (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="full",
                        help="the AI's look-ahead (default full: the bot's AI)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    args = parser.parse_args(argv)
    game = registry.get(args.game).engine
    command = shlex.join(["python", "benchmarks/bench_engine.py", *sys.argv[1:]])
    print(f"command: {command}")

    randoms = [
        bench_random(game, players, args.random_games, args.seed)
        for players in range(max(3, game.meta.min_players), min(4, game.meta.max_players) + 1)
    ]
    steps = sum(r.steps for r in randoms)
    seconds = sum(r.seconds for r in randoms)
    print(f"engine steps per second (random playouts, legal + apply): {steps / seconds:,.0f}"
          f" ({steps} steps in {seconds:.2f} s)")
    for r in randoms:
        print(f"median random game, {r.players} players: {r.median_game_ms:.1f} ms"
              f" ({r.median_steps_per_game:.0f} steps, {r.games} games)")

    figures = bench_ai(game, args.games, args.seed, budget=BUDGETS[args.budget])
    print(f"AI ({args.budget}) win rate vs 2 random players ({figures.games} games, AI in a"
          " random seat,"
          f" shared wins count as not won): {figures.win_rate:.1%}"
          f" ({figures.wins} wins, {figures.shared_wins} shared;"
          f" 95% Wilson interval {figures.wilson_low:.1%}-{figures.wilson_high:.1%})")
    print(f"median AI-vs-random game: {figures.median_game_ms:.0f} ms;"
          f" AI decision median {figures.median_decision_ms:.2f} ms,"
          f" max {figures.max_decision_ms:.1f} ms ({figures.decisions} decisions)")

    if args.json is not None:
        document = {
            "command": command,
            "game": args.game,
            "steps_per_second": steps / seconds,
            "random": [asdict(r) for r in randoms],
            "ai": asdict(figures),
        }
        args.json.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
