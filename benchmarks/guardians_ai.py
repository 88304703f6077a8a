"""How our AI fares against Mesopotamia's Guardians of Assur (« MODE GARDIENS D'ASSUR »).

Usage::

    python benchmarks/guardians_ai.py [--games N] [--seed S]

Plays ``N`` seeded games (seeds S, S+1, ...) of the AI (``bot.ai.choose``, fast budget) alone
against the enemy's waves, the enemy playing its scripted steps, and prints the win rate, the
waves reached and the rounds per game (``data/mesopotamia/README.md``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot import ai
from bot.engine import State
from bot.games.mesopotamia.automaton import play as automaton
from bot.games.mesopotamia.engine import GAME

OPTIONS = {"mode": "guardians"}


def play(seed: int, max_steps: int = 100_000) -> State:
    """One game of the AI against the waves, to its end."""
    rng = random.Random(seed)
    state = GAME.setup(seed, 2, OPTIONS)
    for _ in range(max_steps):
        active = GAME.active(state)
        if not active:
            return state
        seat = active[0]
        if automaton.plays(state, seat):
            step = automaton.next_step(state, seat)
        else:
            step = ai.choose(GAME, GAME.view(state, seat), GAME.legal(state, seat), seat, rng,
                             ai.FAST_BUDGET).notation
        state = GAME.apply(state, seat, step)
    raise RuntimeError(f"seed {seed}: no end after {max_steps} steps")


def main() -> None:
    """Print the AI's win rate, waves reached and rounds per game."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    ends = [play(args.seed + i) for i in range(args.games)]
    won = sum(1 for s in ends if s["guardians"]["result"] == "won")
    waves = [int(s["guardians"]["wave"]) for s in ends]
    rounds = [int(s["round"]) for s in ends]
    print(f"AI against the Guardians of Assur, {args.games} games: win rate "
          f"{won / args.games:.1%}; wave reached mean {statistics.mean(waves):.2f} "
          f"(max {max(waves)}); rounds per game mean {statistics.mean(rounds):.1f} "
          f"(min {min(rounds)}, max {max(rounds)})")


if __name__ == "__main__":
    main()
