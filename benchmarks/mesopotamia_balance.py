"""Mesopotamia played by AI seats only, many times: how long is a game, and is it fair?

Usage::

    python benchmarks/mesopotamia_balance.py [--games N] [--players 2,3,4] [--workers W]
        [--budget quick|fast|full] [--json FILE] [--records FILE] [--expansions X] [--adopt K]

Player counts 2 to 6; ``--expansions auto`` (the game's default) plays 2-4 players with the base
game's empires and 5-6 players with both expansions' (all eight: R-players-5-6).

Every game is played from ``setup`` to its end (the round in which the fifth Hanging Gardens
storey is built) by the AI (``bot.ai``, which lets ``MesopotamiaGame.ai_step`` choose; the
``quick`` and ``fast`` budgets look ahead less, for thousands of games), through the engine
contract's playout (``tests.contract.playout``: a broken promise of the contract stops the run
with the game, seed and step; ``--contract-density``: the share of steps with its thorough
checks), so that these games are also the contract's AI playouts. Per player count it prints:
rounds per game (the goal: a real game lasts about 6-12 rounds), steps and turns per game, CPU
seconds per game; the win rate per seat position (the turn order of round 1, which is the
Population order) and per empire (the goal: none above 1/n + 8 points), and per start region,
with 95% intervals; the spread of final scores and where the winners' points come from; how
often each action is used (``use <action> …`` steps per game), each technology discovered and
each event card, quest and Hanging Gardens tile seen; gardens storeys per seat and per game;
combats per game. ``--json`` writes every figure (default
``benchmarks/results/mesopotamia_balance.json``).

Each finished game is appended to ``--records`` (JSON lines, default
``benchmarks/results/mesopotamia_games.jsonl``) with the fingerprint of the code that played it
(:data:`CODE` and the AI budget): a run stopped half-way resumes where it stopped, the games
already recorded by the same code are not played again, and the figures count every recorded
game of the first ``--games`` seeds of each player count. ``--adopt K``: when the code changed
since games were recorded (an edit of the game's files which may change no game), replay K of
another code's records of each player count (with those it adopted; played with the same
budget, contract density and expansions), the newest code first; if every one of them is played
exactly as recorded (:data:`PLAYED`: winners, scores, rounds, steps and all the figures but CPU
seconds), that code's records of that player count count for the new code (else the next older
code is tried) (the check is written in the file:
:func:`benchmarks.balance.adopt`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.balance import (
    BUDGETS,
    adopt,
    append_record,
    command_line,
    counted_games,
    fingerprint,
    load_lines,
    rules_code,
    save,
    shares_line,
    wilson,
    win_shares,
)
from bot.engine import Action, Seat, State
from bot.games.mesopotamia import data as D
from bot.games.mesopotamia import large, scoring
from host import registry
from tests.contract import playout

MAX_STEPS = 30_000
RESULTS = Path(__file__).resolve().parent / "results" / "mesopotamia_balance.json"
RECORDS = RESULTS.with_name("mesopotamia_games.jsonl")
CODE = rules_code("mesopotamia")
"""What plays a balance game (with the AI budget's values): records of games played by other
code are not counted, unless adopted."""
PLAYED = ("winners", "scores", "rounds", "steps", "turns", "first_order", "empires", "starts",
          "vp_from", "gardens", "quests_held", "quests_done", "actions", "techs", "events",
          "combats")
"""What a replayed game must repeat for its records to count for newer code."""
Job = tuple[int, int, str, float, str]
"""One game to play (:func:`one_game`): seed, players, AI budget, contract density,
expansions."""


def one_game(args: Job) -> dict[str, Any]:
    """One AI game of ``players``, checked by the engine contract (``density``: the share of
    steps with its thorough checks; ``expansions``: the option of that name): its length,
    first turn order, empires, winners, scores and what was played."""
    seed, players, budget_name, density, expansions = args
    first_order: list[Seat] = []
    actions: Counter[str] = Counter()
    techs: Counter[str] = Counter()
    cards: Counter[str] = Counter()
    combats: Counter[str] = Counter()
    turns = 0

    def observe(before: State, seat: Seat, action: Action, after: State) -> None:
        nonlocal turns, first_order
        words = action.notation.split()
        if not first_order and after.get("order"):
            first_order = list(after["order"])
        if words[0] == "use":
            actions[words[1]] += 1
        elif words[0] == "discover":
            techs[D.CIV_TECH[after["players"][seat]["tech"][words[1]]]] += 1
        elif words[0] == "event":
            cards[f"{words[1]} {words[2]}"] += 1
        elif words[0] == "end":
            turns += 1
        for fought in after.get("resolved") or []:
            combats["tribe" if "tribe" in (fought["winner"], fought["loser"]) else "empires"] += 1

    started = time.process_time()
    played = playout(registry.GAMES["mesopotamia"], players, seed, ai_seats=range(players),
                     options={"expansions": expansions},
                     density=density, images=0, max_steps=MAX_STEPS,
                     budget=BUDGETS[budget_name], observe=observe)
    state, outcome = played.final, played.outcome
    assert state is not None and outcome is not None
    players_ = state["players"]
    return {
        "seed": seed, "players": players, "steps": played.steps,
        "turns": turns, "rounds": int(state.get("round", 0)),
        "seconds": time.process_time() - started, "first_order": first_order,
        "empires": [p["empire"] for p in players_],
        "starts": [p["start"] for p in players_],
        "winners": list(outcome.winners) if outcome else [],
        "scores": list(outcome.scores) if outcome else [],
        "vp_from": [scoring.breakdown(state, s) for s in range(players)],
        "gardens": [list(p.get("gardens", [])) for p in players_],
        "quests_held": [q for hand in state["quests"]["hands"] for q in hand],
        "quests_done": [q for s in range(players) for q in scoring.completed_quests(state, s)],
        "actions": dict(actions), "techs": dict(techs), "events": dict(cards),
        "combats": dict(combats),
    }


def _spread(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    n = len(ordered)
    return {"mean": statistics.mean(ordered), "stdev": statistics.pstdev(ordered),
            "min": ordered[0], "median": statistics.median(ordered),
            "p95": ordered[int(0.95 * (n - 1))], "max": ordered[-1]}


def _per_game(games: list[dict[str, Any]], key: str) -> dict[str, float]:
    """The mean count per game of each item of the counters ``key``, most frequent first."""
    total: Counter[str] = Counter()
    for game in games:
        total.update(game[key])
    return {k: v / len(games) for k, v in total.most_common()}


def _share_of_games(games: list[dict[str, Any]], key: str) -> dict[str, float]:
    """The share of games in which each item of the lists ``key`` appears."""
    seen = Counter(item for g in games for item in set(g[key]))
    return {k: v / len(games) for k, v in seen.most_common()}


def _wins_by(games: list[dict[str, Any]], key: str) -> tuple[dict[str, Any], dict[str, int]]:
    """The share of its games won by each item of the per-seat lists ``key`` (empires, start
    regions), with its 95% interval, a shared win counted as a fraction (as in
    :func:`win_shares`); and how many games each was in."""
    played = Counter(item for g in games for item in g[key])
    won: Counter[str] = Counter()
    for g in games:
        won.update({g[key][w]: 1 / len(g["winners"]) for w in g["winners"]})
    return ({k: {"share": won[k] / played[k], "interval": wilson(won[k], played[k])}
             for k in sorted(played)}, dict(played))


def figures(games: list[dict[str, Any]], players: int) -> dict[str, Any]:
    """The figures of the games of one player count."""
    n = len(games)
    by_position = win_shares(([g["first_order"].index(w) for w in g["winners"]] for g in games),
                             players, len(games))
    by_empire, empire_games = _wins_by(games, "empires")
    by_start, start_games = _wins_by(games, "starts")
    scores = [float(s) for g in games for s in g["scores"]]
    winning = [float(max(g["scores"])) for g in games if g["scores"]]
    sources = {k: statistics.mean(g["vp_from"][g["winners"][0]][k] for g in games)
               for k in scoring.SOURCES}
    storeys = [len(built) for g in games for built in g["gardens"]]
    return {
        "players": players, "games": n,
        "rounds": _spread([float(g["rounds"]) for g in games]),
        "longest": sorted(((g["rounds"], g["seed"]) for g in games), reverse=True)[:5],
        "steps": _spread([float(g["steps"]) for g in games]),
        "turns": _spread([float(g["turns"]) for g in games]),
        "seconds": _spread([g["seconds"] for g in games]),
        "wins_by_position": by_position, "wins_by_empire": by_empire,
        "empire_games": empire_games, "wins_by_start": by_start, "start_games": start_games,
        "score_all": _spread(scores), "score_winner": _spread(winning),
        "winner_points_from": sources,
        "actions_per_game": _per_game(games, "actions"),
        "techs_per_game": _per_game(games, "techs"),
        "events_per_game": _per_game(games, "events"),
        "combats_per_game": _per_game(games, "combats"),
        "quests_held": _share_of_games(games, "quests_held"),
        "quests_done": _share_of_games(games, "quests_done"),
        "storeys_per_seat": _spread([float(s) for s in storeys]),
        "seats_building": statistics.mean(sum(1 for b in g["gardens"] if b) for g in games),
    }


def report_lines(result: dict[str, Any]) -> list[str]:
    """The figures of one player count as text."""
    def spread(s: dict[str, float], digits: int = 0) -> str:
        return (f"mean {s['mean']:.{digits + 1}f} (sd {s['stdev']:.1f}), "
                f"min {s['min']:.{digits}f}, median {s['median']:.{digits}f}, "
                f"p95 {s['p95']:.{digits}f}, max {s['max']:.{digits}f}")

    def counts(d: dict[str, float], percent: bool = False) -> str:
        return ", ".join(f"{k} {100 * v:.0f}%" if percent else f"{k} {v:.2f}"
                         for k, v in d.items())

    players = result["players"]
    goal = 100 / players + 8
    return [
        f"== {players} players: {result['games']} games",
        f"rounds per game: {spread(result['rounds'])}  (a real game: about 6-12); longest "
        "(rounds, seed): " + ", ".join(f"({r}, {s})" for r, s in result["longest"]),
        f"turns per game: {spread(result['turns'])}; steps per game: {spread(result['steps'])}",
        f"CPU seconds per game: {spread(result['seconds'], 1)}",
        f"wins by seat position (turn order of round 1): "
        f"{shares_line(result['wins_by_position'])}  (goal: each at most {goal:.0f}%)",
        "wins by empire (share of its games won): " + "  ".join(
            f"{e} {shares_line([s])} of {result['empire_games'][e]}"
            for e, s in result["wins_by_empire"].items()),
        "wins by start region (share of its games won): " + "  ".join(
            f"{r} {shares_line([s])} of {result['start_games'][r]}"
            for r, s in result["wins_by_start"].items()),
        f"final scores: {spread(result['score_all'])}",
        f"winning scores: {spread(result['score_winner'])}",
        f"winners' points from: {counts(result['winner_points_from'])}",
        f"Hanging Gardens storeys per seat: {spread(result['storeys_per_seat'])}; "
        f"seats building per game {result['seats_building']:.2f}",
        f"actions used per game: {counts(result['actions_per_game'])}",
        f"technologies discovered per game: {counts(result['techs_per_game'])}",
        f"combats per game: {counts(result['combats_per_game'])}",
        f"event options chosen per game: {counts(result['events_per_game'])}",
        f"quests held (games): {counts(result['quests_held'], True)}",
        f"quests completed (games): {counts(result['quests_done'], True)}",
    ]


def replay(pool: Executor, job: Callable[[int], Job],
           records: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The games of ``records`` played again (:func:`benchmarks.balance.adopt`), ``job``
    making the game of a seed."""
    return pool.map(one_game, [job(r["seed"]) for r in records], chunksize=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", choices=sorted(BUDGETS), default="quick")
    parser.add_argument("--json", type=Path, default=RESULTS)
    parser.add_argument("--records", type=Path, default=RECORDS)
    parser.add_argument("--contract-density", type=float, default=0.1,
                        help="share of steps with the contract's thorough checks")
    parser.add_argument("--expansions", choices=(large.AUTO, *D.EXPANSION_OPTIONS),
                        default=large.AUTO,
                        help="the expansions option of every game (the empires drafted); "
                             "auto: none at 2-4 players, both at 5-6")
    parser.add_argument("--adopt", type=int, default=0, metavar="K",
                        help="replay K games of older code per player count: when all "
                             "repeat, its records count")
    args = parser.parse_args(argv)
    counts = [int(p) for p in args.players.split(",")]
    code = f"{fingerprint(CODE)}:{BUDGETS[args.budget]}:{args.contract_density}"
    if args.expansions not in ("none", large.AUTO):
        code += f":{args.expansions}"
    started = time.perf_counter()

    def job(players: int, seed: int) -> Job:
        return seed, players, args.budget, args.contract_density, args.expansions

    with ProcessPoolExecutor(args.workers) as pool:
        for players in counts:
            if args.adopt:
                adopt(args.records, code, {"players": players}, args.adopt,
                      partial(replay, pool, partial(job, players)), PLAYED)
        lines = load_lines(args.records)
        recorded = {(g["players"], g["seed"]): g for players in counts
                    for g in counted_games(lines, code, {"players": players})
                    if g["seed"] < args.games}
        games = list(recorded.values())
        jobs = [job(players, seed) for players in counts
                for seed in range(args.games) if (players, seed) not in recorded]
        for game in pool.map(one_game, jobs, chunksize=1):
            append_record(args.records, {**game, "code": code})
            games.append(game)
    results = {str(p): figures([g for g in games if g["players"] == p], p) for p in counts}
    run = {"seconds": time.perf_counter() - started, "budget": args.budget, "code": code,
           "played_now": len(jobs), "cpu_seconds": sum(g["seconds"] for g in games),
           "command": command_line("mesopotamia_balance.py", argv),
           "by_players": results}
    print(f"{len(games)} games ({len(jobs)} played now, in {run['seconds']:.0f} s; "
          f"{run['cpu_seconds']:.0f} CPU s in all) with the {args.budget} AI, code {code}")
    for result in results.values():
        print("\n".join(report_lines(result)))
    save(args.json, run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
