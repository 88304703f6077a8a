"""How often our AI takes Ur in Mesopotamia's Siege of Ur, and how long a Siege lasts.

Usage::

    python benchmarks/siege_ai.py [--games N]

Plays ``N`` seeded Sieges (seeds 0, 1, ...): the project's AI in your seat, the Defenders of
Ur by their script, every step checked as in ``tests/test_mesopotamia_siege_playout.py``; prints
the share of Sieges won, the rounds per game, how many ended with a Ram of yours and how near
Ur your units ended, and why the lost ones were lost
(``data/mesopotamia/README.md``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import siege
from tests.test_mesopotamia_siege_playout import THEM, YOU, playout


def main() -> None:
    """Print the AI's win rate against the Siege, rounds per game and the tracks that beat it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=100)
    n = parser.parse_args().games
    began = time.perf_counter()
    results: Counter[str] = Counter()
    tracks: Counter[str] = Counter()
    rounds: list[int] = []
    with_ram = 0
    nearest: list[int] = []
    to_ur = siege.distances({siege.UR})
    for seed in range(n):
        state, _, _ = playout(seed, ai=True)
        results[state["siege"]["result"]] += 1
        rounds.append(int(state["round"]))
        yours = [u for u in state["units"] if u[0] == YOU and u[1] != "ship"]
        with_ram += any(u[1] == "ram" for u in yours)
        nearest.append(min((to_ur[u[2]] for u in yours), default=9))
        tracks.update(t for t, pile in state["seals"].items()
                      if any(s == THEM and c >= D.TRACK_CASES[t] for s, c in pile))
    spent = time.perf_counter() - began
    print(f"Siege of Ur, {n} games of the AI: won {results['won'] / n:.1%} "
          f"({results['won']} won, {results['lost']} lost)")
    print(f"rounds per game: mean {statistics.mean(rounds):.1f}, "
          f"min {min(rounds)}, max {max(rounds)}")
    print(f"games ending with a Ram of yours: {with_ram}; regions from your nearest unit to Ur "
          f"at the end: mean {statistics.mean(nearest):.1f}, least {min(nearest)}")
    print("lost on the track: " + ", ".join(f"{t} {k}" for t, k in sorted(tracks.items())))
    print(f"{spent:.1f} s, {spent / n:.2f} s a game")


if __name__ == "__main__":
    main()
