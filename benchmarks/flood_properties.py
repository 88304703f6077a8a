"""After the Flood's properties over many random games, with the figures of the run.

Usage::

    python benchmarks/flood_properties.py [--games N] [--first SEED] [--json FILE]

Each game is played with random legal steps (an action rather than passing 80% of the
time, so that boards fill up) by :func:`tests.flood_properties.playout`, which checks
every state: no crash, no dead end, the five rounds end, 25 workers and 20 armies per
player, at most 2 scribes a player and 2 armies a region (of one player, never in Dilmun),
the bank's goods conserved. A broken property stops the run with the seed and step. It
prints steps per game and how often the caps were reached. The contract checks (replay,
notations, views) over many games are ``benchmarks/contract_playouts.py flood``; the same
properties over AI games are checked by ``benchmarks/flood_balance.py``.
"""

from __future__ import annotations

import argparse
import json
import shlex
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.flood import data as D
from tests.flood_properties import playout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    runs = [playout(seed) for seed in range(args.first, args.first + args.games)]
    seconds = time.perf_counter() - started
    steps = sorted(r.steps for r in runs)
    verbs: Counter[str] = Counter()
    for run in runs:
        verbs.update(run.verbs)
    figures = {
        "command": shlex.join(["python", "benchmarks/flood_properties.py",
                               *(sys.argv[1:] if argv is None else argv)]),
        "games": len(runs), "ended_after_five_rounds": sum(r.ended for r in runs),
        "seconds": seconds,
        "steps": {"median": statistics.median(steps), "max": steps[-1]},
        "most_workers_in_play": max(r.most_in_play for r in runs),
        "games_at_the_worker_cap": sum(r.most_in_play == D.MAX_WORKERS for r in runs),
        "most_armies": max(r.most_armies for r in runs),
        "games_with_a_full_region": sum(r.full_regions > 0 for r in runs),
        "games_with_two_scribes": sum(r.full_scribes > 0 for r in runs),
        "steps_per_game": {k: v / len(runs) for k, v in verbs.most_common()},
    }
    print(f"{figures['games']} random games, {figures['ended_after_five_rounds']} ended after "
          f"five rounds, every state checked, in {seconds:.0f} s; steps per game median "
          f"{figures['steps']['median']:.0f}, max {figures['steps']['max']}")
    print(f"caps: most workers in play {figures['most_workers_in_play']} (games reaching "
          f"{D.MAX_WORKERS}: {figures['games_at_the_worker_cap']}), most armies "
          f"{figures['most_armies']} (cap {D.ARMIES}), games with a region at "
          f"{D.REGION_ARMY_CAP} armies {figures['games_with_a_full_region']}, with a player at "
          f"{D.SCRIBE_CAP} scribes {figures['games_with_two_scribes']}")
    print("steps per game: " + ", ".join(
        f"{k} {v:.1f}" for k, v in figures["steps_per_game"].items()))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
