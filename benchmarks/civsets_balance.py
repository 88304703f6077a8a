"""Civilizations played by AI seats only, many times: is the designed game a good game?

Usage::

    python benchmarks/civsets_balance.py [--games N] [--players 3,4,5,6] [--workers W]
        [--budget fast|full] [--json FILE]

Every game is played from ``setup`` to its end by the generic AI (``bot.ai``; the
``fast`` budget looks ahead less, as the issue allows for thousands of games), the
quiz answered right 60% of the time (the default ``ai_skill``). Per player count it
prints: game length in turns (median, 95th percentile, max; no game may pass 300),
win rate per seat position with 95% intervals (goal: none above 1/n + 5 points), how
often each action is used, how many sets are completed per game and how often
territories are contested, and how challenges go.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.balance import BUDGETS, play_ai_game, shares_line, win_shares
from bot.engine import Action, Seat, State
from bot.games.civsets.engine import GAME
from bot.games.civsets.state import occupants

MAX_STEPS = 20_000


def one_game(args: tuple[int, int, str]) -> dict[str, Any]:
    """One AI game: its length, winners, actions, sets and contests."""
    players, seed, budget_name = args
    budget = BUDGETS[budget_name]
    rng = random.Random(f"balance:{players}:{seed}")
    state = GAME.setup(rng.getrandbits(63), players, {})
    actions: Counter[str] = Counter()
    contested: set[str] = set()
    challenges = right = 0

    def observe(before: State, seat: Seat, action: Action, after: State) -> None:
        nonlocal challenges, right
        verb = action.notation.split()[0]
        actions[verb] += 1
        if verb in ("answer", "skip"):
            challenges += 1
            right += bool(after["last"]["right"])
        if verb in ("place", "sell"):
            civ = action.notation.split()[1]
            if len(occupants(after, civ)) > 1:
                contested.add(civ)

    state, steps = play_ai_game(GAME, state, rng, budget, MAX_STEPS, observe)
    outcome = GAME.outcome(state)
    return {
        "players": players, "turns": state["turn"], "steps": steps, "ended": outcome is not None,
        "winners": list(outcome.winners) if outcome else [],
        "sets": sum(len(s) for s in state["sets"]), "contested": len(contested),
        "actions": dict(actions), "challenges": challenges, "right": right,
        "rounds": state["round"],
    }


def figures(games: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """The figures of one player count."""
    turns = sorted(g["turns"] for g in games)
    actions: Counter[str] = Counter()
    for game in games:
        actions.update(game["actions"])
    n = len(games)
    return {
        "games": n, "ended": sum(g["ended"] for g in games),
        "turns": {"median": statistics.median(turns), "p95": turns[int(0.95 * (n - 1))],
                  "max": turns[-1]},
        "over_300_turns": sum(t > 300 for t in turns),
        "wins_by_seat": win_shares((g["winners"] for g in games), players, n),
        "actions_per_game": {k: v / n for k, v in actions.most_common()},
        "sets_per_game": statistics.mean(g["sets"] for g in games),
        "games_with_a_set": sum(g["sets"] > 0 for g in games) / n,
        "contested_per_game": statistics.mean(g["contested"] for g in games),
        "games_with_a_contest": sum(g["contested"] > 0 for g in games) / n,
        "challenges_per_game": statistics.mean(g["challenges"] for g in games),
        "challenges_right": sum(g["right"] for g in games) / max(1, sum(
            g["challenges"] for g in games)),
        "rounds_median": statistics.median(g["rounds"] for g in games),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", default="3,4,5,6")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="fast")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"command": " ".join(sys.argv)}
    with ProcessPoolExecutor(args.workers) as pool:
        for players in (int(p) for p in args.players.split(",")):
            started = time.perf_counter()
            jobs = [(players, seed, args.budget) for seed in range(args.games)]
            games = list(pool.map(one_game, jobs, chunksize=8))
            result = figures(games, players)
            result["seconds"] = time.perf_counter() - started
            report[str(players)] = result
            seats = shares_line(result["wins_by_seat"])
            t = result["turns"]
            print(f"{players} players: {result['games']} games ({result['ended']} ended) in "
                  f"{result['seconds']:.0f} s; turns median {t['median']:.0f}, p95 {t['p95']}, "
                  f"max {t['max']} (over 300: {result['over_300_turns']})")
            print(f"  wins by seat: {seats}  (goal: each below {100 / players + 5:.1f}%)")
            print(f"  sets per game {result['sets_per_game']:.2f} (games with a set "
                  f"{100 * result['games_with_a_set']:.0f}%), contested territories per game "
                  f"{result['contested_per_game']:.2f} (games with one "
                  f"{100 * result['games_with_a_contest']:.0f}%), challenges per game "
                  f"{result['challenges_per_game']:.1f} ({100 * result['challenges_right']:.0f}%"
                  " right)")
            kinds = ", ".join(f"{k} {v:.1f}" for k, v in result["actions_per_game"].items())
            print(f"  steps per game: {kinds}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
