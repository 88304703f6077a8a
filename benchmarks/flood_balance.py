"""After the Flood played by AI seats only, many times: is the designed game fair?

Usage::

    python benchmarks/flood_balance.py [--games N] [--workers W] [--budget quick|fast|full]
        [--json FILE]

Every game is played from ``setup`` to its end by the generic AI (``bot.ai``; the
``quick`` and ``fast`` budgets look ahead less, as the issue allows for thousands of
games). It prints: win rate per seat position (the place in the random turn order of
round 1; the goal is none above 40%) with 95% intervals, and per seat position at the end
(the order that breaks ties); the spread of final scores (all, winners', the margin over
the second) and where the winners' points come from; how often each empire is initiated
and each city site built (in how many games, at least once) and cities destroyed; game
length. Every state is checked for the properties of :mod:`tests.flood_properties` (caps,
pieces and goods conserved). ``--json`` writes every figure (default
``benchmarks/results/flood_balance.json``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.balance import (
    BUDGETS,
    command_line,
    play_ai_game,
    save,
    shares_line,
    win_shares,
)
from bot.engine import Action, Seat, State
from bot.games.flood import data as D
from bot.games.flood.engine import GAME
from bot.games.flood.state import VP_SOURCES
from tests.flood_properties import BrokenProperty, broken

MAX_STEPS = 20_000
RESULTS = Path(__file__).resolve().parent / "results" / "flood_balance.json"


def one_game(args: tuple[int, str]) -> dict[str, Any]:
    """One AI game: the start order, the winners and scores, empires, cities, steps."""
    seed, budget_name = args
    rng = random.Random(f"flood-balance:{seed}")
    state = GAME.setup(rng.getrandbits(63), D.PLAYERS, {})
    start_order = list(state["order"])
    empires: list[str] = []
    initiators: dict[str, Seat] = {}
    built: Counter[str] = Counter()
    destroyed = 0
    verbs: Counter[str] = Counter()

    def observe(before: State, seat: Seat, action: Action, after: State) -> None:
        nonlocal destroyed
        if (problem := broken(after)) is not None:
            raise BrokenProperty(f"seed {seed} ({action.notation}): {problem}")
        words = action.notation.split()
        verbs[words[0]] += 1
        if words[0] == "empire":
            empires.append(words[1])
            initiators[words[1]] = seat
        elif words[0] == "build":
            built[words[1]] += 1
        elif words[0] == "destroy":
            destroyed += 1

    state, steps = play_ai_game(GAME, state, rng, BUDGETS[budget_name], MAX_STEPS, observe)
    outcome = GAME.outcome(state)
    winners = list(outcome.winners) if outcome else []
    return {
        "seed": seed, "ended": outcome is not None, "steps": steps, "turns": state["turn"],
        "start_order": start_order, "end_order": list(state["order"]),
        "winners": winners, "scores": list(outcome.scores) if outcome else [],
        "vp_from": state["vp_from"], "empires": empires, "initiators": initiators,
        "built": dict(built),
        "destroyed": destroyed, "verbs": dict(verbs),
    }


def _spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    n = len(ordered)
    return {"mean": statistics.mean(ordered), "stdev": statistics.pstdev(ordered),
            "min": ordered[0], "p5": ordered[int(0.05 * (n - 1))],
            "median": statistics.median(ordered), "p95": ordered[int(0.95 * (n - 1))],
            "max": ordered[-1]}


def figures(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of a run."""
    n = len(games)
    seats = D.PLAYERS
    by_start = win_shares(([g["start_order"].index(w) for w in g["winners"]] for g in games),
                          seats, n)
    by_end = win_shares(([g["end_order"].index(w) for w in g["winners"]] for g in games),
                        seats, n)
    scores = [float(s) for g in games for s in g["scores"]]
    winning = [float(max(g["scores"])) for g in games]
    margins = [float(sorted(g["scores"])[-1] - sorted(g["scores"])[-2]) for g in games]
    sources = {k: statistics.mean(g["vp_from"][g["winners"][0]][k] / max(1, max(g["scores"]))
                                  for g in games) for k in VP_SOURCES}
    empire_games = Counter(e for g in games for e in set(g["empires"]))
    initiator_won = Counter(e for g in games for e, seat in g["initiators"].items()
                            if seat in g["winners"])
    city_games = Counter(c for g in games for c in g["built"])
    verbs: Counter[str] = Counter()
    for game in games:
        verbs.update(game["verbs"])
    return {
        "games": n, "ended": sum(g["ended"] for g in games),
        "wins_by_start_position": by_start, "wins_by_end_position": by_end,
        "score_all": _spread(scores), "score_winner": _spread(winning),
        "margin": _spread(margins), "winner_points_from": sources,
        "shared_wins": sum(len(g["winners"]) > 1 for g in games),
        "empire_started": {e: empire_games[e] / n for e in D.EMPIRES},
        "empires_per_game": statistics.mean(len(g["empires"]) for g in games),
        "initiator_won": {e: initiator_won[e] / empire_games[e] for e in D.EMPIRES
                          if empire_games[e]},
        "city_built": {c: city_games[c] / n for c in D.CITY_SITES},
        "cities_built_per_game": statistics.mean(sum(g["built"].values()) for g in games),
        "cities_destroyed_per_game": statistics.mean(g["destroyed"] for g in games),
        "games_with_a_city_destroyed": sum(g["destroyed"] > 0 for g in games) / n,
        "turns": _spread([float(g["turns"]) for g in games]),
        "steps_per_game": {k: v / n for k, v in verbs.most_common()},
    }


def report_lines(result: dict[str, Any]) -> list[str]:
    """The figures as text."""
    def spread(s: dict[str, float]) -> str:
        return (f"mean {s['mean']:.1f} (sd {s['stdev']:.1f}), min {s['min']:.0f}, "
                f"p5 {s['p5']:.0f}, median {s['median']:.0f}, p95 {s['p95']:.0f}, "
                f"max {s['max']:.0f}")

    def share(d: dict[str, float]) -> str:
        return ", ".join(f"{k} {100 * v:.0f}%" for k, v in d.items())

    return [
        f"{result['games']} games ({result['ended']} ended) in {result['seconds']:.0f} s "
        f"with the {result['budget']} AI",
        f"wins by start position (1st, 2nd, 3rd in round 1): "
        f"{shares_line(result['wins_by_start_position'])}  (goal: each at most 40%)",
        f"wins by final turn order: {shares_line(result['wins_by_end_position'])}",
        f"final scores: {spread(result['score_all'])}",
        f"winning scores: {spread(result['score_winner'])}",
        f"winning margins: {spread(result['margin'])}; shared wins {result['shared_wins']}",
        f"winners' points from: {share(result['winner_points_from'])}",
        f"empires initiated per game {result['empires_per_game']:.1f}; "
        f"games where each was: {share(result['empire_started'])}",
        f"the initiator of each empire won: {share(result['initiator_won'])} of the games "
        "where it rose (goal: Akkad and the Old Babylonian Empire at most 45%)",
        f"cities built per game {result['cities_built_per_game']:.1f}, destroyed "
        f"{result['cities_destroyed_per_game']:.2f} (games with one "
        f"{100 * result['games_with_a_city_destroyed']:.0f}%); games where each site was "
        f"built: {share(result['city_built'])}",
        f"turns per game: {spread(result['turns'])}",
        "steps per game: " + ", ".join(
            f"{k} {v:.1f}" for k, v in result["steps_per_game"].items()),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="quick")
    parser.add_argument("--json", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    jobs = [(seed, args.budget) for seed in range(args.games)]
    with ProcessPoolExecutor(args.workers) as pool:
        games = list(pool.map(one_game, jobs, chunksize=4))
    result = figures(games)
    result.update(seconds=time.perf_counter() - started, budget=args.budget,
                  command=command_line("flood_balance.py", argv))
    print("\n".join(report_lines(result)))
    save(args.json, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
